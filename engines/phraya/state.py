"""The Phraya state value, its step constants, set-up, invariants and small pure helpers.

A :class:`State` is a frozen dataclass of ints, strings and tuples; per-seat holdings are
:class:`Player` values. Its fields are exactly what ``==``, ``base.state_fingerprint`` (the
stored snapshots) and the views read, so they keep their names and meaning.

The shape that makes random playouts fast (issue #13):

* Copies go through :mod:`engines.fastcopy`: :func:`put` is its ``replace`` (no ``__init__``);
  ``apply.apply`` copies once per action (``thaw``, as :func:`fresh` does) and then writes into
  its own copy in place (``poke``), so an action costs one copy however many fields it touches.
  A state is never written to once ``apply`` returns it.
* Two :func:`engines.fastcopy.memo` entries may ride along (invisible to ``==``, the fingerprint
  and the views): :data:`LEGAL`, the actor's sorted legal list, which the engine fills on first
  use and ``apply.apply`` fills when it has just worked the list out (the ACT list, the move
  list), and :data:`HELD`, the count of end conditions, counted again only after an action
  that moves a King or Temple disk or a stall piece. :func:`put` drops both; :func:`fresh`
  drops :data:`LEGAL`.
* Boat movement is a lookup: ``data.board.reach`` gives, per (start, rowers, barge crossing), the
  reachable sections as a bit mask (boats only stop a boat ending on them), so a destination
  list is ``mask & ~boats`` (:func:`move_mask`) and "blocked" is a zero mask.
* The legal lists that depend on a few values (hand, pending effect, Merchant space, move mask,
  an unsorted ACT list) are built once per value in ``legal`` and reused.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from engines import fastcopy
from engines.base import BadOption, Option
from engines.phraya import data
from engines.phraya.data import BASIC_IDS, BASKET, CARDS, GI, MARKET_IDS, ORDER_IDS, board

(SETUP_BOAT, SETUP_STALL, CARD, MERCHANT, PRICE, BARGE, DISCARD, PREMOVE, REFRESH, MOVE, ACT, OVER) = range(
    12
)


STEP_NAMES = (
    "setup_boat",
    "setup_stall",
    "card",
    "merchant",
    "price",
    "barge",
    "discard",
    "premove",
    "refresh",
    "move",
    "act",
    "over",
)


@lru_cache(maxsize=1 << 14)
def natural_key(text: str) -> tuple[Any, ...]:
    """Sort key of docs/rules/phraya.md#natural-order: digit runs compare as integers, the rest as strings."""
    parts = re.split(r"(\d+)", text)
    return tuple(int(p) if i % 2 else p for i, p in enumerate(parts))


def nsorted(items: Any) -> list[str]:
    """``items`` (strings) in natural order."""
    return sorted(items, key=natural_key)


@dataclass(frozen=True)
class Opts:
    """The options (docs/rules/phraya.md#options) (``players`` is the state's ``n``)."""

    layout: str = "default"
    starting_boats: bool = False
    hidden_hands: bool = False
    open_baskets: bool = False
    blocked_allow_retrieve: bool = False
    round_limit: int = 50


@dataclass(frozen=True)
class Player:
    """One seat's holdings. ``goods`` is indexed like ``data.GOODS``; ``baskets`` holds basket
    ids (``p1``/``p2`` for the printed baskets, ``kNN`` for tiles); ``orders`` fulfilled tiles."""

    coins: int
    flowers: int = 0
    favors: int = 0
    goods: tuple[int, int, int, int] = (0, 0, 0, 0)
    baskets: tuple[str, ...] = data.PRINTED_BASKET_IDS
    rowers: int = data.ROWERS_START
    stalls_left: int = 5
    disks_left: int = data.DISKS_PER_PLAYER
    hand: tuple[str, ...] = BASIC_IDS
    discard: tuple[str, ...] = ()
    orders: tuple[str, ...] = ()
    start_baskets: int = 2  # how many of ``baskets`` fill the starting spaces


@dataclass(frozen=True)
class State:
    """One moment of a Phraya game (a value; never mutated).

    ``owner`` is indexed like ``data.board.STALLS`` (-1: no owner); ``boats`` holds a section id per
    seat ("" before set-up places it). ``stall_baskets``/``orders_on`` follow the board's sorted
    basket/restaurant stall ids ("" empty). ``king`` follows ``KING_SPACES`` (-1 empty);
    ``temple`` holds one tuple of seats per ``data.TEMPLE_ROWS`` row, left to right.
    Turn scratch: ``card`` played, ``pending`` effect being resolved, ``effects`` still queued,
    ``passives`` of the card, ``used`` stall ids (and ``barge``) interacted with this turn.
    """

    n: int
    opts: Opts
    layout: board.Layout
    step: int
    first: int
    cur: int
    round: int
    setup_i: int
    owner: tuple[int, ...]
    boats: tuple[str, ...]
    barge: str
    prices: tuple[int, int, int, int]
    merchant: int
    display: tuple[str, ...]
    deck: tuple[str, ...]
    bag: tuple[str, ...]
    stall_baskets: tuple[str, ...]
    stacks: tuple[tuple[str, ...], ...]
    removed: tuple[str, ...]
    orders_on: tuple[str, ...]
    king: tuple[int, ...]
    temple: tuple[tuple[int, ...], ...]
    supply_goods: tuple[int, int, int, int]
    supply_flowers: int
    supply_favors: int
    supply_rowers: int
    players: tuple[Player, ...]
    card: str = ""
    pending: str = ""
    effects: tuple[str, ...] = ()
    passives: tuple[str, ...] = ()
    used: tuple[str, ...] = ()
    last_move: tuple[str, ...] = ()
    end_reason: str = ""
    final_sale: tuple[int, ...] = ()

    @cached_property
    def board(self) -> board.Board:
        return board.build(self.layout)


