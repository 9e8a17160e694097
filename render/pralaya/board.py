"""The public Pralaya board: header, the island grid, the supply band and one row per player.

Everything drawn here comes from the spectator view (``view(state, None)``); a hand's contents
are drawn only where the view carries them (open hands, or the game is over). With ``previous``
(the public view of the board posted before) the places the last move changed get a ring and a tag
(see :mod:`render.pralaya.marks`). Rows and columns that are all Ocean shrink to a thin band.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from engines.pralaya.view import PlayerView, PralayaView
from render.common import (
    GOOD,
    INK,
    LINE,
    MIN_TEXT,
    MUTED,
    NUMBER_TEXT,
    PANEL,
    RGB,
    WIDTH,
    canvas,
    fit,
    font,
    mark_box,
    ordinal,
    seat_color,
    seat_initials,
    seat_ink,
    text_width,
)
from render.frame import HEADER_H, MARGIN, fixed, header, seat_badge
from render.pralaya.art.cards import info, sort_key
from render.pralaya.art.icons import paste_icon, pips
from render.pralaya.art.pieces import tag, tile, top
from render.pralaya.layout import (
    BOX_GAP,
    BOX_H,
    CHIP_W,
    GAP,
    INNER,
    LEGEND_H,
    NAME_W,
    PIP,
    ROW_H,
    SUPPLY_H,
    TURN_H,
    VITALITY,
    board_height,
    box_width,
    grid_layout,
    hands_height,
    names_for,
    new_canvas,
    price_text,
)
from render.pralaya.marks import NONE, Changes, changes, emptied_by


def _grid(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    view: PralayaView,
    y: int,
    active: tuple[RGB, str, str],
    ch: Changes,
) -> int:
    cols = int(view["cols"])
    widths, heights = grid_layout(view)
    island = view["island"]
    yy = y
    for r, h in enumerate(heights):
        x = MARGIN
        for c, w in enumerate(widths):
            i = r * cols + c
            if i < len(island):
                cell = island[i]
                tile(img, d, (x, yy, x + w, yy + h), cell, active, ch.cells.get(str(cell["cell"])))
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
    active = view["active"]
    if view["over"]:
        outcome = view["outcome"]
        winners = outcome["winners"] if outcome is not None else []
        scores = outcome["scores"] if outcome is not None else []
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
    escaped = any(p["escaped"] for p in view["players"] if p["seat"] == active)
    hint = "has escaped: discards 1 relic" if escaped else STEP_HINT.get(str(view["step"]), "")
    right = 0
    if not escaped:
        vit, left = int(view["vitality"]), int(view["v_left"])
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
    veda = view["veda"] or {}
    dhoni = view["dhoni"] or []
    discard = view["discard"] or []
    cy = y + 32
    x = _count(d, MARGIN + 16, cy, int(view["deck"]), "in the deck")
    x = _count(d, x, cy, int(view["unrevealed"]), "relics unseen")
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
    x = _count(d, x, cy, int(veda["price"]), "coins,")
    x = _count(d, x - 14, cy, int(veda["left"]), "left")
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
    active = view["active"]
    tags = seat_initials(nm)
    how = emptied_by(view, previous)
    acol = (seat_ink(active), tags[active], how) if active is not None else (INK, "?", how)
    y = _grid(img, d, view, y + 4, acol, ch) + 8
    y = _legend(img, d, y, bool(ch.cells)) + 8
    y = _supply(img, d, view, y, ch) + 14
    players_block(img, d, view, nm, y, ch.players)
    return fixed(img, board_height(n))


# --------------------------------------------------------------------------- player boxes


def _status(img: Image.Image, d: ImageDraw.ImageDraw, p: PlayerView, x: float, cy: float, w: float) -> None:
    """The box's last line: the Dhoni the seat escaped on (with "escaped"), or its Veda."""
    if p["dhoni"]:
        paste_icon(img, "dhoni", (x, cy - 16), 32)
        label = f"Dhoni {price_text(p.get('dhoni_price'))}" if w >= 300 else price_text(p["dhoni_price"])
        f = font(MIN_TEXT + 2, True)
        d.text((x + 36, cy), label, font=f, fill=INK, anchor="lm")
        lx = x + 36 + text_width(label, f) + 10
        pw = text_width("escaped", font(MIN_TEXT, True)) + 14
        if lx + pw <= x + w - 10:
            tag(d, (x + w - 10 - pw, cy - (MIN_TEXT + 11) / 2), "escaped", GOOD, size=MIN_TEXT, pad=7)
        elif lx + text_width("escaped", font(MIN_TEXT, True, True)) <= x + w - 6:
            d.text((lx, cy), "escaped", font=font(MIN_TEXT, True, True), fill=GOOD, anchor="lm")
    elif p["veda"]:
        paste_icon(img, "veda", (x, cy - 16), 32)
        d.text((x + 36, cy), "Veda", font=font(MIN_TEXT + 2, True), fill=INK, anchor="lm")


