"""The house style every game's pictures share: the canvas sizes, the header band, seat badges,
the standings strip and the legend row.

Every posted board is :data:`WIDTH` px wide and exactly ``canvas_height(n_players)`` px tall
(at most :data:`MAX_HEIGHT`, so that Discord shows it whole on a phone): the caption strip of
:data:`render.caption.HEIGHT` px on top, then the game's board of ``board_height(n)`` px,
drawn by the game at one fixed size per player count. Whatever does not fit goes to the
game's second image (``render.<game>.extra``), never to smaller text.

Seats look the same in every game: the colour :func:`render.common.seat_color` and the initials
of :func:`render.common.seat_initials` in a round badge (:func:`seat_badge`). What the last move
changed is outlined and tagged with :data:`render.common.MARK` (:func:`render.common.mark_box`,
:func:`render.common.mark_tag`) in every game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from .common import (
    ACCENT,
    GOOD,
    INK,
    LINE,
    MIN_TEXT,
    MUTED,
    NUMBER_TEXT,
    PANEL,
    RGB,
    WIDTH,
    fit,
    font,
    on_color,
    seat_color,
    seat_ink,
    text_width,
)

MAX_HEIGHT = 1100
"""The tallest posted board (caption strip included): about square, so a phone shows it whole."""
MARGIN = 20
"""The outer margin of every picture."""
HEADER_H = 64
"""The header band's height."""
HEADER_BG = (54, 44, 36)
HEADER_TITLE = (244, 196, 72)
HEADER_TEXT = (250, 242, 226)


def seat_badge(
    d: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    seat: int,
    initial: str,
    radius: int = 18,
    outline: RGB | None = None,
) -> None:
    """The seat's badge: its colour with its initials (``seat_initials``) on it; round for one
    letter, a pill as wide as two need (never smaller text)."""
    x, y = centre
    col = seat_color(seat)
    two = len(initial) > 1
    f = font(max(MIN_TEXT, int(radius * (1.05 if two else 1.3))), True, two)
    half = max(radius, (text_width(initial, f) + 12) / 2) if two else radius
    d.rounded_rectangle(
        (x - half, y - radius, x + half, y + radius), radius=radius, fill=col, outline=outline or INK, width=2
    )
    d.text((x, y + 1), initial, font=f, fill=on_color(col), anchor="mm")


