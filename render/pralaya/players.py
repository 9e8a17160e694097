"""The player rows of the public Pralaya board: one row per seat with its initial badge (the
second cue beside the seat colour), name, hand size, Veda, Dhoni and status; a visible hand's
contents as icon chips below. Places the last move changed are ringed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from engines.pralaya.view import PlayerView, PralayaView
from render.common import (
    GOOD,
    INK,
    LINE,
    MUTED,
    PANEL,
    RGB,
    WIDTH,
    draw_text,
    fit,
    font,
    on_color,
    ordinal,
    panel,
    seat_color,
    seat_initials,
    seat_ink,
    text_width,
)
from render.pralaya.cards import sort_key
from render.pralaya.changes import NONE, Changes
from render.pralaya.draw import M, mark_ring, price_text, tag
from render.pralaya.icons import paste_icon
from render.pralaya.sheet import WIN_EDGE

ROW_H = 64  # a player row without visible hand contents
CHIP_H = 40  # one line of hand chips
STATUS_W, DHONI_W, VEDA_W, HAND_W = 218, 176, 120, 168  # row slots, right to left
CHIP_X = M + 76  # where the chips and the name start


def _tag_right(d: ImageDraw.ImageDraw, right: int, cy: int, s: str, fill: RGB, size: int) -> int:
    """A tag whose right edge is at ``right``, centred on ``cy``; returns its width."""
    w = text_width(s, font(size, True)) + 16
    return tag(d, (right - w, cy - (size + 11) / 2), s, fill, size=size, pad=8)


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
    f = font(24, True)
    for code in sorted((c for c, n in hand.items() if n), key=sort_key):
        s = f"×{hand[code]}"
        w = 32 + 4 + text_width(s, f) + 14
        if cx + w > max_x and cx > x:
            cx, y, lines = x, y + CHIP_H, lines + 1
        if img is not None and d is not None:
            paste_icon(img, code, (cx, y + 4), 32)
            d.text((cx + 36, y + 20), s, font=f, fill=INK, anchor="lm")
        cx += w
    return lines


def row_height(p: PlayerView) -> int:
    """The height of ``p``'s row: taller when its hand is shown."""
    hand = p.get("hand")
    if hand is None:
        return ROW_H
    if not any(hand.values()):
        return ROW_H - 8 + CHIP_H
    return ROW_H - 8 + _chips(None, None, hand, CHIP_X, 0, WIDTH - M - 14) * CHIP_H


def players_height(view: PralayaView) -> int:
    return sum(row_height(p) + 8 for p in view.get("players", []))


def _row(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    view: PralayaView,
    p: PlayerView,
    names: Sequence[str],
    y: int,
    h: int,
    changed: frozenset[str],
) -> None:
    seat = int(p["seat"])
    over = bool(view.get("over"))
    active = (not over) and seat == view.get("active")
    col = seat_color(seat)
    panel(d, (M, y, WIDTH - M, y + h), outline=col if active else LINE, width=4 if active else 2, radius=10)
    cy = y + 32
    # the seat badge: colour and initial
    initial = seat_initials(names)[seat]
    d.rounded_rectangle((M + 10, cy - 20, M + 50, cy + 20), radius=8, fill=col, outline=INK, width=1)
    d.text((M + 30, cy + 1), initial, font=font(24, True), fill=on_color(col), anchor="mm")
    x = CHIP_X
    if active:  # the turn arrow
        d.polygon([(M + 56, cy - 13), (M + 70, cy), (M + 56, cy + 13)], fill=INK)
    outcome = view.get("outcome") or {}
    status_r = WIDTH - M - 12
    dhoni_x = status_r - STATUS_W - DHONI_W + 12
    veda_x = dhoni_x - VEDA_W
    hand_x = veda_x - HAND_W
    if over and outcome:
        score = (outcome.get("scores") or [None] * (seat + 1))[seat]
        rank = (outcome.get("ranks") or [0] * (seat + 1))[seat]
        if score is None:
            _tag_right(d, status_r, cy, "not escaped", (120, 112, 104), 24)
        else:
            win = seat in (outcome.get("winners") or []) and rank == 1
            _tag_right(d, status_r, cy, f"{ordinal(rank)} · {score} pts", WIN_EDGE if win else INK, 28)
    elif p.get("escaped"):
        w = _tag_right(d, status_r, cy, "escaped", GOOD, 24)
        if "escaped" in changed:
            mark_ring(d, (status_r - w, cy - 18, status_r, cy + 18), radius=16)
    if p.get("dhoni"):
        paste_icon(img, "dhoni", (dhoni_x, cy - 16), 32)
        w = draw_text(
            d, (dhoni_x + 36, cy), f"Dhoni {price_text(p.get('dhoni_price'))}", 28, bold=True, anchor="lm"
        )
        if "dhoni" in changed:
            mark_ring(d, (dhoni_x - 4, cy - 20, dhoni_x + 40 + w, cy + 20), radius=8)
    if p.get("veda"):
        paste_icon(img, "veda", (veda_x, cy - 16), 32)
        w = draw_text(d, (veda_x + 36, cy), "Veda", 28, bold=True, anchor="lm")
        if "veda" in changed:
            mark_ring(d, (veda_x - 4, cy - 20, veda_x + 40 + w, cy + 20), radius=8)
    hs = int(p.get("hand_size", 0))
    paste_icon(img, "back", (hand_x, cy - 15), 30)
    w = draw_text(d, (hand_x + 34, cy), f"{hs} card" + ("" if hs == 1 else "s"), 28, bold=True, anchor="lm")
    if "hand" in changed:
        mark_ring(d, (hand_x - 4, cy - 20, hand_x + 38 + w, cy + 20), radius=8)
    rx = hand_x - 12
    first = seat == view.get("first")
    mark_w = text_width("first", font(20, True)) + 20 if first else 0
    s, nf = fit(names[seat], rx - x - mark_w - 8, 28, bold=True, min_size=28)
    d.text((x, cy), s, font=nf, fill=seat_ink(seat), anchor="lm")
    if first:
        tag(d, (x + text_width(s, nf) + 8, cy - 15), "first", PANEL, fg=MUTED, size=20, pad=6, outline=LINE)
    hand = p.get("hand")
    if hand is not None:
        if any(hand.values()):
            _chips(img, d, hand, x, y + ROW_H - 12, WIDTH - M - 14)
        else:
            draw_text(d, (x, y + ROW_H - 8), "empty hand", 22, fill=MUTED)


def players_block(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    view: PralayaView,
    names: Sequence[str],
    y: int,
    ch: Changes = NONE,
) -> int:
    """One row per seat, in seat order; returns the y below them."""
    for p in view.get("players", []):
        h = row_height(p)
        _row(img, d, view, p, names, y, h, ch.players.get(int(p["seat"]), frozenset()))
        y += h + 8
    return y
