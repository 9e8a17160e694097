"""Pieces drawn on the Pralaya pictures: the house header, tags and section titles, and the island's
tiles (a relic's face, an Ocean, an empty cell, the mark of the last move)."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engines.pralaya.view import CellView, PralayaView
from render.common import (
    BG,
    INK,
    LINE,
    MARK,
    MIN_TEXT,
    MUTED,
    PANEL,
    RGB,
    dashed_rect,
    draw_text,
    fit,
    font,
    hatch,
    mark_box,
    on_color,
    stamp,
    text_width,
    tint,
)
from render.frame import header
from render.pralaya.art.cards import (
    OCEAN_FILL,
    OCEAN_HATCH,
    info,
)
from render.pralaya.art.icons import paste_icon, pips
from render.pralaya.layout import (
    INNER,
    OCEAN_INK,
    PIP,
    STEP_LABEL,
    VITALITY,
    M,
    is_ocean,
)
from render.pralaya.marks import DISCARDED


def tag(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    s: str,
    fill: RGB,
    fg: RGB | None = None,
    size: int = 26,
    pad: int = 7,
    outline: RGB | None = None,
) -> int:
    """A rounded label with its top-left at ``xy``; returns its width. Height is ``size + 11``."""
    f = font(size, True)
    w = text_width(s, f) + 2 * pad
    h = size + 11
    x, y = xy
    d.rounded_rectangle(
        (x, y, x + w, y + h), radius=h // 2, fill=fill, outline=outline, width=2 if outline else 0
    )
    d.text((x + w / 2, y + h / 2 + 1), s, font=f, fill=fg or on_color(fill), anchor="mm")
    return w


def section_title(d: ImageDraw.ImageDraw, y: int, title: str, note: str = "") -> int:
    """A section heading at ``y``; returns the y below it."""
    w = draw_text(d, (M + 4, y), title.upper(), 26, fill=MUTED, bold=True)
    if note:
        draw_text(d, (M + 4 + w + 12, y + 1), note, 26, fill=MUTED, max_width=INNER - w - 20)
    return y + 36


def top(img: Image.Image, d: ImageDraw.ImageDraw, view: PralayaView, names: Sequence[str]) -> int:
    """The house header of every Pralaya picture: the round, the step and who acts (or "Game
    over"). Returns the y below it."""
    over = bool(view["over"])
    active = view["active"]
    step = str(view["step"])
    return header(
        img,
        d,
        "Pralaya",
        f"Round {view.get('round', 1)}",
        pill=None if over else STEP_LABEL.get(step, step),
        label="" if over else "to play",
        seats=[] if over or active is None else [active],
        names=names,
        over=over,
    )


# --------------------------------------------------------------------------- island tiles


def name_lines(d: ImageDraw.ImageDraw, name: str, cx: float, y: float, width: int) -> None:
    """A card name centred on ``cx`` from ``y`` at 28 px, in the first way that fits: one bold
    line, one bold condensed line, two bold condensed lines, then the same in the regular face;
    a single word too long for all of them is ellipsised."""
    words = name.split()
    for bold in (True, False):
        for f in (font(28, bold), font(28, bold, True)):
            if text_width(name, f) <= width:
                d.text((cx, y + 15), name, font=f, fill=INK, anchor="mm")
                return
        f = font(28, bold, True)
        for i in range(1, len(words)):
            a, b = " ".join(words[:i]), " ".join(words[i:])
            if max(text_width(a, f), text_width(b, f)) <= width:
                d.text((cx, y), a, font=f, fill=INK, anchor="mm")
                d.text((cx, y + 30), b, font=f, fill=INK, anchor="mm")
                return
    f = font(28, False, True)
    s = name
    while s and text_width(s + "…", f) > width:
        s = s[:-1]
    d.text((cx, y + 15), s + "…", font=f, fill=INK, anchor="mm")


def _ocean_tile(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], label: str) -> None:
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, radius=8, fill=OCEAN_FILL)
    hatch(d, (x0 + 2, y0 + 2, x1 - 2, y1 - 2), OCEAN_HATCH, step=14, width=2)
    d.rounded_rectangle(box, radius=8, outline=OCEAN_HATCH, width=2)
    f = font(28, True)
    lw = text_width(label, f)
    d.rectangle((x0 + 5, y0 + 5, x0 + 13 + lw, y0 + 39), fill=OCEAN_FILL)
    d.text((x0 + 9, y0 + 6), label, font=f, fill=OCEAN_INK)
    wf = font(MIN_TEXT, True)  # a calm plate behind the word so the hatching never crosses it
    tw = text_width("Ocean", wf)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2 + 14
    d.rounded_rectangle((cx - tw / 2 - 8, cy - 18, cx + tw / 2 + 8, cy + 18), radius=6, fill=OCEAN_FILL)
    d.text((cx, cy), "Ocean", font=wf, fill=OCEAN_INK, anchor="mm")


