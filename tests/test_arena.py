"""bazaar arena (bot/offline/arena.py): seating, pairing, the statistics and the command's refusals."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pytest

from bot import cli
from bot.offline import arena


def _result(
    levels: Sequence[str],
    winners: Sequence[int],
    scores: Sequence[int | None],
    could: list[bool] | None = None,
    escaped: list[bool] | None = None,
    ms: dict[str, list[float]] | None = None,
) -> arena.GameResult:
    n = len(levels)
    ranks = [1 if s in winners else 2 for s in range(n)]
    return arena.GameResult(
        0,
        list(levels),
        ranks,
        list(scores),
        list(winners),
        could or [False] * n,
        escaped or [True] * n,
        ms or {},
        {},
        10,
    )


def test_seats_alternate_and_pairs_share_a_deal() -> None:
    assert arena.seat_levels(0, 3, "a", "b") == ["a", "b", "a"]
    assert arena.seat_levels(1, 3, "a", "b") == ["b", "a", "b"]
    # over a pair each level holds each seat once
    pair = [arena.seat_levels(i, 4, "a", "b") for i in (0, 1)]
    assert all(sorted(col) == ["a", "b"] for col in zip(*pair, strict=False))


def test_edge_confidence_interval_and_verdict() -> None:
    # A wins 9 of 10 two-player games: edge +0.4 per game, interval above 0
    results = [
        _result(("a", "b") if i % 2 == 0 else ("b", "a"), [i % 2 if i < 9 else 1 - i % 2], [5, 3])
        for i in range(10)
    ]
    s = arena.summarise("x", 2, "a", "b", results)
    edges = [0.5] * 9 + [-0.5]
    mean = sum(edges) / 10
    sd = math.sqrt(sum((e - mean) ** 2 for e in edges) / 9)
    assert s.edge == pytest.approx(0.4) and s.low == pytest.approx(mean - 1.96 * sd / math.sqrt(10))
    assert s.low > 0 and s.verdict == "a > b"
    assert s.win_per_seat["a"] == pytest.approx(0.9) and s.win_per_seat["b"] == pytest.approx(0.1)


def test_even_results_show_no_difference_and_ties_split() -> None:
    results = [
        _result(("a", "b"), [0, 1], [4, 4]),
        _result(("b", "a"), [0], [6, 2]),
        _result(("a", "b"), [0], [6, 2]),
    ]
    s = arena.summarise("x", 2, "a", "b", results)
    assert s.edge == pytest.approx(0.0) and s.verdict == "no difference shown"


def test_escape_counts_and_move_times() -> None:
    results = [
        _result(
            ("a", "b"),
            [0],
            [5, None],
            could=[True, True],
            escaped=[True, False],
            ms={"a": [10.0, 30.0], "b": [1.0]},
        )
    ]
    s = arena.summarise("x", 2, "a", "b", results)
    assert s.escape == {"a": (1, 1), "b": (0, 1)}
    assert s.ms["a"] == (20.0, 30.0, 2) and s.margin == 5.0


def test_a_real_paired_run_plays_every_game() -> None:
    s = arena.run("ra", 2, "easy", "easy", 2, 1, 1)
    assert s.games == 2 and s.edge == pytest.approx(0.0)  # the same level: the pair cancels out
    assert "ms per AI move" in arena.report(s)


@pytest.mark.parametrize(
    "args, needle",
    [
        (["arena", "ra", "--levels", "normal"], "--levels takes two of"),
        (["arena", "ra", "--levels", "easy:expert"], "--levels takes two of"),
        (["arena", "ra", "--games", "0"], "--games takes"),
        (["arena", "ra", "--players", "two"], "--players takes numbers"),
        (["arena", "ra", "--players", "9"], "2–5 players"),
    ],
)
def test_arena_refuses_bad_arguments_in_one_line(
    args: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("bazaar: ") and needle in err and err.count("\n") == 1
