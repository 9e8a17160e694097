"""The Kathai state value, its set-up and its invariants: frozen dataclasses of tuples.

Cards are ints 1..55 (``t1``..``t55``); goods are ints 0..4 (index into ``data.GOODS``); the
market lists goods by position (index 0 is position 1). Hands and profit piles are sorted.

The shape that keeps it fast (issue #13): a state is one flat frozen :class:`State` whose fields
are ints, strings and tuples of ints (per-seat rows are tuples indexed by seat), so a move
copies it once with :func:`upd` (:func:`engines.fastcopy.replace`: no ``__init__``, no
``dataclasses.replace``) and shares every untouched row; :func:`put` and :func:`put_int` replace
one seat's entry. An open :class:`Offer` gains a decliner through :func:`declined_by`, built the
same way. Values stay immutable and compare with ``==``. What costs the time is not the state
but the legal list: the offers of the active seat (see ``legal.py``), which random play rebuilds
after every trade.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from engines import fastcopy
from engines.kathai.data import (
    DEAL,
    GOODS,
    HAND_LIMIT,
    MAX_OFFERS,
    MAX_OFFERS_CAP,
    NCARDS,
    NGOODS,
    PRICES,
    SELLABLE,
    TOTAL_ITEMS,
    TURN_LIMIT,
    TURN_LIMIT_CAP,
)
from engines.options import Option

MAIN = 0
REPLY = 1
TRADING = 2
OVER = 3
STEP_NAMES = ("main", "reply", "trading", "over")

ALL = -1
"""Offer target meaning every opponent."""

OPTIONS = (
    Option(
        "first_player",
        str,
        "random",
        "Who starts: random, or seat0 (seat the youngest first).",
        choices=("random", "seat0"),
    ),
    Option(
        "free_asking",
        bool,
        False,
        "A refused ask does not commit the turn: sell, bribe and buy stay open until a trade.",
    ),
    Option("allow_gifts", bool, False, "Trades may be one-sided (give nothing, or ask `any 0`)."),
    Option(
        "bribe_lock",
        str,
        "pair",
        "The lock forbids switching back the pair (pair) or moving either locked goods (goods).",
        choices=("pair", "goods"),
    ),
    Option("max_offers", int, MAX_OFFERS, "Offers a player may make per turn.", min=1, max=MAX_OFFERS_CAP),
    Option(
        "turn_limit",
        int,
        TURN_LIMIT,
        "The game ends after this many turns (stalled games).",
        min=1,
        max=TURN_LIMIT_CAP,
    ),
)
"""The table options (resolved into :class:`Opts`)."""


@dataclass(frozen=True)
class Opts:
    """The resolved options (the player count is not one: docs/rules/kathai.md#players-not-an-option)."""

    first_player: str = "random"
    free_asking: bool = False
    allow_gifts: bool = False
    bribe_lock: str = "pair"
    max_offers: int = 6
    turn_limit: int = 200

    @classmethod
    def of(cls, options: Mapping[str, Any]) -> Opts:
        """The options as resolved by ``Engine.resolve_options`` (every name present)."""
        return cls(**{f.name: options[f.name] for f in fields(cls)})


@dataclass(frozen=True)
class Lock:
    """The bribe card on two adjacent goods: ``pair`` in goods order, the card, its placer and
    the turn it was placed in (0 in built positions)."""

    pair: tuple[int, int]
    card: int
    by: int
    turn: int = 0


@dataclass(frozen=True)
class Offer:
    """An open ask of the active seat ``by``: ``give`` for ``k`` cards showing ``want``
    (``data.ANY`` for any). ``target`` is a seat or :data:`ALL`; ``addressees`` must answer
    (the eligible seats), ``skipped`` are opponents of an ``all`` offer who were not eligible."""

    by: int
    target: int
    give: tuple[int, ...]
    want: int
    k: int
    addressees: tuple[int, ...]
    skipped: tuple[int, ...]
    declined: tuple[int, ...] = ()


@dataclass(frozen=True)
class Sale:
    """One sale: cards sorted by id, ``pos`` 0..3, the card kept as profit (lowest id)."""

    seat: int
    turn: int
    goods: int
    pos: int
    cards: tuple[int, ...]
    items: int
    bonus: int
    points: int

    @property
    def kept(self) -> int:
        return self.cards[0]


@dataclass(frozen=True)
class State:
    """A whole game. ``final`` is None until the pile empties, then final turns left per seat;
    ``final_turn`` is the turn in which it was set. ``spent`` counts per seat the profit cards
    spent (buys and profit bribes). ``fresh`` holds per seat the cards just received. ``reason``
    is ``pile`` or ``turn_limit`` once over; ``last`` is the last public event line."""

    n: int
    opts: Opts
    pile: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    profit: tuple[tuple[int, ...], ...]
    discard_up: tuple[int, ...]
    discard_down: tuple[int, ...]
    market: tuple[int, ...]
    lock: Lock | None
    scores: tuple[int, ...]
    sales: tuple[Sale, ...]
    spent: tuple[int, ...]
    active: int
    step: int
    turn_no: int
    offers_used: int
    traded: bool
    offer: Offer | None
    final: tuple[int, ...] | None
    final_turn: int
    reason: str
    last: str
    fresh: tuple[tuple[int, ...], ...]


REFUSED = "_refused"
"""The :func:`engines.fastcopy.memo` key (not a dataclass field: ``==``, ``base.state_fingerprint`` and so the
snapshots of games stored before it existed never see it) under which a state remembers the
asks refused this turn: ``(seat, give, want, k)`` per addressee that declined that ask and has
not traded since. Cleared when a turn starts. The AI seats read it (the offerer's view holds its
own) so that they never send again an ask every addressee has just declined (issue #22).
:func:`upd` carries it along; a state built without it has none."""

Refusal = tuple[int, tuple[int, ...], int, int]


def refused(s: State) -> tuple[Refusal, ...]:
    """The asks refused this turn (see :data:`REFUSED`)."""
    got: tuple[Refusal, ...] = fastcopy.memo(s, REFUSED, ())
    return got


def with_refused(s: State, value: tuple[Refusal, ...]) -> State:
    """``s`` remembering ``value`` as the asks refused this turn."""
    return upd(s, **{REFUSED: value})


def put(row: tuple[tuple[int, ...], ...], seat: int, value: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """``row`` with entry ``seat`` replaced by ``value``."""
    return row[:seat] + (value,) + row[seat + 1 :]


def put_int(row: tuple[int, ...], seat: int, value: int) -> tuple[int, ...]:
    """``row`` with entry ``seat`` replaced by ``value``."""
    return row[:seat] + (value,) + row[seat + 1 :]


upd = fastcopy.replace
"""``upd(s, **changes)``: ``s`` with ``changes`` (field -> value), a fast ``dataclasses.replace``
for the hot path (:func:`engines.fastcopy.replace`: no re-validation; every field keeps its
annotated type by the callers' contract). Memo entries such as :data:`REFUSED` ride along."""


def declined_by(o: Offer, seat: int) -> Offer:
    """``o`` with ``seat`` added to ``declined`` (built like :func:`upd`: no ``__init__``)."""
    return fastcopy.replace(o, declined=o.declined + (seat,))


# --------------------------------------------------------------------------- set-up


def deal(seed: int, n: int, opts: Opts) -> State:
    """The dealt game before its first turn: three cards each, the market shuffled, the first
    seat chosen (``active``), with the same RNG calls in the same order as ever (so stored games
    replay). The first turn (its draw) is started by ``apply.first_turn``. Built by
    :func:`engines.fastcopy.build` rather than ``State(...)``: its dict is then a plain one, which
    every later :func:`upd` copies whole in one step (an instance dict filled by ``__init__`` is
    copied key by key)."""
    rng = random.Random(seed)
    pile = [f"t{i}" for i in range(1, NCARDS + 1)]
    rng.shuffle(pile)
    cards = [int(t[1:]) for t in pile]
    hands = tuple(tuple(sorted(cards[DEAL * s : DEAL * s + DEAL])) for s in range(n))
    market = list(GOODS)
    rng.shuffle(market)
    first = rng.randrange(n) if opts.first_player == "random" else 0
    return fastcopy.build(
        State,
        n=n,
        opts=opts,
        pile=tuple(cards[DEAL * n :]),
        hands=hands,
        profit=((),) * n,
        discard_up=(),
        discard_down=(),
        market=tuple(GOODS.index(g) for g in market),
        lock=None,
        scores=(0,) * n,
        sales=(),
        spent=(0,) * n,
        active=first,
        step=0,
        turn_no=0,
        offers_used=0,
        traded=False,
        offer=None,
        final=None,
        final_turn=0,
        reason="",
        last="",
        fresh=((),) * n,
    )


# --------------------------------------------------------------------------- invariants


def invariants(s: State) -> None:
    """Conservation of the 55 cards, the market, the lock, hand sizes, pile vs final, sale
    scores and profit counts. Raises AssertionError."""
    places = list(s.pile) + list(s.discard_up) + list(s.discard_down)
    for h in s.hands:
        places += h
    for p in s.profit:
        places += p
    if s.lock is not None:
        places.append(s.lock.card)
    assert sorted(places) == list(range(1, NCARDS + 1)), "cards not conserved"
    assert sum(TOTAL_ITEMS[c] for c in places) == 125
    assert sorted(s.market) == list(range(NGOODS)), "market is not a permutation"
    _lock_invariants(s)
    assert all(0 <= len(h) <= HAND_LIMIT for h in s.hands), "hand size out of range"
    assert all(list(h) == sorted(h) for h in s.hands)
    assert (len(s.pile) == 0) == (s.final is not None), "pile 0 iff final set"
    for x in s.sales:
        need = PRICES[x.pos][1]
        assert x.pos < SELLABLE and -(-need // 3) + x.bonus <= x.points <= 7 + x.bonus
    for q in range(s.n):
        made = sum(1 for x in s.sales if x.seat == q)
        assert s.scores[q] == sum(x.points for x in s.sales if x.seat == q)
        assert len(s.profit[q]) == made - s.spent[q], "profit count"
    if s.offer is not None:
        assert set(s.offer.give) <= set(s.hands[s.offer.by])
    assert s.offers_used <= s.opts.max_offers


def _lock_invariants(s: State) -> None:
    if s.lock is not None:
        pa, pb = (s.market.index(g) for g in s.lock.pair)
        assert abs(pa - pb) == 1, "lock pair not adjacent"
        if s.sales:
            assert s.lock.turn > s.sales[-1].turn, "a sale did not clear the lock"
