"""Simple Pralaya icons drawn with Pillow primitives, one per card type plus Veda, Dhoni, the card
back and Vitality pips.

Each icon is drawn on a 100×100 design grid at four times its final size and scaled down, which
gives smooth edges; results are cached, so a board pays the drawing cost once per process.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from render.common import INK, font
from render.pralaya.art.cards import CARDS, DHONI_COLOR, VEDA_COLOR

SS = 4  # supersampling factor
OUT = INK  # outline colour
Pt = tuple[float, float]
RGB = tuple[int, int, int]
Box = tuple[float, float, float, float]


class _Pen:
    """Draws on a 100-unit design grid mapped onto a supersampled square."""

    def __init__(self, d: ImageDraw.ImageDraw, px: int) -> None:
        self.d = d
        self.k = px / 100.0
        self.w = max(1, round(4.5 * self.k))  # outline width, ~4.5 design units

    def p(self, *pts: float) -> list[float]:
        return [v * self.k for v in pts]

    def ellipse(
        self, box: Box, fill: RGB | None, outline: RGB | None = OUT, width: float | None = None
    ) -> None:
        self.d.ellipse(
            self.p(*box),
            fill=fill,
            outline=outline,
            width=self.w if width is None else max(1, round(width * self.k)),
        )

    def poly(
        self, pts: Sequence[Pt], fill: RGB | None, outline: RGB | None = OUT, width: float | None = None
    ) -> None:
        flat = [c * self.k for xy in pts for c in xy]
        self.d.polygon(
            flat, fill=fill, outline=outline, width=self.w if width is None else max(1, round(width * self.k))
        )

    def rect(
        self,
        box: Box,
        fill: RGB | None,
        outline: RGB | None = OUT,
        radius: float = 0,
        width: float | None = None,
    ) -> None:
        self.d.rounded_rectangle(
            self.p(*box),
            radius=radius * self.k,
            fill=fill,
            outline=outline,
            width=self.w if width is None else max(1, round(width * self.k)),
        )

    def line(self, pts: Sequence[Pt], fill: RGB = OUT, width: float | None = None) -> None:
        flat = [c * self.k for xy in pts for c in xy]
        w = self.w if width is None else max(1, round(width * self.k))
        self.d.line(flat, fill=fill, width=w, joint="curve")

    def arc(self, box: Box, start: float, end: float, fill: RGB = OUT, width: float | None = None) -> None:
        self.d.arc(
            self.p(*box),
            start,
            end,
            fill=fill,
            width=self.w if width is None else max(1, round(width * self.k)),
        )

    def text(self, xy: Pt, s: str, size: float, fill: RGB = OUT) -> None:
        self.d.text(
            (xy[0] * self.k, xy[1] * self.k),
            s,
            font=font(max(4, round(size * self.k)), True),
            fill=fill,
            anchor="mm",
        )


def _lighter(c: RGB, t: float = 0.45) -> RGB:
    r, g, b = c
    return (round(r + (255 - r) * t), round(g + (255 - g) * t), round(b + (255 - b) * t))


def _darker(c: RGB, t: float = 0.3) -> RGB:
    r, g, b = c
    return (round(r * (1 - t)), round(g * (1 - t)), round(b * (1 - t)))


# --------------------------------------------------------------------------- the icons


def _coin(code: str) -> Callable[[_Pen], None]:
    def draw(p: _Pen) -> None:
        c = CARDS[code].color
        p.ellipse((8, 8, 92, 92), _lighter(c, 0.15))
        p.ellipse((20, 20, 80, 80), None, outline=_darker(c, 0.25), width=3.5)
        p.text((50, 52), str(CARDS[code].currency), 42, fill=_darker(c, 0.65))

    return draw


def _demon(p: _Pen) -> None:
    c = CARDS["dem"].color
    p.poly([(14, 8), (34, 30), (26, 40)], c)  # left horn
    p.poly([(86, 8), (66, 30), (74, 40)], c)  # right horn
    p.rect((24, 24, 76, 70), c, radius=22)  # head
    p.poly([(30, 66), (70, 66), (82, 94), (18, 94)], _darker(c, 0.2))  # plinth/body
    p.poly([(34, 40), (46, 46), (34, 50)], (255, 226, 120), outline=None)  # eyes
    p.poly([(66, 40), (54, 46), (66, 50)], (255, 226, 120), outline=None)
    p.line([(40, 60), (50, 56), (60, 60)], fill=OUT, width=3.5)


def _manuscript(p: _Pen) -> None:
    c = CARDS["man"].color
    p.rect((18, 20, 82, 80), _lighter(c, 0.55), radius=2)
    p.rect((10, 12, 90, 26), c, radius=7)  # top roller
    p.rect((10, 74, 90, 88), c, radius=7)  # bottom roller
    for y in (38, 50, 62):
        p.line([(28, y), (72, y)], fill=_darker(c, 0.35), width=4)


def _urn(p: _Pen) -> None:
    c = CARDS["urn"].color
    body = [
        (38, 8),
        (62, 8),
        (60, 20),
        (78, 36),
        (80, 58),
        (66, 84),
        (62, 92),
        (38, 92),
        (34, 84),
        (20, 58),
        (22, 36),
        (40, 20),
    ]
    p.poly(body, c)
    p.line([(30, 38), (70, 38)], fill=_lighter(c, 0.5), width=4)
    p.line([(52, 22), (44, 42), (56, 56), (46, 76)], fill=OUT, width=4)  # the crack


def _great(p: _Pen) -> None:
    c = CARDS["gre"].color
    p.rect((24, 80, 76, 94), _darker(c, 0.2), radius=2)  # base
    p.poly([(34, 36), (66, 36), (72, 82), (28, 82)], c)  # body
    p.ellipse((35, 6, 65, 36), _lighter(c, 0.2))  # head
    p.line([(42, 48), (42, 70)], fill=_lighter(c, 0.5), width=4)
    p.line([(58, 48), (58, 70)], fill=_lighter(c, 0.5), width=4)


def _pact(p: _Pen) -> None:
    c = CARDS["pac"].color
    p.poly([(20, 8), (66, 8), (82, 24), (82, 92), (20, 92)], (244, 236, 250))
    p.poly([(66, 8), (66, 24), (82, 24)], _lighter(c, 0.6))
    for y in (30, 42):
        p.line([(30, y), (62, y)], fill=_lighter(c, 0.2), width=4)
    p.ellipse((38, 52, 74, 88), c)  # wax seal
    p.text((56, 71), "×", 34, fill=(255, 255, 255))


def _person(color: RGB, head_extra: Callable[[_Pen], None] | None = None) -> Callable[[_Pen], None]:
    def draw(p: _Pen) -> None:
        p.poly([(16, 94), (22, 64), (36, 54), (64, 54), (78, 64), (84, 94)], color)  # shoulders
        p.ellipse((32, 18, 68, 54), (236, 200, 164))  # head
        if head_extra:
            head_extra(p)

    return draw


def _turban(p: _Pen) -> None:
    c = CARDS["pun"].color
    p.rect((28, 12, 72, 32), _lighter(c, 0.25), radius=10)
    p.ellipse((44, 14, 56, 26), (255, 214, 90), width=2.5)


def _topknot(p: _Pen) -> None:
    c = CARDS["bra"].color
    p.ellipse((42, 4, 58, 20), (60, 46, 40))
    p.line([(40, 58), (62, 92)], fill=(255, 255, 255), width=5)  # sacred thread
    p.ellipse((45, 30, 55, 38), c, outline=None)  # tilak


def _fossil(p: _Pen) -> None:
    c = CARDS["fos"].color
    p.ellipse((8, 8, 92, 92), _lighter(c, 0.35))
    # an ammonite spiral: shrinking half-circles around alternating centres
    box: Box = (14.0, 14.0, 86.0, 86.0)
    for i in range(5):
        start = 0 if i % 2 == 0 else 180
        p.arc(box, start, start + 180, fill=_darker(c, 0.35), width=5)
        shrink = (box[2] - box[0]) * 0.22
        if i % 2 == 0:
            box = (box[0] + shrink, box[1] + shrink / 2, box[2], box[3] - shrink / 2)
        else:
            box = (box[0], box[1] + shrink / 2, box[2] - shrink, box[3] - shrink / 2)


def _ocean(p: _Pen) -> None:
    c = CARDS["oce"].color
    for y in (30, 52, 74):
        p.line([(10, y), (24, y - 8), (38, y), (52, y - 8), (66, y), (80, y - 8), (92, y)], fill=c, width=6)


def _veda(p: _Pen) -> None:
    c = VEDA_COLOR
    p.rect((18, 8, 84, 92), c, radius=6)
    p.rect((18, 8, 30, 92), _darker(c, 0.3), radius=4)
    p.rect((38, 26, 74, 48), _lighter(c, 0.8), outline=None, radius=3)
    p.text((56, 38), "V", 20, fill=c)


def _dhoni(p: _Pen) -> None:
    c = DHONI_COLOR
    p.line([(50, 8), (50, 66)], fill=OUT, width=5)  # mast
    p.poly([(54, 12), (84, 58), (54, 58)], (248, 244, 232))  # sail
    p.poly([(46, 20), (46, 58), (22, 58)], (236, 228, 210))
    p.poly([(6, 64), (94, 64), (80, 88), (20, 88)], c)  # hull
    p.line([(14, 95), (30, 91), (46, 95), (62, 91), (78, 95), (90, 92)], fill=CARDS["oce"].color, width=4)


def _back(p: _Pen) -> None:
    c = (92, 70, 60)
    p.rect((16, 6, 84, 94), c, radius=10)
    p.rect((26, 16, 74, 84), None, outline=(214, 170, 80), radius=6, width=3.5)
    p.poly([(50, 30), (64, 50), (50, 70), (36, 50)], (214, 170, 80), outline=None)


_DRAW: dict[str, Callable[[_Pen], None]] = {
    "cop": _coin("cop"),
    "sil": _coin("sil"),
    "gol": _coin("gol"),
    "dem": _demon,
    "man": _manuscript,
    "urn": _urn,
    "gre": _great,
    "pac": _pact,
    "pun": _person(CARDS["pun"].color, _turban),
    "bra": _person(CARDS["bra"].color, _topknot),
    "fos": _fossil,
    "oce": _ocean,
    "veda": _veda,
    "dhoni": _dhoni,
    "back": _back,
}


@lru_cache(maxsize=256)
def icon(kind: str, size: int) -> Image.Image:
    """An RGBA icon of ``kind`` (a card code, ``"veda"``, ``"dhoni"`` or ``"back"``), ``size`` px
    square. Raises KeyError for an unknown kind."""
    draw = _DRAW[kind]
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    draw(_Pen(ImageDraw.Draw(big), size * SS))
    return big.resize((size, size), Image.Resampling.LANCZOS)


def paste_icon(img: Image.Image, kind: str, xy: tuple[float, float], size: int) -> None:
    """Paste the icon of ``kind`` with its top-left corner at ``xy``."""
    ic = icon(kind, size)
    img.paste(ic, (round(xy[0]), round(xy[1])), ic)


@lru_cache(maxsize=64)
def _pip(size: int, filled: bool, color: tuple[int, int, int]) -> Image.Image:
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    w = max(2, size * SS // 6)
    d.ellipse(
        (w // 2, w // 2, size * SS - w // 2 - 1, size * SS - w // 2 - 1),
        fill=color if filled else None,
        outline=color,
        width=w,
    )
    return big.resize((size, size), Image.Resampling.LANCZOS)


def pips(
    img: Image.Image,
    xy: tuple[float, float],
    total: int,
    filled: int,
    size: int,
    color: tuple[int, int, int],
    gap: int = 3,
) -> int:
    """Draw ``total`` round pips from ``xy`` (top-left), the first ``filled`` solid and the rest
    hollow. Returns the width used."""
    x, y = xy
    for i in range(total):
        pip = _pip(size, i < filled, color)
        img.paste(pip, (round(x), round(y)), pip)
        x += size + gap
    return max(0, total * (size + gap) - gap)
