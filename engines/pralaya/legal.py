"""Whose turn it is and what is legal now in Pralaya (docs/rules/pralaya.md#turn,
docs/rules/pralaya.md#actions): the legal lists of each step,
the payments a hand allows, and the fast checks ``apply`` uses.

The legal lists come from tables indexed by the two 9-bit halves of the island's ``avail`` masks
(row-major cell order is ASCII order, so the lists come out sorted); ``can_buy`` decides the BUY
step from the coins' value without building payment texts.
"""

from __future__ import annotations

from bisect import bisect_left

from engines.pralaya.state import (
    AFF_SHIFT,
    BUY,
    CELL_BITS,
    CELLS,
    CELLS_BY_SIZE,
    COLLECT,
    DHONI_PRICE,
    DISCARD,
    FIRST_GOL,
    FIRST_NON_COIN,
    FIRST_SIL,
    NEVER,
    OVER,
    RELIC_SHIFT,
    State,
    coins,
)

TAKE_TEXT: dict[int, tuple[str, ...]] = {k: tuple("take " + c for c in v) for k, v in CELLS_BY_SIZE.items()}
DISCARD_TEXT: dict[int, tuple[str, ...]] = {
    k: tuple("discard " + c for c in v) for k, v in CELLS_BY_SIZE.items()
}
_SEATS = tuple((seat,) for seat in range(5))  # to_move's answers, built once


def to_move(state: State) -> tuple[int, ...]:
    """The active seat, or () once the game is over."""
    s = state
    return () if s.step == OVER else _SEATS[s.active]


# ------------------------------------------------------------------ payments (cached)

_PAY_CACHE: dict[tuple[int, int, int, int, int], tuple[str, ...]] = {}


def _irreducible(g: int, s: int, c: int, price: int) -> list[tuple[int, int, int]]:
    """Payments (x, y, z) ≤ (g, s, c) worth ≥ price where dropping any paid coin falls below it
    (docs/rules/pralaya.md#irreducible-payments)."""
    out = []
    for x in range(g + 1):
        for y in range(s + 1):
            for z in range(c + 1):
                total = 6 * x + 3 * y + z
                if total < price:
                    continue
                smallest = 1 if z else 3 if y else 6 if x else 0
                if smallest and total - smallest < price:
                    out.append((x, y, z))
    return out


def buy_texts(g: int, s: int, c: int, dhoni_price: int, veda_price: int) -> tuple[str, ...]:
    """The sorted ``buy`` actions for a holding of (g, s, c) coins.

    ``dhoni_price``: -2 if no Dhoni can be bought, -1 for Dhoni X on top, else the top price.
    ``veda_price``: 0 if no Veda can be bought, else its price.
    """
    key = (g, s, c, dhoni_price, veda_price)
    hit = _PAY_CACHE.get(key)
    if hit is not None:
        return hit
    out = []
    if dhoni_price == -1:
        out.append(f"buy dhoni {g}g {s}s {c}c")
    elif dhoni_price >= 0:
        out += [f"buy dhoni {x}g {y}s {z}c" for x, y, z in _irreducible(g, s, c, dhoni_price)]
    if veda_price > 0:
        out += [f"buy veda {x}g {y}s {z}c" for x, y, z in _irreducible(g, s, c, veda_price)]
    res = tuple(sorted(out))
    _PAY_CACHE[key] = res
    return res


def buy_actions(s: State) -> tuple[str, ...]:
    """The legal ``buy`` actions of the active seat (whatever the step), sorted."""
    seat = s.active
    if s.dhoni[seat] >= 0:
        return ()
    gold, silver, copper = coins(s.hands[seat])
    pile = s.dhoni_pile
    top_price = DHONI_PRICE[pile[0]] if pile else -2
    dprice = -1 if top_price is None else top_price  # None: Dhoni X
    vprice = 0 if s.veda[seat] else s.veda_price  # a seat without a Veda leaves one in the pile
    return buy_texts(gold, silver, copper, dprice, vprice)


