"""A Ra turn's actions: draw a tile, invoke Ra, use a god, or end the turn after the gods
(docs/rules/ra.md#a-turn)."""

from __future__ import annotations

from engines.ra import data
from engines.ra.apply.auction import start_auction
from engines.ra.apply.disasters import owe_discards, trader_trigger
from engines.ra.apply.epoch import epoch_end
from engines.ra.apply.events import DONE, DRAW, INVOKE, Events, a_tile, event
from engines.ra.apply.order import ORDER, after_god, next_turn
from engines.ra.state import (
    CODES,
    DISASTER,
    FULL,
    GOD,
    KIND_NAMES,
    RA,
    RA_TILE,
    TRADER,
    VOLUNTARY,
    Work,
)


def do_draw(w: Work, _arg: int, ev: Events) -> None:
    """``draw``: the next bag tile goes to the auction track, or a Ra tile to the Ra track (which
    starts an auction, or ends the epoch when the Ra track is full)."""
    s = w.cur
    pos = w.bag_pos
    code = w.bag[pos]
    w.bag_pos = pos + 1
    if code == RA:
        ra_track = w.ra_track = w.ra_track + 1
        limit = data.RA_LIMIT[w.n]
        data_ = {"seat": s, "tile": "ra", "ra_track": ra_track}
        if ra_track >= limit:
            text = f"{{s{s}}} draws the last Ra tile ({ra_track}/{limit}): the epoch ends."
            ev.append(event("ra", text, data_))
            epoch_end(w, ev)
            return
        ev.append(event("ra", f"{{s{s}}} draws Ra ({ra_track}/{limit}): auction!", data_))
        start_auction(w, RA_TILE, ev)
        return
    w.track += (code,)
    ev.append(event("draw", DRAW[s][code], {"seat": s, "tile": CODES[code]}))
    up = w.up
    for t in ORDER[w.n][s]:  # next_turn, inline: the step stays TURN
        if up[t]:
            w.cur = t
            return
    next_turn(w, s, ev)  # pragma: no cover (the drawing seat itself holds a face-up sun)


def do_invoke(w: Work, _arg: int, ev: Events) -> None:
    """``invoke``: start a voluntary auction (or a full-track one when the track is full)."""
    k = len(w.track)
    kind = FULL if k == data.AUCTION_SLOTS else VOLUNTARY
    s = w.cur
    ev.append(event("auction", INVOKE[s][k], {"seat": s, "kind": KIND_NAMES[kind], "tiles": k}))
    start_auction(w, kind, ev)


def do_god(w: Work, code: int, ev: Events) -> None:
    """``god X``: spend a god to take the first ``X`` from the track, then continue the turn."""
    s = w.cur
    w.add_tile(s, GOD, -1)
    w.to_box(GOD, 1)
    track = list(w.track)
    track.remove(code)
    w.track = tuple(track)
    ev.append(event("god", f"{{s{s}}} uses a god to take {a_tile(code)}", {"seat": s, "tile": CODES[code]}))
    if code in DISASTER:  # only with god_takes_disaster: resolved at once against the taker
        w.to_box(code, 1)
        if owe_discards(w, s, {code: 1}, True, ev):
            return
    else:
        w.add_tile(s, code, 1)
        if code == TRADER:
            trader_trigger(w, s, 1, ev)
    after_god(w, ev)


def do_done(w: Work, _arg: int, ev: Events) -> None:
    """``done``: stop using gods; the turn passes on."""
    ev.append(event("done", DONE[w.cur], {"seat": w.cur}))
    next_turn(w, w.cur, ev)
