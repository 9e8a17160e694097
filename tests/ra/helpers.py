"""Helpers shared by the Ra tests: the engine, seat names, playing moves with the invariants
checked after each, and the reason an illegal move gets."""

from __future__ import annotations

from typing import Any

import pytest

from engines.base import Event, IllegalAction, play
from engines.ra.rules import RaEngine
from engines.ra.view import AuctionView, MeView, RaView

E = RaEngine()
A, B, C, D = 0, 1, 2, 3


def run(state: Any, *moves: tuple[int, str]) -> tuple[Any, list[Event]]:
    """Apply ``(seat, action)`` pairs through ``play``, checking the engine's invariants after
    each; returns the final state and all events."""
    events: list[Event] = []
    for seat, action in moves:
        res = play(E, state, seat, action)
        E.invariants(res.state)
        state = res.state
        events += res.events
    return state, events


def reason(state: Any, seat: int, text: str) -> str:
    """The reason ``play`` gives when it refuses ``text`` as illegal (fails if it is not)."""
    with pytest.raises(IllegalAction) as err:
        play(E, state, seat, text)
    return err.value.reason


def own(view: RaView) -> MeView:
    """The seat's own part of ``view`` (fails for a spectator's view)."""
    me = view["me"]
    assert me is not None, "a spectator's view has no own part"
    return me


def auction(view: RaView) -> AuctionView:
    """The running auction of ``view`` (fails when none runs)."""
    a = view["auction"]
    assert a is not None, "no auction runs"
    return a
