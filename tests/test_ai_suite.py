"""The AI suite, over every registered game (no game names here): AI-only games end within the
engine's bound with every AI move legal, the same seed gives the same game, and the AI reads only
the view it is given (a copy is left unchanged, and its choice depends on nothing else)."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest

from bot.offline.demo import ai_game
from engines import base


def _cases() -> Iterator[Any]:
    for engine in base.games():
        for n in range(engine.min_players, engine.max_players + 1):
            yield pytest.param(engine.name, n, id=f"{engine.name}-{n}p")


@pytest.mark.parametrize("game,n", list(_cases()))
def test_ai_games_end_with_legal_moves(game: str, n: int) -> None:
    engine = base.get(game)
    for seed in (0, 1):
        final, moves = ai_game(engine, seed, n, {})  # every move goes through play(): legal
        assert engine.outcome(final) is not None
        assert len(moves) <= engine.action_bound(n)
    again, moves_again = ai_game(engine, 0, n, {})
    assert moves_again == ai_game(engine, 0, n, {})[1], "the AI is not deterministic"


@pytest.mark.parametrize("game", [e.name for e in base.games()])
def test_the_ai_reads_only_its_own_view(game: str) -> None:
    engine = base.get(game)
    n = engine.min_players
    checked = 0

    def spy(state: Any, seat: int, action: str, events: list[base.Event]) -> None:
        nonlocal checked
        if engine.outcome(state) is not None or checked >= 40:
            return
        seat = base.first_awaited(engine, state)
        view = engine.view(state, seat)
        kept = copy.deepcopy(view)
        legal = engine.legal_actions(state, seat)
        pick = engine.choose(view, legal)
        assert view == kept, "the AI changed the view it was given"
        assert engine.choose(copy.deepcopy(kept), list(legal)) == pick
        checked += 1

    ai_game(engine, 3, n, {}, on_step=spy)
    assert checked
