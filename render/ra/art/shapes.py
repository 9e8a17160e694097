"""The silhouettes of Ra's tile icons: one small drawing function per tile, on a 100×100 grid
(255 on 0); :func:`render.ra.art.icon` scales and colours them."""

from __future__ import annotations

import math
from collections.abc import Callable

from PIL import ImageDraw

DISASTER_ICON = {"funeral": "pharaoh", "drought": "flood", "unrest": "civ", "earthquake": "monument"}
"""The icon of each disaster: the category it strikes."""

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


def draw_shape(code: str, d: ImageDraw.ImageDraw, p: Pen, k: float) -> None:
    """Draw ``code``'s silhouette (255 on 0) on a 100×100 grid; ``p`` maps grid to pixels."""
    while code in _ALIASES:  # unrest -> civ -> writing
        code = _ALIASES[code]
    draw = _SHAPES.get(code)
    if draw is None:  # unknown code: a plain square
        d.rounded_rectangle(p(10, 10, 90, 90), radius=round(12 * k), fill=ON)
    else:
        draw(d, p, k)
