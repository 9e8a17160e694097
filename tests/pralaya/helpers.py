"""Helpers shared by the Pralaya tests: the engine, a fresh game with a chosen first seat, and
playing a run of actions by whoever is to move."""

from __future__ import annotations

from typing import Any

from engines.base import Event, play
from engines.pralaya.rules import PralayaEngine

E = PralayaEngine()


def fresh(n: int = 2, first: int = 0, seed: int = 1, **opts: Any) -> Any:
    """A new game of ``n`` players where seat ``first`` starts."""
    return E.setup(seed, n, {"first_seat": first, **opts})


def act(state: Any, *actions: str) -> tuple[Any, list[Event]]:
    """Apply ``actions`` in order, each by the seat to move; returns the final state and events."""
    events: list[Event] = []
    for a in actions:
        r = play(E, state, E.to_move(state)[0], a)
        state, events = r.state, events + r.events
    return state, events
