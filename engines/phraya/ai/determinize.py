"""Phraya determinization for the search AI: a full :class:`State` consistent with one seat's view.

What a seat cannot see (docs/rules/phraya.md#hidden-information) and how each part is drawn, uniformly among
what the view allows:

* the deck's order, and with ``hidden_hands`` the market cards in the other seats' hands: the
  market cards seen nowhere (not on display, in a visible hand or in any discard) are shuffled,
  each hidden hand takes as many as it holds market cards (its count minus the basic cards not in
  its discard), and the rest is the deck in that shuffled order;
* the order tiles in the four stacks and the 2-player removed tiles: per type, the tiles of that
  type seen nowhere (restaurants, fulfilled orders) are shuffled into the stack and the removed one;
* the basket tiles: a basket lying on a stall shows its price only (both goods and price with
  ``open_baskets``), a basket on a boat its goods only, and the bag nothing. The tiles are drawn
  exactly uniformly over every assignment that fits both kinds of constraint (see
  :func:`_basket_plan`), and the bag is the rest in random order.

Everything else is public and is copied from the view. ``view(determinize(v, rng), seat) == v``
holds exactly (tests/test_phraya_search.py checks it at every player count and option set).

The public part of a view is parsed once and kept with the view it came from (the search asks for
hundreds of samples of one view); a view is a value, so a view changed in place after a call is a
new view only if it is a new object.
"""

from __future__ import annotations

import bisect
import itertools
import random
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engines.phraya import data
from engines.phraya.data import BASIC_IDS, BASKET, MARKET_IDS, ORDER_IDS, board
from engines.phraya.state import (
    SETUP_BOAT,
    SETUP_STALL,
    STEP_NAMES,
    Opts,
    Player,
    State,
    nsorted,
    put,
    put_player,
)

_PAIRS: tuple[tuple[str, str], ...] = tuple(sorted({(str(t[0]), str(t[1])) for t in data.BASKET_TILES}))


_TILES_BY_PAIR: dict[tuple[str, str], tuple[str, ...]] = {
    p: tuple(k for k in data.BASKET_IDS if (BASKET[k][0], BASKET[k][1]) == p) for p in _PAIRS
}


_TILE_BY_GOODS_PRICE = {(str(t[0]), str(t[1]), int(t[2])): k for k, t in BASKET.items()}


_STEP_INDEX = {name: i for i, name in enumerate(STEP_NAMES)}


@dataclass(frozen=True)
class _Template:
    """The public part of a view and what the hidden parts must satisfy."""

    state: State  # every public field set; deck, bag, stall baskets, stacks, removed, hands blank
    players: tuple[Player, ...]  # public holdings; hidden hands hold their basic cards only
    card_pool: tuple[str, ...]  # market cards seen nowhere (the deck plus hidden hands)
    hidden_hands: tuple[tuple[int, int], ...]  # (seat, market cards held) per hidden hand
    order_pools: tuple[tuple[str, ...], ...]  # per type: tiles seen nowhere
    stack_sizes: tuple[int, ...]
    removed_per_type: int
    boat_slots: tuple[tuple[int, int, tuple[str, str]], ...]  # (seat, index, goods) of hidden ids
    stall_slots: tuple[tuple[int, int], ...]  # (index in stall_baskets, price) of hidden tiles
    fixed_stalls: tuple[tuple[int, str], ...]  # open_baskets: (index, tile) known exactly
    plan: tuple[tuple[tuple[tuple[str, ...], ...], ...], tuple[float, ...], tuple[str, ...]]
    bag_size: int


_cache: tuple[Any, _Template | None] = (None, None)


