"""Helpers shared by the Pralaya tests: the engine, a fresh game with a chosen first seat, playing
a run of actions by whoever is to move, and the parts of a finished game or a seat's view that the
types leave optional."""

from __future__ import annotations

import random
from typing import Any

from engines.base import Event, Outcome, play
from engines.pralaya.rules import PralayaEngine
from engines.pralaya.state import State
from engines.pralaya.view import MeView, OutcomeView, PralayaView

E = PralayaEngine()


def fresh(n: int = 2, first: int = 0, seed: int = 1, **opts: Any) -> State:
    """A new game of ``n`` players where seat ``first`` starts."""
    return E.setup(seed, n, {"first_seat": first, **opts})


def act(state: State, *actions: str) -> tuple[State, list[Event]]:
    """Apply ``actions`` in order, each by the seat to move; returns the final state and events."""
    events: list[Event] = []
    for a in actions:
        r = play(E, state, E.to_move(state)[0], a)
        state, events = r.state, events + r.events
    return state, events


def result(state: State) -> Outcome:
    """The outcome of a finished game (fails the test if it is still running)."""
    out = E.outcome(state)
    assert out is not None, "the game is not over"
    return out


def me(view: PralayaView) -> MeView:
    """A seat's own part of its view (fails the test for a spectator's view)."""
    part = view["me"]
    assert part is not None, "a spectator's view"
    return part


def final(view: PralayaView) -> OutcomeView:
    """The outcome in a finished game's view."""
    out = view["outcome"]
    assert out is not None, "the game is not over"
    return out


def cell(state: State, name: str) -> str | None:
    return next(c["card"] for c in E.view(state, None)["island"] if c["cell"] == name)


def random_game(seed: int, n: int, opts: dict[str, Any] | None = None, check: bool = True) -> list[State]:
    """A random playout; yields every state (checking the invariants when ``check``)."""
    rng = random.Random(seed)
    s = E.setup(seed, n, opts or {})
    states = [s]
    while E.outcome(s) is None:
        legal = E.legal_actions(s, s.active)
        if check:
            E.invariants(s)
            assert legal == sorted(legal)  # ASCII order, cells row-major (docs/rules/pralaya.md#actions)
        s, _ = E.apply(s, s.active, rng.choice(legal))
        states.append(s)
    if check:
        E.invariants(s)
    return states
