"""Build Phraya positions from a readable description (tests, examples, tutorials).

:func:`build` starts from a set-up game (default layout, seed 0, stacks and deck as dealt) and overrides what
is described, then restores every conservation rule of docs/rules/phraya.md#invariants: supplies hold what no
player holds, stall pieces and disks in reserve are what is not on the board, order tiles and market cards
named anywhere leave the stacks and the deck.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engines.phraya import data
from engines.phraya.data import GI, KING_INDEX, TEMPLE_ROW, board
from engines.phraya.state import CARD, Opts, Player, State, put, put_player
from engines.phraya.state.setup import new_game

SEAT = {"P": 0, "O": 1, "W": 2, "B": 3}  # purple, orange, white, black (docs/rules/phraya.md#examples)


def _players(s: State, players: Mapping[int, Mapping[str, Any]]) -> list[Player]:
    """Each seat as described (``goods`` as ``{good: n}``), the rest as dealt."""
    ps: list[Player] = []
    for q in range(s.n):
        spec = dict(players.get(q, {}))
        if "goods" in spec:
            g = [0, 0, 0, 0]
            for k, v in spec["goods"].items():
                g[GI[k]] = v
            spec["goods"] = (g[0], g[1], g[2], g[3])
        for key in ("hand", "discard", "orders", "baskets"):
            if key in spec:
                spec[key] = tuple(spec[key])
        p = put_player(s.players[q], coins=data.START_COINS + q)
        ps.append(put_player(p, **spec))
    return ps


def _boats(n: int, boats: Mapping[int, str], fill: bool) -> list[str]:
    """The boats described; with ``fill`` the others on free outer sections (last ids first)."""
    bt = ["" for _ in range(n)]
    for q, sec in boats.items():
        bt[q] = sec
    if fill:
        free = [x for x in reversed(board.EXTERIOR) if x not in bt]
        for q in range(n):
            if not bt[q]:
                bt[q] = free.pop(0)
    return bt


def _baskets(s: State, ps: list[Player]) -> tuple[list[str], list[str]]:
    """The bag and the basket stalls without the tiles the seats were given."""
    named_baskets = {k for p in ps for k in p.baskets if k[0] == "k"}
    bag = [k for k in s.bag if k not in named_baskets]
    on = []
    for k in s.stall_baskets:
        if k in named_baskets:
            k = bag.pop(0) if bag else ""
        on.append(k)
    return bag, on


def _orders(s: State, orders_on: Mapping[str, str], named: set[str]) -> tuple[list[list[str]], list[str]]:
    """The order stacks without the tiles named anywhere, and the restaurants' tiles as described
    (a tile replaced on a restaurant goes back to the front of its stack)."""
    stacks = [[o for o in st if o not in named] for st in s.stacks]
    ron = list(s.orders_on)
    for sid, oid in orders_on.items():
        ron[s.board.restaurants.index(sid)] = oid
    for o in [o for o in s.orders_on if o not in named and o not in ron]:
        stacks[int(o[1]) - 1].insert(0, o)
    return stacks, ron


def _market(s: State, display: Sequence[str] | None, named: set[str]) -> tuple[list[str], list[str]]:
    """The display as described (or as dealt without the cards named elsewhere), refilled from the
    deck, and the deck without the cards named anywhere."""
    disp = list(display) if display is not None else [c for c in s.display if c not in named]
    deck = [c for c in (*s.display, *s.deck) if c not in named and c not in disp]
    while len(disp) < data.DISPLAY_SLOTS and deck:
        disp.append(deck.pop(0))
    return disp, deck


def _pieces(
    owners: Mapping[str, int], king: Mapping[str, int], temple: Mapping[str, Sequence[int]]
) -> tuple[list[int], list[int], list[tuple[int, ...]]]:
    """The stall owners, the King's chart and the Temple rows as described."""
    own = [-1] * len(board.STALLS)
    for sid, q in owners.items():
        own[board.STALL_INDEX[sid]] = q
    kg = [-1] * 16
    for sp, q in king.items():
        kg[KING_INDEX[sp]] = q
    tp: list[tuple[int, ...]] = [(), (), (), ()]
    for good, row in temple.items():
        tp[TEMPLE_ROW[good]] = tuple(row)
    return own, kg, tp


