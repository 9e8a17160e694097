"""The Ra state machine (spec §4): what each action does, and the automatic steps that follow it
(auto-passes, forced discards, auction resolution, epoch end, game end) until some seat has a
decision. Every function here edits a :class:`~engines.ra.state.Work` copy and appends events;
the read-only helpers (``god_targets``, ``pending_category``…) also answer for a
:class:`~engines.ra.state.State`. Legality is checked by the caller (``rules.py``); these
functions assume a legal action.
"""

from __future__ import annotations

from engines.base import Event
from engines.ra import data
from engines.ra.scoring import score_epoch, sun_total
from engines.ra.state import (
    AUCTION,
    CIV,
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
    KIND_NAMES,
    LOSE,
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

NAME = tuple(data.TILE_NAME[c] for c in CODES)


def tile_name(code: int) -> str:
    """The display name of a tile index."""
    return NAME[code]


def a_tile(code: int) -> str:
    """The display name with an indefinite article ("a Pharaoh", "an Obelisk")."""
    name = NAME[code]
    return ("an " if name[0] in "AEIOU" else "a ") + name


def _count(k: int, what: str) -> str:
    return f"{k} {what}" if k == 1 else f"{k} {what}s"


# --------------------------------------------------------------------------- turn order


def advance_from(w: Fields, s: int) -> int:
    """The next seat clockwise after ``s`` with a face-up sun (possibly ``s``), or -1."""
    n = w.n
    up = w.up
    for k in range(1, n + 1):
        t = (s + k) % n
        if up[t]:
            return t
    return -1


def next_turn(w: Work, s: int, ev: Events) -> None:
    """Give the turn to the next seat after ``s`` with a face-up sun, or end the epoch."""
    t = advance_from(w, s)
    if t < 0:
        ev.append(
            Event(
                "epoch_end",
                "Nobody has a face-up sun left: the epoch ends.",
                {"epoch": w.epoch, "reason": "suns"},
            )
        )
        epoch_end(w, ev)
    else:
        w.step = TURN
        w.cur = t


def god_targets(w: Fields, seat: int) -> list[int]:
    """Distinct track codes a god may take (ascending ``TILE_ORDER``); [] if ``seat`` holds no
    god."""
    if not w.tiles[seat][GOD]:
        return []
    allow_disaster = w.opts[O_GOD_DISASTER]
    return [c for c in sorted(set(w.track)) if c != GOD and (allow_disaster or c not in DISASTER)]


# --------------------------------------------------------------------------- TURN actions


def do_draw(w: Work, ev: Events) -> None:
    """``draw``: the next bag tile goes to the auction track, or a Ra tile to the Ra track (which
    starts an auction, or ends the epoch when the Ra track is full)."""
    s = w.cur
    code = w.bag[w.bag_pos]
    w.bag_pos += 1
    if code == RA:
        w.ra_track += 1
        limit = data.RA_LIMIT[w.n]
        data_ = {"seat": s, "tile": "ra", "ra_track": w.ra_track}
        if w.ra_track >= limit:
            ev.append(
                Event("ra", f"{{s{s}}} draws the last Ra tile ({w.ra_track}/{limit}): the epoch ends.", data_)
            )
            epoch_end(w, ev)
            return
        ev.append(Event("ra", f"{{s{s}}} draws Ra ({w.ra_track}/{limit}): auction!", data_))
        start_auction(w, RA_TILE, ev)
        return
    w.track = w.track + (code,)
    ev.append(Event("draw", f"{{s{s}}} draws {a_tile(code)}", {"seat": s, "tile": CODES[code]}))
    next_turn(w, s, ev)


def do_invoke(w: Work, ev: Events) -> None:
    """``invoke``: start a voluntary auction (or a full-track one when the track is full)."""
    kind = FULL if len(w.track) == data.AUCTION_SLOTS else VOLUNTARY
    s = w.cur
    what = (
        "the full track"
        if kind == FULL
        else ("an empty track" if not w.track else _count(len(w.track), "tile"))
    )
    ev.append(
        Event(
            "auction",
            f"{{s{s}}} invokes Ra on {what}",
            {"seat": s, "kind": KIND_NAMES[kind], "tiles": len(w.track)},
        )
    )
    start_auction(w, kind, ev)


def do_god(w: Work, code: int, ev: Events) -> None:
    """``god X``: spend a god to take the first ``X`` from the track, then continue the turn."""
    s = w.cur
    w.add_tile(s, GOD, -1)
    w.to_box(GOD, 1)
    track = list(w.track)
    track.remove(code)
    w.track = tuple(track)
    ev.append(Event("god", f"{{s{s}}} uses a god to take {a_tile(code)}", {"seat": s, "tile": CODES[code]}))
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


def do_done(w: Work, ev: Events) -> None:
    """``done``: stop using gods; the turn passes on."""
    ev.append(Event("done", f"{{s{w.cur}}} ends the turn", {"seat": w.cur}))
    next_turn(w, w.cur, ev)


# --------------------------------------------------------------------------- auctions


def start_auction(w: Work, kind: int, ev: Events) -> None:
    """Open an auction with the current seat as Ra player, then apply any auto-passes."""
    ra = w.cur
    n = w.n
    w.step = AUCTION
    w.a_ra = ra
    w.a_kind = kind
    w.a_order = tuple(t for t in ((ra + k) % n for k in range(1, n + 1)) if w.up[t])
    w.a_idx = 0
    w.a_bids = ()
    w.a_high = 0
    w.a_high_seat = -1
    auto_passes(w, ev)


def bidder(w: Fields) -> int:
    """The seat to act in the current auction."""
    return w.a_order[w.a_idx]


def is_forced(w: Fields, seat: int) -> bool:
    """True when ``seat`` may not pass: the Ra player of a voluntary auction with no bid yet."""
    return w.a_kind == VOLUNTARY and w.a_high == 0 and seat == w.a_ra


def auto_passes(w: Work, ev: Events) -> None:
    """With ``auto_pass``, pass for every bidder whose only legal action is ``pass``."""
    if not w.opts[O_AUTO_PASS]:
        return
    while w.step == AUCTION:
        s = w.a_order[w.a_idx]
        if is_forced(w, s) or w.up[s][-1] > w.a_high:
            return
        ev.append(
            Event("pass", f"{{s{s}}} passes (no sun higher than {w.a_high})", {"seat": s, "auto": True})
        )
        w.a_bids = w.a_bids + (0,)
        w.a_idx += 1
        if w.a_idx == len(w.a_order):
            resolve(w, ev)


def do_bid(w: Work, sun: int, ev: Events) -> None:
    """``bid v`` by the current bidder."""
    s = w.a_order[w.a_idx]
    ev.append(Event("bid", f"{{s{s}}} bids {sun}", {"seat": s, "sun": sun}))
    w.a_bids = w.a_bids + (sun,)
    w.a_high = sun
    w.a_high_seat = s
    _next_bidder(w, ev)


def do_pass(w: Work, ev: Events) -> None:
    """``pass`` by the current bidder."""
    s = w.a_order[w.a_idx]
    ev.append(Event("pass", f"{{s{s}}} passes", {"seat": s, "auto": False}))
    w.a_bids = w.a_bids + (0,)
    _next_bidder(w, ev)


def _next_bidder(w: Work, ev: Events) -> None:
    w.a_idx += 1
    if w.a_idx == len(w.a_order):
        resolve(w, ev)
    else:
        auto_passes(w, ev)


def _end_auction(w: Work) -> None:
    w.a_ra = -1
    w.a_kind = 0
    w.a_order = ()
    w.a_idx = 0
    w.a_bids = ()
    w.a_high = 0
    w.a_high_seat = -1


def resolve(w: Work, ev: Events) -> None:
    """Settle the auction after the last bidder: the winner takes the lot and the centre sun,
    pays the bid sun into the centre, suffers the lot's disasters; unsold lots stay (Ra-tile and
    voluntary) or are discarded (full track). Play resumes left of the Ra player."""
    ra = w.a_ra
    kind = w.a_kind
    lot = w.track
    winner, sun = w.a_high_seat, w.a_high
    _end_auction(w)
    if winner < 0:
        if kind == FULL:
            box = list(w.box)
            for c in lot:
                box[c] += 1
            w.box = tuple(box)
            w.track = ()
            ev.append(
                Event(
                    "unsold",
                    "Nobody bids: the full track is discarded",
                    {"discarded": [CODES[c] for c in lot]},
                )
            )
        else:
            text = "Nobody bids: the tiles stay on the track" if lot else "Nobody bids"
            ev.append(Event("unsold", text, {"discarded": []}))
        next_turn(w, ra, ev)
        return
    # sun exchange
    up = list(w.up)
    down = list(w.down)
    up[winner] = tuple(v for v in up[winner] if v != sun)
    down[winner] = tuple(sorted(down[winner] + (w.center,)))
    old_center = w.center
    w.up = tuple(up)
    w.down = tuple(down)
    w.center = sun
    # the lot
    tiles = list(w.tiles)
    row = list(tiles[winner])
    box = list(w.box)
    disasters: dict[int, int] = {}
    traders = 0
    for c in lot:
        if c in DISASTER:
            box[c] += 1
            disasters[c] = disasters.get(c, 0) + 1
        else:
            row[c] += 1
            if c == TRADER:
                traders += 1
    tiles[winner] = tuple(row)
    w.tiles = tuple(tiles)
    w.box = tuple(box)
    w.track = ()
    names = ", ".join(NAME[c] for c in lot) if lot else "an empty track"
    ev.append(
        Event(
            "win",
            f"{{s{winner}}} wins {names} with sun {sun} and takes sun {old_center} face down",
            {"seat": winner, "sun": sun, "took": old_center, "tiles": [CODES[c] for c in lot]},
        )
    )
    if traders:
        trader_trigger(w, winner, traders, ev)
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
    what = _count(t, "trader")
    text = f"{{s{receiver}}} takes {what}: " + (
        ", ".join(f"{{s{q}}} +{_count(g, 'crate')}" for q, g in gains)
        if gains
        else "nobody else holds a trader, no crates"
    )
    ev.append(Event("crates", text, {"seat": receiver, "traders": t, "gains": {str(q): g for q, g in gains}}))


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
            Event(
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
        Event(
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
        Event(
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
    w.box = tuple(box)
    w.track = ()
    w.ra_track = 0
    _end_auction(w)
    scores, rows = score_epoch(w)
    w.score = scores
    w.history = w.history + ((w.epoch, rows),)
    ev.append(_epoch_event(w, rows))
    if w.epoch >= data.EPOCHS:
        w.step = OVER
        best = max(w.score)
        ev.append(
            Event(
                "game_over",
                "Game over: " + ", ".join(f"{{s{s}}} {w.score[s]}" for s in range(w.n)) + f" (best {best})",
                {"scores": list(w.score)},
            )
        )
        return
    box = list(w.box)
    tiles = []
    for row in w.tiles:
        r = list(row)
        for c in LOSE:
            if r[c]:
                box[c] += r[c]
                r[c] = 0
        tiles.append(tuple(r))
    w.box = tuple(box)
    w.tiles = tuple(tiles)
    w.crates = (0,) * w.n
    w.up = tuple(tuple(sorted(u + d)) for u, d in zip(w.up, w.down, strict=True))
    w.down = ((),) * w.n
    w.epoch += 1
    w.cur = max(range(w.n), key=lambda s: w.up[s][-1])
    w.step = TURN
    ev.append(
        Event(
            "epoch_start",
            f"Epoch {w.epoch} begins: {{s{w.cur}}} starts with sun {w.up[w.cur][-1]}",
            {"epoch": w.epoch, "seat": w.cur},
        )
    )


def _scored_counts(w: Work, seat: int) -> dict[str, int]:
    """What ``seat``'s epoch score was counted from (public tiles and suns), so that a score
    sheet can say why a category scored nothing: pharaohs, niles, floods, civilization kinds and
    the suns' total."""
    t = w.tiles[seat]
    return {
        "pharaohs": t[PHARAOH],
        "niles": t[NILE],
        "floods": t[FLOOD],
        "civ_kinds": sum(1 for c in CIV if t[c]),
        "suns": sun_total(w, seat),
    }


def _epoch_event(w: Work, rows: tuple[ScoreRow, ...]) -> Event:
    hidden = w.opts[O_HIDDEN]  # running totals stay private; epoch totals are public
    parts = []
    for s, (_points, _floor, total, running) in enumerate(rows):
        part = f"{{s{s}}} {total:+d}"
        if not hidden:
            part += f" → {running}"
        parts.append(part)
    data_rows: list[dict[str, object]] = [
        {
            "seat": s,
            "points": dict(zip(data.CATEGORIES, r[0], strict=True)),
            "floor": r[1],
            "epoch_total": r[2],
            "counts": _scored_counts(w, s),
        }
        for s, r in enumerate(rows)
    ]
    if not hidden:
        for s, r in enumerate(rows):
            data_rows[s]["running_total"] = r[3]
    data_ = {"epoch": w.epoch, "rows": data_rows}
    return Event("epoch_score", f"Epoch {w.epoch} scores: " + ", ".join(parts), data_)
