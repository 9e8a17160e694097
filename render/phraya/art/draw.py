"""Small drawing pieces shared by the Phraya hand and sheet: canvas, crop, text that never
shrinks below MIN_TEXT, and section titles."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.common import INK, MIN_TEXT, MUTED, canvas, crop_to, fit, font
from render.phraya.art import Color

M = 12  # outer margin


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


def title(d: ImageDraw.ImageDraw, x: int, y: int, s: str, note: str = "", w: int = 0) -> int:
    """A section title (bold, muted) with an optional note after it; returns the y below."""
    f = font(MIN_TEXT, True)
    d.text((x, y), s, font=f, fill=MUTED)
    if note:
        tw = int(f.getlength(s)) + 14
        text_at(d, (x + tw, y), note, MIN_TEXT, MUTED, max_width=max(40, w - tw) if w else None)
    return y + 34
