"""Ra's auctions: opening one, bids and passes (with the automatic passes of bidders who cannot
outbid), and settling the lot (docs/rules/ra.md#auction)."""

from __future__ import annotations

from typing import Any

from engines.fastcopy import make, poke, replace, work
from engines.ra.apply.disasters import owe_discards, trader_trigger
from engines.ra.apply.events import AUTO_PASS, BID, NAME, PASS, Events, event
from engines.ra.apply.order import ORDER, next_seat, next_turn
from engines.ra.state import (
    AUCTION,
    CODES,
    DISASTER,
    FULL,
    O_AUTO_PASS,
    TRADER,
    TURN,
    State,
)


def start_auction(state: State, kind: int, w: dict[str, Any]) -> State:
    """The new state made from ``w``, the work dict of ``state`` (:func:`engines.fastcopy.work`,
    maybe already changed by the caller), with an auction opened with the current seat as Ra
    player. Nobody is passed automatically yet: before the first bid every bidder holds a sun
    above the high bid (0)."""
    ra = state.cur
    up = state.up
    order = ORDER[state.n][ra]
    w["step"] = AUCTION
    w["a_ra"] = ra
    w["a_kind"] = kind
    w["a_order"] = order if all(up) else tuple([t for t in order if up[t]])
    w["a_idx"] = 0
    w["a_bids"] = ()
    w["a_high"] = 0
    w["a_high_seat"] = -1
    return make(State, w)


def auto_passes(w: State, idx: int, ev: Events) -> State:
    """With ``auto_pass``, pass for the bidders from ``idx`` on (``w.a_idx``) whose only legal
    action is ``pass``: no face-up sun above the high bid. (Only after a bid: with no bid yet
    every bidder holds a higher sun, so the forced Ra player never needs a test.) Settle the
    auction after the last bidder. ``w`` is a private copy; returns the new state."""
    order = w.a_order
    high = w.a_high
    up = w.up
    last = len(order)
    passed = 0
    while up[order[idx]][-1] <= high:
        s = order[idx]
        ev.append(AUTO_PASS[s][high])
        passed += 1
        idx += 1
        if idx == last:
            return settle(w, w.a_high_seat, high, ev)
    poke(w, "a_bids", w.a_bids + (0,) * passed)
    poke(w, "a_idx", idx)
    return w


def do_bid(state: State, sun: int, ev: Events) -> State:
    """``bid v`` by the current bidder."""
    order = state.a_order
    idx = state.a_idx
    s = order[idx]
    ev.append(BID[s][sun])
    idx += 1
    if idx == len(order):
        return settle(state, s, sun, ev)
    w = replace(state, a_bids=state.a_bids + (sun,), a_high=sun, a_high_seat=s, a_idx=idx)
    if state.up[order[idx]][-1] <= sun and state.opts[O_AUTO_PASS]:
        return auto_passes(w, idx, ev)
    return w


def do_pass(state: State, _arg: int, ev: Events) -> State:
    """``pass`` by the current bidder."""
    order = state.a_order
    idx = state.a_idx
    s = order[idx]
    ev.append(PASS[s])
    idx += 1
    if idx == len(order):
        return settle(state, state.a_high_seat, state.a_high, ev)
    w = replace(state, a_bids=state.a_bids + (0,), a_idx=idx)
    if state.up[order[idx]][-1] <= state.a_high and state.opts[O_AUTO_PASS]:
        return auto_passes(w, idx, ev)
    return w


NO_AUCTION = {
    "a_ra": -1,
    "a_kind": 0,
    "a_order": (),
    "a_idx": 0,
    "a_bids": (),
    "a_high": 0,
    "a_high_seat": -1,
}
"""The auction fields while no auction runs (the state's defaults)."""


def settle(state: State, winner: int, sun: int, ev: Events) -> State:
    """Settle the auction of ``state`` after the last bidder, won by ``winner`` (-1: nobody)
    with ``sun``: the winner takes the lot and the centre sun, pays the bid sun into the centre,
    suffers the lot's disasters; unsold lots stay (Ra-tile and voluntary) or are discarded (full
    track). Play resumes left of the Ra player (docs/rules/ra.md#resume-left). The fields of the
    last bid need not be stored first. Returns the new state; ``state`` is not changed."""
    if winner < 0:
        return _unsold(state, ev)
    ra = state.a_ra
    lot = state.track
    # sun exchange: only the winner's rows change
    up = list(state.up)
    row = up[winner]
    i = row.index(sun)
    up[winner] = row[:i] + row[i + 1 :]
    down = list(state.down)
    old_center = state.center
    down[winner] = tuple(sorted(down[winner] + (old_center,)))
    tiles, box, disasters = _take_lot(state, winner)
    new_up = tuple(up)
    # next_turn, inline when no disaster is owed and someone holds a face-up sun
    nxt = -1 if disasters else next_seat(new_up, state.n, ra)
    d = work(state)
    d.update(NO_AUCTION)
    d["up"] = new_up
    d["down"] = tuple(down)
    d["center"] = sun
    d["tiles"] = tiles
    d["box"] = box
    d["track"] = ()
    d["cur"] = ra if nxt < 0 else nxt
    if nxt >= 0:
        d["step"] = TURN
    w = make(State, d)
    names = ", ".join([NAME[c] for c in lot]) if lot else "an empty track"
    ev.append(
        event(
            "win",
            f"{{s{winner}}} wins {names} with sun {sun} and takes sun {old_center} face down",
            {"seat": winner, "sun": sun, "took": old_center, "tiles": [CODES[c] for c in lot]},
        )
    )
    if TRADER in lot:
        trader_trigger(w, winner, lot.count(TRADER), ev)
    if disasters:
        if not owe_discards(w, winner, disasters, False, ev):
            next_turn(w, ra, ev)
    elif nxt < 0:
        next_turn(w, ra, ev)  # nobody holds a face-up sun: the epoch ends
    return w


def _take_lot(
    state: State, winner: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], dict[int, int]]:
    """The tiles and the box once ``winner`` has taken the track (its disasters go to the box),
    and the disasters it brought (code -> tiles)."""
    lot = state.track
    disasters: dict[int, int] = {}
    if not lot:
        return state.tiles, state.box, disasters
    tiles = list(state.tiles)
    held = list(tiles[winner])
    box = state.box
    if DISASTER.isdisjoint(lot):
        for c in lot:
            held[c] += 1
    else:
        boxed = list(box)
        for c in lot:
            if c in DISASTER:
                boxed[c] += 1
                disasters[c] = disasters.get(c, 0) + 1
            else:
                held[c] += 1
        box = tuple(boxed)
    tiles[winner] = tuple(held)
    return tuple(tiles), box, disasters


def _unsold(state: State, ev: Events) -> State:
    """Nobody bid (docs/rules/ra.md#unsold-lot): a full track is discarded, any other lot stays;
    the turn passes left of the Ra player."""
    lot = state.track
    if state.a_kind == FULL:
        box = list(state.box)
        for c in lot:
            box[c] += 1
        d = work(state)
        d.update(NO_AUCTION)
        d["box"] = tuple(box)
        d["track"] = ()
        w = make(State, d)
        ev.append(
            event(
                "unsold", "Nobody bids: the full track is discarded", {"discarded": [CODES[c] for c in lot]}
            )
        )
    else:
        d = work(state)
        d.update(NO_AUCTION)
        w = make(State, d)
        text = "Nobody bids: the tiles stay on the track" if lot else "Nobody bids"
        ev.append(event("unsold", text, {"discarded": []}))
    next_turn(w, state.a_ra, ev)
    return w
