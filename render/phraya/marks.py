"""What changed between two public Phraya views: the places the board marks after a move.

Computed only from the two spectator views (the board posted before and this one), so it shows
nothing a spectator could not work out by comparing the two pictures.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engines.phraya.view.types import PhrayaView, PlayerView

# the parts of a player's card that can change (keys of the player view)
PLAYER_KEYS = ("coins", "flowers", "favors", "rowers", "stalls_left", "disks_left", "hand_count")


@dataclass(frozen=True)
class Changes:
    """``boats``: sections a boat moved to; ``barge``: the barge moved; ``stalls``: stalls whose
    owner, order or basket changed; ``prices``: goods whose price moved; ``merchant``: he moved;
    ``temple``: (good, column) of new disks; ``king``: spaces newly taken; ``display``: market
    slots with another card; ``players``: seat → the parts of its card that changed (the keys of
    :data:`PLAYER_KEYS`, ``goods:<good>`` and ``orders``)."""

    boats: frozenset[str] = frozenset()
    barge: bool = False
    stalls: frozenset[str] = frozenset()
    prices: frozenset[str] = frozenset()
    merchant: bool = False
    temple: frozenset[tuple[str, int]] = frozenset()
    king: frozenset[str] = frozenset()
    display: frozenset[int] = frozenset()
    players: dict[int, frozenset[str]] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(
            self.boats
            or self.barge
            or self.stalls
            or self.prices
            or self.merchant
            or self.temple
            or self.king
            or self.display
            or self.players
        )


NONE = Changes()


def _stalls(view: PhrayaView) -> dict[str, tuple[Any, ...]]:
    out = {}
    for st in (view["board"])["stalls"]:
        order, basket = st["order"], st["basket"]
        out[st["id"]] = (st["owner"], order and order["id"], basket and basket["price"])
    return out


def _player(p: PlayerView, q: PlayerView) -> frozenset[str]:
    parts = {k for k in PLAYER_KEYS if p.get(k) != q.get(k)}
    goods, old = p["goods"] or {}, q["goods"] or {}
    parts |= {f"goods:{g}" for g in set(goods) | set(old) if goods.get(g, 0) != old.get(g, 0)}
    if len(p["orders"]) != len(q["orders"]):
        parts.add("orders")
    return frozenset(parts)


def changes(previous: PhrayaView | None, view: PhrayaView) -> Changes:
    """The places that differ from ``previous`` to ``view`` (both public views of one game);
    nothing when ``previous`` is None or has another player count."""
    if previous is None or previous["n_players"] != view["n_players"]:
        return NONE
    old_boats, new_boats = list(previous["boats"] or []), list(view["boats"] or [])
    boats = {b for i, b in enumerate(new_boats) if b and (i >= len(old_boats) or old_boats[i] != b)}
    before, after = _stalls(previous), _stalls(view)
    stalls = {s for s, v in after.items() if before.get(s) != v}
    old_prices, new_prices = previous["prices"], view["prices"]
    prices = {g for g, p in new_prices.items() if old_prices[g]["index"] != p["index"]}
    old_rows = (previous["temple"])["rows"]
    temple = set()
    for g, seats in ((view["temple"])["rows"]).items():
        temple |= {(g, c) for c in range(len(old_rows.get(g) or []), len(seats))}
    old_king = {k["space"]: k["seat"] for k in previous["king"]}
    king = {k["space"] for k in view["king"] if k["seat"] is not None and old_king.get(k["space"]) is None}
    old_disp = [c and c["id"] for c in previous["display"] or []]
    new_disp = [c and c["id"] for c in view["display"] or []]
    display = {i for i, c in enumerate(new_disp) if c and (i >= len(old_disp) or old_disp[i] != c)}
    old_players = {int(p["seat"]): p for p in previous["players"]}
    players = {}
    for p in view["players"]:
        q = old_players.get(int(p["seat"]))
        parts = _player(p, q) if q is not None else frozenset()
        if parts:
            players[int(p["seat"])] = parts
    return Changes(
        boats=frozenset(boats),
        barge=previous["barge"] != view["barge"],
        stalls=frozenset(stalls),
        prices=frozenset(prices),
        merchant=previous["merchant"] != view["merchant"],
        temple=frozenset(temple),
        king=frozenset(king),
        display=frozenset(display),
        players=players,
    )


def _restaurants_refilled(previous: PhrayaView, view: PhrayaView) -> frozenset[str]:
    before, after = _stalls(previous), _stalls(view)
    return frozenset(s for s, v in after.items() if v[1] and before.get(s, (None, None, None))[1] != v[1])


def labels(previous: PhrayaView | None, view: PhrayaView, ch: Changes | None = None) -> list[tuple[str, str]]:
    """What the board and the second picture tag as changed since ``previous``, as data:
    ``(thing, label)`` with ``thing`` the id a player sees beside it ("h12" a section, "x11" a
    crossing, "h00s" a stall, "c3" a King's space, "temple:veg:3" a Temple space, "market:1" a
    market slot, "price:fish" a price) and ``label`` the words of its tag ("moved", "placed",
    "new order", "taken", "offered", "new card", "up 2", "down 1"). Sorted; empty without
    ``previous``. ``ch``: :func:`changes` of the same two views, when the caller has it."""
    if ch is None:
        ch = changes(previous, view)
    if previous is None or not ch:
        return []
    old_boats = list(previous["boats"] or [])
    placed = {b for i, b in enumerate(view["boats"] or []) if b and (i >= len(old_boats) or not old_boats[i])}
    out = [(sec, "placed" if sec in placed else "moved") for sec in ch.boats]
    if ch.barge and view["barge"]:
        out.append((str(view["barge"]), "barge moved"))
    before, after = _stalls(previous), _stalls(view)
    for sid in ch.stalls:
        if after[sid][0] is not None and before.get(sid, (None,))[0] != after[sid][0]:
            out.append((sid, "placed"))
    out += [(sid, "new order") for sid in _restaurants_refilled(previous, view)]
    out += [(sp, "taken") for sp in ch.king]
    out += [(f"temple:{g}:{c}", "offered") for g, c in ch.temple]
    out += [(f"market:{i}", "new card") for i in ch.display]
    old_prices, new_prices = previous["prices"], view["prices"]
    for g in ch.prices:
        step = int(new_prices[g]["index"]) - int(old_prices[g]["index"])
        out.append((f"price:{g}", f"up {step}" if step > 0 else f"down {-step}"))
    return sorted(out)