def header(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    game: str,
    stage: str,
    *,
    icon: Image.Image | None = None,
    pill: str | None = None,
    pill_fill: RGB = ACCENT,
    label: str = "",
    seats: Sequence[int] = (),
    names: Sequence[str] = (),
    over: bool = False,
) -> int:
    """The dark band across the top: the game's icon and name, the stage ("Epoch 2", "Round 9",
    "Turn 63"), an optional pill ("Auction", "Final turns"), and on the right ``label`` ("to
    bid") with a chip per awaited seat (or "Game over"). Returns the y below the band."""
    h = HEADER_H
    d.rectangle((0, 0, WIDTH, h), fill=HEADER_BG)
    x = MARGIN
    if icon is not None:
        img.paste(icon, (x, (h - icon.height) // 2), icon if icon.mode == "RGBA" else None)
        x += icon.width + 8
    tf = font(32, True)
    d.text((x, h / 2), game.upper(), font=tf, fill=HEADER_TITLE, anchor="lm")
    x += text_width(game.upper(), tf) + 16
    sf = font(28, True)
    d.text((x, h / 2), stage, font=sf, fill=HEADER_TEXT, anchor="lm")
    x += text_width(stage, sf) + 14
    if pill:
        pf = font(MIN_TEXT, True)
        w = text_width(pill, pf) + 24
        d.rounded_rectangle((x, h / 2 - 18, x + w, h / 2 + 18), radius=18, fill=GOOD if over else pill_fill)
        d.text((x + w / 2, h / 2), pill, font=pf, fill=(255, 255, 255), anchor="mm")
        x += w + 14
    xr = WIDTH - MARGIN
    if over and not seats:
        label = label or "Game over"
    shown = list(seats)
    if shown:
        room = xr - x - (text_width(label, font(MIN_TEXT)) + 14 if label else 0)
        per = max(60, room // len(shown) - 8)
        for s in reversed(shown):
            name = names[s] if s < len(names) else f"Seat {s + 1}"
            t, f = fit(name, max(40, min(per - 22, 300)), 28, True)
            w = text_width(t, f) + 22
            col = seat_color(s)
            d.rounded_rectangle((xr - w, h / 2 - 20, xr, h / 2 + 20), radius=20, fill=col)
            d.text((xr - w / 2, h / 2), t, font=f, fill=on_color(col), anchor="mm")
            xr -= w + 8
    if label:
        d.text((xr - 4, h / 2), label, font=font(MIN_TEXT), fill=HEADER_TEXT, anchor="rm")
    return h


@dataclass(frozen=True)
class Standing:
    """One seat's entry in the standings strip."""

    seat: int
    name: str
    initial: str
    score: str  # what the seat stands at now ("12 pts", "43 coins")
    note: str = ""  # a short status ("to bid", "escaped", "final turn")
    active: bool = False  # awaited now


def standings(d: ImageDraw.ImageDraw, y: int, entries: Sequence[Standing], height: int = 84) -> int:
    """A strip of equal boxes, one per seat in seat order: the badge, the name, the score at
    :data:`NUMBER_TEXT` px and a short note; the awaited seats framed in their colour. Returns
    the y below the strip."""
    for e, box in zip(entries, standing_boxes(len(entries), y, height), strict=True):
        standing_box(d, box, e)
    return y + height


def standing_boxes(n: int, y: int, height: int = 84) -> list[tuple[float, float, float, float]]:
    """The boxes of :func:`standings` for ``n`` seats, left to right."""
    n = max(1, n)
    gap = 8
    w = (WIDTH - 2 * MARGIN - gap * (n - 1)) / n
    return [(MARGIN + i * (w + gap), y, MARGIN + i * (w + gap) + w, y + height) for i in range(n)]


def standing_box(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], e: Standing) -> None:
    """One seat's box of the standings strip (a game may draw it alone, e.g. from a cache)."""
    x0, y, x1, y1 = box
    w, height = x1 - x0, y1 - y
    d.rounded_rectangle(
        box,
        radius=10,
        fill=PANEL,
        outline=seat_color(e.seat) if e.active else LINE,
        width=4 if e.active else 2,
    )
    r = 17
    seat_badge(d, (x0 + 10 + r, y + 10 + r), e.seat, e.initial, r)
    name_w = int(w - 2 * r - 30)
    if name_w >= 40:
        t, f = fit(e.name, name_w, 26, True)
        d.text((x0 + 2 * r + 18, y + 10 + r), t, font=f, fill=seat_ink(e.seat), anchor="lm")
    score, sf = fit(e.score, int(w - 20), NUMBER_TEXT, True, min_size=MIN_TEXT)
    d.text((x0 + w - 10, y + height - 8), score, font=sf, fill=INK, anchor="rd")
    if e.note and w - text_width(score, sf) - 30 >= 60:
        t, f = fit(e.note, int(w - text_width(score, sf) - 30), MIN_TEXT)
        d.text((x0 + 10, y + height - 10), t, font=f, fill=MUTED, anchor="ld")


def legend(
    img: Image.Image, d: ImageDraw.ImageDraw, y: int, items: Sequence[tuple[Image.Image | None, str]]
) -> int:
    """One legend style: a row (wrapping as needed) of small pictures with their meaning at
    :data:`MIN_TEXT` px in muted ink. Returns the y below it."""
    f = font(MIN_TEXT)
    line_h = MIN_TEXT + 14
    x = MARGIN
    for pic, text in items:
        w = (pic.width + 6 if pic is not None else 0) + text_width(text, f)
        if x > MARGIN and x + w > WIDTH - MARGIN:
            x, y = MARGIN, y + line_h
        if pic is not None:
            img.paste(pic, (int(x), int(y + (line_h - pic.height) / 2)), pic if pic.mode == "RGBA" else None)
            x += pic.width + 6
        d.text((x, y + line_h / 2), text, font=f, fill=MUTED, anchor="lm")
        x += text_width(text, f) + 22
    return y + line_h


def fixed(img: Image.Image, height: int, bg: RGB | None = None) -> Image.Image:
    """``img`` on a canvas of exactly ``height`` px (its own background below what it drew).
    Raises ValueError when what was drawn is taller: the layout must fit its fixed size."""
    if img.height == height:
        return img
    if img.height > height:
        raise ValueError(f"drawn {img.height} px, but the canvas is fixed at {height} px")
    out = Image.new(img.mode, (img.width, height), bg or img.getpixel((0, img.height - 1)))
    out.paste(img, (0, 0))
    return out
