"""The Phraya score sheet: one column per player, one row per scoring category
(docs/rules/phraya.md#scoring), the total and the rank; winners highlighted. Before the end, a
viewer's own preview if the view has one."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engines.phraya.view.types import PhrayaView
from render.common import GOOD, INK, LINE, MIN_TEXT, MUTED, WIDTH, fit, font, num, ordinal
from render.phraya.art import seat_disc, seat_text
from render.phraya.art.draw import M, crop, new_canvas, text_at
from render.phraya.board import draw_header
from render.phraya.layout.model import Model, model

LABELS = {
    "coins": "Coins (1 per 5)",
    "temple_offerings": "Temple offerings",
    "temple_majority": "Temple majorities",
    "orders": "Restaurant orders",
    "cards": "Market cards",
    "king_majority": "King majority",
    "king_sets": "King sets (8 each)",
    "stalls": "Stall majorities",
}
CATS = tuple(LABELS)
WIN_BG = (252, 236, 190)


def category_label(c: str) -> str:
    return LABELS.get(c, c.replace("_", " ").capitalize())


def _ranking(
    img: Image.Image, d: ImageDraw.ImageDraw, m: Model, y: int, totals: Sequence[int], ranks: Sequence[int]
) -> int:
    """The result first: one line per seat, best first: place, badge, name, total VP."""
    order = sorted(range(m.n), key=lambda q: (int(ranks[q]), q))
    for q in order:
        r = int(ranks[q])
        if r == 1:
            d.rounded_rectangle((M, y, WIDTH - M, y + 58), radius=10, fill=WIN_BG)
        d.text(
            (M + 12, y + 29),
            "winner" if r == 1 else ordinal(r),
            font=font(34, True),
            fill=GOOD if r == 1 else INK,
            anchor="lm",
        )
        seat_disc(img, q, m.letters[q], M + 200, y + 29, 44)
        t, f = fit(m.names[q], WIDTH - 2 * M - 420, 34, True)
        d.text((M + 234, y + 29), t, font=f, fill=seat_text(q), anchor="lm")
        d.text(
            (WIDTH - M - 12, y + 29), f"{num(int(totals[q]))} VP", font=font(40, True), fill=INK, anchor="rm"
        )
        y += 62
    return y


def sheet_image(view: PhrayaView, names: Sequence[str] | None = None) -> Image.Image:
    """The final sheet: the ranking with each total first, then every category per seat, the
    end's reason and the tie rule. Before the end, a viewer's own preview (if the view has it)."""
    m = model(view, names)
    v = view
    n = m.n
    cats = list(v["categories"] or CATS)
    scores = v["scores"]
    totals: list[int | None] | None = list(v["totals"]) if v["totals"] is not None else None
    ranks = v["ranks"]
    preview_only = False
    me = v["me"]
    if not scores and me is not None and me["preview"]:
        seat = int(me["seat"])
        scores = [dict(me["preview"]) if q == seat else {} for q in range(n)]
        totals = [sum(int(x) for x in me["preview"].values()) if q == seat else None for q in range(n)]
        ranks = None
        preview_only = True
    img, d = new_canvas(700 + 62 * n + 48 * (len(cats) + 4))
    label = "Final scores" if v["over"] else ("Score preview" if preview_only else "Score sheet")
    y = draw_header(img, d, m, label=label) + 12
    if not scores:
        d.text((M, y), "The game is not over yet: no score to show.", font=font(MIN_TEXT), fill=MUTED)
        return crop(img, y + 34)
    if ranks and v["totals"]:  # a finished game's (the preview has no ranks)
        y = _ranking(img, d, m, y, v["totals"], ranks) + 10
    if v["over"] and v["end_reason"]:
        text_at(d, (M, y), f"Ended by {v['end_reason']}", MIN_TEXT, MUTED, max_width=WIDTH - 2 * M)
        y += 40
    y = _table(img, d, m, y, cats, scores, totals, ranks)
    if v["over"]:
        sale = v["final_sale"]
        if any(sale):
            s = "Final sale (coins): " + " · ".join(
                f"{m.names[q]} {sale[q]}" for q in range(n) if q < len(sale)
            )
            y += 10
            text_at(d, (M, y), s, MIN_TEXT, MUTED, max_width=WIDTH - 2 * M)
            y += 34
        y += 6
        text_at(
            d, (M, y), "Ties: most favors left, then most flowers.", MIN_TEXT, MUTED, max_width=WIDTH - 2 * M
        )
        y += 34
    elif preview_only:
        y += 10
        text_at(
            d,
            (M, y),
            "Your points if the game ended now (others are not shown).",
            MIN_TEXT,
            MUTED,
            max_width=WIDTH - 2 * M,
        )
        y += 34
    return crop(img, y)


def _table(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    m: Model,
    y: int,
    cats: Sequence[str],
    scores: Sequence[dict[str, int]],
    totals: Sequence[int | None] | None,
    ranks: Sequence[int] | None,
) -> int:
    """One column per seat (badge and name), one row per category, the total underneath."""
    n = m.n
    lw = 290
    cw = (WIDTH - 2 * M - lw) // n
    winners = {q for q in range(n) if ranks and ranks[q] == 1}
    top, rh = y, 46
    for k in range(len(cats)):
        if k % 2 == 0:
            d.rectangle((M, y + 92 + k * rh, WIDTH - M, y + 92 + (k + 1) * rh), fill=(250, 246, 238))
    for q in range(n):
        x = M + lw + q * cw
        if q in winners:
            d.rectangle((x, top, x + cw, top + 92 + rh * (len(cats) + 1) + 8), fill=WIN_BG)
        seat_disc(img, q, m.letters[q], x + cw / 2, y + 24, 40)
        text_at(
            d, (x + cw / 2, y + 50), m.names[q], MIN_TEXT, seat_text(q), True, "ma", cw - 8, condensed=True
        )
    y += 92
    for c in cats:
        text_at(d, (M + 8, y + rh / 2), category_label(c), MIN_TEXT, INK, False, "lm", lw - 12)
        for q in range(n):
            x = M + lw + q * cw
            row = scores[q] if q < len(scores) else {}
            val = row.get(c) if row else None
            s = "–" if val is None else num(int(val))
            d.text((x + cw / 2, y + rh / 2), s, font=font(28, True), fill=INK, anchor="mm")
        y += rh
    d.line((M, y + 2, WIDTH - M, y + 2), fill=INK, width=3)
    y += 6
    text_at(d, (M + 8, y + rh / 2), "Total", 28, INK, True, "lm", lw - 12)
    for q in range(n):
        x = M + lw + q * cw
        t = totals[q] if totals and q < len(totals) and totals[q] is not None else None
        d.text(
            (x + cw / 2, y + rh / 2),
            "–" if t is None else num(int(t)),
            font=font(34, True),
            fill=INK,
            anchor="mm",
        )
    y += rh + 8
    d.rectangle((M, top - 4, WIDTH - M, y), outline=LINE, width=2)
    return y
