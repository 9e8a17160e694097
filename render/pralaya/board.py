"""The public Pralaya board: header, the island grid, the supply band and one row per player.

Everything drawn here comes from the spectator view (``view(state, None)``); a hand's contents
are drawn only where the view carries them (open hands, or the game is over). With ``previous``
(the public view of the board posted before) the places the last move changed get a ring and a tag
(see :mod:`render.pralaya.changes`). Rows and columns that are all Ocean shrink to a thin band.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from engines.pralaya.view import CellView, PralayaView
from render.common import (
    BG,
    INK,
    LINE,
    MUTED,
    PANEL,
    RGB,
    WIDTH,
    dashed_rect,
    draw_text,
    font,
    hatch,
    seat_initials,
    seat_ink,
    stamp,
    text_width,
    tint,
)
from render.pralaya.cards import OCEAN_FILL, OCEAN_HATCH, info
from render.pralaya.changes import DISCARDED, NONE, Changes, changes
from render.pralaya.draw import (
    INNER,
    VITALITY,
    M,
    crop,
    header,
    mark_ring,
    mark_tag,
    names_for,
    new_canvas,
    price_text,
    section_title,
    tag,
)
from render.pralaya.icons import paste_icon, pips
from render.pralaya.players import players_block, players_height
from render.pralaya.sheet import sheet_block, sheet_height

GAP = 8  # gap between tiles
TILE_H = 156
SUNK_H = 44  # a row that is all Ocean
SUNK_W = 62  # a column that is all Ocean
OCEAN_INK = (40, 86, 140)
PIP = 16  # a Vitality pip on a tile
LEGEND_H = 34
SUPPLY_H = 136


def _ocean(code: object) -> bool:
    return code == "oce"


def grid_layout(view: Mapping[str, object]) -> tuple[list[int], list[int]]:
    """(column widths, row heights) of the island grid: a column or row whose cells are all Ocean
    takes little room (unless every column is, then they keep their width)."""
    rows, cols = int(view.get("rows", 3)), int(view.get("cols", 5))  # type: ignore[call-overload]
    island = list(view.get("island") or [])  # type: ignore[call-overload]
    codes = [c.get("code") for c in island] + [None] * (rows * cols - len(island))
    sunk_cols = [all(_ocean(codes[r * cols + c]) for r in range(rows)) for c in range(cols)]
    sunk_rows = [all(_ocean(codes[r * cols + c]) for c in range(cols)) for r in range(rows)]
    if all(sunk_cols):
        sunk_cols = [False] * cols
    narrow = sum(sunk_cols)
    wide = cols - narrow
    free = INNER - (cols - 1) * GAP - narrow * SUNK_W
    base, extra = divmod(free, max(1, wide))
    widths, k = [], 0
    for c in range(cols):
        if sunk_cols[c]:
            widths.append(SUNK_W)
        else:
            widths.append(base + (1 if k < extra else 0))
            k += 1
    heights = [SUNK_H if s else TILE_H for s in sunk_rows]
    return widths, heights


# --------------------------------------------------------------------------- island tiles


def name_lines(d: ImageDraw.ImageDraw, name: str, cx: float, y: float, width: int) -> None:
    """A card name centred on ``cx`` from ``y`` at 28 px, in the first way that fits: one bold
    line, one bold condensed line, two bold condensed lines, then the same in the regular face;
    a single word too long for all of them is ellipsised."""
    words = name.split()
    for bold in (True, False):
        for f in (font(28, bold), font(28, bold, True)):
            if text_width(name, f) <= width:
                d.text((cx, y + 16), name, font=f, fill=INK, anchor="mm")
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
    d.text((cx, y + 16), s + "…", font=f, fill=INK, anchor="mm")


def _ocean_tile(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], label: str, small: bool) -> None:
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, radius=8, fill=OCEAN_FILL)
    hatch(d, (x0 + 2, y0 + 2, x1 - 2, y1 - 2), OCEAN_HATCH, step=14, width=2)
    d.rounded_rectangle(box, radius=8, outline=OCEAN_HATCH, width=2)
    size = 20 if small else 28
    f = font(size, True)
    lw = text_width(label, f)
    d.rectangle((x0 + 5, y0 + 5, x0 + 13 + lw, y0 + 11 + size), fill=OCEAN_FILL)
    d.text((x0 + 9, y0 + 7), label, font=f, fill=OCEAN_INK)
    if not small:  # a calm plate behind the word so the hatching never crosses it
        wf = font(24, True)
        tw = text_width("Ocean", wf)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2 + 14
        d.rounded_rectangle((cx - tw / 2 - 8, cy - 16, cx + tw / 2 + 8, cy + 16), radius=6, fill=OCEAN_FILL)
        d.text((cx, cy), "Ocean", font=wf, fill=OCEAN_INK, anchor="mm")


def _tile(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    cell: CellView,
    active: tuple[RGB, str],
    mark: str | None,
) -> None:
    """One island cell in ``box``, ringed and tagged when the last move changed it (``mark``).
    The cell itself is drawn once per look and pasted (:func:`render.common.stamp`)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    code = cell.get("code")
    key = ("pralaya.tile", tuple(sorted(cell.items())), active, mark == DISCARDED, bool(mark))
    stamp(
        img,
        box,
        key,
        lambda im, dd, sx, sy: _face(
            im, dd, (int(sx), int(sy), int(sx) + w, int(sy) + h), cell, active, mark
        ),
    )
    if mark:
        mark_ring(d, box, radius=8)
        if code is None:  # the tile's own words say it
            return
        size = 20
        tw = text_width(mark, font(size, True)) + 14
        if w < 100 or h < 100:
            return
        mark_tag(d, (x1 - 6 - tw, y0 + 8), mark, size)


