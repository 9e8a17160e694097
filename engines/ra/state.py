"""The Ra state value and the index constants the rules work with.

A :class:`State` is a frozen dataclass of ints and tuples. Tiles are indices into
``data.TILE_ORDER``; per-seat holdings are tuples of counts indexed the same way. The bag is the
full shuffled tuple fixed at set-up plus a position (``bag[bag_pos:]`` is what remains, drawn
from the front), which keeps every state flat and cheap to copy.

:class:`Work` is the mutable scratch copy ``apply`` edits before freezing it into a new state.

What keeps it fast (random playouts with the legal list at every step, issue #13):

* ``apply`` copies the state's ``__dict__`` once (``dict.copy`` of 27 entries), lets the
  handler edit that copy through a :class:`Work` and then relabels the same object as a
  :class:`State` (``__class__`` assignment): no second copy, no frozen ``__init__`` (which sets
  each field through ``object.__setattr__``). :func:`new_state` does the same for set-up.
* Fields are flat ints and tuples, so the copy is shallow and a change rebuilds only what it
  touches: one seat's row of ``up``/``down``/``tiles``, not every seat's.
* The bag is one tuple fixed at set-up plus ``bag_pos``: a draw is an index step.
* ``to_move``, the legal lists and the event texts come from tables built at import or
  filled on first use (``rules._BIDS``, ``rules._TURN``, ``events``), and ``legal_actions``
  remembers its last answer by state identity, so ``apply`` right after it does not
  enumerate again.

The state stays a value: ``==``, ``repr``, ``dataclasses.replace`` and pickling work as for any
frozen dataclass, and ``apply`` never edits the state it was given.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Any, TypeAlias

from engines.ra import data

# --------------------------------------------------------------------------- tile indices

CODES = data.TILE_ORDER
IDX = {c: i for i, c in enumerate(CODES)}
NCODES = len(CODES)

GOD = IDX["god"]
GOLD = IDX["gold"]
PHARAOH = IDX["pharaoh"]
NILE = IDX["nile"]
FLOOD = IDX["flood"]
CIV = tuple(IDX[c] for c in data.CIVS)
MON = tuple(IDX[m] for m in data.MONUMENTS)
CIV_SLICE = slice(CIV[0], CIV[-1] + 1)
MON_SLICE = slice(MON[0], MON[-1] + 1)
"""The civilization and the monument codes are contiguous: a row's counts of each are a slice."""
assert tuple(range(NCODES))[CIV_SLICE] == CIV and tuple(range(NCODES))[MON_SLICE] == MON
TRADER = IDX["trader"]
FUNERAL = IDX["funeral"]
DROUGHT = IDX["drought"]
UNREST = IDX["unrest"]
EARTHQUAKE = IDX["earthquake"]
RA = IDX["ra"]
DISASTER = frozenset((FUNERAL, DROUGHT, UNREST, EARTHQUAKE))
RIVER = (NILE, FLOOD)
HELD = tuple(i for i, c in enumerate(CODES) if data.TILE_CATEGORY[c] not in ("disaster", "ra"))
"""Codes a player can hold."""
KEEP = frozenset(IDX[c] for c in data.KEEP_AT_EPOCH_END)
LOSE = tuple(i for i in HELD if i not in KEEP)
"""Held codes that leave the game at the end of an epoch."""
KEEP_RUNS = tuple(
    (a, b, a in KEEP)
    for a, b in zip(
        [c for c in range(NCODES) if c == 0 or (c in KEEP) != (c - 1 in KEEP)],
        [c for c in range(1, NCODES + 1) if c == NCODES or (c in KEEP) != (c - 1 in KEEP)],
        strict=True,
    )
)
"""The codes as runs ``(start, stop, kept)``: a row keeps ``row[start:stop]`` where ``kept``
and zeros elsewhere at the end of an epoch (5 runs: god-gold, pharaoh-nile, flood-civs,
monuments, trader-Ra)."""

# --------------------------------------------------------------------------- steps and kinds

TURN, GOD_MORE, AUCTION, DISCARD, OVER = range(5)
STEP_NAMES = ("turn", "god_more", "auction", "discard", "over")
RA_TILE, VOLUNTARY, FULL = range(3)
KIND_NAMES = ("ra_tile", "voluntary", "full")

# pending discard categories, resolved in this order
P_RIVER, P_CIV, P_MON = range(3)
PENDING_CODES = (RIVER, CIV, MON)
PENDING_NAMES = ("river", "civ", "monument")

# --------------------------------------------------------------------------- options

OPTION_NAMES = (
    "traders",
    "god_takes_disaster",
    "score_floor_zero",
    "tiebreak_highest_sun",
    "invoke_on_empty_track",
    "drought_floods_first",
    "hidden_scores",
    "auto_pass",
)
(O_TRADERS, O_GOD_DISASTER, O_FLOOR, O_TIEBREAK, O_INVOKE_EMPTY, O_FLOODS_FIRST, O_HIDDEN, O_AUTO_PASS) = (
    range(len(OPTION_NAMES))
)


def tile_counts(traders: bool) -> tuple[int, ...]:
    """The number of tiles of each code in a game, indexed like ``TILE_ORDER``."""
    return tuple(0 if (c == "trader" and not traders) else data.TILE_COUNT[c] for c in CODES)


# --------------------------------------------------------------------------- the state

