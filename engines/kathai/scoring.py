"""Kathai scoring: totals, ranking by (score, profit cards), the score sheet.

Score = Σ over sales of (cards sold + bonus). Ranks are competition ranks per seat on
(score, profit cards): ties share a place and the next place is skipped (docs/rules/kathai.md#ranks-per-seat).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

from engines.base import Outcome
from engines.kathai.data import CARD_TEXT, GOODS
from engines.kathai.state import OVER, State

CATEGORIES = ("Cards sold", "Bonus", "Profit cards")
"""Score sheet categories: the first two add up to the score; ``Profit cards`` is the
tie-break count (it adds nothing)."""


class SheetSale(TypedDict):
    turn: int
    goods: str
    pos: int  # 1..4
    cards: list[str]
    count: int
    items: int
    bonus: int
    points: int


class SheetRow(TypedDict):
    """One seat's line of the final score sheet (the view's ``sheet``)."""

    seat: int
    sales: list[SheetSale]
    cards_sold: int
    bonus: int
    total: int
    profit: int  # profit cards left (the tie-break)
    rank: int


def ranks(scores: Sequence[int], profit: Sequence[int]) -> tuple[int, ...]:
    """Competition ranks (1 = best) on (score, profit cards)."""
    keys = [(scores[s], profit[s]) for s in range(len(scores))]
    return tuple(1 + sum(1 for o in keys if o > k) for k in keys)


def sheet(state: State) -> list[SheetRow]:
    """Per seat: every sale (goods, position, cards, bonus, points), cards sold, bonus total,
    total, profit cards and rank."""
    s = state
    profit = [len(p) for p in s.profit]
    rk = ranks(s.scores, profit)
    out: list[SheetRow] = []
    for q in range(s.n):
        mine = [x for x in s.sales if x.seat == q]
        out.append(
            {
                "seat": q,
                "sales": [
                    {
                        "turn": x.turn,
                        "goods": GOODS[x.goods],
                        "pos": x.pos + 1,
                        "cards": [CARD_TEXT[c] for c in x.cards],
                        "count": len(x.cards),
                        "items": x.items,
                        "bonus": x.bonus,
                        "points": x.points,
                    }
                    for x in mine
                ],
                "cards_sold": sum(len(x.cards) for x in mine),
                "bonus": sum(x.bonus for x in mine),
                "total": s.scores[q],
                "profit": profit[q],
                "rank": rk[q],
            }
        )
    return out


def outcome(state: State) -> Outcome | None:
    """None while the game runs; else the ranks, scores, per-category breakdown, winners and a
    note per seat (its sales, and how the game ended)."""
    if state.step != OVER:
        return None
    rows = sheet(state)
    rk = tuple(r["rank"] for r in rows)
    breakdown = tuple(
        {"Cards sold": r["cards_sold"], "Bonus": r["bonus"], "Profit cards": r["profit"]} for r in rows
    )
    how = "pile empty" if state.reason == "pile" else "turn limit"
    notes = tuple(
        (", ".join(f"{x['goods']}@{x['pos']} {x['points']}" for x in r["sales"]) or "no sales") + f" · {how}"
        for r in rows
    )
    return Outcome(
        ranks=rk,
        scores=tuple(state.scores),
        categories=CATEGORIES,
        breakdown=breakdown,
        winners=tuple(q for q in range(state.n) if rk[q] == 1),
        notes=notes,
    )
