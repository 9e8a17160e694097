"""Traders' crates and disasters in Ra: the crates a trader tile hands the other seats, the
tiles a disaster costs, and the discards a player chooses one at a time
(docs/rules/ra.md#disasters, docs/rules/ra.md#traders)."""

from __future__ import annotations

from engines.fastcopy import poke, thaw
from engines.ra.apply.edit import add_tile, to_box
from engines.ra.apply.events import NAME, Events, a_tile, count, event
from engines.ra.apply.order import after_god, next_turn
from engines.ra.legal import pending_category
from engines.ra.state import (
    CODES,
    DISCARD,
    DROUGHT,
    EARTHQUAKE,
    FLOOD,
    FUNERAL,
    NILE,
    O_FLOODS_FIRST,
    P_CIV,
    P_MON,
    P_RIVER,
    PENDING_CODES,
    PHARAOH,
    TRADER,
    UNREST,
    State,
)


def trader_trigger(w: State, receiver: int, t: int, ev: Events) -> None:
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
    poke(w, "crates", tuple(crates))
    what = count(t, "trader")
    text = f"{{s{receiver}}} takes {what}: " + (
        ", ".join(f"{{s{q}}} +{count(g, 'crate')}" for q, g in gains)
        if gains
        else "nobody else holds a trader, no crates"
    )
    ev.append(event("crates", text, {"seat": receiver, "traders": t, "gains": {str(q): g for q, g in gains}}))


def hit_disasters(w: State, seat: int, disasters: dict[int, int], ev: Events) -> tuple[int, int, int]:
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


def _disaster_target(w: State, code: int) -> str:
    if code == DROUGHT:
        return "river tiles (floods first)" if w.opts[O_FLOODS_FIRST] else "river tiles"
    return {FUNERAL: "pharaohs", UNREST: "civilization tiles", EARTHQUAKE: "monument tiles"}[code]


def _discard(w: State, seat: int, code: int, k: int, ev: Events, why: str) -> None:
    if k <= 0:
        return
    add_tile(w, seat, code, -k)
    to_box(w, code, k)
    what = f"{a_tile(code)} tile" if k == 1 else f"{k} {NAME[code]} tiles"
    ev.append(
        event(
            "discard",
            f"{{s{seat}}} discards {what} ({why})",
            {"seat": seat, "tile": CODES[code], "count": k, "auto": True},
        )
    )


def owe_discards(w: State, seat: int, disasters: dict[int, int], after_god: bool, ev: Events) -> bool:
    """Hit ``seat`` with ``disasters``; if tiles are still owed, record them and settle what
    needs no choice (:func:`settle_pending`), and return True (the caller's step is over)."""
    pend = hit_disasters(w, seat, disasters, ev)
    if not any(pend):
        return False
    poke(w, "p_seat", seat)
    poke(w, "p_left", pend)
    poke(w, "p_after_god", after_god)
    settle_pending(w, ev)
    return True


def settle_pending(w: State, ev: Events) -> None:
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
            poke(w, "p_left", (left[0], left[1], left[2]))
            poke(w, "step", DISCARD)
            return
    poke(w, "p_left", (0, 0, 0))
    poke(w, "p_seat", -1)
    if w.p_after_god:
        poke(w, "p_after_god", False)
        after_god(w, ev)
    else:
        next_turn(w, w.cur, ev)


def do_discard(state: State, code: int, ev: Events) -> State:
    """``discard X``: one owed tile of the pending category."""
    w = thaw(state)
    seat = w.p_seat
    cat = pending_category(w)
    add_tile(w, seat, code, -1)
    to_box(w, code, 1)
    ev.append(
        event(
            "discard",
            f"{{s{seat}}} discards {a_tile(code)} tile",
            {"seat": seat, "tile": CODES[code], "count": 1, "auto": False},
        )
    )
    left = list(w.p_left)
    left[cat] -= 1
    poke(w, "p_left", (left[0], left[1], left[2]))
    settle_pending(w, ev)
    return w