def can_buy(s: State) -> bool:
    """Whether the active seat has a legal ``buy`` (``bool(buy_actions(s))`` without building the
    texts)."""
    seat = s.active
    return can_buy_with(s.dhoni[seat], s.dhoni_pile, s.veda[seat], s.veda_price, s.hands[seat])


def can_buy_with(
    dhoni: int, pile: tuple[int, ...], veda: int, veda_price: int, hand: tuple[int, ...]
) -> bool:
    """:func:`can_buy` from the active seat's Dhoni and Veda (-1 and 0 when it has none), the Dhoni
    pile, the Veda's price and its hand: Dhoni X on top, or coins worth a Dhoni's or the Veda's
    price (coins worth at least a price always hold an irreducible payment of it)."""
    if dhoni >= 0:
        return False
    price = NEVER
    if pile:
        top_price = DHONI_PRICE[pile[0]]
        if top_price is None:  # Dhoni X: any holding pays it, even no coins (docs/rules/pralaya.md#dhoni-x)
            return True
        price = top_price
    if not veda and 0 < veda_price < price:
        price = veda_price
    if price == NEVER:
        return False
    c = bisect_left(hand, FIRST_SIL)  # coin_value(hand), inline
    cs = bisect_left(hand, FIRST_GOL, c)
    return 6 * bisect_left(hand, FIRST_NON_COIN, cs) - 3 * cs - 2 * c >= price


def _half_lists(texts: tuple[str, ...]) -> tuple[list[list[str]], list[list[str]]]:
    """For the cells 0–8 and 9–: the texts of the cells in each mask of the half (row-major
    cell order is ASCII order, so a list of the low half plus one of the high half is sorted)."""
    lo, hi = texts[:9], texts[9:]
    return (
        [[t for i, t in enumerate(lo) if m >> i & 1] for m in range(1 << len(lo))],
        [[t for i, t in enumerate(hi) if m >> i & 1] for m in range(1 << len(hi))],
    )


_TAKE_HALVES = {k: _half_lists(v) for k, v in TAKE_TEXT.items()}
_DISCARD_HALVES = {k: _half_lists(v) for k, v in DISCARD_TEXT.items()}
TAKE_LISTS: dict[int, tuple[list[list[str]], list[list[str]], list[list[str]]]] = {
    n: (lo, [["done", *t] for t in lo], hi)
    for n, (lo, hi) in ((n, _TAKE_HALVES[len(CELLS[n])]) for n in CELLS)
}
"""Per player count: (takes of the cells 0–8 by mask, the same after ``done``, takes of the cells
9– by mask). Never mutate these lists: :func:`legal` returns the sum of two, a new list."""
DISCARD_LISTS: dict[int, tuple[list[list[str]], list[list[str]]]] = {
    n: _DISCARD_HALVES[len(CELLS[n])] for n in CELLS
}


def legal(s: State) -> list[str]:
    """The active seat's legal actions in the current step, ASCII-sorted."""
    step = s.step
    if step == COLLECT:
        aff = s.avail >> AFF_SHIFT[s.v_left] & CELL_BITS
        lo, lo_done, hi = TAKE_LISTS[s.n]
        return (lo_done if s.taken else lo)[aff & 511] + hi[aff >> 9]
    if step == BUY:
        out = list(buy_actions(s))
        out.append("pass")
        return out
    if step == DISCARD:
        relics = s.avail >> RELIC_SHIFT
        lo, hi = DISCARD_LISTS[s.n]
        return lo[relics & 511] + hi[relics >> 9]
    return []


def legal_actions(state: State, seat: int) -> list[str]:
    """``seat``'s legal actions, ASCII-sorted; [] for any seat but the active one."""
    s = state
    if seat != s.active:
        return []
    if s.step == COLLECT:  # legal(s) for the commonest step, inline
        aff = s.avail >> AFF_SHIFT[s.v_left] & CELL_BITS
        lo, lo_done, hi = TAKE_LISTS[s.n]
        return (lo_done if s.taken else lo)[aff & 511] + hi[aff >> 9]
    return legal(s)
