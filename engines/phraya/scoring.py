"""Phraya end-game scoring (docs/rules/phraya.md#scoring): the score sheet's categories, the
majority rules with their ties and rounding, and the outcome with its tie-breaks.
"""

from __future__ import annotations

from engines.base import Outcome
from engines.phraya import data
from engines.phraya.data import CARDS, KING_SPACES, ORDER
from engines.phraya.state import OVER, State, price, stall_counts


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def majority(counts: list[int], first: int, second: int) -> list[int]:
    """Points per seat for a majority with ``first``/``second`` values: a tie for first splits
    first + second (rounded up) with no second; a tie for second splits second (rounded up).
    Only counts ≥ 1 place."""
    out = [0] * len(counts)
    ranked = sorted({c for c in counts if c >= 1}, reverse=True)
    if not ranked:
        return out
    top = [q for q, c in enumerate(counts) if c == ranked[0]]
    if len(top) > 1:
        for q in top:
            out[q] = ceil_div(first + second, len(top))
        return out
    out[top[0]] = first
    if len(ranked) > 1:
        sec = [q for q, c in enumerate(counts) if c == ranked[1]]
        for q in sec:
            out[q] = ceil_div(second, len(sec))
    return out


def king_disks(s: State, seat: int) -> dict[str, int]:
    """Disks of ``seat`` per King row."""
    out = {r: 0 for r in data.KING_ROWS}
    for i, q in enumerate(s.king):
        if q == seat:
            out[KING_SPACES[i][0]] += 1
    return out


def coins_after_sale(s: State, seat: int, final: bool) -> int:
    """Coins for scoring: after the final sale once over; else coins plus goods at prices."""
    p = s.players[seat]
    if final or s.step == OVER:
        return p.coins
    return p.coins + sum(p.goods[i] * price(s, g) for i, g in enumerate(data.GOODS))


def sheet(s: State, final: bool = True) -> list[dict[str, int]]:
    """One dict per seat, category -> points (``data.CATEGORIES``), as if the game ended now
    (goods valued at current prices if the final sale has not happened)."""
    n = s.n
    rows: list[dict[str, int]] = [{c: 0 for c in data.CATEGORIES} for _ in range(n)]
    coins = [coins_after_sale(s, q, final) for q in range(n)]
    # temple
    for r, g in enumerate(data.TEMPLE_ROWS):
        for q in s.temple[r]:
            rows[q]["temple_offerings"] += data.TEMPLE_OFFERING_VP[g]
    for k, cols in enumerate(data.TEMPLE_SECTIONS):
        cnt = [0] * n
        for row in s.temple:
            for c in cols:
                if c < len(row):
                    cnt[row[c]] += 1
        best = max(cnt)
        for q in range(n):
            if cnt[q] == 0:
                rows[q]["temple_majority"] += data.TEMPLE_SECTION_PENALTY[k]
            elif cnt[q] == best:
                rows[q]["temple_majority"] += ceil_div(data.TEMPLE_SECTION_VP[k], cnt.count(best))
    # king
    kd = [king_disks(s, q) for q in range(n)]
    kmaj = majority([sum(d.values()) for d in kd], *data.KING_MAJORITY)
    stalls = [stall_counts(s, q, True) for q in range(n)]
    for g in data.GOODS:
        pts = majority([stalls[q][g] for q in range(n)], *data.STALL_MAJORITY[g])
        for q in range(n):
            rows[q]["stalls"] += pts[q]
    for q in range(n):
        p = s.players[q]
        sh = rows[q]
        sh["coins"] = coins[q] // 5
        sh["orders"] = sum(ORDER[o][4] for o in p.orders)
        sh["king_majority"] = kmaj[q]
        sh["king_sets"] = data.KING_SET_VP * min(kd[q].values())
        sh["cards"] = card_points(s, q, coins[q], sum(kd[q].values()), stalls[q])
    return rows


def card_points(s: State, seat: int, coins: int, king: int, stalls: dict[str, int]) -> int:
    """End-game bonuses of ``seat``'s market cards (hand and discard)."""
    p = s.players[seat]
    temple = sum(row.count(seat) for row in s.temple)
    total = 0
    for cid in (*p.hand, *p.discard):
        for e in CARDS[cid].endgame:
            if e == "2/order":
                total += 2 * len(p.orders)
            elif e == "2/king":
                total += 2 * king
            elif e == "2/temple":
                total += 2 * temple
            elif e.startswith("3/"):
                total += 3 * stalls[e[2:].split("-")[0]]
            elif e == "2/stall":
                total += 2 * sum(stalls.values())
            elif e == "1/flower":
                total += p.flowers
            elif e == "4/favor":
                total += 4 * p.favors
            elif e == "1/5coins":
                total += coins // 5
    return total


def outcome(s: State) -> Outcome:
    """Totals, breakdowns and competition ranks by (total, favors, flowers)."""
    rows = sheet(s, final=True)
    totals = [sum(r.values()) for r in rows]
    keys = [(totals[q], s.players[q].favors, s.players[q].flowers) for q in range(s.n)]
    ranks = tuple(1 + sum(1 for o in keys if o > k) for k in keys)
    winners = tuple(q for q in range(s.n) if ranks[q] == 1)
    notes = tuple(
        f"coins {coins_after_sale(s, q, True)}, favors {s.players[q].favors}, flowers {s.players[q].flowers}"
        for q in range(s.n)
    )
    return Outcome(
        ranks=ranks,
        scores=tuple(totals),
        categories=data.CATEGORIES,
        breakdown=tuple(rows),
        winners=winners,
        notes=notes,
    )
