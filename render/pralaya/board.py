"""The public Pralaya board: header, the island grid, the supply strip and one row per player.

Everything drawn here comes from the spectator view (``view(state, None)``); a hand's contents
are drawn only where the view carries them (open hands, or the game is over).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from engines.pralaya.view import CellView, PlayerView, PralayaView
from render.common import (
    ACCENT,
    BG,
    GOOD,
    INK,
    LINE,
    MUTED,
    PANEL,
    RGB,
    WIDTH,
    dashed_rect,
    draw_text,
    fit,
    font,
    hatch,
    ordinal,
    panel,
    seat_color,
    seat_ink,
    text_width,
    tint,
    wrap,
)
from render.pralaya.cards import OCEAN_FILL, OCEAN_HATCH, info, sort_key
from render.pralaya.draw import (
    INNER,
    VITALITY,
    M,
    crop,
    header,
    names_for,
    new_canvas,
    price_text,
    section_title,
    tag,
)
from render.pralaya.icons import paste_icon, pips
from render.pralaya.sheet import WIN_EDGE, sheet_block, sheet_height

STRIP_W = 178  # supply strip width
GAP = 8  # gap between tiles
TILE_H = 126
ROW_H = 58  # a player row without visible hand contents
CHIP_H = 34  # one line of hand chips
STATUS_W, DHONI_W, VEDA_W, HAND_W = 150, 124, 96, 132  # player-row slots, right to left


def _tag_right(d: ImageDraw.ImageDraw, right: int, cy: int, s: str, fill: RGB, size: int) -> int:
    """A tag whose right edge is at ``right``, centred on ``cy``; returns its width."""
    w = text_width(s, font(size, True)) + 16
    return tag(d, (right - w, cy - (size + 11) / 2), s, fill, size=size, pad=8)


# --------------------------------------------------------------------------- island tiles


def _tile(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    cell: CellView,
    active_color: RGB,
) -> None:
    x0, y0, x1, y1 = box
    w = x1 - x0
    code = cell.get("code")
    card = info(code)
    label = str(cell.get("cell", ""))
    if code is None:
        d.rectangle(box, fill=BG)
        if cell.get("taken"):
            d.rounded_rectangle(box, radius=8, outline=active_color, width=3)
            dashed_rect(d, (x0 + 6, y0 + 6, x1 - 6, y1 - 6), tint(active_color, 0.45), dash=7)
            draw_text(
                d, ((x0 + x1) / 2, (y0 + y1) / 2 + 8), "taken", 18, fill=active_color, bold=True, anchor="mm"
            )
        else:
            dashed_rect(d, box, MUTED, dash=7)
            draw_text(d, ((x0 + x1) / 2, (y0 + y1) / 2 + 8), "empty", 17, fill=MUTED, anchor="mm")
        draw_text(d, (x0 + 9, y0 + 7), label, 16, fill=MUTED, bold=True)
        return
    if code == "oce":
        d.rounded_rectangle(box, radius=8, fill=OCEAN_FILL)
        hatch(d, (x0 + 2, y0 + 2, x1 - 2, y1 - 2), OCEAN_HATCH, step=14, width=2)
        d.rounded_rectangle(box, radius=8, outline=OCEAN_HATCH, width=2)
        # a calm plate behind the words so the hatching never crosses them
        name_f = font(17, True)
        tw = text_width("Ocean", name_f)
        cy = (y0 + y1) // 2 + 8
        d.rounded_rectangle(
            ((x0 + x1) / 2 - tw / 2 - 8, cy - 13, (x0 + x1) / 2 + tw / 2 + 8, cy + 13),
            radius=6,
            fill=OCEAN_FILL,
        )
        d.text(((x0 + x1) / 2, cy), "Ocean", font=name_f, fill=(40, 86, 140), anchor="mm")
        lw = text_width(label, font(16, True))
        d.rectangle((x0 + 5, y0 + 5, x0 + 13 + lw, y0 + 27), fill=OCEAN_FILL)
        draw_text(d, (x0 + 9, y0 + 7), label, 16, fill=(40, 86, 140), bold=True)
        if cell.get("new"):
            tag(d, (x1 - 50, y0 + 6), "new", ACCENT, size=15, pad=6)
        return

    color = card.color if card else MUTED
    d.rounded_rectangle(
        box,
        radius=8,
        fill=tint(color, 0.86) if card else PANEL,
        outline=tint(color, 0.35) if card else LINE,
        width=2,
    )
    draw_text(d, (x0 + 9, y0 + 7), label, 16, fill=INK, bold=True)
    lx = x0 + 9 + text_width(label, font(16, True)) + 6
    cost = cell.get("cost") if cell.get("cost") is not None else (card.cost if card else None)
    if cost:
        pw = cost * 15 - 3
        pips(img, (x1 - 9 - pw, y0 + 9), cost, cost, 12, VITALITY, gap=3)
    if cell.get("new"):
        tag(d, (lx, y0 + 6), "new", ACCENT, size=15, pad=6)
    icon_size = 44
    paste_icon(img, code if card else "back", ((x0 + x1 - icon_size) / 2, y0 + 35), icon_size)
    name = cell.get("name") or (card.name if card else str(code))
    name_lines(d, name, (x0 + x1) / 2, y0 + 85, y0 + 93, w - 12)


def name_lines(d: ImageDraw.ImageDraw, name: str, cx: float, y2: float, y1: float, width: int) -> None:
    """A card name centred on ``cx``: one line at ``y1`` if it fits at 17 px, else two lines
    from ``y2`` (condensed only if a word is still too wide)."""
    f = font(17, True)
    if text_width(name, f) <= width:
        d.text((cx, y1), name, font=f, fill=INK, anchor="mt")
        return
    f = font(16, True)
    lines = wrap(name, width, f)
    if len(lines) > 2:
        lines = [lines[0], " ".join(lines[1:])]
    for i, ln in enumerate(lines):
        s, lf = fit(ln, width, 16, bold=True, min_size=13)
        d.text((cx, y2 + i * 19), s, font=lf, fill=INK, anchor="mt")


def _grid(img: Image.Image, d: ImageDraw.ImageDraw, view: PralayaView, y: int, active_color: RGB) -> int:
    rows, cols = int(view.get("rows", 3)), int(view.get("cols", 5))
    gw = INNER - STRIP_W - 14
    tw = (gw - (cols - 1) * GAP) // cols
    island = view.get("island", [])
    for i, cell in enumerate(island[: rows * cols]):
        r, c = divmod(i, cols)
        x = M + c * (tw + GAP)
        yy = y + r * (TILE_H + GAP)
        _tile(img, d, (x, yy, x + tw, yy + TILE_H), cell, active_color)
    return y + rows * TILE_H + (rows - 1) * GAP


# --------------------------------------------------------------------------- supply strip


def _strip(img: Image.Image, d: ImageDraw.ImageDraw, view: PralayaView, y: int, height: int) -> None:
    x0 = WIDTH - M - STRIP_W
    panel(d, (x0, y, WIDTH - M, y + height), radius=10)
    veda = view.get("veda") or {}
    dhoni = view.get("dhoni") or []
    discard = view.get("discard") or []
    items = [
        (str(view.get("deck", 0)), "in the deck"),
        (str(view.get("unrevealed", 0)), "relics unseen"),
        (str(len(discard)), "discarded"),
    ]
    cx = x0 + 14
    yy = y + 10
    for num_s, label in items:
        d.text((cx + 40, yy + 15), num_s, font=font(26, True), fill=INK, anchor="rm")
        draw_text(d, (cx + 48, yy + 16), label, 16, fill=MUTED, anchor="lm")
        yy += 38
    if discard:  # the last card discarded, as a reminder of what left the game
        code = discard[-1].rstrip("0123456789")
        card = info(code)
        if card:
            paste_icon(img, code, (cx + 18, yy - 4), 22)
            draw_text(
                d,
                (cx + 48, yy + 7),
                "last: " + card.short,
                16,
                fill=MUTED,
                anchor="lm",
                max_width=STRIP_W - 64,
            )
    yy += 24
    d.line((x0 + 12, yy, WIDTH - M - 12, yy), fill=LINE, width=2)
    yy += 10
    # Veda pile
    paste_icon(img, "veda", (cx - 2, yy), 34)
    draw_text(d, (cx + 38, yy - 1), "Veda", 18, bold=True)
    star = "*" if veda.get("stand_in") else ""
    veda_line = f"{veda.get('left', 0)} left · price {veda.get('price', '?')}{star}"
    draw_text(d, (cx + 38, yy + 20), veda_line, 16, fill=INK, max_width=STRIP_W - 58)
    yy += 50
    # Dhoni pile, top first
    paste_icon(img, "dhoni", (cx - 2, yy), 34)
    draw_text(d, (cx + 38, yy - 1), "Dhoni", 18, bold=True)
    draw_text(
        d,
        (cx + 38, yy + 20),
        f"{len(dhoni)} left · top first" if dhoni else "none left",
        16,
        fill=MUTED,
        max_width=STRIP_W - 58,
    )
    yy += 44
    px = cx
    for i, dh in enumerate(dhoni):
        s = price_text(dh.get("price"))
        f = font(17, True)
        w = max(30, text_width(s, f) + 14)
        if px + w > WIDTH - M - 10:
            px, yy = cx, yy + 34
        top = i == 0
        d.rounded_rectangle(
            (px, yy, px + w, yy + 28), radius=6, fill=INK if top else PANEL, outline=INK, width=2
        )
        d.text((px + w / 2, yy + 14), s, font=f, fill=(255, 255, 255) if top else INK, anchor="mm")
        px += w + 6
    if veda.get("stand_in"):
        draw_text(d, (cx, y + height - 26), "* stand-in price", 16, fill=MUTED)


# --------------------------------------------------------------------------- player rows


def _chips(
    img: Image.Image | None,
    d: ImageDraw.ImageDraw | None,
    hand: Mapping[str, int],
    x: int,
    y: int,
    max_x: int,
) -> int:
    """Icon-and-count chips for a visible hand, wrapping at ``max_x``; returns the lines used.
    Without an image (``img``/``d`` None) only counts the lines."""
    lines = 1
    cx = x
    f = font(17, True)
    for code in sorted((c for c, n in hand.items() if n), key=sort_key):
        s = f"×{hand[code]}"
        w = 26 + 4 + text_width(s, f) + 12
        if cx + w > max_x and cx > x:
            cx, y, lines = x, y + CHIP_H, lines + 1
        if img is not None and d is not None:
            paste_icon(img, code, (cx, y + 3), 26)
            d.text((cx + 30, y + 16), s, font=f, fill=INK, anchor="lm")
        cx += w
    return lines


def _row_height(p: PlayerView, chip_x: int) -> int:
    hand = p.get("hand")
    if hand is None:
        return ROW_H
    if not any(hand.values()):
        return ROW_H - 8 + CHIP_H
    lines = _chips(None, None, hand, chip_x, 0, WIDTH - M - 14)
    return ROW_H - 8 + lines * CHIP_H


def _player_row(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    view: PralayaView,
    p: PlayerView,
    names: Sequence[str],
    y: int,
    h: int,
) -> None:
    seat = int(p["seat"])
    over = bool(view.get("over"))
    active = (not over) and seat == view.get("active")
    col = seat_color(seat)
    panel(d, (M, y, WIDTH - M, y + h), outline=col if active else LINE, width=3 if active else 2, radius=10)
    d.rounded_rectangle((M, y, M + 10, y + h), radius=5, fill=col)
    d.rectangle((M + 5, y, M + 10, y + h), fill=col)
    cy = y + 28
    x = M + 18
    if active:  # the turn arrow
        d.polygon([(x, cy - 11), (x + 16, cy), (x, cy + 11)], fill=col)
    x += 24
    outcome = view.get("outcome") or {}
    # fixed slots from the right, so the columns line up from row to row
    status_r = WIDTH - M - 14
    dhoni_x = status_r - STATUS_W - DHONI_W
    veda_x = dhoni_x - VEDA_W
    hand_x = veda_x - HAND_W
    if over and outcome:
        score = (outcome.get("scores") or [None] * (seat + 1))[seat]
        rank = (outcome.get("ranks") or [0] * (seat + 1))[seat]
        if score is None:
            _tag_right(d, status_r, cy, "did not escape", (120, 112, 104), 16)
        else:
            win = seat in (outcome.get("winners") or []) and rank == 1
            _tag_right(d, status_r, cy, f"{ordinal(rank)} · {score} pts", WIN_EDGE if win else INK, 17)
    elif p.get("escaped"):
        _tag_right(d, status_r, cy, "escaped", GOOD, 16)
    f17 = font(17, True)
    if p.get("dhoni"):
        paste_icon(img, "dhoni", (dhoni_x, cy - 14), 28)
        d.text(
            (dhoni_x + 32, cy), f"Dhoni {price_text(p.get('dhoni_price'))}", font=f17, fill=INK, anchor="lm"
        )
    if p.get("veda"):
        paste_icon(img, "veda", (veda_x, cy - 14), 28)
        d.text((veda_x + 32, cy), "Veda", font=f17, fill=INK, anchor="lm")
    hs = int(p.get("hand_size", 0))
    paste_icon(img, "back", (hand_x, cy - 13), 26)
    d.text(
        (hand_x + 30, cy), f"{hs} card" + ("" if hs == 1 else "s"), font=font(18, True), fill=INK, anchor="lm"
    )
    rx = hand_x - 14
    first = seat == view.get("first")
    mark_w = text_width("1st player", font(16, True)) + 14 if first else 0
    s, f = fit(names[seat], rx - x - mark_w - 12, 22, bold=True, min_size=16)
    d.text((x, cy), s, font=f, fill=seat_ink(seat), anchor="lm")
    if first:
        tag(
            d,
            (x + text_width(s, f) + 10, cy - 13),
            "1st player",
            PANEL,
            fg=MUTED,
            size=16,
            pad=6,
            outline=LINE,
        )
    hand = p.get("hand")
    if hand is not None:
        if any(hand.values()):
            _chips(img, d, hand, x, y + ROW_H - 14, WIDTH - M - 14)
        else:
            draw_text(d, (x, y + ROW_H - 10), "empty hand", 16, fill=MUTED)


def players_block(
    img: Image.Image, d: ImageDraw.ImageDraw, view: PralayaView, names: Sequence[str], y: int
) -> int:
    """One row per seat, in seat order; returns the y below them."""
    x = M + 42
    for p in view.get("players", []):
        h = _row_height(p, x)
        _player_row(img, d, view, p, names, y, h)
        y += h + 8
    return y


# --------------------------------------------------------------------------- the board


def board(view: PralayaView, names: Sequence[str] | None = None) -> Image.Image:
    """The public snapshot of ``view`` (a spectator view): header, island, supply strip and
    player rows; at game over the score sheet follows. Returns an RGB image WIDTH px wide."""
    nm = names_for(view, names)
    over = bool(view.get("over")) and view.get("outcome")
    extra = sheet_height(view) + 40 if over else 0
    rows_h = sum(_row_height(p, M + 42) + 8 for p in view.get("players", []))
    height = M + 104 + 3 * TILE_H + 2 * GAP + 20 + 30 + rows_h + extra + 40
    img, d = new_canvas(height)
    y = header(img, d, view, nm)
    active = view.get("active")
    acol = seat_ink(active) if active is not None else INK
    gy = y
    y = _grid(img, d, view, y, acol)
    _strip(img, d, view, gy, y - gy)
    y += 16
    hands_open = bool((view.get("options") or {}).get("open_hands"))
    note = "hands open" if hands_open and not view.get("over") else ""
    y = section_title(d, y, "Players", note)
    y = players_block(img, d, view, nm, y)
    if over:
        y = sheet_block(img, d, view, nm, y + 8)
    return crop(img, y)
