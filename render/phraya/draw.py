"""Small drawing pieces shared by the Phraya board, hand and sheet: canvas, crop, text that
never shrinks below the floor, and the ring on what the last move changed."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.common import INK, MIN_TEXT, MUTED, canvas, crop_to, fit, font
from render.phraya.art import Color

M = 12  # outer margin
RING = INK  # the ring on a place the last move changed (no seat's colour)


def new_canvas(height: int = 2600) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    return canvas(height)


def crop(img: Image.Image, y: int) -> Image.Image:
    return crop_to(img, y, M)


def text_at(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    s: str,
    size: int,
    fill: Color = INK,
    bold: bool = False,
    anchor: str = "la",
    max_width: int | None = None,
    min_size: int = MIN_TEXT,
    condensed: bool = False,
) -> int:
    """Draw ``s`` (shrinking to ``max_width`` but never below ``min_size``). Returns its width."""
    if max_width is not None:
        s, f = fit(s, max_width, size, bold, min_size=min_size, condensed=condensed)
    else:
        f = font(size, bold, condensed)
    d.text(xy, s, font=f, fill=fill, anchor=anchor)
    return int(f.getlength(s))


def mark_ring(
    d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], radius: int = 8, inside: bool = False
) -> None:
    """The ring around a place the last move changed: a thick ink line just outside ``box`` (or
    just inside it, for tight grids), kept off the place by a white line."""
    x0, y0, x1, y1 = box
    if inside:
        d.rounded_rectangle((x0, y0, x1, y1), radius=radius, outline=RING, width=5)
        d.rounded_rectangle(
            (x0 + 5, y0 + 5, x1 - 5, y1 - 5), radius=max(2, radius - 4), outline=(255, 255, 255), width=2
        )
        return
    d.rounded_rectangle((x0 - 2, y0 - 2, x1 + 2, y1 + 2), radius=radius + 2, outline=(255, 255, 255), width=3)
    d.rounded_rectangle((x0 - 6, y0 - 6, x1 + 6, y1 + 6), radius=radius + 5, outline=RING, width=5)


def title(d: ImageDraw.ImageDraw, x: int, y: int, s: str, note: str = "", w: int = 0) -> int:
    """A section title (bold, muted) with an optional note after it; returns the y below."""
    f = font(MIN_TEXT, True)
    d.text((x, y), s, font=f, fill=MUTED)
    if note:
        tw = int(f.getlength(s)) + 14
        text_at(d, (x + tw, y), note, MIN_TEXT, MUTED, max_width=max(40, w - tw) if w else None)
    return y + 34