def _draw_baskets(
    t: _Template, rng: random.Random
) -> tuple[dict[tuple[int, int], str], list[str], list[str]]:
    """The hidden basket tiles: the boats' slots (by goods pair), the stalls' (by price), the bag."""
    s = t.state
    combos, cum, free = t.plan
    chosen = combos[bisect.bisect_right(cum, rng.random() * cum[-1])] if len(combos) > 1 else combos[0]
    left = set(free)
    boat_ids: dict[tuple[int, int], str] = {}
    by_pair: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for seat, i, pair in t.boat_slots:
        by_pair.setdefault(pair, []).append((seat, i))
    for pair, picked in zip(_PAIRS, chosen, strict=True):
        if not picked:
            continue
        tiles = list(picked)
        rng.shuffle(tiles)
        for slot, tile in zip(by_pair[pair], tiles, strict=True):
            boat_ids[slot] = tile
        left.difference_update(tiles)
    on_stalls = list(s.stall_baskets)
    for i, tile in t.fixed_stalls:
        on_stalls[i] = tile
    for i, price in t.stall_slots:
        options = sorted(x for x in left if int(BASKET[x][2]) == price)
        tile = options[rng.randrange(len(options))]
        on_stalls[i] = tile
        left.discard(tile)
    bag = sorted(left)
    rng.shuffle(bag)
    return boat_ids, on_stalls, bag


def determinize(view: Mapping[str, Any], rng: random.Random) -> State:
    """A full state consistent with ``view`` (a seat's own view), its hidden parts drawn with
    ``rng`` uniformly from what that seat cannot rule out."""
    global _cache
    if _cache[0] is view and _cache[1] is not None:
        t = _cache[1]
    else:
        t = _template(view)
        _cache = (view, t)
    s = t.state
    players = list(t.players)
    # market cards: hidden hands, then the deck
    pool = list(t.card_pool)
    rng.shuffle(pool)
    at = 0
    for seat, held in t.hidden_hands:
        p = players[seat]
        hand = tuple(nsorted((*p.hand, *pool[at : at + held])))
        at += held
        players[seat] = put_player(p, hand=hand)
    deck = tuple(pool[at:])
    # order tiles
    stacks = []
    removed = []
    for pool_t, size in zip(t.order_pools, t.stack_sizes, strict=True):
        tiles = list(pool_t)
        rng.shuffle(tiles)
        removed += tiles[: t.removed_per_type]
        stacks.append(tuple(tiles[t.removed_per_type : t.removed_per_type + size]))
    boat_ids, on_stalls, bag = _draw_baskets(t, rng)
    if boat_ids:
        for seat in {q for q, _ in boat_ids}:
            p = players[seat]
            baskets = tuple(boat_ids.get((seat, i), b) for i, b in enumerate(p.baskets))
            players[seat] = put_player(p, baskets=baskets)
    return put(
        s,
        players=tuple(players),
        deck=deck,
        stacks=tuple(stacks),
        removed=tuple(removed),
        stall_baskets=tuple(on_stalls),
        bag=tuple(bag),
    )


def _opts(o: Mapping[str, Any]) -> Opts:
    return Opts(
        layout=str(o["layout"]),
        starting_boats=bool(o["starting_boats"]),
        hidden_hands=bool(o["hidden_hands"]),
        open_baskets=bool(o["open_baskets"]),
        blocked_allow_retrieve=bool(o["blocked_allow_retrieve"]),
        round_limit=int(o["round_limit"]),
    )


_Seen = tuple[list[Player], set[str], list[tuple[int, int]], list[tuple[int, int, tuple[str, str]]], set[str]]


