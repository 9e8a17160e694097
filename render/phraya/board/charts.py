"""The charts of the second Phraya picture: the Temple's rows with their costs and sections, and
the King's Chart."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from engines.phraya.view.types import KingSpaceView
from render.common import (
    INK,
    LINE,
    MIN_TEXT,
    MUTED,
    NUMBER_TEXT,
    PANEL,
    fit,
    font,
    mark_box,
    mark_tag,
    num,
    text_width,
)
from render.phraya.art import (
    GOLD_DARK,
    GOOD_COLOR,
    goods_row,
    icon,
    paste_c,
    seat_disc,
)
from render.phraya.art.layers import layer
from render.phraya.layout import (
    HALF,
    ROW1_H,
    ROW2_H,
    TEMPLE_COST_H,
)
from render.phraya.layout.model import Model


def _tags(d: ImageDraw.ImageDraw, right: int, y: int, items: Sequence[str]) -> None:
    """Changed-tags from the right end of a title row, right to left."""
    for s in items:
        mark_tag(d, (right, y - 4), s)
        right -= text_width(s, font(MIN_TEXT, True)) + 24


def draw_temple(img: Image.Image, d: ImageDraw.ImageDraw, m: Model, x: int, y: int, tags: list[str]) -> None:
    """4 rows × 8 columns of disks (seat badges), the flower cost of each column above, the
    offering VP of each row at its left and the sections' VP below; the next free space of
    each row outlined."""
    t = m.view["temple"]
    order = list(t["row_order"] or ["meat", "fish", "fruit", "veg"])
    cols = int(t["columns"] or 8)
    cost = list(t["flower_cost"] or [0, 1, 1, 2, 2, 3, 3, 4])
    secs = [list(s) for s in t["sections"] or [[0, 1, 2], [3, 4, 5], [6, 7]]]
    svp = list(t["section_vp"] or [10, 7, 4])
    spen = list(t["section_penalty"] or [-7, -4, -2])
    ovp = dict(t["offering_vp"] or {"meat": 5, "fish": 4, "fruit": 3, "veg": 2})
    cond = bool((m.view["conditions"]).get("buddha"))
    key = ("xtemple", cond, tuple(order), cols, tuple(cost), repr(secs), tuple(svp), tuple(spen), repr(ovp))

    def grid(im: Image.Image, dd: ImageDraw.ImageDraw, lx: int, ly: int) -> None:
        _temple_grid(im, dd, lx, ly, cond, order, cols, cost, secs, svp, spen, ovp)

    layer(img, x, y, x + HALF, y + ROW1_H - 1, key, grid)
    _tags(d, x + HALF, y, tags)
    rows = t["rows"]
    lw, rh = 86, 40
    cw = (HALF - lw) // cols
    y0 = y + 34 + TEMPLE_COST_H
    changed = {tuple(tg.split(":")[1:]) for tg in (m.extra.get("temple_changed") or [])}
    for r, g in enumerate(order):
        seats = rows.get(g) or []
        for c in range(cols):
            bx, yy = x + lw + c * cw, y0 + r * rh
            box = (bx + 2, yy + 2, bx + cw - 2, yy + rh - 2)
            if c < len(seats):
                q = int(seats[c])
                seat_disc(img, q, m.letters[q], bx + cw / 2, yy + rh / 2, 38)
                if (g, str(c)) in changed:
                    mark_box(d, box, radius=8)
            elif c == len(seats):
                d.rounded_rectangle(box, radius=6, outline=(196, 84, 38), width=3)


def _temple_grid(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    x: int,
    y: int,
    cond: bool,
    order: Sequence[str],
    cols: int,
    cost: Sequence[int],
    secs: Sequence[Sequence[int]],
    svp: Sequence[int],
    spen: Sequence[int],
    ovp: Mapping[str, int],
) -> None:
    note = "Buddha ✔" if cond else "Buddha: a disk in 7–8"
    f = font(MIN_TEXT, True)
    d.text((x, y), "Temple", font=f, fill=MUTED)
    d.text((x + text_width("Temple", f) + 12, y), note, font=font(MIN_TEXT), fill=MUTED)
    lw, rh = 86, 40
    cw = (HALF - lw) // cols
    y += 34
    paste_c(img, icon("flower", 30), x + 18, y + 19)
    numf = font(NUMBER_TEXT, True)
    for c in range(cols):
        d.text((x + lw + c * cw + cw / 2, y + 19), str(cost[c]), font=numf, fill=INK, anchor="mm")
    y += TEMPLE_COST_H
    for r, g in enumerate(order):
        yy = y + r * rh
        paste_c(img, icon(g, 34), x + 20, yy + rh / 2)
        d.text(
            (x + 64, yy + rh / 2 + 1),
            f"{ovp.get(g, '')}",
            font=font(NUMBER_TEXT, True),
            fill=INK,
            anchor="mm",
        )
        for c in range(cols):
            bx = x + lw + c * cw
            fill = PANEL if c < 6 else (244, 232, 206)
            d.rounded_rectangle(
                (bx + 2, yy + 2, bx + cw - 2, yy + rh - 2), radius=6, fill=fill, outline=LINE, width=1
            )
    y += 4 * rh + 4
    d.text((x, y + 2), "VP", font=font(MIN_TEXT, True), fill=MUTED)
    for k, cols_k in enumerate(secs):
        x0 = x + lw + cols_k[0] * cw + 2
        x1 = x + lw + (cols_k[-1] + 1) * cw - 2
        d.line((x0, y, x1, y), fill=GOLD_DARK, width=3)
        s = f"{svp[k]}/{num(spen[k])}"
        t, tf = fit(s, x1 - x0, NUMBER_TEXT, True)
        d.text(((x0 + x1) / 2, y + 4), t, font=tf, fill=INK, anchor="ma")


def draw_king(img: Image.Image, d: ImageDraw.ImageDraw, m: Model, x: int, y: int, tags: list[str]) -> None:
    """The King's Chart: a row of coin spaces, one of flower spaces and one of goods spaces,
    each with its cost as a picture and its id as a tag; a taken space shows the seat's badge."""
    spaces = list(m.view["king"])
    cond = bool((m.view["conditions"]).get("tithe"))
    changed = {tg.split()[0] for tg in tags}
    key = ("xking", repr(spaces), tuple(m.letters), cond, tuple(sorted(changed)))
    layer(
        img,
        x,
        y,
        x + HALF,
        y + ROW2_H - 1,
        key,
        lambda im, dd, lx, ly: _king(im, dd, m, lx, ly, spaces, cond, changed),
    )
    _tags(d, x + HALF, y, tags)


