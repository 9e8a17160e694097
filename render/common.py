"""Drawing helpers shared by every game's renderer: bundled fonts, a palette, text that fits.

Renderers are pure functions of a view (a JSON-serialisable dict from ``engines``) and return
``PIL.Image.Image``. Fonts come from ``render/assets/fonts`` (DejaVu, see LICENSE-DejaVu.txt), so
the output is the same on every machine.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

# The cache of drawn pieces lives in render.pieces and the PNG encoder in render.png; these names
# stay importable from here, where every renderer and the bot have always found them.
from .pieces import STAMP_CACHE as STAMP_CACHE
from .pieces import Pieces as Pieces
from .pieces import clear as _clear_pieces
from .pieces import stamp as stamp
from .png import PNG_LEVELS as PNG_LEVELS
from .png import PNG_LIMIT as PNG_LIMIT
from .png import palette_image as palette_image
from .png import to_png as to_png

ASSETS = Path(__file__).parent / "assets"
FONTS = ASSETS / "fonts"

RGB = tuple[int, int, int]
"""A colour."""

WIDTH = 1000  # target image width in px (readable on a phone when scaled to the screen)

# Discord on a phone shows a 1000 px image at about 450 px (0.45×): 26 px text reads as about
# 12 px there, the least that is comfortable. ``font`` refuses anything smaller than MIN_TEXT, so
# no renderer can draw unreadable text; primary information (names, card and tile names, whose
# turn) uses PRIMARY_TEXT or more, and the numbers a player decides by (counts, prices, bids,
# scores, vitality) NUMBER_TEXT or more.
MIN_TEXT = 26
PRIMARY_TEXT = 28
NUMBER_TEXT = 34

# Palette: warm paper background, dark ink, and five seat colours that stay apart under
# protanopia and deuteranopia as well as normal vision (checked by simulation in
# tests/test_render_colours.py: every pair at least 25 ΔE*ab apart in all three). Colour is never
# the only cue for a seat: see ``seat_initials``.
BG = (246, 241, 230)
PANEL = (255, 252, 245)
INK = (34, 32, 30)
MUTED = (118, 110, 100)
LINE = (206, 196, 178)
ACCENT = (196, 84, 38)
GOOD = (46, 125, 50)
BAD = (183, 28, 28)
SEAT_COLORS = [
    (0, 114, 178),  # blue
    (213, 94, 0),  # vermillion
    (0, 158, 115),  # bluish green
    (240, 228, 66),  # yellow
    (128, 0, 32),  # maroon
]


class TooSmall(ValueError):
    """A renderer asked for text below :data:`MIN_TEXT` px."""


class CachedFont(ImageFont.FreeTypeFont):
    """A FreeType font that remembers the glyph bitmaps and widths of the strings it drew.

    Boards draw the same labels, names and numbers board after board; rasterising them is most
    of a board's drawing time. ``ImageDraw.text`` asks the font for the string's bitmap
    (``getmask2``) and draws it, so memoising that call on every argument that shapes the
    bitmap (string, anchor, sub-pixel start, ...) gives the very same pixels. The bitmap of
    anti-aliased text (mode "L") does not depend on the ink, which is left out of the key;
    colour-font (RGBA) and stroked text are not cached. The caches are bounded LRUs
    (:data:`MASK_CACHE`, :data:`LENGTH_CACHE` entries, shared by all fonts) and hold only what
    a string looks like in a font: no picture, so nothing of one board can show up in another.
    """

    def getmask2(
        self,
        text: str | bytes,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
        stroke_width: float = 0,
        anchor: str | None = None,
        ink: int = 0,
        start: tuple[float, float] | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> tuple[Any, tuple[int, int]]:
        if mode != "L" or args or features or stroke_width or not isinstance(text, str):
            return super().getmask2(
                text, mode, direction, features, language, stroke_width, anchor, ink, start, *args, **kwargs
            )
        return _mask(self, text, direction, language, anchor, start, tuple(sorted(kwargs.items())))

    def getlength(
        self,
        text: str | bytes,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
    ) -> float:
        if features or not isinstance(text, str):
            return super().getlength(text, mode, direction, features, language)
        return _length(self, text, mode, direction, language)


MASK_CACHE = 4096  # glyph bitmaps of strings (a board draws a few hundred, mostly the same)
LENGTH_CACHE = 8192  # widths of strings


@lru_cache(maxsize=MASK_CACHE)
def _mask(
    f: CachedFont,
    text: str,
    direction: str | None,
    language: str | None,
    anchor: str | None,
    start: tuple[float, float] | None,
    kwargs: tuple[tuple[str, Any], ...],
) -> tuple[Any, tuple[int, int]]:
    return ImageFont.FreeTypeFont.getmask2(
        f, text, "L", direction, None, language, 0, anchor, 0, start, **dict(kwargs)
    )


@lru_cache(maxsize=LENGTH_CACHE)
def _length(f: CachedFont, text: str, mode: str, direction: str | None, language: str | None) -> float:
    return ImageFont.FreeTypeFont.getlength(f, text, mode, direction, None, language)


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False, condensed: bool = False) -> ImageFont.FreeTypeFont:
    """A bundled DejaVu Sans font at ``size`` px. Raises :class:`TooSmall` below MIN_TEXT: show
    less rather than shrink."""
    if size < MIN_TEXT:
        raise TooSmall(f"text of {size} px is unreadable on a phone (at least {MIN_TEXT} px)")
    name = "DejaVuSans" + ("Condensed" if condensed else "") + ("-Bold" if bold else "") + ".ttf"
    return CachedFont(str(FONTS / name), size)


def seat_color(seat: int) -> tuple[int, int, int]:
    return SEAT_COLORS[seat % len(SEAT_COLORS)]


def seat_initials(names: Sequence[str]) -> list[str]:
    """A short tag per seat, the second cue beside its colour (at most two characters): the first
    letter of each name ("Asha" → "A"), two letters where names share the first ("Bilal", "Bob" →
    "Bi", "Bo"), the letter and seat number where that is not enough ("Asha", "Asha" → "A1",
    "A2"). A leading "AI " is skipped ("AI Chen" → "C")."""
    return list(_initials(tuple(names)))


@lru_cache(maxsize=256)
def _initials(names: tuple[str, ...]) -> tuple[str, ...]:
    """:func:`seat_initials`, remembered (every board asks for them, several times)."""

    def core(name: str) -> str:
        n = name.strip()
        n = n[3:] if n.upper().startswith("AI ") and len(n) > 3 else n
        return "".join(ch for ch in n if ch.isalnum()) or "?"

    cores = [core(n) for n in names]
    out = []
    for i, c in enumerate(cores):
        others = [o.upper() for j, o in enumerate(cores) if j != i]
        k = 1
        while k < min(len(c), 2) and any(o[:k] == c[:k].upper() for o in others):
            k += 1
        if any(o[:k] == c[:k].upper() for o in others):
            out.append(c[:1].upper() + str(i + 1))
        else:
            out.append(c[:1].upper() + c[1:k].lower())
    return tuple(out)


# --------------------------------------------------------------------------- colour helpers


def _luminance(c: Sequence[int]) -> float:
    def ch(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    return 0.2126 * ch(c[0]) + 0.7152 * ch(c[1]) + 0.0722 * ch(c[2])


def contrast(a: Sequence[int], b: Sequence[int]) -> float:
    """WCAG contrast ratio of two RGB colours (1 to 21)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def mix(a: Sequence[int], b: Sequence[int], t: float) -> tuple[int, int, int]:
    """``a`` blended towards ``b`` by ``t`` (0 → a, 1 → b)."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def tint(c: Sequence[int], t: float) -> tuple[int, int, int]:
    """``c`` mixed with white (``t`` = 1 is white)."""
    return mix(c, (255, 255, 255), t)


def seat_ink(seat: int, bg: Sequence[int] = PANEL) -> tuple[int, int, int]:
    """The seat's colour, darkened just enough to read as text on ``bg`` (contrast ≥ 4.5)."""
    return _seat_ink(seat % len(SEAT_COLORS), (bg[0], bg[1], bg[2]))


