"""The Phraya state value, its step constants and small pure helpers (the first state is built in
``setup``, the rules it keeps are checked in ``invariants``).

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

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from engines import fastcopy
from engines.phraya import data
from engines.phraya.data import (
    BASIC_IDS,
    BASKET,
    CARDS,
    GI,
    GOODS,
    ORDER,
    TEMPLE_ROW,
    board,
)

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
texts)``, or None for no list kept; every copy below drops it."""


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


def unit_price(s: State, good: str) -> int:
    """What one ``good`` costs the active player now (``cheap:G`` gives the row minimum)."""
    if "cheap:" + good in s.passives:
        return data.PRICE_ROWS[good][0]
    return price(s, good)


_ORDER_NEED = {oid: tuple(t[2].split().count(g) for g in GOODS) for oid, t in ORDER.items()}


def order_need(s: State, oid: str) -> list[int]:
    """Goods an order needs, per good, after ``ignore:G`` (docs/rules/phraya.md#ignore-good)."""
    need = list(_ORDER_NEED[oid])
    for pas in s.passives:
        if pas.startswith("ignore:") and need[GI[pas[7:]]] > 0:
            need[GI[pas[7:]]] -= 1
    return need


def temple_cost(s: State, good: str) -> int | None:
    """Flowers for the next ``good`` offering (None when its row is full)."""
    row = s.temple[TEMPLE_ROW[good]]
    if len(row) >= data.TEMPLE_COLUMNS:
        return None
    cost = data.TEMPLE_FLOWER_COST[len(row)]
    if "temple-2" in s.passives:
        cost = max(0, cost - 2)
    return cost


def king_pay(space: str) -> tuple[int, int, tuple[str, ...]]:
    """(coins, flowers, goods) a King's Chart space costs."""
    row, k = space[0], int(space[1:]) - 1
    if row == "c":
        return data.KING_COINS[k], 0, ()
    if row == "f":
        return 0, data.KING_FLOWERS[k], ()
    return 0, 0, data.KING_GOODS[k]


def _can_pay_goods(goods: tuple[int, ...], need: tuple[str, ...]) -> bool:
    cnt = [0, 0, 0, 0]
    for g in need:
        cnt[GI[g]] += 1
    return all(goods[i] >= cnt[i] for i in range(4))
