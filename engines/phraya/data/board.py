"""Board geometry (docs/rules/phraya.md#board, #layout): islands, crossings, channel sections, stalls,
layouts, and the two path searches (boat movement, Royal Barge movement).

Ids: islands ``iRC``; crossings ``xRC`` (R, C in 0–2); sections ``hRK`` / ``vCK``; stalls are a
section id plus a bank letter (``n``/``s`` for h-sections, ``w``/``e`` for v-sections).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache

from engines.phraya import data

Layout = tuple[tuple[str, str, str], ...]
"""A layout: ``(position, tile, side)`` for NW, NE, SE, SW in that order."""


SECTIONS: tuple[str, ...] = tuple(
    [f"h{r}{k}" for r in range(3) for k in range(4)] + [f"v{c}{k}" for c in range(3) for k in range(4)]
)


SEC_INDEX = {s: i for i, s in enumerate(SECTIONS)}


CROSSINGS: tuple[str, ...] = tuple(f"x{r}{c}" for r in range(3) for c in range(3))


ISLANDS: tuple[str, ...] = tuple(f"i{i}{j}" for i in range(4) for j in range(4))


def _xid(r: int, c: int) -> str | None:
    return f"x{r}{c}" if 0 <= r <= 2 and 0 <= c <= 2 else None


def _ends(sec: str) -> tuple[str | None, str | None]:
    a, b = int(sec[1]), int(sec[2])
    if sec[0] == "h":  # hRK: x(R,K-1) and x(R,K)
        return _xid(a, b - 1), _xid(a, b)
    return _xid(b - 1, a), _xid(b, a)  # vCK: x(K-1,C) and x(K,C)


SECTION_ENDS: dict[str, tuple[str | None, str | None]] = {s: _ends(s) for s in SECTIONS}


EXTERIOR: tuple[str, ...] = tuple(s for s in SECTIONS if None in SECTION_ENDS[s])


INTERIOR: tuple[str, ...] = tuple(s for s in SECTIONS if None not in SECTION_ENDS[s])


CROSS_SECTIONS: dict[str, tuple[str, ...]] = {
    x: (f"h{x[1]}{x[2]}", f"h{x[1]}{int(x[2]) + 1}", f"v{x[2]}{x[1]}", f"v{x[2]}{int(x[1]) + 1}")
    for x in CROSSINGS
}


def banks(sec: str) -> tuple[str, str]:
    """The two stall ids of a section (north/west bank first)."""
    return (sec + "n", sec + "s") if sec[0] == "h" else (sec + "w", sec + "e")


STALLS: tuple[str, ...] = tuple(b for s in SECTIONS for b in banks(s))


STALL_INDEX = {s: i for i, s in enumerate(STALLS)}


def stall_island(stall: str) -> tuple[str, str]:
    """``(island id, side)`` of a stall: the island whose side faces the section."""
    kind, a, b, bank = stall[0], int(stall[1]), int(stall[2]), stall[3]
    if kind == "h":  # hRK: north bank island (R,K) side S, south bank (R+1,K) side N
        return (f"i{a}{b}", "S") if bank == "n" else (f"i{a + 1}{b}", "N")
    return (f"i{b}{a}", "E") if bank == "w" else (f"i{b}{a + 1}", "W")  # vCK


def island_stall(i: int, j: int, side: str) -> str | None:
    """The stall on side ``side`` of island (i, j), or None on the outer edge."""
    if side == "N":
        return f"h{i - 1}{j}s" if i > 0 else None
    if side == "S":
        return f"h{i}{j}n" if i < 3 else None
    if side == "W":
        return f"v{j - 1}{i}e" if j > 0 else None
    return f"v{j}{i}w" if j < 3 else None


_TURN = {"N": "E", "E": "S", "S": "W", "W": "N"}


def _rotate(pos: str, i: int, j: int, side: str) -> tuple[int, int, str]:
    k = data.POSITIONS[pos]
    gi, gj = ((i, j), (j, 3 - i), (3 - i, 3 - j), (3 - j, i))[k]
    for _ in range(k):
        side = _TURN[side]
    return gi, gj, side


@dataclass(frozen=True)
class Stall:
    """One stall of a layout. ``kind`` is ``goods`` or a service; ``good`` is set for goods."""

    id: str
    kind: str
    good: str | None
    ownable: bool


@dataclass(frozen=True)
class Board:
    """A laid-out board: every stall's type, and the sorted ids of each service."""

    layout: Layout
    stalls: Mapping[str, Stall]
    restaurants: tuple[str, ...]
    baskets: tuple[str, ...]
    ownable: tuple[str, ...]


DEFAULT_LAYOUT: Layout = tuple((p, *data.DEFAULT_LAYOUT[p]) for p in data.POSITION_ORDER)


