"""The Phraya invariants (docs/rules/phraya.md#invariants) as assertions, checked after every action
by the property suite."""

from __future__ import annotations

from functools import lru_cache

from engines.phraya import data
from engines.phraya.data import MARKET_IDS, ORDER_IDS, board
from engines.phraya.state import CARD, OVER, Player, State, capacity, conditions

_MARKET_SET = frozenset(MARKET_IDS)


@lru_cache(maxsize=64)
def _ownable_mask(layout: board.Layout) -> tuple[bool, ...]:
    b = board.build(layout)
    return tuple(b.stalls[x].ownable for x in board.STALLS)


def _owned(owner: tuple[int, ...]) -> list[int]:
    return [i for i, q in enumerate(owner) if q >= 0]


def _check_player(s: State, q: int, p: Player) -> None:
    """One seat's bounds: pieces in reserve, rowers, baskets, goods within capacity."""
    assert p.stalls_left + s.owner.count(q) == data.STALLS_PER_PLAYER[s.n]
    temple = s.temple
    disks = (
        s.king.count(q) + temple[0].count(q) + temple[1].count(q) + temple[2].count(q) + temple[3].count(q)
    )
    assert p.disks_left + disks == data.DISKS_PER_PLAYER
    assert data.ROWERS_START <= p.rowers <= data.ROWERS_START + data.ROWER_BENCHES_EXTRA
    assert 0 <= len(p.baskets) - p.start_baskets <= data.BASKET_SPACES_EXTRA
    g = p.goods
    cap = capacity(p)
    assert 0 <= g[0] <= cap[0] and 0 <= g[1] <= cap[1] and 0 <= g[2] <= cap[2] and 0 <= g[3] <= cap[3], (
        "goods over capacity"
    )
    assert p.coins >= 0 and p.flowers >= 0 and p.favors >= 0
    if s.step == CARD and q == s.cur:
        assert p.hand, "empty hand at CARD"


def _check_supplies(s: State) -> None:
    """Goods, flowers, favors and rower tiles are conserved between the supply and the seats."""
    goods = list(s.supply_goods)
    flowers, favors, rowers = s.supply_flowers, s.supply_favors, s.supply_rowers
    for p in s.players:
        g = p.goods
        goods[0] += g[0]
        goods[1] += g[1]
        goods[2] += g[2]
        goods[3] += g[3]
        flowers += p.flowers
        favors += p.favors
        rowers += p.rowers - data.ROWERS_START
    assert goods == [data.GOODS_SUPPLY] * 4, "goods not conserved"
    assert flowers == data.FLOWERS and favors == data.FAVORS, "flowers or favors not conserved"
    assert rowers == data.ROWER_TILES, "rowers not conserved"


def _check_tiles(s: State) -> None:
    """Every card, basket tile and order tile is in exactly one place."""
    cards = [*s.deck, *s.display]
    baskets = [*s.bag, *s.stall_baskets]
    orders = [*s.removed, *s.orders_on]
    for st in s.stacks:
        orders += st
    for p in s.players:
        cards += p.hand
        cards += p.discard
        baskets += p.baskets
        orders += p.orders
    empty = s.display.count("")
    assert len(cards) - empty == len(MARKET_IDS) + 5 * s.n, "cards lost or doubled"
    assert len(_MARKET_SET.intersection(cards)) == len(MARKET_IDS), "market cards lost"
    bs = set(baskets)
    bs.discard("")
    bs.difference_update(data.PRINTED_BASKET_IDS)
    assert (
        len(bs)
        == len(data.BASKET_IDS)
        == len(baskets) - s.stall_baskets.count("") - sum(1 for k in baskets if k[:1] == "p")
    ), "baskets lost or doubled"
    os_ = set(orders)
    os_.discard("")
    assert len(os_) == len(ORDER_IDS) == len(orders) - s.orders_on.count(""), "order tiles lost or doubled"


def invariants(s: State) -> None:
    """The conservation and bounds rules as assertions (the legal list's side is checked by
    ``legal.check_actor``)."""
    for q, p in enumerate(s.players):
        _check_player(s, q, p)
    _check_supplies(s)
    _check_tiles(s)
    assert all(0 <= i <= 6 for i in s.prices) and 0 <= s.merchant < len(data.MERCHANT_ROUTE)
    placed = [b for b in s.boats if b]
    assert len(placed) == len(set(placed)), "two boats on one section"
    assert s.barge in board.CROSSINGS
    assert all(len(row) <= data.TEMPLE_COLUMNS for row in s.temple)
    ownable = _ownable_mask(s.layout)
    for i in _owned(s.owner):
        assert ownable[i], "an unownable stall owned"
    held = sum(conditions(s))
    if s.step == OVER:
        assert held >= 2 or s.end_reason.startswith("round limit")
    else:
        assert held < 2, "two end conditions hold but the game goes on"
