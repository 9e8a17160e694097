"""The Phraya score sheet: one column per player, one row per scoring category (spec §7), the
total and the rank; winners highlighted. Before the end, a viewer's own preview if the view has
one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from render.common import GOOD, INK, LINE, MUTED, WIDTH, font, num, ordinal, wrap
from render.phraya.art import seat_disc, seat_text
from render.phraya.board import M, crop, draw_header, flatten, new_canvas, text_at
from render.phraya.model import model

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


def sheet_image(view: dict[str, Any], names: Sequence[str] | None = None) -> Image.Image:
    m = model(view, names)
    v = view
    n = m.n
    cats = list(v.get("categories") or CATS)
    scores = v.get("scores")
    totals = v.get("totals")
    ranks = v.get("ranks")
    preview_only = False
    if not scores:
        me = v.get("me") or {}
        if me.get("preview"):
            seat = int(me["seat"])
            scores = [dict(me["preview"]) if q == seat else {} for q in range(n)]
            totals = [sum(int(x) for x in me["preview"].values()) if q == seat else None for q in range(n)]
            ranks = None
            preview_only = True
    img, d = new_canvas(400 + 48 * (len(cats) + 4))
    win_names = " and ".join(m.names[q] for q in range(n) if ranks and ranks[q] == 1)
    if v.get("over"):
        verb = "win" if " and " in win_names else "wins"
        title = f"Final scores · {win_names} {verb}" if win_names else "Final scores"
    else:
        title = "Score preview" if preview_only else "Score sheet"
    y = draw_header(img, d, m, title=title)
    y += 14
    if v.get("over") and v.get("end_reason"):
        text_at(d, (M, y), f"Game ended: {v['end_reason']}", 24, INK, max_width=WIDTH - 2 * M)
        y += 36
    if not scores:
        d.text((M, y), "The game is not over yet: no score to show.", font=font(24), fill=MUTED)
        return crop(img, y + 34)
    lw = 290
    cw = (WIDTH - 2 * M - lw) // n
    winners = {q for q in range(n) if ranks and ranks[q] == 1}
    top = y
    rh = 46
    ntab = len(cats) + (2 if ranks else 1)
    for k in range(len(cats)):
        if k % 2 == 0:
            d.rectangle((M, y + 92 + k * rh, WIDTH - M, y + 92 + (k + 1) * rh), fill=(250, 246, 238))
    # column heads
    for q in range(n):
        x = M + lw + q * cw
        if q in winners:
            d.rectangle((x, top, x + cw, top + 92 + rh * ntab + 14), fill=WIN_BG)
        seat_disc(img, q, m.letters[q], x + cw / 2, y + 22, 36)
        f = font(22, True, True)
        lines = wrap(m.names[q], cw - 10, f)
        if len(lines) == 1:
            text_at(d, (x + cw / 2, y + 48), m.names[q], 24, seat_text(q), True, "ma", cw - 8)
        else:
            for i, ln in enumerate(lines[:2]):
                text_at(
                    d,
                    (x + cw / 2, y + 44 + 22 * i),
                    ln if i == 0 else " ".join(lines[1:]),
                    22,
                    seat_text(q),
                    True,
                    "ma",
                    cw - 8,
                    condensed=True,
                )
    y += 92
    for c in cats:
        text_at(d, (M + 8, y + rh / 2), category_label(c), 24, INK, False, "lm", lw - 12)
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
            font=font(32, True),
            fill=INK,
            anchor="mm",
        )
    y += rh
    if ranks:
        text_at(d, (M + 8, y + rh / 2), "Rank", 24, MUTED, False, "lm", lw - 12)
        for q in range(n):
            x = M + lw + q * cw
            r = int(ranks[q])
            s = "winner" if r == 1 else ordinal(r)
            d.text(
                (x + cw / 2, y + rh / 2), s, font=font(26, True), fill=GOOD if r == 1 else INK, anchor="mm"
            )
        y += rh
    y += 8
    d.rectangle((M, top - 4, WIDTH - M, y), outline=LINE, width=2)
    if v.get("over"):
        sale = v.get("final_sale") or []
        if any(sale):
            s = "Final sale (coins): " + " · ".join(
                f"{m.names[q]} {sale[q]}" for q in range(n) if q < len(sale)
            )
            y += 10
            text_at(d, (M, y), s, 22, MUTED, max_width=WIDTH - 2 * M)
            y += 30
        y += 6
        text_at(d, (M, y), "Ties: most favors left, then most flowers.", 22, MUTED, max_width=WIDTH - 2 * M)
        y += 30
    elif preview_only:
        y += 10
        text_at(
            d,
            (M, y),
            "Your points if the game ended now (others are not shown).",
            22,
            MUTED,
            max_width=WIDTH - 2 * M,
        )
        y += 30
    return flatten(crop(img, y))