@lru_cache(maxsize=256)
def _seat_ink(seat: int, bg: RGB) -> tuple[int, int, int]:
    """:func:`seat_ink`, remembered (a search of up to 18 contrast steps, asked for often)."""
    base = seat_color(seat)
    c, t = base, 0.0
    while contrast(c, bg) < 4.5 and t < 0.9:
        t += 0.05
        c = mix(base, (0, 0, 0), t)
    return c


def on_color(fill: Sequence[int]) -> tuple[int, int, int]:
    """White or ink, whichever reads better on ``fill``."""
    return (255, 255, 255) if contrast((255, 255, 255), fill) >= contrast(INK, fill) else INK


# --------------------------------------------------------------------------- number formats


def num(v: int) -> str:
    """An integer with a real minus sign (−18), easier to read than a hyphen."""
    return f"−{-v}" if v < 0 else str(v)


def signed(v: int) -> str:
    """+5, −2 (typographic minus), 0."""
    return f"+{v}" if v > 0 else num(v)


def ordinal(n: int) -> str:
    """1 → "1st", 2 → "2nd", 11 → "11th", 23 → "23rd"."""
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def seat_names(names: Sequence[str] | None, n: int) -> list[str]:
    """``names`` padded to ``n`` with "Seat 1", "Seat 2"…"""
    out = list(names or [])[:n]
    out += [f"Seat {i + 1}" for i in range(len(out), n)]
    return out


