"""Ra's auctions: opening one, bids and passes (with the automatic passes of bidders who cannot
outbid), and settling the lot (docs/rules/ra.md#auction)."""

from __future__ import annotations

from engines.ra.apply.disasters import owe_discards, trader_trigger
from engines.ra.apply.events import AUTO_PASS, BID, NAME, PASS, Events, event
from engines.ra.apply.order import ORDER, next_turn
from engines.ra.state import (
    AUCTION,
    CODES,
    DISASTER,
    FULL,
    O_AUTO_PASS,
    TRADER,
    Work,
)


def start_auction(w: Work, kind: int, ev: Events) -> None:
    """Open an auction with the current seat as Ra player. Nobody is passed automatically yet:
    before the first bid every bidder holds a sun above the high bid (0)."""
    ra = w.cur
    up = w.up
    order = ORDER[w.n][ra]
    w.step = AUCTION
    w.a_ra = ra
    w.a_kind = kind
    w.a_order = order if all(up) else tuple([t for t in order if up[t]])
    w.a_idx = 0
    w.a_bids = ()
    w.a_high = 0
    w.a_high_seat = -1


def auto_passes(w: Work, idx: int, ev: Events) -> None:
    """With ``auto_pass``, pass for the bidders from ``idx`` on (``w.a_idx``) whose only legal
    action is ``pass``: no face-up sun above the high bid. (Only after a bid: with no bid yet
    every bidder holds a higher sun, so the forced Ra player never needs a test.) Settle the
    auction after the last bidder."""
    order = w.a_order
    high = w.a_high
    up = w.up
    last = len(order)
    passed = 0
    while up[order[idx]][-1] <= high:
        s = order[idx]
        ev.append(event("pass", AUTO_PASS[s][high], {"seat": s, "auto": True}))
        passed += 1
        idx += 1
        if idx == last:
            settle(w, w.a_high_seat, high, ev)
            return
    w.a_bids += (0,) * passed
    w.a_idx = idx


def do_bid(w: Work, sun: int, ev: Events) -> None:
    """``bid v`` by the current bidder."""
    order = w.a_order
    idx = w.a_idx
    s = order[idx]
    ev.append(event("bid", BID[s][sun], {"seat": s, "sun": sun}))
    idx += 1
    if idx == len(order):
        settle(w, s, sun, ev)
        return
    w.a_bids += (sun,)
    w.a_high = sun
    w.a_high_seat = s
    w.a_idx = idx
    if w.up[order[idx]][-1] <= sun and w.opts[O_AUTO_PASS]:
        auto_passes(w, idx, ev)


def do_pass(w: Work, _arg: int, ev: Events) -> None:
    """``pass`` by the current bidder."""
    order = w.a_order
    idx = w.a_idx
    s = order[idx]
    ev.append(event("pass", PASS[s], {"seat": s, "auto": False}))
    idx += 1
    if idx == len(order):
        settle(w, w.a_high_seat, w.a_high, ev)
        return
    w.a_bids += (0,)
    w.a_idx = idx
    if w.up[order[idx]][-1] <= w.a_high and w.opts[O_AUTO_PASS]:
        auto_passes(w, idx, ev)


def settle(w: Work, winner: int, sun: int, ev: Events) -> None:
    """Settle the auction after the last bidder, won by ``winner`` (-1: nobody) with ``sun``:
    the winner takes the lot and the centre sun, pays the bid sun into the centre, suffers the
    lot's disasters; unsold lots stay (Ra-tile and voluntary) or are discarded (full track).
    Play resumes left of the Ra player. The fields of the last bid need not be stored first."""
    ra = w.a_ra
    kind = w.a_kind
    lot = w.track
    w.a_ra = -1  # _end_auction, inline
    w.a_kind = 0
    w.a_order = ()
    w.a_idx = 0
    w.a_bids = ()
    w.a_high = 0
    w.a_high_seat = -1
    if winner < 0:
        if kind == FULL:
            box = list(w.box)
            for c in lot:
                box[c] += 1
            w.box = tuple(box)
            w.track = ()
            ev.append(
                event(
                    "unsold",
                    "Nobody bids: the full track is discarded",
                    {"discarded": [CODES[c] for c in lot]},
                )
            )
        else:
            text = "Nobody bids: the tiles stay on the track" if lot else "Nobody bids"
            ev.append(event("unsold", text, {"discarded": []}))
        next_turn(w, ra, ev)
        return
    # sun exchange: only the winner's rows change
    up = list(w.up)
    row = up[winner]
    i = row.index(sun)
    up[winner] = row[:i] + row[i + 1 :]
    w.up = tuple(up)
    down = list(w.down)
    old_center = w.center
    down[winner] = tuple(sorted(down[winner] + (old_center,)))
    w.down = tuple(down)
    w.center = sun
    # the lot
    disasters: dict[int, int] = {}
    if lot:
        tiles = list(w.tiles)
        held = list(tiles[winner])
        if DISASTER.isdisjoint(lot):
            for c in lot:
                held[c] += 1
        else:
            box = list(w.box)
            for c in lot:
                if c in DISASTER:
                    box[c] += 1
                    disasters[c] = disasters.get(c, 0) + 1
                else:
                    held[c] += 1
            w.box = tuple(box)
        tiles[winner] = tuple(held)
        w.tiles = tuple(tiles)
        w.track = ()
        names = ", ".join([NAME[c] for c in lot])
    else:
        names = "an empty track"
    ev.append(
        event(
            "win",
            f"{{s{winner}}} wins {names} with sun {sun} and takes sun {old_center} face down",
            {"seat": winner, "sun": sun, "took": old_center, "tiles": [CODES[c] for c in lot]},
        )
    )
    if TRADER in lot:
        trader_trigger(w, winner, lot.count(TRADER), ev)
    w.cur = ra
    if disasters and owe_discards(w, winner, disasters, False, ev):
        return
    next_turn(w, ra, ev)