LEGAL = "_legal"
"""The :func:`engines.fastcopy.memo` key (not a dataclass field: ``==``, the fingerprint and the
view never see it) under which a finished state may carry its actor's legal list, ``(seat,
texts)``; every copy below drops it."""


HELD = "_held"
"""The :func:`engines.fastcopy.memo` key (not a field either) under which ``apply.apply`` keeps
how many end conditions (docs/rules/phraya.md#end) hold, so that an action that changes no King
space, Temple row or stall piece need not count them again. :func:`fresh` keeps it (``apply``
drops it when it changes those), :func:`put` drops it."""


def put(s: State, **changes: Any) -> State:
    """A copy of ``s`` with ``changes`` (like :func:`dataclasses.replace`, without its checks:
    callers pass field names of :class:`State` only)."""
    out = fastcopy.replace(s, **changes)
    fastcopy.forget(out, LEGAL)
    fastcopy.forget(out, HELD)
    return out


def fresh(s: State) -> State:
    """A copy of ``s`` that the caller owns and may change in place (``apply.apply`` builds its
    result this way: one copy per action, then :func:`engines.fastcopy.poke` writes). Keeps :data:`HELD`."""
    out = fastcopy.thaw(s)
    fastcopy.forget(out, LEGAL)
    return out


def put_player(p: Player, **changes: Any) -> Player:
    """A copy of ``p`` with ``changes``."""
    return fastcopy.replace(p, **changes)


def with_player(s: State, seat: int, **changes: Any) -> State:
    """``s`` with ``seat``'s :class:`Player` fields replaced by ``changes``."""
    ps = list(s.players)
    ps[seat] = put_player(ps[seat], **changes)
    return put(s, players=tuple(ps))


def setup_order(s: State) -> tuple[int, ...]:
    """Seats in turn order from the first player."""
    return tuple((s.first + k) % s.n for k in range(s.n))


def capacity(p: Player) -> tuple[int, int, int, int]:
    """How many of each good ``p``'s baskets hold."""
    return _capacity(p.baskets)


@lru_cache(maxsize=4096)
def _capacity(baskets: tuple[str, ...]) -> tuple[int, int, int, int]:
    cap = [0, 0, 0, 0]
    for b in baskets:
        pair = data.BOAT_PRINTED_BASKETS[int(b[1]) - 1] if b[0] == "p" else BASKET[b][:2]
        for g in pair:
            cap[GI[str(g)]] += 1
    return cap[0], cap[1], cap[2], cap[3]


def price(s: State, good: str) -> int:
    """The current price of ``good``."""
    return data.PRICE_ROWS[good][s.prices[GI[good]]]


_KING_ROW_SLICES = ((0, 6), (6, 11), (11, 16))


_BUDDHA_COLUMN = data.TEMPLE_SECTIONS[-1][0]
assert tuple(len(data.KING_CHART[r]) for r in data.KING_ROWS) == (6, 5, 5)  # the slices above


def conditions(s: State) -> tuple[bool, bool, bool]:
    """(Tithe, Buddha, Supremacy): docs/rules/phraya.md#end."""
    king = s.king  # written out: this runs after every action, and generators cost here
    tithe = -1 not in king[0:6] or -1 not in king[6:11] or -1 not in king[11:16]
    t0, t1, t2, t3 = s.temple
    last = _BUDDHA_COLUMN
    buddha = len(t0) > last or len(t1) > last or len(t2) > last or len(t3) > last
    supremacy = False
    for p in s.players:
        if p.stalls_left == 0:
            supremacy = True
            break
    return tithe, buddha, supremacy


def stall_counts(s: State, seat: int, with_cards: bool) -> dict[str, int]:
    """Per good, the board stalls ``seat`` owns (plus ``as:G`` market cards if ``with_cards``)."""
    out = {g: 0 for g in data.GOODS}
    stalls = s.board.stalls
    for i, q in enumerate(s.owner):
        if q == seat:
            good = stalls[board.STALLS[i]].good
            if good is not None:
                out[good] += 1
    if with_cards:
        p = s.players[seat]
        for c in p.hand + p.discard:
            for e in CARDS[c].endgame:
                if e.startswith("as:"):
                    out[e[3:]] += 1
    return out


def t4(v: list[int]) -> tuple[int, int, int, int]:
    """A 4-list as a 4-tuple."""
    return v[0], v[1], v[2], v[3]


