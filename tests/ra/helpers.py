"""Helpers shared by the Ra tests: the engine, seat names, playing moves with the invariants
checked after each, the reason an illegal move gets, and the parts of a view or an outcome a test
expects to be there."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from engines.base import Event, IllegalAction, Outcome, play
from engines.ra.rules import RaEngine
from engines.ra.state import State
from engines.ra.view import AuctionView, MeView, RaView

E = RaEngine()
A, B, C, D = 0, 1, 2, 3


def run(state: State, *moves: tuple[int, str]) -> tuple[State, list[Event]]:
    """Apply ``(seat, action)`` pairs through ``play``, checking the engine's invariants after
    each; returns the final state and all events."""
    events: list[Event] = []
    for seat, action in moves:
        res = play(E, state, seat, action)
        new: State = res.state
        E.invariants(new)
        state = new
        events += res.events
    return state, events


def reason(state: State, seat: int, text: str) -> str:
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


def finished(state: State) -> Outcome:
    """The outcome of ``state`` (fails when the game is not over)."""
    out = E.outcome(state)
    assert out is not None, "the game is not over"
    return out


def breakdown(out: Outcome, seat: int) -> Mapping[str, int]:
    """``seat``'s points by category in ``out`` (fails for a seat that scores nothing)."""
    row = out.breakdown[seat]
    assert row is not None, f"seat {seat} has no breakdown"
    return row
