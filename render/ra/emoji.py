"""Ra's pieces as emojis (see :mod:`render.emojis`): each tile as its silhouette on the tile's
colour, each sun as a gold disc with its number as large as the disc allows."""

from __future__ import annotations

from PIL import Image, ImageDraw

from engines.ra.icons import KEYS as KEYS
from engines.ra.icons import SUN_OF_KEY, TILE_OF_KEY
from render.common import INK, font, mix, on_color
from render.emojis import SIZE, SS, badge
from render.ra.art import SUN_UP, SUN_UP_RING, icon, tile_color


def draw(key: str) -> Image.Image:
    """The emoji of ``key`` (a key of :data:`KEYS`), 128 px RGBA. KeyError for another key."""
    if key in SUN_OF_KEY:
        return _sun(SUN_OF_KEY[key])
    code = TILE_OF_KEY[key]
    fill = tile_color(code)
    return badge(icon(code, 104, on_color(fill)), fill, mix(fill, INK, 0.35))


def _sun(value: int) -> Image.Image:
    big = SIZE * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.ellipse((0, 0, big - 1, big - 1), fill=SUN_UP_RING + (255,))
    r = big // 14
    d.ellipse((r, r, big - 1 - r, big - 1 - r), fill=SUN_UP + (255,))
    img = img.resize((SIZE, SIZE), Image.Resampling.LANCZOS)
    f = font(96 if value < 10 else 84, True, value >= 10)
    ImageDraw.Draw(img).text((SIZE / 2, SIZE / 2 + 2), str(value), font=f, fill=INK, anchor="mm")
    return img