def _orders_and_market(
    s: State, ps: list[Player], orders_on: Mapping[str, str], display: Sequence[str] | None
) -> tuple[list[list[str]], list[str], list[str], list[str]]:
    """The order stacks, the restaurants' tiles, the display and the deck once every order tile
    and market card named anywhere (restaurants, display, seats) has left the stacks and the deck."""
    named_orders: set[str] = set(orders_on.values())
    named_cards: set[str] = set(display or ())
    for p in ps:
        named_orders.update(p.orders)
        named_cards.update(c for c in (*p.hand, *p.discard) if c[0] == "m")
    stacks, ron = _orders(s, orders_on, named_orders)
    disp, deck = _market(s, display, named_cards)
    return stacks, ron, disp, deck


def _price_indexes(s: State, prices: Mapping[str, int]) -> list[int]:
    """The price markers as indexes on their rows, with ``prices`` given as values (ValueError for a
    value not on its row)."""
    pr = list(s.prices)
    for good, v in prices.items():
        pr[GI[good]] = data.PRICE_ROWS[good].index(v)
    return pr


def _set_reserves(ps: list[Player], own: list[int], kg: list[int], tp: list[tuple[int, ...]]) -> None:
    """Each seat's stall pieces and disks in reserve: what it does not have on the board."""
    n = len(ps)
    for q in range(n):
        disks = kg.count(q) + sum(row.count(q) for row in tp)
        ps[q] = put_player(
            ps[q],
            stalls_left=data.STALLS_PER_PLAYER[n] - own.count(q),
            disks_left=data.DISKS_PER_PLAYER - disks,
        )


def _supplies(ps: list[Player]) -> dict[str, Any]:
    """What the supply holds once the seats hold what they were given."""
    return {
        "supply_goods": tuple(data.GOODS_SUPPLY - sum(p.goods[i] for p in ps) for i in range(4)),
        "supply_flowers": data.FLOWERS - sum(p.flowers for p in ps),
        "supply_favors": data.FAVORS - sum(p.favors for p in ps),
        "supply_rowers": data.ROWER_TILES - sum(p.rowers - data.ROWERS_START for p in ps),
    }


def build(
    n: int = 4,
    *,
    seed: int = 0,
    opts: Opts | None = None,
    first: int = 0,
    cur: int = 0,
    step: int = CARD,
    round: int = 1,
    boats: Mapping[int, str] | None = None,
    barge: str = data.BARGE_START,
    owners: Mapping[str, int] | None = None,
    prices: Mapping[str, int] | None = None,
    merchant: int = data.MERCHANT_START,
    orders_on: Mapping[str, str] | None = None,
    players: Mapping[int, Mapping[str, Any]] | None = None,
    king: Mapping[str, int] | None = None,
    temple: Mapping[str, Sequence[int]] | None = None,
    display: Sequence[str] | None = None,
    fill_boats: bool = False,
    **extra: Any,
) -> State:
    """A position (see the module docstring). ``prices`` are price values (not indexes);
    ``players[seat]`` may set any :class:`Player` field, ``goods`` as ``{good: n}``.
    ``fill_boats`` puts seats without a boat on free outer sections (last ids first).
    ``extra`` sets other :class:`State` fields (``passives``, ``used``…). Raises ValueError for
    a price not on its row."""
    s = new_game(seed, n, opts or Opts())
    ps = _players(s, players or {})
    stacks_l, ron, disp, deck = _orders_and_market(s, ps, orders_on or {}, display)
    own, kg, tp = _pieces(owners or {}, king or {}, temple or {})
    pr = _price_indexes(s, prices or {})
    bt = _boats(n, boats or {}, fill_boats)
    bag, on = _baskets(s, ps)
    _set_reserves(ps, own, kg, tp)
    return put(
        s,
        step=step,
        first=first,
        cur=cur,
        round=round,
        boats=tuple(bt),
        barge=barge,
        owner=tuple(own),
        prices=(pr[0], pr[1], pr[2], pr[3]),
        merchant=merchant,
        display=tuple(disp),
        deck=tuple(deck),
        stacks=tuple(tuple(x) for x in stacks_l),
        orders_on=tuple(ron),
        king=tuple(kg),
        temple=tuple(tp),
        **_supplies(ps),
        players=tuple(ps),
        bag=tuple(bag),
        stall_baskets=tuple(on),
        **extra,
    )


def seats(text: str) -> list[int]:
    """``"O W P -"`` -> seats, stopping at the first ``-`` (an empty space)."""
    out = []
    for t in text.split():
        if t == "-":
            break
        out.append(SEAT[t])
    return out
