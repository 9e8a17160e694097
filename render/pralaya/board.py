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
    MARK,
    MIN_TEXT,
    MUTED,
    NUMBER_TEXT,
    PANEL,
    RGB,
    WIDTH,
    dashed_rect,
    draw_text,
    fit,
    font,
    hatch,
    mark_box,
    seat_initials,
    seat_ink,
    stamp,
    text_width,
    tint,
)
from render.frame import HEADER_H, MARGIN, fixed, seat_badge
from render.pralaya.cards import OCEAN_FILL, OCEAN_HATCH, info
from render.pralaya.changes import DISCARDED, NONE, Changes, changes, emptied_by
from render.pralaya.draw import INNER, VITALITY, names_for, new_canvas, price_text, top
from render.pralaya.icons import paste_icon, pips
from render.pralaya.players import BOX_H, players_block

GAP = 8  # gap between tiles
TILE_H = 140
OCEAN_INK = (40, 86, 140)
PIP = 18  # a Vitality pip on a tile
TURN_H = 56  # the line under the header: who acts and the Vitality left
LEGEND_H = 40
SUPPLY_H = 116


def _ocean(code: object) -> bool:
    return code == "oce"


def grid_layout(view: Mapping[str, object]) -> tuple[list[int], list[int]]:
    """(column widths, row heights) of the island grid: fixed by its size, so that the board
    keeps one geometry through a game (sunk cells stay where they were, drawn as Ocean)."""
    rows, cols = int(view.get("rows", 3)), int(view.get("cols", 5))  # type: ignore[call-overload]
    base, extra = divmod(INNER - (cols - 1) * GAP, cols)
    return [base + (1 if c < extra else 0) for c in range(cols)], [TILE_H] * rows


def board_height(n_players: int) -> int:
    """The height of every Pralaya board at ``n_players`` (the island has three rows at every
    count)."""
    del n_players
    grid = 3 * TILE_H + 2 * GAP
    return HEADER_H + 6 + TURN_H + 4 + grid + 8 + LEGEND_H + 8 + SUPPLY_H + 14 + BOX_H + MARGIN


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


def _tile(
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
        if cell.get("code") is not None:  # an empty cell's own words say what happened
            _mark_tag(d, x1 - 6, y0 + 6, mark)


def _empty(
    d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], cell: CellView, active: tuple[RGB, str, str]
) -> None:
    x0, y0, x1, y1 = box
    d.rectangle(box, fill=BG)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2 + 12
    if cell.get("taken"):
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
    draw_text(d, (x0 + 9, y0 + 6), str(cell.get("cell", "")), 28, fill=MUTED, bold=True)


def _face(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    cell: CellView,
    active: tuple[RGB, str, str],
    mark: str | None,
) -> None:
    x0, y0, x1, y1 = box
    code = cell.get("code")
    card = info(code)
    label = str(cell.get("cell", ""))
    if code is None:
        _empty(d, box, cell, active)
        return
    if _ocean(code):
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
    cost = cell.get("cost") if cell.get("cost") is not None else (card.cost if card else None)
    if cost:
        pw = cost * (PIP + 4) - 4
        pips(img, (x1 - 12 - pw, y0 + 54), cost, cost, PIP, VITALITY, gap=4)
    name = cell.get("name") or (card.name if card else str(code))
    name_lines(d, name, (x0 + x1) / 2, y0 + 96, x1 - x0 - 12)


def _grid(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    view: PralayaView,
    y: int,
    active: tuple[RGB, str, str],
    ch: Changes,
) -> int:
    cols = int(view.get("cols", 5))
    widths, heights = grid_layout(view)
    island = view.get("island", [])
    yy = y
    for r, h in enumerate(heights):
        x = MARGIN
        for c, w in enumerate(widths):
            i = r * cols + c
            if i < len(island):
                cell = island[i]
                _tile(img, d, (x, yy, x + w, yy + h), cell, active, ch.cells.get(str(cell.get("cell"))))
            x += w + GAP
        yy += h + GAP
    return yy - GAP


