"""Build a Ra position from a readable description (for tests, examples and tutorials).

The position keeps every invariant of docs/rules/ra.md#invariants: tiles not placed on the
tracks, with a player or in the box stay in the bag (``bag_front`` codes first, then the rest in
a seeded order), and the sun not held by anyone is the centre sun.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engines.ra import data
from engines.ra.rules import RaEngine
from engines.ra.state import CODES, IDX, NCODES, OPTION_NAMES, TURN, State, tile_counts


def build(
    n: int,
    *,
    options: Mapping[str, Any] | None = None,
    epoch: int = 1,
    cur: int = 0,
    up: Sequence[Sequence[int]] | None = None,
    down: Sequence[Sequence[int]] | None = None,
    track: Sequence[str] = (),
    ra_track: int = 0,
    tiles: Sequence[Mapping[str, int]] | None = None,
    crates: Sequence[int] | None = None,
    score: Sequence[int] | None = None,
    box: Mapping[str, int] | None = None,
    bag_front: Sequence[str] = (),
    rest_to_box: bool = False,
    seed: int = 0,
) -> State:
    """A TURN position for ``n`` seats with seat ``cur`` to play.

    ``up``/``down``: suns per seat (default: the sets of ``SUN_SETS[n]`` in seat order, all face
    up); the one sun of 1..N nobody holds goes to the centre. ``tiles``: held counts per seat by
    code. ``bag_front``: codes drawn next, in order; the other unplaced tiles follow in the bag,
    or go to the box with ``rest_to_box`` (an empty bag once ``bag_front`` is drawn). Raises
    ValueError if the suns or tile counts do not add up."""
    opts = RaEngine().resolve_options(options)
    up_t, down_t, centre = _suns(n, up, down)
    rows = tuple(_row(tiles[seat] if tiles else {}) for seat in range(n))
    bag, box_row = _bag_and_box(
        tile_counts(opts["traders"]), rows, _row(box or {}), track, ra_track, bag_front, rest_to_box, seed
    )
    return State(
        n=n,
        opts=tuple(bool(opts[k]) for k in OPTION_NAMES),
        bag=bag,
        bag_pos=0,
        epoch=epoch,
        step=TURN,
        cur=cur,
        ra_track=ra_track,
        track=tuple(IDX[c] for c in track),
        center=centre,
        up=up_t,
        down=down_t,
        tiles=rows,
        score=tuple(score) if score is not None else (data.START_SCORE,) * n,
        crates=tuple(crates) if crates is not None else (0,) * n,
        box=box_row,
    )


def _suns(
    n: int, up: Sequence[Sequence[int]] | None, down: Sequence[Sequence[int]] | None
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], int]:
    """Each seat's face-up and face-down suns, sorted, and the centre sun (the one nobody holds)."""
    up_t = tuple(tuple(sorted(u)) for u in (up if up is not None else data.SUN_SETS[n]))
    down_t = tuple(tuple(sorted(d)) for d in (down if down is not None else [()] * n))
    held = sorted(v for seat in range(n) for v in up_t[seat] + down_t[seat])
    rest = sorted(set(range(1, data.MAX_SUN[n] + 1)) - set(held))
    if len(rest) != 1 or len(held) != len(set(held)) or len(up_t) != n or len(down_t) != n:
        raise ValueError(f"suns {up_t} / {down_t} do not leave exactly one centre sun")
    return up_t, down_t, rest[0]


def _row(counts: Mapping[str, int]) -> tuple[int, ...]:
    """Counts by code as a row indexed like ``TILE_ORDER``."""
    row = [0] * NCODES
    for code, k in counts.items():
        row[IDX[code]] += k
    return tuple(row)


def _bag_and_box(
    counts: Sequence[int],
    rows: Sequence[Sequence[int]],
    box_row: Sequence[int],
    track: Sequence[str],
    ra_track: int,
    bag_front: Sequence[str],
    rest_to_box: bool,
    seed: int,
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The bag (``bag_front`` first, then every tile not placed elsewhere in a seeded order, or
    none of those with ``rest_to_box``) and the box."""
    used = [sum(r[c] for r in rows) + box_row[c] for c in range(NCODES)]
    for code in track:
        used[IDX[code]] += 1
    used[IDX["ra"]] += ra_track
    front = [IDX[c] for c in bag_front]
    for c in front:
        used[c] += 1
    left = [counts[c] - used[c] for c in range(NCODES)]
    if min(left) < 0:
        bad = [CODES[c] for c in range(NCODES) if left[c] < 0]
        raise ValueError(f"more tiles placed than the game holds: {bad}")
    box_out = tuple(box_row)
    if rest_to_box:
        box_out = tuple(box_row[c] + left[c] for c in range(NCODES))
        left = [0] * NCODES
    tail = [c for c in range(NCODES) for _ in range(left[c])]
    random.Random(seed).shuffle(tail)
    return tuple(front + tail), box_out


def held(state: State, seat: int) -> dict[str, int]:
    """The tiles ``seat`` holds, by code (counts > 0 only)."""
    return {CODES[c]: k for c, k in enumerate(state.tiles[seat]) if k}


def boxed(state: State) -> dict[str, int]:
    """The tiles out of the game, by code (counts > 0 only)."""
    return {CODES[c]: k for c, k in enumerate(state.box) if k}
