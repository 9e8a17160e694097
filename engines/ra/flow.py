"""The Ra state machine (spec §4): what each action does, and the automatic steps that follow it
(auto-passes, forced discards, auction resolution, epoch end, game end) until some seat has a
decision. Every function here edits a :class:`~engines.ra.state.Work` copy and appends events;
the read-only helpers (``god_targets``, ``pending_category``…) also answer for a
:class:`~engines.ra.state.State`. Legality is checked by the caller (``rules.py``); these
functions assume a legal action.

Speed: each action is one handler of :data:`HANDLERS` (looked up by its text, its argument
decoded in advance) editing one :class:`~engines.ra.state.Work` copy; events come from
:func:`engines.ra.events.event` with the frequent texts written once at import; a change to one
seat's suns or tiles rebuilds that seat's row only, not every seat's; a bid or pass settles the
auction directly when it is the last, and auto-passes are looked for only after a bid (before
one, every bidder holds a higher sun).
"""

from __future__ import annotations

from collections.abc import Callable

from engines.base import Event
from engines.ra import data
from engines.ra.events import AUTO_PASS, BID, DONE, DRAW, INVOKE, NAME, PASS, a_tile, count, event
from engines.ra.notation import BID_TEXT, DISCARD_CODES, DISCARD_TEXT, GOD_CODES, GOD_TEXT
from engines.ra.scoring import score_epoch
from engines.ra.state import (
    AUCTION,
    CIV,
    CIV_SLICE,
    CODES,
    DISASTER,
    DISCARD,
    DROUGHT,
    EARTHQUAKE,
    FLOOD,
    FULL,
    FUNERAL,
    GOD,
    GOD_MORE,
    IDX,
    KEEP_RUNS,
    KIND_NAMES,
    LOSE,
    NCODES,
    NILE,
    O_AUTO_PASS,
    O_FLOODS_FIRST,
    O_GOD_DISASTER,
    O_HIDDEN,
    OVER,
    P_CIV,
    P_MON,
    P_RIVER,
    PENDING_CODES,
    PHARAOH,
    RA,
    RA_TILE,
    TRADER,
    TURN,
    UNREST,
    VOLUNTARY,
    Fields,
    ScoreRow,
    Work,
)

Events = list[Event]

_ZEROS = (0,) * NCODES


def tile_name(code: int) -> str:
    """The display name of a tile index."""
    return NAME[code]


# --------------------------------------------------------------------------- turn order

ORDER = {n: tuple(tuple((s + k) % n for k in range(1, n + 1)) for s in range(n)) for n in data.SUN_SETS}
"""``ORDER[n][s]``: the seats clockwise after ``s``, ending with ``s`` itself."""


def advance_from(w: Fields, s: int) -> int:
    """The next seat clockwise after ``s`` with a face-up sun (possibly ``s``), or -1."""
    up = w.up
    for t in ORDER[w.n][s]:
        if up[t]:
            return t
    return -1


def next_turn(w: Work, s: int, ev: Events) -> None:
    """Give the turn to the next seat after ``s`` with a face-up sun, or end the epoch."""
    up = w.up
    for t in ORDER[w.n][s]:
        if up[t]:
            w.step = TURN
            w.cur = t
            return
    ev.append(
        event(
            "epoch_end",
            "Nobody has a face-up sun left: the epoch ends.",
            {"epoch": w.epoch, "reason": "suns"},
        )
    )
    epoch_end(w, ev)


def god_targets(w: Fields, seat: int) -> list[int]:
    """Distinct track codes a god may take (ascending ``TILE_ORDER``); [] if ``seat`` holds no
    god."""
    if not w.tiles[seat][GOD]:
        return []
    allow_disaster = w.opts[O_GOD_DISASTER]
    return [c for c in sorted(set(w.track)) if c != GOD and (allow_disaster or c not in DISASTER)]


# --------------------------------------------------------------------------- TURN actions


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


def after_god(w: Work, ev: Events) -> None:
    """After a god: GOD_MORE if the actor may use another god, else the next turn."""
    if god_targets(w, w.cur):
        w.step = GOD_MORE
    else:
        next_turn(w, w.cur, ev)


def do_done(w: Work, _arg: int, ev: Events) -> None:
    """``done``: stop using gods; the turn passes on."""
    ev.append(event("done", DONE[w.cur], {"seat": w.cur}))
    next_turn(w, w.cur, ev)


# --------------------------------------------------------------------------- auctions


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


def bidder(w: Fields) -> int:
    """The seat to act in the current auction."""
    return w.a_order[w.a_idx]


def is_forced(w: Fields, seat: int) -> bool:
    """True when ``seat`` may not pass: the Ra player of a voluntary auction with no bid yet."""
    return w.a_kind == VOLUNTARY and w.a_high == 0 and seat == w.a_ra


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


def _end_auction(w: Work) -> None:
    w.a_ra = -1
    w.a_kind = 0
    w.a_order = ()
    w.a_idx = 0
    w.a_bids = ()
    w.a_high = 0
    w.a_high_seat = -1