def _legend(img: Image.Image, d: ImageDraw.ImageDraw, y: int, marked: bool) -> int:
    """What the marks on the tiles mean: the Vitality pips, and the outline of the last move when
    one is drawn."""
    f = font(MIN_TEXT)
    x = MARGIN + 4
    pips(img, (x, y + 11), 1, 1, PIP, VITALITY)
    x += PIP + 8
    d.text((x, y + 20), "Vitality it costs to take a relic", font=f, fill=MUTED, anchor="lm")
    x += text_width("Vitality it costs to take a relic", f) + 30
    if marked:
        mark_box(d, (x, y + 6, x + 34, y + 34), radius=6, width=4)
        d.text((x + 44, y + 20), "changed by the last move", font=f, fill=MUTED, anchor="lm")
    return y + LEGEND_H


# --------------------------------------------------------------------------- turn line and supply


STEP_HINT = {
    "collect": "takes relics, paying Vitality",
    "discard": "discards a relic",
    "buy": "may buy a Veda or a Dhoni",
}


def _turn_line(
    img: Image.Image, d: ImageDraw.ImageDraw, view: PralayaView, names: Sequence[str], y: int
) -> int:
    """Who acts and what the step is for, and the Vitality left; at the end, the result."""
    cy = y + TURN_H / 2
    active = view.get("active")
    if view.get("over"):
        outcome = view.get("outcome") or {}
        winners = list(outcome.get("winners") or [])
        scores = list(outcome.get("scores") or [])
        if not any(v is not None for v in scores):
            msg = "Nobody escaped: nobody wins"
        elif len(winners) == 1:
            msg = f"{names[winners[0]]} wins with {scores[winners[0]]} pts"
        else:
            msg = "Tied: " + " and ".join(names[w] for w in winners)
        t, f = fit(msg, INNER - 60, 32, True)
        d.text(
            (MARGIN + 4, cy), t, font=f, fill=seat_ink(winners[0]) if len(winners) == 1 else INK, anchor="lm"
        )
        return y + TURN_H
    if active is None:
        return y + TURN_H
    seat_badge(d, (MARGIN + 22, cy), active, seat_initials(names)[active], 20)
    escaped = any(p.get("escaped") for p in view.get("players", []) if p.get("seat") == active)
    hint = "has escaped: discards 1 relic" if escaped else STEP_HINT.get(str(view.get("step")), "")
    right = 0
    if not escaped:
        vit, left = int(view.get("vitality", 0)), int(view.get("v_left", 0))
        nf = font(NUMBER_TEXT + 4, True)
        rx = WIDTH - MARGIN - 4
        d.text((rx, cy), str(left), font=nf, fill=VITALITY, anchor="rm")
        total = max(vit, left)
        pw = total * 26 - 4 if total else 0
        px = rx - text_width(str(left), nf) - 12 - pw
        pips(img, (px, cy - 11), total, left, 22, VITALITY, gap=4)
        lf = font(MIN_TEXT)
        d.text((px - 12, cy), "Vitality left", font=lf, fill=MUTED, anchor="rm")
        right = WIDTH - (px - 12 - text_width("Vitality left", lf)) + 10
    name_max = WIDTH - MARGIN - 52 - right - 20
    t, f = fit(f"{names[active]} {hint}", name_max, 28, True)
    d.text((MARGIN + 52, cy), t, font=f, fill=seat_ink(active), anchor="lm")
    return y + TURN_H


def _count(d: ImageDraw.ImageDraw, x: float, cy: float, n: int, label: str) -> float:
    """A number at NUMBER_TEXT with its muted label; returns the x after it."""
    nf = font(NUMBER_TEXT, True)
    d.text((x, cy), str(n), font=nf, fill=INK, anchor="lm")
    x += text_width(str(n), nf) + 8
    lf = font(MIN_TEXT)
    d.text((x, cy + 2), label, font=lf, fill=MUTED, anchor="lm")
    return x + text_width(label, lf) + 22


