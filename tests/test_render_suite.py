"""The render suite, over every registered game (no game names here): every step of seeded
random games renders (the board from the spectator view, the hand from each seat's own view, the
text, and the score sheet at the end), the same view always gives the same PNG bytes, and the
images stay within the size aims (about 1000 px wide, at most 250 KB)."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import pytest

import render
from engines import base
from render.common import to_png

SEEDS = (1, 2)
MAX_BYTES = 250_000


def _cases() -> Iterator[Any]:
    for engine in base.games():
        for n in sorted({engine.min_players, engine.max_players}):
            yield pytest.param(engine.name, n, id=f"{engine.name}-{n}p")


def _steps(engine: base.Engine, seed: int, n: int, every: int) -> Iterator[Any]:
    """States of a random game (every ``every``-th step and the last)."""
    rng = random.Random(seed)
    state = engine.setup(seed, n, {})
    k = 0
    while engine.outcome(state) is None:
        if k % every == 0:
            yield state
        seat = rng.choice(engine.to_move(state))
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))[0]
        k += 1
    yield state


@pytest.mark.parametrize("game,n", list(_cases()))
def test_every_step_renders_from_views_only(game: str, n: int) -> None:
    engine = base.get(game)
    drawer = render.get(game)
    names = [f"Player {i + 1}" for i in range(n)]
    for seed in SEEDS:
        for state in _steps(engine, seed, n, every=3):
            public = engine.view(state, None)
            kept = copy.deepcopy(public)
            board = drawer.board(public, names)
            assert public == kept, "the renderer changed the view it was given"
            assert 600 <= board.width <= 1400, board.size
            assert len(to_png(board)) <= MAX_BYTES
            assert drawer.text(public, names)
            for seat in engine.to_move(state):
                own = engine.view(state, seat)
                assert drawer.hand(own, names).width > 0
                assert drawer.text(own, names)
        final = engine.view(state, None)
        assert final["over"]
        sheet = drawer.score_sheet(final, names)
        assert sheet.width > 0 and len(to_png(sheet)) <= MAX_BYTES


@pytest.mark.parametrize("game,n", list(_cases()))
def test_rendering_is_deterministic(game: str, n: int) -> None:
    engine = base.get(game)
    drawer = render.get(game)
    states = list(_steps(engine, 5, n, every=11))
    for state in (states[0], states[len(states) // 2]):
        view = engine.view(state, None)
        assert to_png(drawer.board(view)) == to_png(drawer.board(copy.deepcopy(view)))
