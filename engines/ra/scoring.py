"""Ra scoring (docs/rules/ra.md#scoring): the epoch rows, the floor, and the final outcome."""

from __future__ import annotations

from collections.abc import Sequence

from engines.base import Outcome
from engines.ra import data
from engines.ra.state import (
    CIV,
    CIV_SLICE,
    FLOOD,
    GOD,
    GOLD,
    MON_SLICE,
    NILE,
    O_FLOOR,
    O_TIEBREAK,
    O_TRADERS,
    OVER,
    PHARAOH,
    TRADER,
    Points,
    ScoreRow,
    State,
)


def _most_fewest(values: Sequence[int], most: int, fewest: int) -> list[int]:
    """Points for a most/fewest comparison: every seat tied for most gets ``most``, every seat
    tied for fewest gets ``fewest``; if every seat has the same value, nobody scores."""
    hi, lo = max(values), min(values)
    if hi == lo:
        return [0] * len(values)
    return [most if v == hi else fewest if v == lo else 0 for v in values]


def monument_points(counts: Sequence[int]) -> int:
    """Final monument points for one seat's counts per monument type (in ``MONUMENTS`` order)."""
    same = data.MON_BY_SAME
    distinct = len(counts) - counts.count(0)
    return data.MON_BY_TYPES[distinct] + sum([same[c if c < 5 else 5] for c in counts])


def civ_points(counts: Sequence[int]) -> int:
    """Civilization points for one seat's counts per civilization type."""
    return data.CIV_BY_TYPES[sum(1 for c in counts if c)]


def river_points(nile: int, flood: int) -> int:
    """Nile & flood points: one per nile and per flood, but only with at least one flood."""
    return nile + flood if flood else 0


def sun_total(state: State, seat: int) -> int:
    """The sum of the suns ``seat`` holds, face up and face down."""
    return sum(state.up[seat]) + sum(state.down[seat])


def epoch_rows(state: State, final: bool | None = None) -> list[Points]:
    """The score rows every seat would get if the epoch ended now: one tuple per seat in
    ``data.CATEGORIES`` order. Monuments and suns count only in the final epoch (``final``
    defaults to ``state.epoch == 3``); traders only with the Traders module."""
    if final is None:
        final = state.epoch == data.EPOCHS
    tiles = state.tiles
    pharaoh = _most_fewest([t[PHARAOH] for t in tiles], data.PHARAOH_MOST, data.PHARAOH_FEWEST)
    if final:
        totals = [sum(u) + sum(d) for u, d in zip(state.up, state.down, strict=True)]
        suns = _most_fewest(totals, data.SUN_MOST, data.SUN_FEWEST)
    traders = state.opts[O_TRADERS]
    crates = state.crates
    civ_by_types = data.CIV_BY_TYPES
    ncivs = len(CIV)
    rows: list[Points] = []
    for s, t in enumerate(tiles):
        flood = t[FLOOD]
        rows.append(
            (
                data.GOD_PTS * t[GOD],
                data.GOLD_PTS * t[GOLD],
                pharaoh[s],
                t[NILE] + flood if flood else 0,
                civ_by_types[ncivs - t[CIV_SLICE].count(0)],
                (data.TRADER_PTS * t[TRADER] + data.CRATE_PTS * crates[s]) if traders else 0,
                monument_points(t[MON_SLICE]) if final else 0,
                suns[s] if final else 0,
            )
        )
    return rows


def score_epoch(state: State) -> tuple[tuple[int, ...], tuple[ScoreRow, ...]]:
    """Score the epoch that is ending. Returns ``(new_scores, rows)`` where each row is
    ``(points, floor, epoch_total, running_total)``: ``floor`` is what the zero floor added
    (0 unless ``score_floor_zero`` lifted a negative total), ``epoch_total`` the net change."""
    floor_on = state.opts[O_FLOOR]
    old = state.score
    new_scores = []
    rows: list[ScoreRow] = []
    for s, points in enumerate(epoch_rows(state)):
        was = old[s]
        raw = was + sum(points)
        new = raw if raw >= 0 or not floor_on else 0
        new_scores.append(new)
        rows.append((points, new - raw, new - was, new))
    return tuple(new_scores), tuple(rows)


def highest_sun(state: State, seat: int) -> int:
    """The highest single sun ``seat`` holds (face up or down)."""
    return max(state.up[seat] + state.down[seat])


def result(state: State) -> Outcome | None:
    """The :class:`Outcome` once epoch 3 is scored, else None."""
    return outcome(state) if state.step == OVER else None


def outcome(state: State) -> Outcome:
    """The final :class:`Outcome` of a finished game: ranks by score, ties broken by the highest
    single sun held when ``tiebreak_highest_sun`` (else tied seats share a rank). The breakdown
    sums each category over the epochs, plus "Start" (10) and "Floor" when nonzero, so that it
    adds up to the final score."""
    n = state.n
    scores = state.score
    tiebreak = state.opts[O_TIEBREAK]
    high = [max(u + d) for u, d in zip(state.up, state.down, strict=True)]
    keys = [(scores[s], high[s] if tiebreak else 0) for s in range(n)]
    ranks = tuple([1 + sum([o > k for o in keys]) for k in keys])
    traders = state.opts[O_TRADERS]
    cats = [c for c in data.CATEGORIES if c != "Traders" or traders]
    shown = [traders or c != "Traders" for c in data.CATEGORIES]
    history = state.history
    breakdown = []
    for s in range(n):
        seat_rows = [rows[s] for _epoch, rows in history]
        b = {data.START_CATEGORY: data.START_SCORE}
        sums = map(sum, zip(*[r[0] for r in seat_rows], strict=True)) if seat_rows else (0,) * len(shown)
        for c, keep, total in zip(data.CATEGORIES, shown, sums, strict=True):
            if keep:
                b[c] = total
        floor = sum([r[1] for r in seat_rows])
        if floor:
            b[data.FLOOR_CATEGORY] = floor
        breakdown.append(b)
    return Outcome(
        ranks=ranks,
        scores=tuple(scores),
        categories=(data.START_CATEGORY, *cats, data.FLOOR_CATEGORY),
        breakdown=tuple(breakdown),
        winners=tuple([s for s in range(n) if ranks[s] == 1]),
        notes=tuple([f"highest sun {h}" for h in high]),
    )
