"""The labels a Pralaya board puts on the places the last moves changed ("taken", "discarded",
"drawn", "sank", a seat's hand or Dhoni) agree with the move log, over seeded whole games at
every player count, one board per move and one board per batch of moves (as after AI seats)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engines import base
from render.pralaya.marks import DISCARDED, DRAWN, SANK, TAKEN, changes

ENGINE = base.get("pralaya")


Board = dict[str, Any]  # a public view, as the marks read it


def _games(n: int, seeds: range, batch: int) -> list[tuple[Board, Board, list[tuple[int, str]]]]:
    """(previous public view, public view, the moves between them) for every board of seeded
    random games; ``batch`` is the most moves between two boards."""
    out = []
    for seed in seeds:
        st = ENGINE.setup(seed, n, {})
        rng = random.Random(seed * 31 + n)
        prev = ENGINE.view(st, None)
        while ENGINE.outcome(st) is None:
            moves = []
            for _ in range(rng.randint(1, batch)):
                if ENGINE.outcome(st) is not None:
                    break
                seat = ENGINE.to_move(st)[0]
                action = rng.choice(ENGINE.legal_actions(st, seat))
                st, _ = ENGINE.apply(st, seat, action)
                moves.append((seat, action))
            view = ENGINE.view(st, None)
            out.append((prev, view, moves))
            prev = view
    return out


def _expected(prev: Board, view: Board, moves: list[tuple[int, str]]) -> dict[str, str]:
    """What each changed cell must say, from the moves: the last move that named an emptied cell
    took it or discarded it; any other cell whose card changed was drawn (or sank to Ocean)."""
    last: dict[str, str] = {}
    for _, action in moves:
        verb, *rest = action.split()
        if verb in ("take", "discard") and rest:
            last[rest[0]] = verb
    want = {}
    for old, new in zip(prev["island"], view["island"], strict=True):
        if old["card"] == new["card"]:
            continue
        cell = new["cell"]
        if new["card"] is None:
            want[cell] = TAKEN if last.get(cell) == "take" else DISCARDED
        else:
            want[cell] = SANK if new["code"] == "oce" else DRAWN
    return want


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("batch", [1, 4])
def test_cell_labels_follow_the_move_log(n: int, batch: int) -> None:
    boards = _games(n, range(1, 7), batch)
    assert len(boards) > 40
    emptied = 0
    for prev, view, moves in boards:
        got = changes(prev, view).cells
        want = _expected(prev, view, moves)
        assert got == want, (moves, got, want)
        for cell in view["island"]:
            if cell["card"] is None and cell["taken"]:
                emptied += 1
                # an emptied cell is drawn "by" the seat that acts now: it must be the seat whose
                # move emptied it, as the log says
                takers = [s for s, a in moves if a.split()[1:2] == [cell["cell"]]]
                if takers:
                    assert view["active"] == takers[-1]
    assert emptied > 0


def test_seed_1_three_players_last_board_says_taken_not_discarded() -> None:
    """The report: the last board of seed 1 at 3 players marked a1 "discarded by C" while Chen
    took it. Whatever the batch, a cell emptied by a take is labelled taken."""
    for prev, view, moves in _games(3, range(1, 2), 6):
        got = changes(prev, view).cells
        for cell in (a.split()[1] for _, a in moves if a.split()[0] in ("take", "discard")):
            if cell in got and got[cell] in (TAKEN, DISCARDED):
                took_last = [a for _, a in moves if a.split()[1:2] == [cell]][-1].startswith("take")
                assert (got[cell] == TAKEN) == took_last, (moves, got)


@pytest.mark.parametrize("n", [3, 5])
def test_player_labels_follow_the_move_log(n: int) -> None:
    for prev, view, moves in _games(n, range(1, 5), 1):
        got = changes(prev, view).players
        ((seat, action),) = moves
        verb = action.split()[0]
        if verb == "take":
            assert "hand" in got.get(seat, frozenset())
        if verb == "buy" and action.split()[1] == "dhoni":
            assert {"dhoni", "escaped"} <= got.get(seat, frozenset())
        if verb == "buy" and action.split()[1] == "veda":
            assert "veda" in got.get(seat, frozenset())
        assert set(got) <= {s for s, _ in moves}