def _face(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    cell: CellView,
    active: tuple[RGB, str],
    mark: str | None,
) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    code = cell.get("code")
    card = info(code)
    label = str(cell.get("cell", ""))
    small = w < 100 or h < 100
    if code is None:
        d.rectangle(box, fill=BG)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2 + 10
        if cell.get("taken"):
            colour, initial = active
            d.rounded_rectangle(box, radius=8, outline=colour, width=3)
            dashed_rect(d, (x0 + 6, y0 + 6, x1 - 6, y1 - 6), tint(colour, 0.45), dash=7)
            word = "discarded" if mark == DISCARDED else "taken"
            draw_text(d, (cx, cy - 12), word, 28, fill=colour, bold=True, anchor="mm")
            draw_text(d, (cx, cy + 20), f"by {initial}", 22, fill=colour, bold=True, anchor="mm")
        else:
            dashed_rect(d, box, MUTED, dash=7)
            draw_text(d, (cx, cy), "empty", 24, fill=MUTED, anchor="mm")
        draw_text(d, (x0 + 9, y0 + 6), label, 28, fill=MUTED, bold=True)
    elif _ocean(code):
        _ocean_tile(d, box, label, small)
    else:
        color = card.color if card else MUTED
        d.rounded_rectangle(
            box,
            radius=8,
            fill=tint(color, 0.86) if card else PANEL,
            outline=tint(color, 0.35) if card else LINE,
            width=2,
        )
        draw_text(d, (x0 + 9, y0 + 6), label, 28, fill=INK, bold=True)
        if cell.get("new") and not mark:  # refilled at the end of the last turn
            new_tag(d, (x1 - 8 - text_width("new", font(20, True)) - 12, y0 + 9))
        paste_icon(img, code if card else "back", (x0 + 10, y0 + 46), 44)
        cost = cell.get("cost") if cell.get("cost") is not None else (card.cost if card else None)
        if cost:
            pw = cost * (PIP + 4) - 4
            pips(img, (x1 - 12 - pw, y0 + 60), cost, cost, PIP, VITALITY, gap=4)
        name = cell.get("name") or (card.name if card else str(code))
        name_lines(d, name, (x0 + x1) / 2, y0 + 110, w - 12)


def _grid(
    img: Image.Image, d: ImageDraw.ImageDraw, view: PralayaView, y: int, active: tuple[RGB, str], ch: Changes
) -> int:
    cols = int(view.get("cols", 5))
    widths, heights = grid_layout(view)
    island = view.get("island", [])
    yy = y
    for r, h in enumerate(heights):
        x = M
        for c, w in enumerate(widths):
            i = r * cols + c
            if i < len(island):
                cell = island[i]
                _tile(img, d, (x, yy, x + w, yy + h), cell, active, ch.cells.get(str(cell.get("cell"))))
            x += w + GAP
        yy += h + GAP
    return yy - GAP


def new_tag(d: ImageDraw.ImageDraw, xy: tuple[float, float]) -> int:
    """The quiet "new" tag of a cell refilled at the end of the last turn; returns its width."""
    return tag(d, xy, "new", PANEL, fg=INK, size=20, pad=6, outline=INK)


def _legend(img: Image.Image, d: ImageDraw.ImageDraw, y: int, marked: bool) -> int:
    """What the marks on the tiles mean: the Vitality pips and the ring of the last move."""
    x = M + 4
    pips(img, (x, y + 7), 1, 1, PIP, VITALITY)
    x += PIP + 8
    x += draw_text(d, (x, y), "Vitality to take it", 20, fill=MUTED) + 18
    x += new_tag(d, (x, y - 1)) + 8
    x += draw_text(d, (x, y), "refilled last turn", 20, fill=MUTED) + 18
    if marked:
        d.rounded_rectangle((x, y, x + 30, y + 24), radius=6, outline=INK, width=5)
        draw_text(d, (x + 38, y), "changed by the last move", 20, fill=MUTED)
    return y + LEGEND_H


# --------------------------------------------------------------------------- supply band