Points: TypeAlias = tuple[int, ...]
"""One seat's points in an epoch, indexed like ``data.CATEGORIES``."""
ScoreRow: TypeAlias = tuple[Points, int, int, int]
"""One seat's row of a scored epoch: ``(points, floor, epoch_total, running_total)``."""
EpochScore: TypeAlias = tuple[int, tuple[ScoreRow, ...]]
"""One scored epoch: ``(epoch, rows)`` with one row per seat."""


@dataclass(frozen=True)
class State:
    """One moment of a Ra game (a value: never mutated).

    ``history`` holds one entry per scored epoch: ``(epoch, rows)`` with one row per seat
    ``(points, floor, epoch_total, running_total)``; ``points`` follows ``data.CATEGORIES``.
    Auction fields (``a_*``) are meaningful only in the AUCTION step, pending-discard fields
    (``p_*``) only in the DISCARD step.
    """

    n: int
    opts: tuple[bool, ...]  # values in OPTION_NAMES order
    bag: tuple[int, ...]  # the whole shuffled bag; bag[bag_pos:] remains
    bag_pos: int
    epoch: int
    step: int
    cur: int  # whose turn (the Ra player during an auction)
    ra_track: int
    track: tuple[int, ...]  # auction track, draw order
    center: int
    up: tuple[tuple[int, ...], ...]  # face-up suns per seat, ascending
    down: tuple[tuple[int, ...], ...]  # face-down suns per seat, ascending
    tiles: tuple[tuple[int, ...], ...]  # held counts per seat, indexed like TILE_ORDER
    score: tuple[int, ...]
    crates: tuple[int, ...]
    box: tuple[int, ...]  # tiles out of the game, counts
    # the defaults: no auction running, no discards owed, no epoch scored yet
    a_ra: int = -1  # auction: Ra player (-1 when no auction)
    a_kind: int = 0
    a_order: tuple[int, ...] = ()
    a_idx: int = 0
    a_bids: tuple[int, ...] = ()  # one per seat that acted, in order; 0 = pass
    a_high: int = 0  # 0 = no bid yet
    a_high_seat: int = -1
    p_seat: int = -1  # pending discards: seat (-1 = none)
    p_left: tuple[int, int, int] = (0, 0, 0)  # river, civ, monument tiles still owed
    p_after_god: bool = False  # True: the discards came from a god taking a disaster
    history: tuple[EpochScore, ...] = ()


_new = object.__new__


class Work:
    """A mutable copy of a :class:`State`'s fields, made by :meth:`of`; :meth:`freeze` turns
    it into the new state.

    The fields live in the instance ``__dict__``: :meth:`of` copies the state's dict once (the
    fastest copy there is) and :meth:`freeze` relabels this very object as a :class:`State`
    (same layout, no second copy), so the copy must not be edited after ``freeze``. The fields
    are declared here once more for the type checker, exactly as on :class:`State` (checked
    below).
    """

    n: int
    opts: tuple[bool, ...]
    bag: tuple[int, ...]
    bag_pos: int
    epoch: int
    step: int
    cur: int
    ra_track: int
    track: tuple[int, ...]
    center: int
    up: tuple[tuple[int, ...], ...]
    down: tuple[tuple[int, ...], ...]
    tiles: tuple[tuple[int, ...], ...]
    score: tuple[int, ...]
    crates: tuple[int, ...]
    box: tuple[int, ...]
    a_ra: int
    a_kind: int
    a_order: tuple[int, ...]
    a_idx: int
    a_bids: tuple[int, ...]
    a_high: int
    a_high_seat: int
    p_seat: int
    p_left: tuple[int, int, int]
    p_after_god: bool
    history: tuple[EpochScore, ...]

    @staticmethod
    def of(state: State) -> Work:
        """A working copy of ``state``'s fields."""
        w: Work = _new(Work)
        w.__dict__ = state.__dict__.copy()
        return w

    def freeze(self) -> State:
        """This copy, now the new :class:`State` (an immutable value from here on: the copy is
        not used again)."""
        self.__class__ = State  # type: ignore[assignment]
        return self  # type: ignore[return-value]

    # -- small copy-on-write helpers
    def add_tile(self, seat: int, code: int, k: int) -> None:
        """Give ``seat`` ``k`` tiles of ``code`` (``k`` may be negative)."""
        tiles = list(self.tiles)
        row = list(tiles[seat])
        row[code] += k
        tiles[seat] = tuple(row)
        self.tiles = tuple(tiles)

    def to_box(self, code: int, k: int) -> None:
        """Put ``k`` tiles of ``code`` out of the game."""
        box = list(self.box)
        box[code] += k
        self.box = tuple(box)


_FIELDS = {f.name: f.default for f in fields(State)}
"""Every field of :class:`State` in order, with its default (``MISSING`` for none)."""


def new_state(**values: Any) -> State:
    """``State(**values)`` without the frozen dataclass's ``__init__`` (one ``object.__setattr__``
    per field); every field without a default must be given."""
    d = _FIELDS.copy()
    d.update(values)
    if len(d) != len(_FIELDS) or MISSING in d.values():
        raise TypeError(f"new_state: bad or missing fields in {sorted(values)}")
    state: State = _new(State)
    object.__setattr__(state, "__dict__", d)
    return state


if Work.__annotations__ != {f.name: f.type for f in fields(State)}:  # pragma: no cover
    raise TypeError("Work must declare exactly the fields of State, with the same types")

Fields: TypeAlias = State | Work
"""Either a state or its working copy: what the read-only helpers of ``flow`` and ``scoring``
take, since ``rules`` asks them about a state and ``flow`` about the copy it edits."""
