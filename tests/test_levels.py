"""The AI levels as the lobby and ``/game addbot`` describe them: what each does, and the hard
level's win rate against normal read from the figures the arena script wrote (with their date
and game count), never typed by hand."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.offline import arena, levelrates
from bot.surface import levels
from engines import base


@pytest.fixture
def figures(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "levelrates.json"
    path.write_text(
        json.dumps(
            {
                "measured": "2026-01-02",
                "how": "python -m bot.offline.levelrates 8 1",
                "games": {
                    "ra": {"players": 2, "games": 8, "hard_win_rate": 0.625, "even_rate": 0.5,
                           "edge": 0.125, "low": -0.1, "high": 0.35},
                    "kathai": {"players": 3, "games": 8, "hard_win_rate": 0.5, "even_rate": 0.333,
                               "edge": 0.2, "low": 0.0, "high": 0.4},
                },
            }
        )
    )  # fmt: skip
    monkeypatch.setattr(levels, "RATES", path)
    levels.rates.cache_clear()
    yield path
    levels.rates.cache_clear()


def test_the_lobby_line_says_what_each_level_does_and_hards_measured_rate(figures: Path) -> None:
    line = levels.lobby_line("ra")
    assert (
        "easy plays a simple plan" in line and "normal looks ahead" in line and "hard thinks longest" in line
    )
    assert "wins 62% of its seats' games against normal" in line and "8 games, measured 2026-01-02" in line
    assert "measured" not in levels.lobby_line("phraya")  # no figure for it: none is made up


def test_the_addbot_choices_describe_the_levels_and_hards_range(figures: Path) -> None:
    names = [c.name for c in levels.choices()]
    assert [c.value for c in levels.choices()] == ["easy", "normal", "hard"]
    assert all(len(n) <= 100 for n in names)
    assert "simple plan" in names[0] and "looks ahead" in names[1]
    assert names[2] == "hard: thinks longest; beat normal in 50–62% of measured games"


def test_no_figures_file_leaves_the_descriptions_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(levels, "RATES", tmp_path / "missing.json")
    levels.rates.cache_clear()
    try:
        assert levels.choices()[2].name.startswith("hard: thinks longest (searches")
        assert "wins" not in levels.lobby_line("ra")
    finally:
        levels.rates.cache_clear()


def test_the_stored_figures_were_written_by_the_script_for_every_game() -> None:
    stored = json.loads(levelrates.OUT.read_text(encoding="utf-8"))
    assert stored["how"].startswith("python -m bot.offline.levelrates ")
    assert len(stored["measured"]) == 10  # an ISO date
    for engine in base.games():
        one = stored["games"][engine.name]
        assert one["players"] == engine.min_players and one["games"] >= 2
        assert 0 <= one["hard_win_rate"] <= 1 and one["low"] <= one["edge"] <= one["high"]


def test_the_script_measures_with_the_arena(monkeypatch: pytest.MonkeyPatch) -> None:
    """One tiny run per game (the arena's own games, two each) gives figures of the stored shape."""
    calls = []

    def fake_run(game: str, n: int, a: str, b: str, games: int, seed: int, jobs: int) -> object:
        calls.append((game, n, a, b, games))
        return arena.summarise(game, n, a, b, [_result(n, a, b)] * games)

    monkeypatch.setattr(arena, "run", fake_run)
    out = levelrates.measure(2, 1)
    assert {c[0] for c in calls} == {e.name for e in base.games()}
    assert all(c[2:] == ("hard", "normal", 2) for c in calls)
    assert all(isinstance(v, dict) and v["games"] == 2 for v in out.values())


def _result(n: int, a: str, b: str) -> arena.GameResult:
    lv = arena.seat_levels(0, n, a, b)
    return arena.GameResult(1, lv, list(range(1, n + 1)), [10] * n, [0], [False] * n, [True] * n)
