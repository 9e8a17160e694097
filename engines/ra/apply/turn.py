"""A Ra turn's actions: draw a tile, invoke Ra, use a god, or end the turn after the gods
(docs/rules/ra.md#a-turn)."""

from __future__ import annotations

from engines.fastcopy import poke, replace, thaw, work
from engines.ra import data
from engines.ra.apply.auction import start_auction
from engines.ra.apply.disasters import owe_discards, trader_trigger
from engines.ra.apply.edit import add_tile, to_box
from engines.ra.apply.epoch import epoch_end
from engines.ra.apply.events import DONE, DRAW, INVOKE, Events, a_tile, event
from engines.ra.apply.order import ORDER, after_god, next_turn
from engines.ra.state import (
    CODES,
    DISASTER,
    FULL,
    GOD,
    RA,
    RA_TILE,
    TRADER,
    VOLUNTARY,
    State,
)


def do_draw(state: State, _arg: int, ev: Events) -> State:
    """``draw``: the next bag tile goes to the auction track, or a Ra tile to the Ra track (which
    starts an auction, or ends the epoch when the Ra track is full)."""
    s = state.cur
    pos = state.bag_pos
    code = state.bag[pos]
    if code == RA:
        return _draw_ra(state, ev)
    ev.append(DRAW[s][code])
    up = state.up
    for t in ORDER[state.n][s]:  # next_turn, inline: the step stays TURN
        if up[t]:
            return replace(state, bag_pos=pos + 1, track=state.track + (code,), cur=t)
    w = replace(state, bag_pos=pos + 1, track=state.track + (code,))  # pragma: no cover
    next_turn(w, s, ev)  # pragma: no cover (the drawing seat itself holds a face-up sun)
    return w  # pragma: no cover


def _draw_ra(state: State, ev: Events) -> State:
    """A drawn Ra tile: an auction, or the epoch's end when it fills the Ra track
    (docs/rules/ra.md#last-ra)."""
    s = state.cur
    ra_track = state.ra_track + 1
    limit = data.RA_LIMIT[state.n]
    data_ = {"seat": s, "tile": "ra", "ra_track": ra_track}
    if ra_track >= limit:
        text = f"{{s{s}}} draws the last Ra tile ({ra_track}/{limit}): the epoch ends."
        ev.append(event("ra", text, data_))
        w = replace(state, bag_pos=state.bag_pos + 1, ra_track=ra_track)
        epoch_end(w, ev)
        return w
    ev.append(event("ra", f"{{s{s}}} draws Ra ({ra_track}/{limit}): auction!", data_))
    d = work(state)
    d["bag_pos"] = state.bag_pos + 1
    d["ra_track"] = ra_track
    return start_auction(state, RA_TILE, d)


def do_invoke(state: State, _arg: int, ev: Events) -> State:
    """``invoke``: start a voluntary auction (or a full-track one when the track is full)."""
    k = len(state.track)
    ev.append(INVOKE[state.cur][k])
    return start_auction(state, FULL if k == data.AUCTION_SLOTS else VOLUNTARY, work(state))


def do_god(state: State, code: int, ev: Events) -> State:
    """``god X``: spend a god to take the first ``X`` from the track, then continue the turn."""
    w = thaw(state)
    s = w.cur
    add_tile(w, s, GOD, -1)
    to_box(w, GOD, 1)
    track = list(w.track)
    track.remove(code)
    poke(w, "track", tuple(track))
    ev.append(event("god", f"{{s{s}}} uses a god to take {a_tile(code)}", {"seat": s, "tile": CODES[code]}))
    if code in DISASTER:  # only with god_takes_disaster: resolved at once against the taker
        to_box(w, code, 1)
        if owe_discards(w, s, {code: 1}, True, ev):
            return w
    else:
        add_tile(w, s, code, 1)
        if code == TRADER:
            trader_trigger(w, s, 1, ev)
    after_god(w, ev)
    return w


def do_done(state: State, _arg: int, ev: Events) -> State:
    """``done``: stop using gods; the turn passes on."""
    w = thaw(state)
    ev.append(DONE[w.cur])
    next_turn(w, w.cur, ev)
    return w