def _box(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    view: PralayaView,
    p: PlayerView,
    names: Sequence[str],
    box: tuple[float, float, float, float],
    changed: frozenset[str],
) -> None:
    seat = int(p["seat"])
    over = bool(view["over"])
    active = (not over) and seat == view["active"]
    x0, y0, x1, y1 = box
    w = x1 - x0
    d.rounded_rectangle(
        box, radius=10, fill=PANEL, outline=seat_color(seat) if active else LINE, width=5 if active else 2
    )
    d.rectangle((x0 + 2, y0 + 10, x0 + 8, y1 - 10), fill=seat_color(seat))
    r = 18
    seat_badge(d, (x0 + 18 + r, y0 + 12 + r), seat, seat_initials(names)[seat], r)
    first = seat == view["first"] and not over and w >= 220
    name_w = int(w - 2 * r - 40 - (62 if first else 0))
    s, nf = fit(names[seat], name_w, 28, bold=True)
    d.text((x0 + 2 * r + 28, y0 + 12 + r), s, font=nf, fill=seat_ink(seat), anchor="lm")
    if first:
        tag(d, (x1 - 68, y0 + 14), "1st", PANEL, fg=MUTED, size=MIN_TEXT, pad=6, outline=LINE)
    cy = y0 + 86
    hs = int(p["hand_size"])
    paste_icon(img, "back", (x0 + 18, cy - 17), 34)
    nfnt = font(NUMBER_TEXT, True)
    d.text((x0 + 58, cy), str(hs), font=nfnt, fill=INK, anchor="lm")
    word = "card" if hs == 1 else "cards"
    nx = x0 + 58 + text_width(str(hs), nfnt) + 8
    if nx + text_width(word, font(MIN_TEXT)) < x1 - 10:
        d.text((nx, cy + 3), word, font=font(MIN_TEXT), fill=MUTED, anchor="lm")
    if p["veda"] and p["dhoni"] and w >= 230:  # both: the Veda beside the cards
        paste_icon(img, "veda", (x1 - 48, cy - 16), 32)
    if "hand" in changed:
        mark_box(d, (x0 + 10, cy - 26, x1 - 10, cy + 26), radius=8, width=4)
    outcome = view["outcome"]
    if over and outcome is not None:  # the end: the seat's rank and score instead of its Dhoni
        score = outcome["scores"][seat]
        rank = outcome["ranks"][seat]
        text = "no score" if score is None else f"{ordinal(rank)} · {score} pts"
        t, f = fit(text, int(w - 30), 28, True)
        d.text((x0 + 18, y0 + 130), t, font=f, fill=MUTED if score is None else INK, anchor="lm")
    else:
        _status(img, d, p, x0 + 18, y0 + 130, w - 18)
    if changed & {"veda", "dhoni", "escaped"}:
        mark_box(d, (x0 + 10, y0 + 110, x1 - 10, y1 - 4), radius=8, width=4)


def players_block(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    view: PralayaView,
    names: Sequence[str],
    y: int,
    changed: dict[int, frozenset[str]],
) -> int:
    """One box per seat, in seat order, across the board; returns the y below them."""
    players = list(view["players"])
    w = box_width(len(players))
    for i, p in enumerate(players):
        x0 = MARGIN + i * (w + BOX_GAP)
        _box(img, d, view, p, names, (x0, y, x0 + w, y + BOX_H), changed.get(int(p["seat"]), frozenset()))
    return y + BOX_H


# --------------------------------------------------------------------------- the open-hands picture


def extra(
    view: PralayaView, names: Sequence[str] | None = None, previous: PralayaView | None = None
) -> Image.Image | None:
    """Every seat's relics when the game is played with open hands (None otherwise: the hands
    are hidden, and the board says all there is)."""
    if not (view["options"] or {}).get("open_hands"):
        return None
    nm = names_for(view, names)
    n = int(view["n_players"])
    img, d = canvas(hands_height(n))
    header(img, d, "Pralaya", "Open hands", over=bool(view["over"]))
    marked = changes(previous, view).players if previous is not None else {}
    initials = seat_initials(nm)
    y = HEADER_H + 14
    for p in view["players"]:
        seat = int(p["seat"])
        box = (MARGIN, y, WIDTH - MARGIN, y + ROW_H)
        d.rounded_rectangle(box, radius=10, fill=PANEL, outline=LINE, width=2)
        seat_badge(d, (MARGIN + 30, y + 30), seat, initials[seat], 19)
        t, f = fit(nm[seat], NAME_W - 70, 28, True)
        d.text((MARGIN + 58, y + 30), t, font=f, fill=seat_ink(seat), anchor="lm")
        hs = int(p["hand_size"])
        d.text(
            (MARGIN + 16, y + 80),
            f"{hs} card{'' if hs == 1 else 's'}",
            font=font(MIN_TEXT),
            fill=MUTED,
            anchor="lm",
        )
        _chips(img, p["hand"] or {}, MARGIN + NAME_W, y + 6)
        if "hand" in marked.get(seat, frozenset()):
            mark_box(d, (box[0] - 3, box[1] - 3, box[2] + 3, box[3] + 3), radius=12, width=4)
        y += ROW_H + 8
    return img


def _chips(img: Image.Image, hand: Mapping[str, int], x0: int, y0: int) -> None:
    """Icon-and-count chips of a visible hand, two lines of them from (x0, y0)."""
    from PIL import ImageDraw

    d = ImageDraw.Draw(img)
    per_line = (WIDTH - MARGIN - 10 - x0) // CHIP_W
    codes = sorted((c for c, k in hand.items() if k), key=sort_key)
    if not codes:
        d.text((x0, y0 + 50), "no relics", font=font(MIN_TEXT), fill=MUTED, anchor="lm")
    for i, code in enumerate(codes[: 2 * per_line]):
        r, c = divmod(i, per_line)
        x, y = x0 + c * CHIP_W, y0 + r * 50
        paste_icon(img, code, (x, y + 3), 40)
        d.text((x + 44, y + 24), f"×{hand[code]}", font=font(28, True), fill=INK, anchor="lm")