def _players(v: Mapping[str, Any], opts: Opts) -> _Seen:
    """Each seat as its view shows it, with the cards and order tiles seen, the hidden hands
    (seat, market cards held) and the boats' basket slots whose tiles are to draw."""
    players = []
    seen_cards: set[str] = set()
    hidden: list[tuple[int, int]] = []
    boat_slots: list[tuple[int, int, tuple[str, str]]] = []
    seen_orders: set[str] = set()
    for q, pv in enumerate(v["players"]):
        discard = tuple(pv["discard"])
        seen_cards.update(discard)
        if pv["hand"] is not None:
            hand = tuple(c["id"] for c in pv["hand"])
            seen_cards.update(hand)
        else:
            hand = tuple(c for c in BASIC_IDS if c not in discard)
            hidden.append((q, int(pv["hand_count"]) - len(hand)))
        baskets: list[str] = []
        for i, goods in enumerate(pv["baskets"]):
            if i < 2 and not opts.starting_boats:
                baskets.append(data.PRINTED_BASKET_IDS[i])
            else:
                baskets.append("")
                pair = (str(goods[0]), str(goods[1]))
                boat_slots.append((q, i, pair))
        orders = tuple(od["id"] for od in pv["orders"])
        seen_orders.update(orders)
        players.append(
            Player(
                coins=int(pv["coins"]),
                flowers=int(pv["flowers"]),
                favors=int(pv["favors"]),
                goods=tuple(int(pv["goods"][g]) for g in data.GOODS),  # type: ignore[arg-type]
                baskets=tuple(baskets),
                rowers=int(pv["rowers"]),
                stalls_left=int(pv["stalls_left"]),
                disks_left=int(pv["disks_left"]),
                hand=hand,
                discard=discard,
                orders=orders,
                start_baskets=2,
            )
        )
    return players, seen_cards, hidden, boat_slots, seen_orders


def _stall_baskets(
    stalls: Mapping[str, Any], b: board.Board
) -> tuple[list[tuple[int, int]], list[tuple[int, str]]]:
    """The basket stalls whose tile is to draw (index, price) and those whose tile is known."""
    stall_slots: list[tuple[int, int]] = []
    fixed: list[tuple[int, str]] = []
    for i, sid in enumerate(b.baskets):
        bv = stalls[sid]["basket"]
        if bv is None:
            continue
        if bv["goods"] is not None:
            fixed.append((i, _TILE_BY_GOODS_PRICE[(bv["goods"][0], bv["goods"][1], int(bv["price"]))]))
        else:
            stall_slots.append((i, int(bv["price"])))
    return stall_slots, fixed


def _public_state(v: Mapping[str, Any], opts: Opts, layout: board.Layout, players: list[Player]) -> State:
    """The state the view shows, with nothing hidden drawn yet (deck, bag, stacks empty)."""
    n = int(v["n_players"])
    b = board.build(layout)
    stalls = {st["id"]: st for st in v["board"]["stalls"]}
    owner = tuple(-1 if stalls[x]["owner"] is None else int(stalls[x]["owner"]) for x in board.STALLS)
    orders_on = tuple(stalls[x]["order"]["id"] if stalls[x]["order"] else "" for x in b.restaurants)
    step = _STEP_INDEX[v["step"]]
    first, cur = int(v["first"]), int(v["current"])
    boats = tuple(x or "" for x in v["boats"])
    setup_i = 0
    if step == SETUP_BOAT:
        setup_i = sum(1 for x in boats if x)
    elif step == SETUP_STALL and v["to_move"]:
        order = [(first + k) % n for k in range(n)]
        setup_i = n - 1 - order.index(int(v["to_move"][0]))
    supply = v["supply"]
    temple = tuple(tuple(int(q) for q in v["temple"]["rows"][g]) for g in data.TEMPLE_ROWS)
    turn = v["turn"]
    return State(
        n=n,
        opts=opts,
        layout=layout,
        step=step,
        first=first,
        cur=cur,
        round=int(v["round"]),
        setup_i=setup_i,
        owner=owner,
        boats=boats,
        barge=str(v["barge"]),
        prices=tuple(int(v["prices"][g]["index"]) for g in data.GOODS),  # type: ignore[arg-type]
        merchant=int(v["merchant"]),
        display=tuple(c["id"] if c else "" for c in v["display"]),
        deck=(),
        bag=(),
        stall_baskets=("",) * len(b.baskets),
        stacks=((), (), (), ()),
        removed=(),
        orders_on=orders_on,
        king=tuple(-1 if sp["seat"] is None else int(sp["seat"]) for sp in v["king"]),
        temple=temple,
        supply_goods=tuple(int(supply[g]) for g in data.GOODS),  # type: ignore[arg-type]
        supply_flowers=int(supply["flowers"]),
        supply_favors=int(supply["favors"]),
        supply_rowers=int(supply["rowers"]),
        players=tuple(players),
        card=turn["card"] or "",
        pending=turn["pending"] or "",
        effects=tuple(turn["effects_left"]),
        passives=tuple(turn["passives"]),
        used=tuple(turn["used"]),
        last_move=tuple(v["last_move"]),
        end_reason=str(v["end_reason"]),
        final_sale=tuple(int(x) for x in v["final_sale"]),
    )