def _king(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    m: Model,
    x: int,
    y: int,
    spaces: Sequence[KingSpaceView],
    cond: bool,
    changed: set[str],
) -> None:
    f = font(MIN_TEXT, True)
    d.text((x, y), "King", font=f, fill=MUTED)
    d.text(
        (x + text_width("King", f) + 12, y),
        "Tithe ✔" if cond else "Tithe: a full row",
        font=font(MIN_TEXT),
        fill=MUTED,
    )
    rows: dict[str, list[KingSpaceView]] = {}
    for sp in spaces:
        rows.setdefault(str(sp["row"]), []).append(sp)
    cw = HALF // max([6, *(len(r) for r in rows.values())])
    rh = 60
    tagf, numf = font(MIN_TEXT, False, True), font(NUMBER_TEXT, True)
    for r, (row, items) in enumerate(rows.items()):
        yy = y + 34 + r * rh
        for k, sp in enumerate(items):
            bx = x + k * cw
            box = (bx + 2, yy + 2, bx + cw - 2, yy + rh - 2)
            seat = sp["seat"]
            d.rounded_rectangle(
                box, radius=8, fill=PANEL if seat is None else (236, 230, 216), outline=LINE, width=1
            )
            d.text((bx + 7, yy + 4), str(sp["space"]), font=tagf, fill=MUTED)
            cx, cy = bx + cw / 2, yy + rh / 2 + 2
            if seat is not None:
                seat_disc(img, int(seat), m.letters[int(seat)], cx + 14, cy + 4, 40)
                if sp["space"] in changed:
                    mark_box(d, box, radius=8)
                continue
            cost = str(sp["cost"])
            if row == "g":
                gs = [t for t in cost.replace("+", " ").split() if t in GOOD_COLOR]
                goods_row(img, gs, cx - len(gs) * 15 + 6, cy + 8, 28, 2)
            else:
                paste_c(img, icon("coin" if row == "c" else "flower", 22), bx + 16, yy + rh - 16)
                d.text(
                    (bx + cw - 6, yy + rh - 2),
                    cost.split()[0] if cost else "?",
                    font=numf,
                    fill=INK,
                    anchor="rd",
                )
