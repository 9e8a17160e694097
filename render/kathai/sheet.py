"""The Kathai final score sheet: one block per seat in rank order with every sale (goods,
position, cards, bonus, points), the cards sold, the bonus total, the total, profit cards and
the rank; a note when profit cards broke a tie or the turn limit ended the game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from render.common import GOOD, INK, LINE, MUTED, PANEL, font, mix, ordinal, panel, text_width
from render.kathai.art import DANGER, goods_tag
from render.kathai.board import PAD, X0, X1, Ctx, crop, draw_header, new_canvas, seat_label

View = dict[str, Any]
WIN_BG = (252, 238, 196)
CELL_H = 50


def _ranks(c: Ctx) -> tuple[list[int], list[int], list[int]]:
    """(ranks, scores, profit) from the outcome, else from the players (competition ranking)."""
    v = c.view
    ps = v.get("players") or []
    out = v.get("outcome") or {}
    scores = [int(x) if x is not None else 0 for x in (out.get("scores") or [p.get("score", 0) for p in ps])]
    profit = [int(x) for x in (out.get("profit") or [p.get("profit", 0) for p in ps])]
    ranks = out.get("ranks")
    if not ranks:
        ranks = [
            1 + sum(1 for t in range(c.n) if (scores[t], profit[t]) > (scores[s], profit[s]))
            for s in range(c.n)
        ]
    return [int(r) for r in ranks], scores, profit


def _sales_of(v: View, s: int) -> list[dict[str, Any]]:
    return [x for x in v.get("sales") or [] if int(x["seat"]) == s]


def draw_seat_block(
    d: ImageDraw.ImageDraw, c: Ctx, s: int, rank: int, score: int, profit: int, winner: bool, y: int
) -> int:
    sales = _sales_of(c.view, s)
    lines = (len(sales) + 1) // 2
    top = y + 12
    h = PAD + 48 + 8 + max(1, lines) * CELL_H + 40 + PAD - 8
    panel(
        d,
        (X0, top, X1, top + h),
        fill=WIN_BG if winner else PANEL,
        outline=GOOD if winner else LINE,
        width=4 if winner else 2,
    )
    mid = top + PAD + 24
    d.text((X0 + PAD, mid), ordinal(rank), font=font(30, True), fill=GOOD if winner else INK, anchor="lm")
    seat_label(c, s, d, X0 + PAD + 76, mid, 30, max_w=470)
    pw = text_width(" pts", font(24))
    d.text((X1 - PAD, mid + 4), " pts", font=font(24), fill=MUTED, anchor="rm")
    d.text((X1 - PAD - pw, mid), f"{score}", font=font(40, True), fill=INK, anchor="rm")
    yy = top + PAD + 48 + 8
    cw = (X1 - X0 - 2 * PAD - 16) // 2
    if not sales:
        d.text((X0 + PAD, yy + CELL_H / 2 - 4), "No sales", font=font(26), fill=MUTED, anchor="lm")
    for i, sale in enumerate(sales):
        x = X0 + PAD + (i % 2) * (cw + 16)
        cy = yy + (i // 2) * CELL_H
        m = cy + CELL_H / 2 - 4
        d.rounded_rectangle((x, cy, x + cw, cy + CELL_H - 8), radius=10, fill=mix(LINE, PANEL, 0.7))
        tw = goods_tag(d, x + 6, m - 19, sale["goods"], 28, h=38)
        bonus = int(sale.get("bonus") or 0)
        count = int(sale.get("count") or len(sale.get("cards") or []))
        t = f"pos {sale['pos']} · {count} card{'s' if count != 1 else ''} +{bonus}"
        d.text((x + tw + 18, m), t, font=font(24), fill=INK, anchor="lm")
        d.text(
            (x + cw - 12, m),
            f"= {sale.get('points', count + bonus)}",
            font=font(28, True),
            fill=INK,
            anchor="rm",
        )
    yy += max(1, lines) * CELL_H
    cards = sum(int(x.get("count") or len(x.get("cards") or [])) for x in sales)
    bonus = sum(int(x.get("bonus") or 0) for x in sales)
    summary = (
        f"{len(sales)} sale{'s' if len(sales) != 1 else ''} · {cards} cards sold · "
        f"bonus {bonus} · {profit} profit card{'s' if profit != 1 else ''}"
    )
    d.text((X0 + PAD, yy + 16), summary, font=font(24), fill=MUTED, anchor="lm")
    return top + h


def score_sheet(view: View, names: Sequence[str] | None = None) -> Image.Image:
    """The final sheet of a finished game (before the end: the standings so far)."""
    c = Ctx(view, names)
    ranks, scores, profit = _ranks(c)
    out = view.get("outcome") or {}
    winners = set(out.get("winners") or [s for s in range(c.n) if ranks[s] == 1])
    img, d = new_canvas(600 + 400 * c.n + 30 * len(view.get("sales") or []))
    y = draw_header(d, c, title="Final scores" if view.get("over") else "Scores so far")
    order = sorted(range(c.n), key=lambda s: (ranks[s], s))
    for s in order:
        y = draw_seat_block(
            d, c, s, ranks[s], scores[s], profit[s], s in winners and bool(view.get("over")), y
        )
    notes = []
    tied = [s for s in range(c.n) if any(scores[t] == scores[s] and t != s for t in range(c.n))]
    if tied:
        notes.append("Equal scores are ranked by profit cards.")
    if out.get("reason") == "turn_limit":
        notes.append(f"The game ended at the turn limit ({view.get('turn_limit')}).")
    notes.append("Points per sale: cards sold + the price card's bonus.")
    y += 8
    for note in notes:
        d.text((X0 + 4, y + 16), note, font=font(22), fill=DANGER if "limit" in note else MUTED, anchor="lm")
        y += 32
    return crop(img, y)