def text_width(s: str, f: ImageFont.FreeTypeFont) -> int:
    return int(f.getlength(s))


def fit(
    s: str, max_width: int, size: int, bold: bool = False, min_size: int = MIN_TEXT, condensed: bool = False
) -> tuple[str, ImageFont.FreeTypeFont]:
    """Shrink the font (down to ``min_size``, trying the condensed face), then ellipsise, until
    ``s`` fits ``max_width``. Returns the text to draw and its font."""
    for sz in range(size, min_size - 1, -1):
        for cond in (condensed,) if condensed else (False, True):
            f = font(sz, bold, cond)
            if text_width(s, f) <= max_width:
                return s, f
    f = font(min_size, bold, True)
    while s and text_width(s + "…", f) > max_width:
        s = s[:-1]
    return s + "…", f


def draw_text(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    s: str,
    size: int = PRIMARY_TEXT,
    fill: RGB = INK,
    bold: bool = False,
    anchor: str = "la",
    max_width: int | None = None,
    condensed: bool = False,
) -> int:
    """Draw ``s`` at ``xy`` (Pillow anchor), shrinking to ``max_width`` if given. Returns width."""
    if max_width is not None:
        s, f = fit(s, max_width, size, bold, condensed=condensed)
    else:
        f = font(size, bold, condensed)
    d.text(xy, s, font=f, fill=fill, anchor=anchor)
    return text_width(s, f)


def wrap(s: str, max_width: int, f: ImageFont.FreeTypeFont) -> list[str]:
    """Greedy word wrap of ``s`` to lines no wider than ``max_width``."""
    lines: list[str] = []
    for para in s.split("\n"):
        cur = ""
        for word in para.split(" "):
            trial = f"{cur} {word}".strip()
            if cur and text_width(trial, f) > max_width:
                lines.append(cur)
                cur = word
            else:
                cur = trial
        lines.append(cur)
    return lines


def panel(
    d: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    fill: RGB | None = PANEL,
    outline: RGB | None = LINE,
    radius: int = 10,
    width: int = 2,
) -> None:
    d.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)


