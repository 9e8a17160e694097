"""The player boxes of the public Pralaya board: one box per seat in a single row, the same size
through a game, with the seat badge (initials beside the seat colour), name, hand size, Veda,
Dhoni and status. Places the last move changed are outlined with the house mark."""

from __future__ import annotations

from collections.abc import Sequence

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
    WIDTH,
    fit,
    font,
    mark_box,
    ordinal,
    seat_color,
    seat_initials,
    seat_ink,
    text_width,
)
from render.frame import MARGIN, seat_badge
from render.pralaya.draw import price_text, tag
from render.pralaya.icons import paste_icon

BOX_H = 156  # a player box
GAP = 8


def box_width(n: int) -> float:
    """The width of one player box at ``n`` players."""
    return (WIDTH - 2 * MARGIN - GAP * (n - 1)) / n


def _status(img: Image.Image, d: ImageDraw.ImageDraw, p: PlayerView, x: float, cy: float, w: float) -> None:
    """The box's last line: the Dhoni the seat escaped on (with "escaped"), or its Veda."""
    if p.get("dhoni"):
        paste_icon(img, "dhoni", (x, cy - 16), 32)
        label = f"Dhoni {price_text(p.get('dhoni_price'))}" if w >= 300 else price_text(p.get("dhoni_price"))
        f = font(MIN_TEXT + 2, True)
        d.text((x + 36, cy), label, font=f, fill=INK, anchor="lm")
        lx = x + 36 + text_width(label, f) + 10
        pw = text_width("escaped", font(MIN_TEXT, True)) + 14
        if lx + pw <= x + w - 10:
            tag(d, (x + w - 10 - pw, cy - (MIN_TEXT + 11) / 2), "escaped", GOOD, size=MIN_TEXT, pad=7)
        elif lx + text_width("escaped", font(MIN_TEXT, True, True)) <= x + w - 6:
            d.text((lx, cy), "escaped", font=font(MIN_TEXT, True, True), fill=GOOD, anchor="lm")
    elif p.get("veda"):
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
    over = bool(view.get("over"))
    active = (not over) and seat == view.get("active")
    x0, y0, x1, y1 = box
    w = x1 - x0
    d.rounded_rectangle(
        box, radius=10, fill=PANEL, outline=seat_color(seat) if active else LINE, width=5 if active else 2
    )
    d.rectangle((x0 + 2, y0 + 10, x0 + 8, y1 - 10), fill=seat_color(seat))
    r = 18
    seat_badge(d, (x0 + 18 + r, y0 + 12 + r), seat, seat_initials(names)[seat], r)
    first = seat == view.get("first") and not over and w >= 220
    name_w = int(w - 2 * r - 40 - (62 if first else 0))
    s, nf = fit(names[seat], name_w, 28, bold=True)
    d.text((x0 + 2 * r + 28, y0 + 12 + r), s, font=nf, fill=seat_ink(seat), anchor="lm")
    if first:
        tag(d, (x1 - 68, y0 + 14), "1st", PANEL, fg=MUTED, size=MIN_TEXT, pad=6, outline=LINE)
    cy = y0 + 86
    hs = int(p.get("hand_size", 0))
    paste_icon(img, "back", (x0 + 18, cy - 17), 34)
    nfnt = font(NUMBER_TEXT, True)
    d.text((x0 + 58, cy), str(hs), font=nfnt, fill=INK, anchor="lm")
    word = "card" if hs == 1 else "cards"
    nx = x0 + 58 + text_width(str(hs), nfnt) + 8
    if nx + text_width(word, font(MIN_TEXT)) < x1 - 10:
        d.text((nx, cy + 3), word, font=font(MIN_TEXT), fill=MUTED, anchor="lm")
    if p.get("veda") and p.get("dhoni") and w >= 230:  # both: the Veda beside the cards
        paste_icon(img, "veda", (x1 - 48, cy - 16), 32)
    if "hand" in changed:
        mark_box(d, (x0 + 10, cy - 26, x1 - 10, cy + 26), radius=8, width=4)
    outcome = view.get("outcome") or {}
    if over and outcome:  # the end: the seat's rank and score instead of its Dhoni
        score = (outcome.get("scores") or [None] * (seat + 1))[seat]
        rank = (outcome.get("ranks") or [0] * (seat + 1))[seat]
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
    players = list(view.get("players", []))
    w = box_width(len(players))
    for i, p in enumerate(players):
        x0 = MARGIN + i * (w + GAP)
        _box(img, d, view, p, names, (x0, y, x0 + w, y + BOX_H), changed.get(int(p["seat"]), frozenset()))
    return y + BOX_H