def _mark_tag(d: ImageDraw.ImageDraw, x1: float, y0: float, word: str) -> None:
    """The house mark's tag naming what the last move did to a tile, its top-right at (x1, y0)."""
    f = font(MIN_TEXT, True, True)
    w = text_width(word, f) + 14
    d.rounded_rectangle((x1 - w, y0, x1, y0 + 34), radius=17, fill=MARK)
    d.text((x1 - w / 2, y0 + 17), word, font=f, fill=(255, 255, 255), anchor="mm")


def tile(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    cell: CellView,
    active: tuple[RGB, str, str],
    mark: str | None,
) -> None:
    """One island cell in ``box``, outlined and tagged when the last move changed it (``mark``).
    The cell itself is drawn once per look and pasted (:func:`render.common.stamp`)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    key = ("pralaya.tile", tuple(sorted(cell.items())), active)
    stamp(
        img,
        box,
        key,
        lambda im, dd, sx, sy: _face(
            im, dd, (int(sx), int(sy), int(sx) + w, int(sy) + h), cell, active, mark
        ),
    )
    if mark:
        mark_box(d, (x0 - 3, y0 - 3, x1 + 3, y1 + 3), radius=10, width=5)
        if cell["code"] is not None:  # an empty cell's own words say what happened
            _mark_tag(d, x1 - 6, y0 + 6, mark)


def _empty(
    d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], cell: CellView, active: tuple[RGB, str, str]
) -> None:
    x0, y0, x1, y1 = box
    d.rectangle(box, fill=BG)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2 + 12
    if cell["taken"]:
        colour, initial, how = active
        d.rounded_rectangle(box, radius=8, outline=colour, width=3)
        dashed_rect(d, (x0 + 6, y0 + 6, x1 - 6, y1 - 6), tint(colour, 0.45), dash=7)
        word = "discarded" if how == DISCARDED else "taken"
        t, f = fit(word, x1 - x0 - 16, 28, True)
        d.text((cx, cy - 14), t, font=f, fill=colour, anchor="mm")
        d.text((cx, cy + 20), f"by {initial}", font=font(MIN_TEXT, True), fill=colour, anchor="mm")
    else:
        dashed_rect(d, box, MUTED, dash=7)
        draw_text(d, (cx, cy), "empty", MIN_TEXT, fill=MUTED, anchor="mm")
    draw_text(d, (x0 + 9, y0 + 6), str(cell["cell"]), 28, fill=MUTED, bold=True)


def _face(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    cell: CellView,
    active: tuple[RGB, str, str],
    mark: str | None,
) -> None:
    x0, y0, x1, y1 = box
    code = cell["code"]
    card = info(code)
    label = str(cell["cell"])
    if code is None:
        _empty(d, box, cell, active)
        return
    if is_ocean(code):
        _ocean_tile(d, box, label)
        return
    color = card.color if card else MUTED
    d.rounded_rectangle(
        box,
        radius=8,
        fill=tint(color, 0.86) if card else PANEL,
        outline=tint(color, 0.35) if card else LINE,
        width=2,
    )
    draw_text(d, (x0 + 9, y0 + 6), label, 28, fill=INK, bold=True)
    paste_icon(img, code if card else "back", (x0 + 10, y0 + 42), 42)
    cost = cell["cost"] if cell["cost"] is not None else (card.cost if card else None)
    if cost:
        pw = cost * (PIP + 4) - 4
        pips(img, (x1 - 12 - pw, y0 + 54), cost, cost, PIP, VITALITY, gap=4)
    name = cell["name"] or (card.name if card else str(code))
    name_lines(d, name, (x0 + x1) / 2, y0 + 96, x1 - x0 - 12)