def pill(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    s: str,
    fill: RGB,
    fg: RGB = (255, 255, 255),
    size: int = MIN_TEXT,
    bold: bool = True,
    pad: int = 7,
) -> int:
    """A rounded label starting at ``xy`` (top-left). Returns its width."""
    f = font(size, bold)
    w = text_width(s, f) + 2 * pad
    h = size + pad + 2
    x, y = xy
    d.rounded_rectangle((x, y, x + w, y + h), radius=h // 2, fill=fill)
    d.text((x + w / 2, y + h / 2), s, font=f, fill=fg, anchor="mm")
    return w


def hatch(
    d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], color: RGB, step: int = 12, width: int = 2
) -> None:
    """Diagonal hatching clipped to ``box``."""
    x0, y0, x1, y1 = box
    h = y1 - y0
    for x in range(x0 - h, x1, step):
        ax, ay, bx, by = x, y1, x + h, y0
        if ax < x0:
            ay -= x0 - ax
            ax = x0
        if bx > x1:
            by += bx - x1
            bx = x1
        d.line((ax, ay, bx, by), fill=color, width=width)


def dashed_rect(
    d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], color: RGB, dash: int = 8, width: int = 2
) -> None:
    x0, y0, x1, y1 = box
    for x in range(x0, x1, dash * 2):
        d.line((x, y0, min(x + dash, x1), y0), fill=color, width=width)
        d.line((x, y1, min(x + dash, x1), y1), fill=color, width=width)
    for y in range(y0, y1, dash * 2):
        d.line((x0, y, x0, min(y + dash, y1)), fill=color, width=width)
        d.line((x1, y, x1, min(y + dash, y1)), fill=color, width=width)


def canvas(height: int, width: int = WIDTH, bg: RGB = BG) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGB", (width, height), bg)
    return img, ImageDraw.Draw(img)


def clear_caches() -> None:
    """Forget every remembered glyph bitmap, width and stamped piece (tests use it to draw a
    board from cold caches)."""
    _mask.cache_clear()
    _length.cache_clear()
    _clear_pieces()


def crop_to(img: Image.Image, bottom: float, margin: int) -> Image.Image:
    """``img`` (a tall canvas drawn top down) cut just below ``bottom`` plus ``margin``."""
    return img.crop((0, 0, img.width, min(img.height, int(bottom) + margin)))


def score_lines(
    place: int,
    name: str,
    total: int | None,
    parts: Sequence[tuple[str, int]],
    zeros: Sequence[tuple[str, str]] = (),
    note: str = "",
) -> list[str]:
    """One seat's score by category, as text lines: "1st Ann: 23 pts (note)", then the
    categories that scored ("Coins 9 · Great Statues 4"), then one line per category that
    scored nothing but deserves a reason ("Fossils: tied with Bob, a tie scores nothing")."""
    pts = "no score" if total is None else f"{num(total)} pt{'s' if total not in (1, -1) else ''}"
    lines = [f"{ordinal(place)} {name}: {pts}" + (f" ({note})" if note else "")]
    scored = [f"{cat} {num(p)}" for cat, p in parts if p]
    if scored:
        lines.append("   " + " · ".join(scored))
    lines += [f"   {cat}: {why}" for cat, why in zeros]
    return lines


MARK = (214, 0, 120)  # what the last move changed, outlined and tagged, in every game (no seat colour)
MARK_TAG_H = 34  # the height of a :func:`mark_tag`


def mark_box(
    d: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    radius: int = 12,
    width: int = 5,
    colour: RGB = MARK,
) -> None:
    """The outline of a place that changed since the previous board."""
    d.rounded_rectangle(box, radius=radius, outline=colour, width=width)


def mark_tag(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, colour: RGB = MARK) -> None:
    """A "new" / "just won" / "moved" tag whose top-right corner is at ``xy``."""
    f = font(MIN_TEXT, True)
    w = text_width(text, f) + 16
    x1, y0 = xy
    d.rounded_rectangle((x1 - w, y0, x1, y0 + MARK_TAG_H), radius=MARK_TAG_H // 2, fill=colour)
    d.text((x1 - w / 2, y0 + MARK_TAG_H / 2), text, font=f, fill=(255, 255, 255), anchor="mm")
