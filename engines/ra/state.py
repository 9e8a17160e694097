"""The Ra state value and the index constants the rules work with.

A :class:`State` is a frozen dataclass of ints and tuples. Tiles are indices into
``data.TILE_ORDER``; per-seat holdings are tuples of counts indexed the same way. The bag is the
full shuffled tuple fixed at set-up plus a position (``bag[bag_pos:]`` is what remains, drawn
from the front), which keeps every state flat and cheap to copy.

What keeps it fast (random playouts with the legal list at every step, issue #13):

* ``apply`` copies the state once with :func:`engines.fastcopy.thaw` and lets the action's
  handler write the copy's fields through :func:`engines.fastcopy.poke` before handing it out
  as the new state: no frozen ``__init__`` (which sets each field through
  ``object.__setattr__``). :func:`new_state` builds the first state with
  :func:`engines.fastcopy.build`.
* Fields are flat ints and tuples, so the copy is shallow and a change rebuilds only what it
  touches: one seat's row of ``up``/``down``/``tiles``, not every seat's.
* The bag is one tuple fixed at set-up plus ``bag_pos``: a draw is an index step.
* ``to_move``, the legal lists and the event texts come from tables built at import or
  filled on first use (``legal._BIDS``, ``legal._TURN``, ``apply.events``), and ``legal_actions``
  remembers its last answer by state identity, so ``apply`` right after it does not
  enumerate again.

The state stays a value: ``==``, ``repr``, ``dataclasses.replace`` and pickling work as for any
frozen dataclass, and ``apply`` never edits the state it was given.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, fields
from typing import Any, TypeAlias

from engines import fastcopy
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


_FIELDS = {f.name: f.default for f in fields(State)}
"""Every field of :class:`State` in order, with its default (``MISSING`` for none)."""


def new_state(**values: Any) -> State:
    """``State(**values)`` through :func:`engines.fastcopy.build` (no frozen ``__init__``, which
    sets each field through ``object.__setattr__``); every field without a default must be given
    and no other name."""
    if not values.keys() <= _FIELDS.keys() or any(
        v is MISSING and k not in values for k, v in _FIELDS.items()
    ):
        raise TypeError(f"new_state: bad or missing fields in {sorted(values)}")
    return fastcopy.build(State, **values)


# --------------------------------------------------------------------------- set-up

BAGS = {t: tuple([i for i, k in enumerate(tile_counts(t)) for _ in range(k)]) for t in (False, True)}
"""The bag before shuffling, with and without the Traders module."""


def first_state(seed: int, n_players: int, opts: Mapping[str, Any]) -> State:
    """A new game for ``n_players`` with the resolved options ``opts``: suns dealt, bag
    shuffled, first turn to the holder of the highest sun."""
    rng = random.Random(seed)
    sets = list(data.SUN_SETS[n_players])
    shuffle(rng, sets)  # rng.shuffle, written out (below): the same numbers drawn
    bag = list(BAGS[bool(opts["traders"])])
    shuffle(rng, bag)
    up = tuple([tuple(sorted(s)) for s in sets])
    top = [u[-1] for u in up]
    return new_state(
        n=n_players,
        opts=tuple([bool(opts[k]) for k in OPTION_NAMES]),
        bag=tuple(bag),
        bag_pos=0,
        epoch=1,
        step=TURN,
        cur=top.index(max(top)),
        ra_track=0,
        track=(),
        center=data.CENTER_START,
        up=up,
        down=((),) * n_players,
        tiles=((0,) * NCODES,) * n_players,
        score=(data.START_SCORE,) * n_players,
        crates=(0,) * n_players,
        box=(0,) * NCODES,
    )


# ``random.Random.shuffle`` written out for set-up, drawing exactly the same numbers. Stored games
# replay from their seed, so set-up must consume the generator exactly as ``rng.shuffle(x)``
# does. CPython's ``shuffle`` swaps ``x[i]`` with ``x[_randbelow(i + 1)]`` for ``i`` from
# ``len(x) - 1`` down to 1, and ``_randbelow(n)`` draws ``getrandbits(n.bit_length())`` until the
# value is below ``n``. :func:`shuffle` does the same with the bit lengths worked out once per
# length (the bag's 200 swaps were a third of set-up); the tests check it against
# ``random.Random.shuffle``.

_STEPS: dict[int, tuple[tuple[int, int, int], ...]] = {}


def _steps(length: int) -> tuple[tuple[int, int, int], ...]:
    """``(i, i + 1, (i + 1).bit_length())`` for ``i`` from ``length - 1`` down to 1."""
    steps = _STEPS.get(length)
    if steps is None:
        steps = _STEPS[length] = tuple((i, i + 1, (i + 1).bit_length()) for i in reversed(range(1, length)))
    return steps


def shuffle(rng: random.Random, x: list[Any]) -> None:
    """``rng.shuffle(x)``: the same permutation, the same numbers drawn from ``rng``."""
    getrandbits = rng.getrandbits
    for i, n, k in _steps(len(x)):
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


# --------------------------------------------------------------------------- invariants


def invariants(s: State) -> None:
    """The state's own invariants as assertions: tile and sun conservation, bounds, the auction's
    and the discards' fields, epoch-start holdings (``legal.invariants`` adds that the awaited
    seat has a move)."""
    _tile_invariants(s)
    n = s.n
    suns = [v for seat in range(n) for v in s.up[seat] + s.down[seat]] + [s.center]
    assert sorted(suns) == list(range(1, data.MAX_SUN[n] + 1)), f"suns {suns}"
    per = len(data.SUN_SETS[n][0])
    for seat in range(n):
        assert len(s.up[seat]) + len(s.down[seat]) == per, "a seat lost or gained a sun"
        assert list(s.up[seat]) == sorted(s.up[seat]) and list(s.down[seat]) == sorted(s.down[seat])
    assert 0 <= len(s.track) <= data.AUCTION_SLOTS
    assert 1 <= s.epoch <= data.EPOCHS
    assert all(c >= 0 for c in s.crates)
    if s.opts[O_FLOOR]:
        assert all(v >= 0 for v in s.score), "a score below 0 with the floor on"
    if s.step != OVER:
        assert 0 <= s.ra_track < data.RA_LIMIT[n]
    if s.step == AUCTION:
        bids = [b for b in s.a_bids if b]
        assert bids == sorted(set(bids)), "bids must strictly increase"
        assert s.a_high == (bids[-1] if bids else 0)
        assert len(s.a_bids) == s.a_idx < len(s.a_order)
        assert s.a_order[-1] == s.a_ra
    if s.step == DISCARD:
        assert any(s.p_left) and s.p_seat >= 0
    if s.step != OVER and not any(s.down):
        # Nobody has won anything this epoch (a god comes only from a win), so the holdings
        # are those of the epoch start: only keepers, no crates, no traders.
        for seat in range(n):
            row = s.tiles[seat]
            assert all(row[c] == 0 for c in HELD if c not in KEEP), "non-keeper at epoch start"
            assert s.crates[seat] == 0


def _tile_invariants(s: State) -> None:
    """Every tile is in the bag, on a track, with a seat or in the box; none held is a disaster
    or Ra, none on the auction track is Ra, no holding is negative."""
    counts = tile_counts(s.opts[O_TRADERS])
    have = [0] * NCODES
    for c in s.bag[s.bag_pos :]:
        have[c] += 1
    for c in s.track:
        have[c] += 1
    have[RA] += s.ra_track
    for row in s.tiles:
        for c in range(NCODES):
            have[c] += row[c]
    for c in range(NCODES):
        have[c] += s.box[c]
    assert tuple(have) == counts, f"tile counts {have} != {counts}"
    assert sum(counts) == (data.TOTAL_TILES_TRADERS if s.opts[O_TRADERS] else data.TOTAL_TILES)
    assert RA not in s.track, "a Ra tile on the auction track"
    for row in s.tiles:
        assert all(row[c] == 0 for c in DISASTER) and row[RA] == 0, "held disaster or Ra"
        assert all(row[c] >= 0 for c in range(NCODES)), "negative holding"