def _supply(img: Image.Image, d: ImageDraw.ImageDraw, view: PralayaView, y: int, ch: Changes) -> int:
    """Deck, relics unseen and discards on one line; the Veda and Dhoni piles with their prices
    on the next. Returns the y below the band."""
    box = (M, y, WIDTH - M, y + SUPPLY_H)
    d.rounded_rectangle(box, radius=10, fill=PANEL, outline=LINE, width=2)
    veda = view.get("veda") or {}
    dhoni = view.get("dhoni") or []
    discard = view.get("discard") or []
    x, cy = M + 16, y + 26
    for num_s, label in (
        (str(view.get("deck", 0)), "in the deck"),
        (str(view.get("unrevealed", 0)), "relics unseen"),
        (str(len(discard)), "discarded"),
    ):
        x += draw_text(d, (x, cy), num_s, 28, bold=True, anchor="lm") + 8
        x += draw_text(d, (x, cy + 2), label, 22, fill=MUTED, anchor="lm") + 24
    if discard:  # the last card discarded, as a reminder of what left the game
        card = info(discard[-1].rstrip("0123456789"))
        if card:
            lx = x - 10
            paste_icon(img, card.code, (lx, cy - 15), 30)
            w = draw_text(d, (lx + 36, cy), "last: " + card.short, 24, bold=True, anchor="lm")
            if "discard" in ch.supply:
                mark_ring(d, (lx - 4, cy - 18, lx + 40 + w, cy + 18), radius=6)
    cy = y + 84
    # Veda pile
    vx = M + 16
    paste_icon(img, "veda", (vx, cy - 18), 36)
    star = "*" if veda.get("stand_in") else ""
    w = draw_text(d, (vx + 44, cy), "Veda", 28, bold=True, anchor="lm")
    w += draw_text(d, (vx + 54 + w, cy), f"price {veda.get('price', '?')}{star}", 28, bold=True, anchor="lm")
    w += draw_text(d, (vx + 66 + w, cy + 2), f"{veda.get('left', 0)} left", 22, fill=MUTED, anchor="lm")
    if "veda" in ch.supply:
        mark_ring(d, (vx - 6, cy - 22, vx + 72 + w, cy + 22), radius=8)
    # Dhoni pile, top first: the boats to escape on and their prices
    dx = M + 390
    paste_icon(img, "dhoni", (dx, cy - 18), 36)
    x = dx + 44 + draw_text(d, (dx + 44, cy), "Dhoni", 28, bold=True, anchor="lm") + 10
    if not dhoni:
        x += draw_text(d, (x, cy + 2), "none left", 22, fill=MUTED, anchor="lm")
    else:
        x += draw_text(d, (x, cy + 2), "escape for", 22, fill=MUTED, anchor="lm") + 10
        draw_text(d, (x, cy + 24), "next", 20, fill=MUTED)
        f = font(28, True)
        for i, dh in enumerate(dhoni):
            s = price_text(dh.get("price"))
            bw = max(40, text_width(s, f) + 16)
            top = i == 0
            d.rounded_rectangle(
                (x, cy - 19, x + bw, cy + 19), radius=7, fill=INK if top else PANEL, outline=INK, width=2
            )
            d.text((x + bw / 2, cy + 1), s, font=f, fill=(255, 255, 255) if top else INK, anchor="mm")
            x += bw + 8
    if "dhoni" in ch.supply:
        mark_ring(d, (dx - 6, cy - 22, x + 6, cy + 22), radius=8)
    if veda.get("stand_in"):
        draw_text(d, (vx + 44, cy + 24), "* stand-in price", 20, fill=MUTED)
    return y + SUPPLY_H


# --------------------------------------------------------------------------- the board


def board(
    view: PralayaView, names: Sequence[str] | None = None, previous: PralayaView | None = None
) -> Image.Image:
    """The public snapshot of ``view`` (a spectator view): header, island, a legend, the supply
    band and player rows; at game over the score sheet follows. With ``previous`` (the public view
    of the board before), the places that changed are ringed and tagged. Returns an RGB image
    WIDTH px wide."""
    nm = names_for(view, names)
    ch = changes(previous, view) if previous is not None else NONE
    over = bool(view.get("over")) and view.get("outcome")
    extra = sheet_height(view) + 40 if over else 0
    _, heights = grid_layout(view)
    grid_h = sum(heights) + GAP * (len(heights) - 1)
    height = M + 120 + grid_h + LEGEND_H + 16 + SUPPLY_H + 60 + players_height(view) + extra + 40
    img, d = new_canvas(height)
    y = header(img, d, view, nm)
    active = view.get("active")
    tags = seat_initials(nm)
    acol = (seat_ink(active), tags[active]) if active is not None else (INK, "?")
    y = _grid(img, d, view, y, acol, ch) + 10
    y = _legend(img, d, y, bool(ch))
    y = _supply(img, d, view, y, ch) + 16
    hands_open = bool((view.get("options") or {}).get("open_hands"))
    note = "hands open" if hands_open and not view.get("over") else ""
    y = section_title(d, y, "Players", note)
    y = players_block(img, d, view, nm, y, ch)
    if over:
        y = sheet_block(img, d, view, nm, y + 8)
    return crop(img, y)