def resolve(w: Work, ev: Events) -> None:
    """Settle the auction after the last bidder (see :func:`settle`)."""
    settle(w, w.a_high_seat, w.a_high, ev)


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


# --------------------------------------------------------------------------- traders


def trader_trigger(w: Work, receiver: int, t: int, ev: Events) -> None:
    """Traders sheet: when ``receiver`` gets ``t`` trader tiles, every other seat adds ``t``
    crates per trader tile in its own collection; the receiver gets none."""
    crates = list(w.crates)
    gains = []
    for q in range(w.n):
        if q != receiver:
            g = t * w.tiles[q][TRADER]
            if g:
                crates[q] += g
                gains.append((q, g))
    w.crates = tuple(crates)
    what = count(t, "trader")
    text = f"{{s{receiver}}} takes {what}: " + (
        ", ".join(f"{{s{q}}} +{count(g, 'crate')}" for q, g in gains)
        if gains
        else "nobody else holds a trader, no crates"
    )
    ev.append(event("crates", text, {"seat": receiver, "traders": t, "gains": {str(q): g for q, g in gains}}))


# --------------------------------------------------------------------------- disasters


def hit_disasters(w: Work, seat: int, disasters: dict[int, int], ev: Events) -> tuple[int, int, int]:
    """Apply each disaster tile (two tiles each) to ``seat``. Funerals (and droughts when
    ``drought_floods_first``) resolve at once; returns the tiles still owed as
    ``(river, civ, monument)``."""
    river = civ = mon = 0
    for code in (FUNERAL, DROUGHT, UNREST, EARTHQUAKE):
        k = disasters.get(code, 0)
        if not k:
            continue
        cost = 2 * k
        what = NAME[code] if k == 1 else f"{k} × {NAME[code]}"
        ev.append(
            event(
                "disaster",
                f"{{s{seat}}} is hit by {what}: {cost} {_disaster_target(w, code)} to discard",
                {"seat": seat, "tile": CODES[code], "count": k},
            )
        )
        if code == FUNERAL:
            _discard(w, seat, PHARAOH, min(cost, w.tiles[seat][PHARAOH]), ev, "funeral")
        elif code == DROUGHT:
            if w.opts[O_FLOODS_FIRST]:
                f = min(cost, w.tiles[seat][FLOOD])
                _discard(w, seat, FLOOD, f, ev, "drought")
                _discard(w, seat, NILE, min(cost - f, w.tiles[seat][NILE]), ev, "drought")
            else:
                river += cost
        elif code == UNREST:
            civ += cost
        else:
            mon += cost
    return (river, civ, mon)


def _disaster_target(w: Work, code: int) -> str:
    if code == DROUGHT:
        return "river tiles (floods first)" if w.opts[O_FLOODS_FIRST] else "river tiles"
    return {FUNERAL: "pharaohs", UNREST: "civilization tiles", EARTHQUAKE: "monument tiles"}[code]


def _discard(w: Work, seat: int, code: int, k: int, ev: Events, why: str) -> None:
    if k <= 0:
        return
    w.add_tile(seat, code, -k)
    w.to_box(code, k)
    what = f"{a_tile(code)} tile" if k == 1 else f"{k} {NAME[code]} tiles"
    ev.append(
        event(
            "discard",
            f"{{s{seat}}} discards {what} ({why})",
            {"seat": seat, "tile": CODES[code], "count": k, "auto": True},
        )
    )


def pending_category(w: Fields) -> int:
    """The pending category now owed (river, then civ, then monument), or -1."""
    for i, k in enumerate(w.p_left):
        if k:
            return i
    return -1


def owe_discards(w: Work, seat: int, disasters: dict[int, int], after_god: bool, ev: Events) -> bool:
    """Hit ``seat`` with ``disasters``; if tiles are still owed, record them and settle what
    needs no choice (:func:`settle_pending`), and return True (the caller's step is over)."""
    pend = hit_disasters(w, seat, disasters, ev)
    if not any(pend):
        return False
    w.p_seat, w.p_left, w.p_after_god = seat, pend, after_god
    settle_pending(w, ev)
    return True


def settle_pending(w: Work, ev: Events) -> None:
    """Resolve owed discards that leave no choice (owning no more than owed, or one type only);
    stop at the first real choice (step DISCARD), else continue the game."""
    seat = w.p_seat
    left = list(w.p_left)
    why = ("drought", "unrest", "earthquake")
    for cat in (P_RIVER, P_CIV, P_MON):
        k = left[cat]
        if not k:
            continue
        held = [(c, w.tiles[seat][c]) for c in PENDING_CODES[cat] if w.tiles[seat][c]]
        total = sum(h for _c, h in held)
        if total <= k:
            for c, h in held:
                _discard(w, seat, c, h, ev, why[cat])
            left[cat] = 0
        elif len(held) == 1:
            _discard(w, seat, held[0][0], k, ev, why[cat])
            left[cat] = 0
        else:
            w.p_left = (left[0], left[1], left[2])
            w.step = DISCARD
            return
    w.p_left = (0, 0, 0)
    w.p_seat = -1
    if w.p_after_god:
        w.p_after_god = False
        after_god(w, ev)
    else:
        next_turn(w, w.cur, ev)


