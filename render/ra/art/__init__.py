"""Ra drawing pieces: tile data lookup, tile icons, sun discs, tile chips and track tiles (the
silhouettes themselves are in ``shapes``).

Icons are drawn with Pillow primitives on a 100×100 grid at 4× the target size and scaled down
(anti-aliased), then cached per (code, size, colour), so a board pastes ready-made sprites.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from engines.ra import data
from render.common import INK, LINE, MIN_TEXT, MUTED, NUMBER_TEXT, PANEL, fit, font, mix, stamp
from render.ra.art.shapes import draw_shape

Color = tuple[int, int, int]

# --------------------------------------------------------------------------- tile data

CIVS: tuple[str, ...] = tuple(data.CIVS)
MONUMENTS: tuple[str, ...] = tuple(data.MONUMENTS)
SCORE_CATEGORIES: tuple[str, ...] = tuple(data.CATEGORIES)

# Colours are the engine's stand-in display data (one per category; a flood deeper than a Nile).
CATEGORY_COLOR: dict[str, Color] = dict(data.CATEGORY_COLOR)
SUN_UP = (246, 196, 52)
SUN_UP_RING = (176, 124, 14)
SUN_DOWN = (128, 122, 115)
SUN_DOWN_RING = (98, 93, 88)
DANGER = (200, 36, 36)

CATEGORY_ICON = {
    "Gods": "god",
    "Gold": "gold",
    "Pharaohs": "pharaoh",
    "Nile & floods": "nile",
    "Civilizations": "writing",
    "Traders": "trader",
    "Monuments": "pyramid",
    "Suns": "sun",
}


def tile_order() -> tuple[str, ...]:
    """Every tile code in the engine's sort order."""
    return tuple(data.TILE_ORDER)


def category(code: str) -> str:
    """The category of a tile code: god, gold, pharaoh, river, civ, monument, trader, disaster, ra
    (``monument`` for an unknown code, so a new code still draws)."""
    return data.TILE_CATEGORY.get(code, "monument")


def tile_name(code: str) -> str:
    """The display name of a tile code (the engine's TILE_NAME when it has one)."""
    return data.TILE_NAME.get(code) or code.replace("-", " ").title()


def tile_abbr(code: str) -> str:
    """A 2–3 letter label of a tile code (the engine's TILE_ABBR when it has one)."""
    return data.TILE_ABBR.get(code) or code[:3].upper()


def tile_color(code: str) -> Color:
    """The colour of a tile: one colour per category, so groups read at a glance (a flood is a
    deeper blue than a Nile tile)."""
    return data.TILE_COLOR.get(code) or CATEGORY_COLOR[category(code)]


SS = 4  # supersampling factor


@lru_cache(maxsize=512)
def icon(code: str, size: int, color: Color) -> Image.Image:
    """An anti-aliased ``size``×``size`` RGBA sprite of ``code``'s icon in ``color``."""
    big = size * SS
    k = big / 100
    mask = Image.new("L", (big, big), 0)
    d = ImageDraw.Draw(mask)

    def p(*c: float) -> list[tuple[float, float]]:
        return [(c[i] * k, c[i + 1] * k) for i in range(0, len(c), 2)]

    draw_shape(code, d, p, k)
    mask = mask.resize((size, size), Image.Resampling.LANCZOS)
    out = Image.new("RGBA", (size, size), color + (255,))
    out.putalpha(mask)
    return out


@lru_cache(maxsize=64)
def _disc(size: int, fill: Color, ring: Color, ring_w: int) -> Image.Image:
    big = size * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.ellipse((0, 0, big - 1, big - 1), fill=ring + (255,))
    r = ring_w * SS
    d.ellipse((r, r, big - 1 - r, big - 1 - r), fill=fill + (255,))
    return img.resize((size, size), Image.Resampling.LANCZOS)


