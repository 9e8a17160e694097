"""Pralaya scoring (docs/rules/pralaya.md#scoring): the score sheet of one hand, the Fossil majority
(docs/rules/pralaya.md#fossil-majority), the ranking (docs/rules/pralaya.md#tie-break).

Everything works on hand *counts* by relic code (``{"gol": 1, "dem": 2}``), so the engine, the
provisional "if escaped now" view and the AI share the same arithmetic.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from engines.outcome import Outcome
from engines.pralaya.data import BRAHMIN_BONUS, CATEGORIES, DHONI, FOSSIL_MAJORITY, SCORING_TYPES
from engines.pralaya.state import OVER, State, hand_counts


def category_points(
    counts: Mapping[str, int], veda: bool, dhoni: bool, fossil_majority: bool = False
) -> dict[str, int]:
    """The score sheet of one hand: ``{category: points}`` in :data:`CATEGORIES` order.

    ``veda``/``dhoni``: whether the seat holds one (they count as Pundit types and the Veda
    enables the Brahmin bonus). ``fossil_majority``: whether this seat wins the Fossil majority
    (decided across seats by :func:`fossil_leader`).
    """
    get = counts.get
    dem, pac, bra = get("dem", 0), get("pac", 0), get("bra", 0)
    pun = get("pun", 0)
    types = sum(1 for code in SCORING_TYPES if get(code, 0) > 0) + int(veda) + int(dhoni)
    gre = get("gre", 0)
    return {
        "Coins": get("cop", 0) + 3 * get("sil", 0) + 6 * get("gol", 0),
        "Demon Statues": 0 if bra else 2 * dem * (-3) ** pac,
        "Manuscripts": 5 * (get("man", 0) // 2),
        "Urns": 20 * (get("urn", 0) // 3),
        "Great Statues": gre * gre,
        "Pundits": pun * types if pun else 0,
        "Brahmin": BRAHMIN_BONUS if bra and veda else 0,
        "Fossils": FOSSIL_MAJORITY if fossil_majority else 0,
    }


def fossil_leader(fossils: Sequence[int], compared: Iterable[int]) -> int | None:
    """The seat among ``compared`` that alone holds the most Fossils (at least 1), else None."""
    best, leader, tied = 0, None, False
    for s in compared:
        f = fossils[s]
        if f > best:
            best, leader, tied = f, s, False
        elif f == best and f > 0:
            tied = True
    return None if tied else leader


def rank_seats(totals: Mapping[int, int], n: int, first: int) -> tuple[int, ...]:
    """Ranks (1 = best) for ``n`` seats; ``totals`` holds only the escaped seats.

    Escaped seats rank by total, descending; ties go to the seat furthest from the first player
    in turn order (larger ``(seat - first) mod n``: docs/rules/pralaya.md#tie-break), so escaped seats never
    share a rank. Seats
    not in ``totals`` share rank ``len(totals) + 1`` (all rank 1 if nobody escaped).
    """
    order = sorted(totals, key=lambda s: (-totals[s], -((s - first) % n)))
    ranks = [len(totals) + 1] * n
    for i, s in enumerate(order):
        ranks[s] = i + 1
    return tuple(ranks)


def score_table(
    counts: Sequence[Mapping[str, int]],
    veda: Sequence[bool],
    escaped: Sequence[bool],
    first: int,
    fossil_all_players: bool,
) -> tuple[tuple[int, ...], tuple[int | None, ...], tuple[dict[str, int] | None, ...]]:
    """Final ranks, totals and breakdowns for every seat (docs/rules/pralaya.md#scoring).

    Only escaped seats score (others get None). The Fossil majority is decided among escaped
    seats, or among all seats when ``fossil_all_players`` (a non-escaped leader then blocks it).
    Returns ``(ranks, scores, breakdowns)``.
    """
    n = len(counts)
    fossils = [c.get("fos", 0) for c in counts]
    compared = range(n) if fossil_all_players else [s for s in range(n) if escaped[s]]
    leader = fossil_leader(fossils, compared)
    breakdowns: list[dict[str, int] | None] = []
    totals: dict[int, int] = {}
    for s in range(n):
        if not escaped[s]:
            breakdowns.append(None)
            continue
        b = category_points(counts[s], veda[s], True, fossil_majority=(leader == s))
        breakdowns.append(b)
        totals[s] = sum(b[c] for c in CATEGORIES)
    scores = tuple(totals.get(s) for s in range(n))
    return rank_seats(totals, n, first), scores, tuple(breakdowns)


def outcome(state: State) -> Outcome | None:
    """None while the game runs; else the result (only escaped seats score)."""
    s = state
    if s.step != OVER:
        return None
    ranks, scores, breakdown = score_table(
        [hand_counts(h) for h in s.hands],
        [bool(v) for v in s.veda],
        [d >= 0 for d in s.dhoni],
        s.first,
        s.fossil_all,
    )
    notes = tuple(f"escaped via {DHONI[d].name}" if d >= 0 else "did not escape" for d in s.dhoni)
    return Outcome(
        ranks=ranks,
        scores=scores,
        categories=CATEGORIES,
        breakdown=breakdown,
        winners=tuple(seat for seat in range(s.n) if ranks[seat] == 1),
        notes=notes,
    )