def do_discard(w: Work, code: int, ev: Events) -> None:
    """``discard X``: one owed tile of the pending category."""
    seat = w.p_seat
    cat = pending_category(w)
    w.add_tile(seat, code, -1)
    w.to_box(code, 1)
    ev.append(
        event(
            "discard",
            f"{{s{seat}}} discards {a_tile(code)} tile",
            {"seat": seat, "tile": CODES[code], "count": 1, "auto": False},
        )
    )
    left = list(w.p_left)
    left[cat] -= 1
    w.p_left = (left[0], left[1], left[2])
    settle_pending(w, ev)


# --------------------------------------------------------------------------- epoch end


def epoch_end(w: Work, ev: Events) -> None:
    """Discard the tracks, score the epoch, then either end the game (epoch 3) or discard the
    held god, gold, flood, civilization and trader tiles, reset crates, turn every sun face up
    and give the first turn of the next epoch to the holder of the highest sun."""
    box = list(w.box)
    for c in w.track:
        box[c] += 1
    box[RA] += w.ra_track
    w.track = ()
    w.ra_track = 0
    _end_auction(w)
    scores, rows = score_epoch(w)
    w.score = scores
    epoch = w.epoch
    w.history += ((epoch, rows),)
    ev.append(_epoch_event(w, rows))
    n = w.n
    if epoch >= data.EPOCHS:
        w.box = tuple(box)
        w.step = OVER
        ev.append(
            event(
                "game_over",
                "Game over: "
                + ", ".join([f"{{s{s}}} {scores[s]}" for s in range(n)])
                + f" (best {max(scores)})",
                {"scores": list(scores)},
            )
        )
        return
    tiles = w.tiles
    columns = tuple(zip(*tiles, strict=True))
    for c in LOSE:
        box[c] += sum(columns[c])
    w.box = tuple(box)
    kept = []
    for row in tiles:
        new: tuple[int, ...] = ()
        for a, b, keep in KEEP_RUNS:
            new += row[a:b] if keep else _ZEROS[a:b]
        kept.append(new)
    w.tiles = tuple(kept)
    w.crates = (0,) * n
    up = w.up = tuple([tuple(sorted(u + d)) for u, d in zip(w.up, w.down, strict=True)])
    w.down = ((),) * n
    epoch = w.epoch = epoch + 1
    top = [u[-1] for u in up]
    high = max(top)
    cur = w.cur = top.index(high)
    w.step = TURN
    ev.append(
        event(
            "epoch_start",
            f"Epoch {epoch} begins: {{s{cur}}} starts with sun {high}",
            {"epoch": epoch, "seat": cur},
        )
    )


def _epoch_event(w: Work, rows: tuple[ScoreRow, ...]) -> Event:
    """The ``epoch_score`` event; each row's ``counts`` say what the seat's score was counted
    from (public tiles and suns), so that a score sheet can say why a category scored nothing."""
    hidden = w.opts[O_HIDDEN]  # running totals stay private; epoch totals are public
    cats = data.CATEGORIES
    ncivs = len(CIV)
    tiles = w.tiles
    up = w.up
    down = w.down
    parts = []
    data_rows: list[dict[str, object]] = []
    for s, (points, floor, total, running) in enumerate(rows):
        t = tiles[s]
        row: dict[str, object] = {
            "seat": s,
            "points": dict(zip(cats, points, strict=True)),
            "floor": floor,
            "epoch_total": total,
            "counts": {
                "pharaohs": t[PHARAOH],
                "niles": t[NILE],
                "floods": t[FLOOD],
                "civ_kinds": ncivs - t[CIV_SLICE].count(0),
                "suns": sum(up[s]) + sum(down[s]),
            },
        }
        if hidden:
            parts.append(f"{{s{s}}} {total:+d}")
        else:
            parts.append(f"{{s{s}}} {total:+d} → {running}")
            row["running_total"] = running
        data_rows.append(row)
    epoch = w.epoch
    return event(
        "epoch_score", f"Epoch {epoch} scores: " + ", ".join(parts), {"epoch": epoch, "rows": data_rows}
    )


# --------------------------------------------------------------------------- dispatch

Handler = Callable[[Work, int, Events], None]

HANDLERS: dict[str, tuple[Handler, int]] = {
    "draw": (do_draw, 0),
    "invoke": (do_invoke, 0),
    "done": (do_done, 0),
    "pass": (do_pass, 0),
    **{BID_TEXT[v]: (do_bid, v) for v in range(1, len(BID_TEXT))},
    **{GOD_TEXT[IDX[c]]: (do_god, IDX[c]) for c in GOD_CODES},
    **{DISCARD_TEXT[IDX[c]]: (do_discard, IDX[c]) for c in DISCARD_CODES},
}
"""Each well-formed action text: its handler and its argument (a sun or a tile index)."""
