"""The Kathai final score sheet. It starts with the result: the ranking, each seat's total and
profit cards (the tie-break), the winner's row tinted; then each seat's sales (goods, points)
with the cards sold and the bonus; then how points and ties are counted."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engines.kathai.view import KathaiView, SaleView
from render import frame
from render.common import (
    GOOD,
    INK,
    LINE,
    MIN_TEXT,
    MUTED,
    NUMBER_TEXT,
    PANEL,
    canvas,
    fit,
    font,
    mix,
    ordinal,
    panel,
    seat_ink,
)
from render.kathai.art import DANGER, goods_icon, profit_icon
from render.kathai.layout import GAP, PAD, X0, X1, Ctx, badge

View = KathaiView
RANK_H = 62
CHIP_W = 106
CHIP_H = 48


def ranks(c: Ctx) -> tuple[list[int], list[int], list[int]]:
    """(ranks, scores, profit) from the outcome, else from the players (competition ranking)."""
    v = c.view
    ps = v["players"] or []
    out = v["outcome"]
    scores = [int(x) if x is not None else 0 for x in (out["scores"] if out else [p["score"] for p in ps])]
    profit = [int(p["profit"]) for p in ps]  # the outcome has no profit counts: the players do
    rk = out["ranks"] if out else None
    if not rk:
        rk = [
            1 + sum(1 for t in range(c.n) if (scores[t], profit[t]) > (scores[s], profit[s]))
            for s in range(c.n)
        ]
    return [int(r) for r in rk], scores, profit


def _sales_of(v: View, s: int) -> list[SaleView]:
    return [x for x in v["sales"] or [] if int(x["seat"]) == s]


def draw_ranking(d: ImageDraw.ImageDraw, c: Ctx, order: list[int], y: int, over: bool) -> int:
    """One row per seat, best first: place, badge and name, profit cards, total."""
    rk, scores, profit = ranks(c)
    top = y + GAP
    h = PAD + RANK_H * c.n + PAD - 6
    panel(d, (X0, top, X1, top + h), outline=GOOD if over else LINE, width=3 if over else 2)
    yy = top + PAD
    nf = font(NUMBER_TEXT, True)
    for s in order:
        mid = yy + RANK_H / 2 - 3
        first = rk[s] == 1 and over
        if first:
            d.rounded_rectangle((X0 + 6, yy, X1 - 6, yy + RANK_H - 6), radius=10, fill=mix(GOOD, PANEL, 0.85))
        d.text((X0 + PAD, mid), ordinal(rk[s]), font=nf, fill=GOOD if first else INK, anchor="lm")
        x = badge(d, c, s, X0 + PAD + 80, mid)
        t, f = fit(c.names[s], 400, 30, True)
        d.text((x, mid), t, font=f, fill=seat_ink(s), anchor="lm")
        total = f"{scores[s]} pts"
        d.text((X1 - PAD, mid), total, font=font(40, True), fill=INK, anchor="rm")
        px = X0 + 600
        profit_icon(d, px, mid - 17, 34)
        d.text((px + 42, mid), str(profit[s]), font=nf, fill=INK, anchor="lm")
        yy += RANK_H
    return top + h


def draw_sales(img: Image.Image, d: ImageDraw.ImageDraw, c: Ctx, s: int, y: int) -> int:
    """A seat's sales as chips (the goods' picture and the points), then the cards and bonus."""
    sales = _sales_of(c.view, s)
    left = X0 + PAD + 150
    per = max(1, int((X1 - PAD - left) // (CHIP_W + 8)))
    lines = max(1, (len(sales) + per - 1) // per)
    top = y + 6
    h = 8 + lines * (CHIP_H + 8) + 34 + 8
    mid = top + 8 + CHIP_H / 2
    x = badge(d, c, s, X0 + PAD, mid)
    t, f = fit(c.names[s], int(left - x - 8), 28, True)
    d.text((x, mid), t, font=f, fill=seat_ink(s), anchor="lm")
    if not sales:
        d.text((left, mid), "no sales", font=font(28), fill=MUTED, anchor="lm")
    nf = font(NUMBER_TEXT, True)
    for i, sale in enumerate(sales):
        cx = left + (i % per) * (CHIP_W + 8)
        cy = top + 8 + (i // per) * (CHIP_H + 8)
        d.rounded_rectangle((cx, cy, cx + CHIP_W, cy + CHIP_H), radius=10, fill=PANEL, outline=LINE, width=2)
        icon = goods_icon(str(sale["goods"]), 36)
        img.paste(icon, (cx + 6, cy + 6), icon)
        d.text((cx + CHIP_W - 10, cy + CHIP_H / 2), str(sale["points"]), font=nf, fill=INK, anchor="rm")
    cards = sum(int(x["count"] or len(x["cards"] or [])) for x in sales)
    bonus = sum(int(x["bonus"] or 0) for x in sales)
    summary = f"{len(sales)} sale{'s' if len(sales) != 1 else ''}: {cards} cards sold + bonus {bonus}"
    d.text((left, top + 8 + lines * (CHIP_H + 8) + 14), summary, font=font(MIN_TEXT), fill=MUTED, anchor="lm")
    return top + h


def score_sheet(view: View, names: Sequence[str] | None = None) -> Image.Image:
    """The final sheet of a finished game (before the end: the standings so far): the ranking
    with each total first, then every seat's sales."""
    c = Ctx(view, names)
    rk, scores, profit = ranks(c)
    over = bool(view["over"])
    img, d = canvas(2400)
    turns = int(view["turn_no"] or 0)
    y = frame.header(img, d, "Kathai", "Final scores" if over else "Scores so far", label=f"{turns} turns")
    order = sorted(range(c.n), key=lambda s: (rk[s], s))
    y = draw_ranking(d, c, order, y, over)
    top = y + GAP
    d.text(
        (X0 + 4, top + 20),
        "Sales: each scores its cards + the price card's bonus",
        font=font(28, True),
        fill=INK,
        anchor="lm",
    )
    y = top + 40
    for s in order:
        y = draw_sales(img, d, c, s, y)
        d.line((X0 + PAD, y, X1 - PAD, y), fill=LINE, width=2)
    notes = []
    if any(scores[t] == scores[s] and t != s for s in range(c.n) for t in range(c.n)):
        notes.append("Equal points are ranked by profit cards.")
    out = view["outcome"]
    if out is not None and out["reason"] == "turn_limit":
        notes.append(f"The game ended at the turn limit ({view['turn_limit']}).")
    y += 6
    for note in notes:
        d.text(
            (X0 + 4, y + 18),
            note,
            font=font(MIN_TEXT),
            fill=DANGER if "limit" in note else MUTED,
            anchor="lm",
        )
        y += 36
    return img.crop((0, 0, img.width, y + frame.MARGIN // 2))