@lru_cache(maxsize=64)
def build(layout: Layout) -> Board:
    """The :class:`Board` of ``layout``. Raises ValueError if a stall is doubly assigned."""
    stalls: dict[str, Stall] = {}
    for pos, tile, side in layout:
        slots: dict[str, str | int] = dict(data.TILE_SLOTS)
        if side == "b":
            for a, b in data.SIDE_B_SWAPS:
                slots[a], slots[b] = slots[b], slots[a]
        for slot, what in slots.items():
            isl, sd = slot.split(".")
            li, lj = data.TILE_ISLANDS[isl]
            gi, gj, gside = _rotate(pos, li, lj, sd)
            sid = island_stall(gi, gj, gside)
            if sid is None or sid in stalls:
                raise ValueError(f"layout {layout}: slot {slot} of {pos} does not fit")
            if isinstance(what, int):
                stalls[sid] = Stall(sid, "goods", data.TILE_GOODS[tile][what], slot != data.PUBLIC_SLOT)
            else:
                stalls[sid] = Stall(sid, what, None, False)
    if len(stalls) != len(STALLS):
        raise ValueError("a layout must fill all 48 stalls")
    ordered = {s: stalls[s] for s in STALLS}
    return Board(
        layout,
        ordered,
        tuple(sorted(s for s, st in ordered.items() if st.kind == "restaurant")),
        tuple(sorted(s for s, st in ordered.items() if st.kind == "basket")),
        tuple(sorted(s for s, st in ordered.items() if st.ownable)),
    )


@lru_cache(maxsize=1 << 16)
def boat_paths(
    start: str, steps: int, barge: str, occupied: frozenset[str]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Boat movement from ``start`` (docs/rules/phraya.md#movement): ``(destinations within 1..steps sections,
    destinations of exactly ``steps`` sections)``, each sorted. A path never enters the barge
    crossing, never repeats a section (the start included), leaves each section by its other
    crossing and continues past no dead end; ``occupied`` sections may be crossed but not ended
    in."""
    within: set[str] = set()
    exact: set[str] = set()

    def walk(sec: str, via: str, depth: int, seen: frozenset[str]) -> None:
        # ``sec`` was just entered through crossing ``via``
        if sec not in occupied:
            within.add(sec)
            if depth == steps:
                exact.add(sec)
        if depth == steps:
            return
        a, b = SECTION_ENDS[sec]
        out = b if a == via else a
        if out is None or out == barge:
            return
        for nxt in CROSS_SECTIONS[out]:
            if nxt not in seen:
                walk(nxt, out, depth + 1, seen | {nxt})

    for x in SECTION_ENDS[start]:
        if x is None or x == barge:
            continue
        for nxt in CROSS_SECTIONS[x]:
            if nxt != start:
                walk(nxt, x, 1, frozenset((start, nxt)))
    within.discard(start)
    exact.discard(start)
    return tuple(sorted(within)), tuple(sorted(exact))


SEC_BIT: dict[str, int] = {s: 1 << i for i, s in enumerate(SECTIONS)}
"""Each section's bit in a section mask; bit order is ``SECTIONS`` order, which is also sorted
(and natural-key) order of the ids, so listing a mask's bits from low to high gives sorted ids."""


@cache
def reach(start: str, steps: int, barge: str) -> tuple[int, int]:
    """:func:`boat_paths` with no boat on the board, as section masks ``(within, exact)``. Boats
    only forbid ending on their section (a path may cross it), so the destinations with boats on
    ``occ`` are these masks ``& ~occ``. Computed once per ``(start, steps, barge)``."""
    within, exact = boat_paths(start, steps, barge, frozenset())
    return _mask(within), _mask(exact)


def _mask(secs: tuple[str, ...]) -> int:
    m = 0
    for sec in secs:
        m |= SEC_BIT[sec]
    return m


_NAMES: dict[int, tuple[str, ...]] = {}


def mask_sections(mask: int) -> tuple[str, ...]:
    """The section ids of ``mask``, sorted (cached per mask)."""
    got = _NAMES.get(mask)
    if got is None:
        got = tuple(sec for sec in SECTIONS if mask & SEC_BIT[sec])
        if len(_NAMES) < 1 << 16:
            _NAMES[mask] = got
    return got


@lru_cache(maxsize=256)
def barge_targets(start: str, lo: int, hi: int) -> tuple[str, ...]:
    """Crossings the barge can reach from ``start`` in exactly d interior sections for some d in
    lo..hi, never using a section twice (boats never block it); sorted."""
    out: set[str] = set()

    def walk(x: str, d: int, used: frozenset[str]) -> None:
        if lo <= d and d > 0:
            out.add(x)
        if d == hi:
            return
        for sec in CROSS_SECTIONS[x]:
            a, b = SECTION_ENDS[sec]
            if a is None or b is None or sec in used:
                continue
            walk(b if a == x else a, d + 1, used | {sec})

    walk(start, 0, frozenset())
    return tuple(sorted(out))


def adjacent_stalls(crossing: str) -> tuple[str, ...]:
    """The 8 stalls of the 4 sections touching ``crossing``."""
    return tuple(b for sec in CROSS_SECTIONS[crossing] for b in banks(sec))


def coords(item: str) -> tuple[float, float]:
    """Drawing position ``(x, y)`` in island units (the board is 4×4; x east, y south): island
    (i,j) centre (j+.5, i+.5), crossing xRC (C+1, R+1), section hRK (K+.5, R+1), vCK (C+1, K+.5),
    a stall a quarter of the way from its section centre towards its island centre."""
    if item[0] == "i":
        return int(item[2]) + 0.5, int(item[1]) + 0.5
    if item[0] == "x":
        return int(item[2]) + 1.0, int(item[1]) + 1.0
    if len(item) == 3:
        a, b = int(item[1]), int(item[2])
        return (b + 0.5, a + 1.0) if item[0] == "h" else (a + 1.0, b + 0.5)
    isl, _ = stall_island(item)
    sx, sy = coords(item[:3])
    ix, iy = coords(isl)
    return sx + (ix - sx) * 0.25, sy + (iy - sy) * 0.25
