"""Ra drawing pieces: tile data lookup, tile icons, sun discs, tile chips and track tiles.

Icons are drawn with Pillow primitives on a 100×100 grid at 4× the target size and scaled down
(anti-aliased), then cached per (code, size, colour), so a board pastes ready-made sprites.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

from engines.ra import data
from render.common import INK, LINE, MIN_TEXT, MUTED, NUMBER_TEXT, PANEL, fit, font, mix, stamp

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

DISASTER_ICON = {"funeral": "pharaoh", "drought": "flood", "unrest": "civ", "earthquake": "monument"}
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


# --------------------------------------------------------------------------- icon shapes

Pen = Callable[..., list[tuple[float, float]]]


def _wave(d: ImageDraw.ImageDraw, p: Pen, y: float, w: float) -> None:
    pts = [(x, y + 6 * math.sin((x - 8) / 84 * 2 * math.pi * 1.5)) for x in range(8, 93, 4)]
    d.line(p(*[c for pt in pts for c in pt]), fill=255, width=round(w), joint="curve")


ON, OFF = 255, 0


def _god(d: ImageDraw.ImageDraw, p: Pen, k: float) -> None:
    """God: ankh."""
    d.ellipse(p(33, 4, 67, 44), outline=ON, width=round(10 * k))
    d.rectangle(p(44, 40, 56, 96), fill=ON)
    d.rectangle(p(18, 44, 82, 55), fill=ON)


def _gold(d: ImageDraw.ImageDraw, p: Pen, k: float) -> None:
    """Gold: three ingots."""
    d.polygon(p(4, 92, 49, 92, 41, 66, 12, 66), fill=ON)
    d.polygon(p(51, 92, 96, 92, 88, 66, 59, 66), fill=ON)
    d.polygon(p(27, 61, 73, 61, 65, 35, 35, 35), fill=ON)


def _pharaoh(d: ImageDraw.ImageDraw, p: Pen, k: float) -> None:
    """Pharaoh: nemes headdress around a face."""
    d.polygon(p(50, 4, 80, 16, 84, 58, 96, 96, 4, 96, 16, 58, 20, 16), fill=ON)
    d.ellipse(p(33, 26, 67, 80), fill=OFF)
    d.rectangle(p(33, 22, 67, 32), fill=ON)
    for y in (66, 78):
        d.line(p(6, y + 6, 26, y), fill=OFF, width=round(4 * k))
        d.line(p(74, y, 94, y + 6), fill=OFF, width=round(4 * k))


def _nile(d: ImageDraw.ImageDraw, p: Pen, k: float) -> None:
    """Nile."""
    for y in (26, 50, 74):
        _wave(d, p, y, 9 * k)


def _flood(d: ImageDraw.ImageDraw, p: Pen, k: float) -> None:
    """Flood: a drop over a wave."""
    d.ellipse(p(26, 30, 74, 78), fill=ON)
    d.polygon(p(50, 2, 28, 46, 72, 46), fill=ON)
    _wave(d, p, 90, 8 * k)


def _astronomy(d: ImageDraw.ImageDraw, p: Pen, k: float) -> None:
    """Astronomy: star."""
    pts = []
    for i in range(10):
        r = 47 if i % 2 == 0 else 19
        a = -math.pi / 2 + i * math.pi / 5
        pts += [50 + r * math.cos(a), 53 + r * math.sin(a)]
    d.polygon(p(*pts), fill=ON)


def _agriculture(d: ImageDraw.ImageDraw, p: Pen, k: float) -> None:
    """Agriculture: ear of wheat."""
    d.line(p(50, 98, 50, 8), fill=ON, width=round(7 * k))
    for y in (18, 36, 54, 72):
        d.ellipse(p(26, y - 8, 48, y + 8), fill=ON)
        d.ellipse(p(52, y - 8, 74, y + 8), fill=ON)
    d.ellipse(p(42, 0, 58, 20), fill=ON)


def _writing(d: ImageDraw.ImageDraw, p: Pen, k: float) -> None:
    """Writing: scroll."""
    d.rectangle(p(20, 18, 80, 82), fill=ON)
    d.ellipse(p(12, 8, 88, 26), fill=ON)
    d.ellipse(p(12, 74, 88, 92), fill=ON)
    for y in (38, 50, 62):
        d.line(p(30, y, 70, y), fill=OFF, width=round(5 * k))


def _religion(d: ImageDraw.ImageDraw, p: Pen, k: float) -> None:
    """Religion: eye."""
    top = [(x, 50 - 34 * math.sin(math.pi * (x - 4) / 92)) for x in range(4, 97, 4)]
    bot = [(x, 50 + 26 * math.sin(math.pi * (x - 4) / 92)) for x in range(96, 3, -4)]
    d.polygon(p(*[c for pt in top + bot for c in pt]), fill=ON)
    d.ellipse(p(33, 29, 67, 63), fill=OFF)
    d.ellipse(p(40, 36, 60, 56), fill=ON)
    d.line(p(40, 74, 36, 97), fill=ON, width=round(6 * k))


def _art(d: ImageDraw.ImageDraw, p: Pen, k: float) -> None:
    """Art: vase."""
    d.polygon(p(36, 6, 64, 6, 58, 20, 80, 44, 74, 80, 60, 94, 40, 94, 26, 80, 20, 44, 42, 20), fill=ON)
    d.line(p(26, 50, 74, 50), fill=OFF, width=round(5 * k))


def _fortress(d: ImageDraw.ImageDraw, p: Pen, k: float) -> None:
    """Fortress: crenellated wall with a gate."""
    d.rectangle(p(8, 40, 92, 94), fill=ON)
    for x in (8, 31, 54, 77):
        d.rectangle(p(x, 22, x + 15, 42), fill=ON)
    d.rectangle(p(40, 64, 60, 94), fill=OFF)
    d.ellipse(p(40, 54, 60, 74), fill=OFF)


def _obelisk(d: ImageDraw.ImageDraw, p: Pen, k: float) -> None:
    """Obelisk."""
    d.polygon(p(40, 18, 50, 2, 60, 18, 66, 88, 34, 88), fill=ON)
    d.rectangle(p(24, 86, 76, 97), fill=ON)


def _palace(d: ImageDraw.ImageDraw, p: Pen, k: float) -> None:
    """Palace: pylon gate."""
    d.polygon(p(4, 94, 14, 14, 40, 14, 44, 94), fill=ON)
    d.polygon(p(56, 94, 60, 14, 86, 14, 96, 94), fill=ON)
    d.rectangle(p(40, 30, 60, 44), fill=ON)
    d.rectangle(p(2, 8, 42, 16), fill=ON)
    d.rectangle(p(58, 8, 98, 16), fill=ON)


def _pyramid(d: ImageDraw.ImageDraw, p: Pen, k: float) -> None:
    """Pyramid."""
    d.polygon(p(2, 92, 50, 8, 98, 92), fill=ON)
    d.polygon(p(50, 8, 98, 92, 62, 92), fill=OFF)
    d.line(p(50, 8, 98, 92, 62, 92, 50, 8), fill=ON, width=round(5 * k))


def _temple(d: ImageDraw.ImageDraw, p: Pen, k: float) -> None:
    """Temple: columns under a pediment."""
    d.polygon(p(6, 30, 50, 6, 94, 30), fill=ON)
    d.rectangle(p(8, 30, 92, 38), fill=ON)
    for x in (14, 34, 56, 76):
        d.rectangle(p(x, 40, x + 10, 86), fill=ON)
    d.rectangle(p(4, 86, 96, 96), fill=ON)


def _statue(d: ImageDraw.ImageDraw, p: Pen, k: float) -> None:
    """Statue: standing figure on a plinth."""
    d.ellipse(p(38, 2, 62, 26), fill=ON)
    d.polygon(p(32, 30, 68, 30, 62, 76, 38, 76), fill=ON)
    d.rectangle(p(24, 80, 76, 96), fill=ON)


def _step_pyramid(d: ImageDraw.ImageDraw, p: Pen, k: float) -> None:
    """Step pyramid."""
    for i, (x0, x1) in enumerate(((4, 96), (18, 82), (32, 68), (44, 56))):
        y1 = 96 - i * 21
        d.rectangle(p(x0, y1 - 18, x1, y1), fill=ON)


def _sphinx(d: ImageDraw.ImageDraw, p: Pen, k: float) -> None:
    """Sphinx: lying body, head-dress raised at the front."""
    d.rounded_rectangle(p(4, 58, 70, 84), radius=round(10 * k), fill=ON)
    d.polygon(p(58, 84, 60, 32, 72, 16, 88, 16, 96, 32, 96, 84), fill=ON)
    d.line(p(66, 40, 66, 76), fill=OFF, width=round(4 * k))
    d.rectangle(p(2, 86, 98, 97), fill=ON)


def _trader(d: ImageDraw.ImageDraw, p: Pen, k: float) -> None:
    """Trader: sailing ship."""
    d.polygon(p(2, 62, 98, 62, 82, 88, 18, 88), fill=ON)
    d.rectangle(p(46, 6, 52, 62), fill=ON)
    d.polygon(p(54, 10, 90, 56, 54, 56), fill=ON)
    d.polygon(p(44, 18, 12, 56, 44, 56), fill=ON)


def _crate(d: ImageDraw.ImageDraw, p: Pen, k: float) -> None:
    """Crate."""
    d.rectangle(p(10, 18, 90, 90), fill=ON)
    d.rectangle(p(20, 28, 80, 80), fill=OFF)
    d.line(p(20, 28, 80, 80), fill=ON, width=round(8 * k))
    d.line(p(20, 80, 80, 28), fill=ON, width=round(8 * k))


def _sun_rays(d: ImageDraw.ImageDraw, p: Pen, k: float) -> None:
    """A sun with rays (Ra tiles and suns)."""
    d.ellipse(p(28, 28, 72, 72), fill=ON)
    for i in range(12):
        a = i * math.pi / 6
        d.line(
            p(50 + 30 * math.cos(a), 50 + 30 * math.sin(a), 50 + 48 * math.cos(a), 50 + 48 * math.sin(a)),
            fill=ON,
            width=round(7 * k),
        )


def _bag(d: ImageDraw.ImageDraw, p: Pen, k: float) -> None:
    """Bag: tied sack."""
    d.ellipse(p(12, 34, 88, 98), fill=ON)
    d.polygon(p(34, 40, 40, 22, 60, 22, 66, 40), fill=ON)
    d.polygon(p(30, 4, 50, 18, 70, 4, 64, 22, 36, 22), fill=ON)
    d.line(p(34, 26, 66, 26), fill=OFF, width=round(4 * k))


_SHAPES: dict[str, Callable[[ImageDraw.ImageDraw, Pen, float], None]] = {
    "god": _god,
    "gold": _gold,
    "pharaoh": _pharaoh,
    "nile": _nile,
    "flood": _flood,
    "astronomy": _astronomy,
    "agriculture": _agriculture,
    "writing": _writing,
    "religion": _religion,
    "art": _art,
    "fortress": _fortress,
    "obelisk": _obelisk,
    "palace": _palace,
    "pyramid": _pyramid,
    "temple": _temple,
    "statue": _statue,
    "step-pyramid": _step_pyramid,
    "sphinx": _sphinx,
    "trader": _trader,
    "crate": _crate,
    "ra": _sun_rays,
    "sun": _sun_rays,
    "bag": _bag,
}
"""Each tile code's silhouette drawer."""

_ALIASES = {"civ": "writing", "monument": "pyramid", **DISASTER_ICON}
"""Codes drawn with another code's silhouette: the category icons and the disasters."""


def _shape(code: str, d: ImageDraw.ImageDraw, p: Pen, k: float) -> None:
    """Draw ``code``'s silhouette (255 on 0) on a 100×100 grid; ``p`` maps grid to pixels."""
    while code in _ALIASES:  # unrest -> civ -> writing
        code = _ALIASES[code]
    draw = _SHAPES.get(code)
    if draw is None:  # unknown code: a plain square
        d.rounded_rectangle(p(10, 10, 90, 90), radius=round(12 * k), fill=ON)
    else:
        draw(d, p, k)


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

    _shape(code, d, p, k)
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
