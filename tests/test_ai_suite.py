"""The AI suite, over every registered game (no game names here): AI-only games end within the
engine's bound with every AI move legal, the same seed gives the same game, and the AI reads only
the view it is given (a copy is left unchanged, and its choice depends on nothing else); so do
hints and reviews (the same answer when what the seat cannot see is dealt anew)."""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Iterator
from typing import Any

import pytest

from bot.offline.demo import ai_game
from engines import base, coaching


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


def _scrambled(engine: base.Engine, state: Any, seat: int, rng: random.Random) -> tuple[Any, list[str]]:
    """The view and legal moves of ``seat`` in a state drawn from its view: what the seat cannot
    see (the other hands, the order of the deck or bag) dealt anew (the state differs)."""
    other = engine.determinize(engine.view(state, seat), rng)
    assert base.state_fingerprint(other) != base.state_fingerprint(state), "nothing hidden was dealt anew"
    return engine.view(other, seat), engine.legal_actions(other, seat)


@pytest.mark.parametrize("game", [e.name for e in base.games()])
def test_hints_read_only_the_players_view(game: str) -> None:
    """A hint is the same from the seat's view and from the view of a state whose hidden parts
    are dealt anew, and leaves the view it is given unchanged."""
    engine = base.get(game)
    n = engine.min_players
    rng = random.Random(7)
    checked = 0

    def spy(state: Any, seat: int, action: str, events: list[base.Event]) -> None:
        nonlocal checked
        if engine.outcome(state) is not None or checked >= 3 or rng.random() > 0.1:
            return
        seat = base.first_awaited(engine, state)
        legal = engine.legal_actions(state, seat)
        if len(legal) < 2:
            return
        view = engine.view(state, seat)
        kept = copy.deepcopy(view)
        found = coaching.hint(engine, view, legal, 11, seconds=math.inf)
        assert view == kept, "the hint changed the view it was given"
        other_view, other_legal = _scrambled(engine, state, seat, rng)
        assert other_legal == legal
        assert coaching.hint(engine, other_view, other_legal, 11, seconds=math.inf) == found
        checked += 1

    ai_game(engine, 3, n, {}, on_step=spy)
    assert checked


@pytest.mark.parametrize("game", [e.name for e in base.games()])
def test_reviews_read_only_the_players_views(game: str) -> None:
    """A review is computed from the seat's decisions as it saw them (views and legal lists):
    each view replaced by the view of a state whose hidden parts are dealt anew gives the same
    moments, and no view is changed."""
    engine = base.get(game)
    n = engine.min_players
    _, moves = ai_game(engine, 5, n, {})
    found = coaching.decisions(engine, 5, n, {}, moves, 0)[:8]
    assert found and all(d.view["viewer"] == 0 for d in found)
    kept = copy.deepcopy(found)
    # suspects=4 of 8: the first pass (a short search of every decision) is part of what is checked
    first = coaching.review(engine, found, 5, iterations=60, samples=8, suspects=4)
    assert found == kept, "the review changed a view it was given"
    rng = random.Random(3)
    steps = base.replay_steps(engine, 5, n, {}, moves)
    states = [s for s, _ in steps]
    scrambled = []
    for d in found:
        other_view, other_legal = _scrambled(engine, states[d.version], 0, rng)
        assert tuple(other_legal) == d.legal
        scrambled.append(coaching.Decision(d.version, other_view, d.legal, d.played))
    assert coaching.review(engine, scrambled, 5, iterations=60, samples=8, suspects=4) == first