OPTIONS = (
    Option(
        "layout",
        str,
        "default",
        "Board parts: the default layout or a random one.",
        choices=("default", "random"),
    ),
    Option(
        "starting_boats",
        bool,
        False,
        "Advanced: boats start with 2 dealt baskets (and extra coins to even out their prices).",
    ),
    Option("hidden_hands", bool, False, "Other players see only how many cards you hold."),
    Option("open_baskets", bool, False, "Show the goods of the baskets lying on stalls."),
    Option("blocked_allow_retrieve", bool, False, "A blocked player may always play Return to Pier (b1)."),
    Option("round_limit", int, 50, "Safety cap on rounds (0 = none; not at 2 players).", min=0, max=500),
)


def new_game(seed: int, n: int, opts: Opts) -> State:
    """A new game in SETUP_BOAT, built with the random draws of docs/rules/phraya.md#setup-rng in that
    order."""
    rng = random.Random(seed)
    if opts.layout == "random":
        tiles = ["A", "B", "C", "D"]
        rng.shuffle(tiles)
        sides = ["ab"[rng.randrange(2)] for _ in data.POSITION_ORDER]
        layout: board.Layout = tuple((p, tiles[i], sides[i]) for i, p in enumerate(data.POSITION_ORDER))
    else:
        layout = board.DEFAULT_LAYOUT
    b = board.build(layout)
    first = rng.randrange(n)
    cards = list(MARKET_IDS)
    rng.shuffle(cards)
    display, deck = tuple(cards[: data.DISPLAY_SLOTS]), tuple(cards[data.DISPLAY_SLOTS :])
    bag = list(data.BASKET_IDS)
    rng.shuffle(bag)
    order = [(first + k) % n for k in range(n)]
    dealt: dict[int, tuple[str, str]] = {}
    if opts.starting_boats:
        for q in order:
            dealt[q] = (bag.pop(0), bag.pop(0))
    on_stalls = tuple(bag.pop(0) if bag else "" for _ in b.baskets)
    stacks = []
    removed = []
    for t in range(1, 5):
        st = [o for o in ORDER_IDS if o[1] == str(t)]
        rng.shuffle(st)
        if n == 2:
            removed.append(st.pop(0))
        stacks.append(st)
    orders_on = tuple(stacks[0].pop(0) if stacks[0] else "" for _ in b.restaurants)
    values = {q: -(-(int(BASKET[a][2]) + int(BASKET[c][2])) // 2) for q, (a, c) in dealt.items()}
    top = max(values.values()) if values else 0
    players = []
    for q in range(n):
        coins = data.START_COINS + order.index(q)
        baskets: tuple[str, ...] = data.PRINTED_BASKET_IDS
        if opts.starting_boats:
            baskets = dealt[q]
            coins += top - values[q]
        players.append(Player(coins=coins, baskets=baskets, stalls_left=data.STALLS_PER_PLAYER[n]))
    g = data.GOODS_SUPPLY
    return State(
        n=n,
        opts=opts,
        layout=layout,
        step=SETUP_BOAT,
        first=first,
        cur=first,
        round=0,
        setup_i=0,
        owner=(-1,) * len(board.STALLS),
        boats=("",) * n,
        barge=data.BARGE_START,
        prices=(data.PRICE_START_INDEX,) * 4,
        merchant=data.MERCHANT_START,
        display=display,
        deck=deck,
        bag=tuple(bag),
        stall_baskets=on_stalls,
        stacks=tuple(tuple(x) for x in stacks),
        removed=tuple(removed),
        orders_on=orders_on,
        king=(-1,) * 16,
        temple=((), (), (), ()),
        supply_goods=(g, g, g, g),
        supply_flowers=data.FLOWERS,
        supply_favors=data.FAVORS,
        supply_rowers=data.ROWER_TILES,
        players=tuple(players),
    )


_MARKET_SET = frozenset(MARKET_IDS)


@lru_cache(maxsize=64)
def _ownable_mask(layout: board.Layout) -> tuple[bool, ...]:
    b = board.build(layout)
    return tuple(b.stalls[x].ownable for x in board.STALLS)


def _owned(owner: tuple[int, ...]) -> list[int]:
    return [i for i, q in enumerate(owner) if q >= 0]


def setup(seed: int, n: int, o: Mapping[str, Any]) -> State:
    """The first state from resolved options ``o``. Raises :class:`BadOption` for ``round_limit``
    0 at 2 players (two end conditions may never hold there)."""
    if n == 2 and o["round_limit"] == 0:
        raise BadOption(
            "At 2 players the game may never reach two end conditions, so `round_limit` must be at least 1."
        )
    opts = Opts(
        layout=str(o["layout"]),
        starting_boats=bool(o["starting_boats"]),
        hidden_hands=bool(o["hidden_hands"]),
        open_baskets=bool(o["open_baskets"]),
        blocked_allow_retrieve=bool(o["blocked_allow_retrieve"]),
        round_limit=int(o["round_limit"]),
    )
    return new_game(seed, n, opts)


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