def _template(v: Mapping[str, Any]) -> _Template:
    opts = _opts(v["options"])
    layout: board.Layout = tuple((str(a), str(b), str(c)) for a, b, c in v["board"]["layout"])
    b = board.build(layout)
    stalls = {st["id"]: st for st in v["board"]["stalls"]}
    players, seen_cards, hidden, boat_slots, seen_orders = _players(v, opts)
    state = _public_state(v, opts, layout, players)
    seen_cards.update(c["id"] for c in v["display"] if c)
    seen_orders.update(x for x in state.orders_on if x)
    card_pool = tuple(c for c in MARKET_IDS if c not in seen_cards)
    # order tiles
    removed_per_type = 1 if int(v["removed"]) else 0
    order_pools = tuple(
        tuple(x for x in ORDER_IDS if x[1] == str(k + 1) and x not in seen_orders) for k in range(4)
    )
    stack_sizes = tuple(int(c) for c in v["stacks"])
    # baskets
    stall_slots, fixed = _stall_baskets(stalls, b)
    known = {k for _, k in fixed}
    free = tuple(k for k in data.BASKET_IDS if k not in known)
    need = tuple(sum(1 for *_, p in boat_slots if p == pair) for pair in _PAIRS)
    prices = tuple(sorted(p for _, p in stall_slots))
    plan = _basket_plan(free, need, prices)
    return _Template(
        state=state,
        players=tuple(players),
        card_pool=card_pool,
        hidden_hands=tuple(hidden),
        order_pools=order_pools,
        stack_sizes=stack_sizes,
        removed_per_type=removed_per_type,
        boat_slots=tuple(boat_slots),
        stall_slots=tuple(stall_slots),
        fixed_stalls=tuple(fixed),
        plan=plan,
        bag_size=int(v["bag"]),
    )


@lru_cache(maxsize=256)
def _basket_plan(
    free: tuple[str, ...], need: tuple[int, ...], prices: tuple[int, ...]
) -> tuple[tuple[tuple[tuple[str, ...], ...], ...], tuple[float, ...], tuple[str, ...]]:
    """How to draw the hidden basket tiles exactly uniformly: every choice of the boats' tiles
    (per goods pair, a set of ``need[pair]`` tiles of that pair among ``free``) with its weight,
    the number of ways the stalls' prices can then be met (a falling factorial per price); the
    boats' tiles are then dealt in random order, the stalls' drawn one by one and the rest is the
    bag, which makes every full assignment equally likely. Returns (choices, cumulative weights,
    free). Raises ValueError when no assignment fits (a view no state can show)."""
    per_pair = [
        itertools.combinations([k for k in free if k in _TILES_BY_PAIR[p]], m)
        for p, m in zip(_PAIRS, need, strict=True)
    ]
    want: dict[int, int] = {}
    for p in prices:
        want[p] = want.get(p, 0) + 1
    combos: list[tuple[tuple[str, ...], ...]] = []
    cum: list[float] = []
    total = 0.0
    for choice in itertools.product(*[list(c) for c in per_pair]):
        used = {k for group in choice for k in group}
        weight = 1.0
        for price, count in want.items():
            avail = sum(1 for k in free if k not in used and int(BASKET[k][2]) == price)
            for j in range(count):
                weight *= max(0, avail - j)
        if weight > 0:
            total += weight
            combos.append(choice)
            cum.append(total)
    if not combos:
        raise ValueError("no basket tiles fit this view")
    return tuple(combos), tuple(cum), free