def _supply(img: Image.Image, d: ImageDraw.ImageDraw, view: PralayaView, y: int, ch: Changes) -> int:
    """Deck, relics unseen and discards on one line; the Veda and Dhoni piles with their prices
    on the next. Returns the y below the band."""
    d.rounded_rectangle(
        (MARGIN, y, WIDTH - MARGIN, y + SUPPLY_H), radius=10, fill=PANEL, outline=LINE, width=2
    )
    veda = view.get("veda") or {}
    dhoni = view.get("dhoni") or []
    discard = view.get("discard") or []
    cy = y + 32
    x = _count(d, MARGIN + 16, cy, int(view.get("deck", 0)), "in the deck")
    x = _count(d, x, cy, int(view.get("unrevealed", 0)), "relics unseen")
    x = _count(d, x, cy, len(discard), "discarded")
    if discard:  # the last card discarded, as a reminder of what left the game
        card = info(discard[-1].rstrip("0123456789"))
        if card:
            paste_icon(img, card.code, (x - 8, cy - 17), 34)
            t, f = fit(card.short, int(WIDTH - MARGIN - x - 40), MIN_TEXT, True)
            d.text((x + 32, cy), t, font=f, fill=INK, anchor="lm")
            if "discard" in ch.supply:
                mark_box(d, (x - 14, cy - 22, x + 40 + text_width(t, f), cy + 22), radius=6, width=4)
    cy = y + 84
    vx = MARGIN + 16
    paste_icon(img, "veda", (vx, cy - 18), 36)
    x = vx + 44
    d.text((x, cy), "Veda", font=font(28, True), fill=INK, anchor="lm")
    x += text_width("Veda", font(28, True)) + 10
    x = _count(d, x, cy, int(veda.get("price", 0)), "coins,")
    x = _count(d, x - 14, cy, int(veda.get("left", 0)), "left")
    if "veda" in ch.supply:
        mark_box(d, (vx - 6, cy - 24, x - 10, cy + 24), radius=8, width=4)
    dx = max(x + 10, MARGIN + 470)
    paste_icon(img, "dhoni", (dx, cy - 18), 36)
    x = dx + 44
    d.text((x, cy), "Dhoni", font=font(28, True), fill=INK, anchor="lm")
    x += text_width("Dhoni", font(28, True)) + 12
    if not dhoni:
        d.text((x, cy), "none left", font=font(MIN_TEXT), fill=MUTED, anchor="lm")
    else:
        f = font(NUMBER_TEXT - 4, True)
        for i, dh in enumerate(dhoni):
            s = price_text(dh.get("price"))
            bw = max(44, text_width(s, f) + 18)
            top = i == 0
            d.rounded_rectangle(
                (x, cy - 21, x + bw, cy + 21), radius=7, fill=INK if top else PANEL, outline=INK, width=2
            )
            d.text((x + bw / 2, cy + 1), s, font=f, fill=(255, 255, 255) if top else INK, anchor="mm")
            x += bw + 8
        if x + 80 < WIDTH - MARGIN:
            d.text((x + 2, cy), "coins", font=font(MIN_TEXT), fill=MUTED, anchor="lm")
    if "dhoni" in ch.supply:
        mark_box(d, (dx - 6, cy - 26, min(x + 6, WIDTH - MARGIN - 4), cy + 26), radius=8, width=4)
    return y + SUPPLY_H


# --------------------------------------------------------------------------- the board


def board(
    view: PralayaView, names: Sequence[str] | None = None, previous: PralayaView | None = None
) -> Image.Image:
    """The public snapshot of ``view`` (a spectator view): header, who acts, island, a legend,
    the supply band and one box per player, at one size (:func:`board_height`). With
    ``previous`` (the public view of the board before), the places that changed are outlined
    and tagged. Returns an RGB image WIDTH px wide."""
    nm = names_for(view, names)
    ch = changes(previous, view) if previous is not None else NONE
    n = int(view["n_players"])
    img, d = new_canvas(board_height(n))
    top(img, d, view, nm)
    y = _turn_line(img, d, view, nm, HEADER_H + 6)
    active = view.get("active")
    tags = seat_initials(nm)
    how = emptied_by(view, previous)
    acol = (seat_ink(active), tags[active], how) if active is not None else (INK, "?", how)
    y = _grid(img, d, view, y + 4, acol, ch) + 8
    y = _legend(img, d, y, bool(ch.cells)) + 8
    y = _supply(img, d, view, y, ch) + 14
    players_block(img, d, view, nm, y, ch.players)
    return fixed(img, board_height(n))