def paste(img: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
    """Alpha-paste ``sprite`` with its top-left corner at (x, y)."""
    img.paste(sprite, (round(x), round(y)), sprite)


def sun(
    img: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, size: int, value: int, up: bool = True
) -> None:
    """A sun disc at top-left (x, y): bright gold with a dark number when face up, grey with a
    light number when face down (spent); no number for ``value`` 0. The number is at
    ``NUMBER_TEXT`` px on a disc of 48 px or more. Drawn once per look and pasted
    (:func:`render.common.stamp`)."""
    stamp(
        img,
        (x, y, x + size - 1, y + size - 1),
        ("ra.sun", size, value, up),
        lambda im, dd, sx, sy: _sun(im, dd, sx, sy, size, value, up),
    )


def _sun(
    img: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, size: int, value: int, up: bool
) -> None:
    if up:
        paste(img, _disc(size, SUN_UP, SUN_UP_RING, max(2, size // 16)), x, y)
        fg = INK
    else:
        paste(img, _disc(size, SUN_DOWN, SUN_DOWN_RING, max(2, size // 16)), x, y)
        fg = (248, 246, 242)
    size_px = NUMBER_TEXT if size >= 48 else max(MIN_TEXT, round(size * 0.62))
    f = font(size_px, True, len(str(value)) > 1)
    if value > 0:
        d.text((x + size / 2, y + size / 2 + 1), str(value), font=f, fill=fg, anchor="mm")


# --------------------------------------------------------------------------- tiles and chips


def chip(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    x: float,
    y: float,
    w: int,
    h: int,
    code: str,
    count: int,
    show_zero: bool = False,
) -> None:
    """A held-tile chip. Held: a solid box in the tile's colour with its white picture, large
    for one tile, beside the count (outlined white digits) for two or more. Missing: a faint
    outline with a ghosted picture, so a row's missing civilization and monument types show too
    (a "0" in the corner with ``show_zero``). Drawn once per look and pasted
    (:func:`render.common.stamp`)."""
    stamp(
        img,
        (x, y, x + w, y + h),
        ("ra.chip", code, count, show_zero),
        lambda im, dd, sx, sy: _chip(im, dd, sx, sy, w, h, code, count, show_zero),
    )


def _chip(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    x: float,
    y: float,
    w: int,
    h: int,
    code: str,
    count: int,
    show_zero: bool,
) -> None:
    col = CATEGORY_COLOR["trader"] if code == "crate" else tile_color(code)
    if count > 0:
        d.rounded_rectangle(
            (x, y, x + w, y + h), radius=8, fill=col, outline=mix(col, (0, 0, 0), 0.35), width=2
        )
        if count == 1:  # one tile: its picture alone, as large as the chip allows
            isz = round(min(w, h) * 0.72)
            paste(img, icon(code, isz, (255, 255, 255)), x + (w - isz) / 2, y + (h - isz) / 2)
            return
        t = str(count)
        f = font(NUMBER_TEXT if h >= 44 else MIN_TEXT, True, len(t) > 1)
        isz = min(22, h - 14) if len(t) == 1 else min(18, h - 18)
        paste(img, icon(code, isz, (255, 255, 255)), x + 4, y + 4)
        d.text(
            (x + w - 3, y + h - 2),
            t,
            font=f,
            fill=(255, 255, 255),
            anchor="rd",
            stroke_width=2,
            stroke_fill=mix(col, (0, 0, 0), 0.6),
        )
    else:
        isz = round(min(w, h) * 0.62)
        d.rounded_rectangle((x, y, x + w, y + h), radius=8, outline=mix(LINE, PANEL, 0.3), width=1)
        paste(img, icon(code, isz, mix(col, PANEL, 0.78)), x + (w - isz) / 2, y + (h - isz) / 2)
        if show_zero:
            d.text(
                (x + w - 4, y + h - 3),
                "0",
                font=font(MIN_TEXT, True),
                fill=mix(MUTED, PANEL, 0.4),
                anchor="rd",
            )


def track_tile(
    img: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, w: int, h: int, code: str | None, slot: int
) -> None:
    """One auction-track slot (see :func:`_track_tile`), drawn once per look and pasted."""
    stamp(
        img,
        (x, y, x + w, y + h),
        ("ra.track", code, slot, w, h),
        lambda im, dd, sx, sy: _track_tile(im, dd, sx, sy, w, h, code, slot),
    )


def _track_tile(
    img: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, w: int, h: int, code: str | None, slot: int
) -> None:
    """One auction-track slot: a tile in its category colour with icon and name (beside the icon
    on a wide slot, under it on a square one, an abbreviation when the name cannot stay legible),
    or an empty slot with its number. Disasters are dark with a red cross over what they destroy."""
    if code is None:
        d.rounded_rectangle((x, y, x + w, y + h), radius=10, outline=LINE, width=2)
        d.text((x + w / 2, y + h / 2), str(slot), font=font(MIN_TEXT, True), fill=LINE, anchor="mm")
        return
    col = tile_color(code)
    disaster = category(code) == "disaster"
    d.rounded_rectangle(
        (x, y, x + w, y + h),
        radius=10,
        fill=col,
        outline=DANGER if disaster else mix(col, (0, 0, 0), 0.3),
        width=3 if disaster else 2,
    )
    wide = w >= 2 * h
    isz = round(h * (0.62 if wide else 0.5))
    ix, iy = (x + 7, y + (h - isz) / 2) if wide else (x + (w - isz) / 2, y + 6)
    paste(img, icon(code, isz, (255, 255, 255)), ix, iy)
    if disaster:
        m = 2
        d.line((ix + m, iy + m, ix + isz - m, iy + isz - m), fill=DANGER, width=6)
        d.line((ix + m, iy + isz - m, ix + isz - m, iy + m), fill=DANGER, width=6)
    room = int(w - isz - 18) if wide else w - 8
    label, f = fit(tile_name(code), room, 28, True)
    if wide:
        d.text((ix + isz + 6, y + h / 2), label, font=f, fill=(255, 255, 255), anchor="lm")
    else:
        d.text((x + w / 2, y + h - 5), label, font=f, fill=(255, 255, 255), anchor="md")


def ra_slot(
    img: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, size: int, filled: bool, last: bool
) -> None:
    """One Ra-track slot (see :func:`_ra_slot`), drawn once per look and pasted."""
    stamp(
        img,
        (x, y, x + size, y + size),
        ("ra.slot", size, filled, last),
        lambda im, dd, sx, sy: _ra_slot(im, dd, sx, sy, size, filled, last),
    )


def _ra_slot(
    img: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, size: int, filled: bool, last: bool
) -> None:
    """One Ra-track slot: a red sun tile when filled; the last slot (ends the epoch) is marked."""
    col = CATEGORY_COLOR["ra"]
    if filled:
        d.rounded_rectangle((x, y, x + size, y + size), radius=6, fill=col)
        isz = size - 8
        paste(img, icon("ra", isz, (255, 236, 200)), x + 4, y + 4)
    else:
        d.rounded_rectangle((x, y, x + size, y + size), radius=6, outline=DANGER if last else LINE, width=2)
        if last:
            isz = size - 14
            paste(img, icon("ra", isz, mix(DANGER, PANEL, 0.55)), x + 7, y + 7)
