"""The Kathai state value (spec §4): frozen dataclasses of tuples, copied shallowly.

Cards are ints 1..55 (``t1``..``t55``); goods are ints 0..4 (index into ``data.GOODS``); the
market lists goods by position (index 0 is position 1). Hands and profit piles are sorted.

The shape that keeps it fast (issue #13): a state is one flat frozen :class:`State` whose fields
are ints, strings and tuples of ints (per-seat rows are tuples indexed by seat), so a move
copies it once with :func:`upd` (``object.__new__`` plus one ``__dict__`` update: no
``__init__``, no ``dataclasses.replace``) and shares every untouched row; :func:`put` and
:func:`put_int` replace one seat's entry. An open :class:`Offer` gains a decliner through
:func:`declined_by`, built the same way. Values stay immutable and compare with ``==``.
What costs the time is not the state but the legal list: the offers of the active seat (see
``offers.py``), which random play rebuilds after every trade.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

MAIN = 0
REPLY = 1
TRADING = 2
OVER = 3
STEP_NAMES = ("main", "reply", "trading", "over")

ALL = -1
"""Offer target meaning every opponent."""


@dataclass(frozen=True)
class Opts:
    """The resolved options of spec §9 (``players`` is not an option, ruling §14.12)."""

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
"""The ``__dict__`` key (not a dataclass field: ``==``, ``base.state_fingerprint`` and so the
snapshots of games stored before it existed never see it) under which a state remembers the
asks refused this turn: ``(seat, give, want, k)`` per addressee that declined that ask and has
not traded since. Cleared when a turn starts. The AI seats read it (the offerer's view holds its
own) so that they never send again an ask every addressee has just declined (issue #22).
:func:`upd` carries it along; a state built without it has none."""

Refusal = tuple[int, tuple[int, ...], int, int]


def refused(s: State) -> tuple[Refusal, ...]:
    """The asks refused this turn (see :data:`REFUSED`)."""
    got: tuple[Refusal, ...] = s.__dict__.get(REFUSED, ())
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


def upd(s: State, **changes: object) -> State:
    """``s`` with ``changes`` (field -> value): a fast ``dataclasses.replace`` for the hot
    path (no re-validation; every field keeps its annotated type by the callers' contract)."""
    new = object.__new__(State)
    d = new.__dict__
    d.update(s.__dict__)
    d.update(changes)
    return new


def declined_by(o: Offer, seat: int) -> Offer:
    """``o`` with ``seat`` added to ``declined`` (built like :func:`upd`: no ``__init__``)."""
    new = object.__new__(Offer)
    d = new.__dict__
    d.update(o.__dict__)
    d["declined"] = o.declined + (seat,)
    return new
