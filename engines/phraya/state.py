"""The Phraya state value, its step constants, derived card tables and small pure helpers.

A :class:`State` is a frozen dataclass of ints, strings and tuples; per-seat holdings are
:class:`Player` values. Its fields are exactly what ``==``, ``base.state_fingerprint`` (the
stored snapshots) and the views read, so they keep their names and meaning.

The shape that makes random playouts fast (issue #13):

* Copies go through the instance ``__dict__``: :func:`put` copies that dict and writes the
  changes (no ``dataclasses.replace``, no ``__init__``); ``turn.apply`` copies it once per
  action (:func:`fresh`) and then writes into its own copy in place, so an action costs one
  copy however many fields it touches. A state is never written to once ``apply`` returns it.
* Two non-field entries may ride along in ``__dict__`` (invisible to ``==``, the fingerprint
  and the views): :data:`LEGAL`, the actor's sorted legal list, which the engine fills on first
  use and ``turn.apply`` fills when it has just worked the list out (the ACT list, the move
  list), and :data:`HELD`, the count of end conditions, counted again only after an action
  that moves a King or Temple disk or a stall piece. :func:`put` drops both; :func:`fresh`
  drops :data:`LEGAL`.
* Boat movement is a lookup: ``board.reach`` gives, per (start, rowers, barge crossing), the
  reachable sections as a bit mask (boats only stop a boat ending on them), so a destination
  list is ``mask & ~boats`` (:func:`move_mask`) and "blocked" is a zero mask.
* The legal lists that depend on a few values (hand, pending effect, Merchant space, move mask,
  an unsorted ACT list) are built once per value in ``flow`` and reused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache
from typing import Any

from engines.phraya import board, data

# --------------------------------------------------------------------------- steps

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

GI = {g: i for i, g in enumerate(data.GOODS)}
TEMPLE_ROW = {g: i for i, g in enumerate(data.TEMPLE_ROWS)}
KING_SPACES: tuple[str, ...] = tuple(
    f"{r}{k + 1}" for r in data.KING_ROWS for k in range(len(data.KING_CHART[r]))
)
KING_INDEX = {sp: i for i, sp in enumerate(KING_SPACES)}
ORDER_IDS: tuple[str, ...] = tuple(t[0] for t in data.RESTAURANT_TILES)
ORDER = {t[0]: t for t in data.RESTAURANT_TILES}
BASKET = {k: data.BASKET_TILES[i] for i, k in enumerate(data.BASKET_IDS)}


@dataclass(frozen=True)
class Card:
    """A card's data: ``immediate``/``passive``/``endgame`` are the spec's effect texts."""

    id: str
    name: str
    coins: int
    flowers: int
    immediate: tuple[str, ...]
    passive: tuple[str, ...]
    endgame: tuple[str, ...]


CARDS: dict[str, Card] = {c[0]: Card(*c) for c in (*data.BASIC_CARDS, *data.MARKET_CARDS)}
BASIC_IDS: tuple[str, ...] = tuple(c[0] for c in data.BASIC_CARDS)
MARKET_IDS: tuple[str, ...] = tuple(c[0] for c in data.MARKET_CARDS)


@lru_cache(maxsize=1 << 14)
def natural_key(text: str) -> tuple[Any, ...]:
    """Sort key of spec §14.2: digit runs compare as integers, the rest as strings."""
    parts = re.split(r"(\d+)", text)
    return tuple(int(p) if i % 2 else p for i, p in enumerate(parts))


def nsorted(items: Any) -> list[str]:
    """``items`` (strings) in natural order."""
    return sorted(items, key=natural_key)


@cache
def parse_range(effect: str) -> tuple[int, int]:
    """``(lo, hi)`` of a ``mer a-b …`` or ``barge a-b …`` effect text."""
    lo, hi = effect.split()[1].split("-")
    return int(lo), int(hi)


@cache
def merchant_mods(effect: str) -> tuple[int, ...]:
    """The price modifications of a ``mer`` effect, in card order (one or two ints)."""
    return tuple(int(m) for m in effect.split()[2].split("/"))


# --------------------------------------------------------------------------- options


@dataclass(frozen=True)
class Opts:
    """The options of spec §9 (``players`` is the state's ``n``)."""

    layout: str = "default"
    starting_boats: bool = False
    hidden_hands: bool = False
    open_baskets: bool = False
    blocked_allow_retrieve: bool = False
    round_limit: int = 50


# --------------------------------------------------------------------------- the state


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

    ``owner`` is indexed like ``board.STALLS`` (-1: no owner); ``boats`` holds a section id per
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


_new = object.__new__
_osa = object.__setattr__

LEGAL = "_legal"
"""The ``__dict__`` key (not a dataclass field: ``==``, the fingerprint and the view never see
it) under which a finished state may carry its actor's legal list, ``(seat, texts)``; every copy
below drops it."""


HELD = "_held"
"""The ``__dict__`` key (not a field either) under which ``turn.apply`` keeps how many end
conditions (§7) hold, so that an action that changes no King space, Temple row or stall piece
need not count them again. :func:`fresh` keeps it (``turn`` drops it when it changes those),
:func:`put` drops it."""


def put(s: State, **changes: Any) -> State:
    """A copy of ``s`` with ``changes`` (like :func:`dataclasses.replace`, without its checks:
    callers pass field names of :class:`State` only)."""
    d = s.__dict__.copy()
    d.pop(LEGAL, None)
    d.pop(HELD, None)
    d.update(changes)
    out = _new(State)
    _osa(out, "__dict__", d)
    return out


def fresh(s: State) -> State:
    """A copy of ``s`` that the caller owns and may change in place (``turn.apply`` builds its
    result this way: one copy per action, then plain dict writes). Keeps :data:`HELD`."""
    d = s.__dict__.copy()
    d.pop(LEGAL, None)
    out = _new(State)
    _osa(out, "__dict__", d)
    return out


def put_player(p: Player, **changes: Any) -> Player:
    """A copy of ``p`` with ``changes``."""
    d = p.__dict__.copy()
    d.update(changes)
    out = _new(Player)
    _osa(out, "__dict__", d)
    return out


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


def occupied(s: State, seat: int) -> frozenset[str]:
    """Sections holding another seat's boat."""
    return frozenset(b for q, b in enumerate(s.boats) if q != seat and b)


_SEC_BIT = board.SEC_BIT
_reach = board.reach


def occupied_mask(s: State, seat: int) -> int:
    """:func:`occupied` as a section mask."""
    m = 0
    for q, b in enumerate(s.boats):
        if q != seat and b:
            m |= _SEC_BIT[b]
    return m


def move_mask(s: State, seat: int, start: str | None = None, barge: str | None = None) -> int:
    """:func:`moves_from` as a section mask (0: blocked)."""
    occ = 0
    for q, b in enumerate(s.boats):
        if q != seat and b:
            occ |= _SEC_BIT[b]
    return _reach(start or s.boats[seat], s.players[seat].rowers, barge or s.barge)[0] & ~occ


def moves_from(s: State, seat: int, start: str | None = None, barge: str | None = None) -> tuple[str, ...]:
    """Legal destinations of ``seat``'s normal movement (from ``start``, with the barge at
    ``barge``; defaults: the boat and the barge now), sorted."""
    return board.mask_sections(move_mask(s, seat, start, barge))


def premoves(s: State, seat: int) -> tuple[str, ...]:
    """Ends of exactly-2-section paths, else of 1-section paths (ruling 3)."""
    occ = occupied_mask(s, seat)
    two = _reach(s.boats[seat], 2, s.barge)[1] & ~occ
    return board.mask_sections(two if two else _reach(s.boats[seat], 1, s.barge)[0] & ~occ)


_KING_ROW_SLICES = ((0, 6), (6, 11), (11, 16))
_BUDDHA_COLUMN = data.TEMPLE_SECTIONS[-1][0]
assert tuple(len(data.KING_CHART[r]) for r in data.KING_ROWS) == (6, 5, 5)  # the slices above


def conditions(s: State) -> tuple[bool, bool, bool]:
    """(Tithe, Buddha, Supremacy) of spec §7."""
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
