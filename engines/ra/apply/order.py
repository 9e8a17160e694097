"""Who plays next in Ra: the turn passes clockwise to the next seat holding a face-up sun, and
the epoch ends when nobody holds one (docs/rules/ra.md#epoch-end)."""

from __future__ import annotations

from engines.fastcopy import poke
from engines.ra import data
from engines.ra.apply.epoch import epoch_end
from engines.ra.apply.events import Events, event
from engines.ra.legal import god_targets
from engines.ra.state import GOD_MORE, TURN, State

ORDER = {n: tuple(tuple((s + k) % n for k in range(1, n + 1)) for s in range(n)) for n in data.SUN_SETS}
"""``ORDER[n][s]``: the seats clockwise after ``s``, ending with ``s`` itself."""


def next_seat(up: tuple[tuple[int, ...], ...], n: int, s: int) -> int:
    """The next seat clockwise after ``s`` (possibly ``s``) holding a face-up sun, or -1."""
    for t in ORDER[n][s]:
        if up[t]:
            return t
    return -1


def next_turn(w: State, s: int, ev: Events) -> None:
    """Give the turn to the next seat after ``s`` with a face-up sun, or end the epoch."""
    up = w.up
    for t in ORDER[w.n][s]:
        if up[t]:
            poke(w, "step", TURN)
            poke(w, "cur", t)
            return
    ev.append(
        event(
            "epoch_end",
            "Nobody has a face-up sun left: the epoch ends.",
            {"epoch": w.epoch, "reason": "suns"},
        )
    )
    epoch_end(w, ev)


def after_god(w: State, ev: Events) -> None:
    """After a god: GOD_MORE if the actor may use another god, else the next turn."""
    if god_targets(w, w.cur):
        poke(w, "step", GOD_MORE)
    else:
        next_turn(w, w.cur, ev)
