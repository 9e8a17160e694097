"""Phraya drawing pieces: colours, seat letters, and small icons (goods, flower, favor, coin,
crown, boat, disk) drawn with Pillow primitives.

Icons are drawn on a 100×100 design grid at four times their size and scaled down (smooth edges),
then cached per (name, size, colour), so a board pastes ready-made sprites. Each good has its own
silhouette as well as its colour (eggplant, star fruit, fish, drumstick), so goods stay apart
under colour-vision deficiencies; seats carry a letter as well as their colour.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engines.phraya.data import CARDS
from engines.phraya.view import card_view
from engines.phraya.view.types import CardView
from render.common import (
    INK,
    MIN_TEXT,
    SEAT_COLORS,
    contrast,
    font,
    hatch,
    mix,
    on_color,
    seat_color,
    seat_initials,
    seat_ink,
)

Color = tuple[int, int, int]
SS = 4

GOODS: tuple[str, ...] = ("veg", "fruit", "fish", "meat")
# veg light and meat dark: under deuteranopia both turn olive, so they also differ in lightness
# (and in silhouette: a tall eggplant against a drumstick with a white bone).
GOOD_COLOR: dict[str, Color] = {
    "veg": (104, 178, 62),
    "fruit": (238, 196, 36),
    "fish": (52, 124, 198),
    "meat": (170, 38, 38),
}
GOOD_TINT: dict[str, Color] = {g: mix(c, (255, 255, 255), 0.72) for g, c in GOOD_COLOR.items()}
GOOD_WORD = {"veg": "veg", "fruit": "fruit", "fish": "fish", "meat": "meat"}

# Seats use the house palette and initials (render.common.seat_color / seat_initials), the same
# in every game: colour-blind checked, no white seat on the cream paper.
SEAT_FILL: tuple[Color, ...] = tuple(SEAT_COLORS)
GOLD = (232, 184, 48)
GOLD_DARK = (150, 110, 20)
WATER = (164, 204, 226)
WATER_DARK = (104, 158, 192)
LAND = (226, 214, 176)
LAND_EDGE = (176, 160, 118)
FLOWER = (236, 120, 170)
FAVOR = (200, 150, 30)


def seat_fill(seat: int) -> Color:
    return seat_color(seat)


def seat_fg(seat: int) -> Color:
    """Text colour on the seat's fill."""
    return on_color(seat_color(seat))


def seat_text(seat: int) -> Color:
    """The seat colour as text on paper (darkened just enough to read)."""
    return seat_ink(seat)


def seat_letters(names: Sequence[str], n: int) -> list[str]:
    """One short tag per seat (one or two characters): the house initials
    (:func:`render.common.seat_initials`), the same in every game."""
    return seat_initials(list(names[:n]))


# --------------------------------------------------------------------------- pen


class Pen:
    """Draws on a 100-unit design grid mapped onto a supersampled square."""

    def __init__(self, d: ImageDraw.ImageDraw, px: int) -> None:
        self.d = d
        self.k = px / 100.0

    def w(self, units: float) -> int:
        return max(1, round(units * self.k))

    def pts(self, pts: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
        return [(x * self.k, y * self.k) for x, y in pts]

    def box(self, b: Sequence[float]) -> list[float]:
        return [v * self.k for v in b]

    def ellipse(
        self, b: Sequence[float], fill: Color | None, outline: Color | None = INK, width: float = 5.0
    ) -> None:
        self.d.ellipse(self.box(b), fill=fill, outline=outline, width=self.w(width))

    def poly(
        self,
        pts: Sequence[tuple[float, float]],
        fill: Color | None,
        outline: Color | None = INK,
        width: float = 5.0,
    ) -> None:
        self.d.polygon(self.pts(pts), fill=fill, outline=outline, width=self.w(width))

    def rect(
        self,
        b: Sequence[float],
        fill: Color | None,
        outline: Color | None = INK,
        radius: float = 0.0,
        width: float = 5.0,
    ) -> None:
        self.d.rounded_rectangle(
            self.box(b), radius=radius * self.k, fill=fill, outline=outline, width=self.w(width)
        )

    def line(self, pts: Sequence[tuple[float, float]], fill: Color = INK, width: float = 5.0) -> None:
        self.d.line(self.pts(pts), fill=fill, width=self.w(width), joint="curve")


def _darker(c: Color, t: float = 0.35) -> Color:
    return mix(c, (0, 0, 0), t)


def _star(cx: float, cy: float, r1: float, r2: float, n: int = 5) -> list[tuple[float, float]]:
    import math

    out = []
    for i in range(2 * n):
        r = r1 if i % 2 == 0 else r2
        a = -math.pi / 2 + i * math.pi / n
        out.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return out


def _veg(p: Pen, _color: Color | None) -> None:
    """A tall eggplant under a wide crown of leaves."""
    c = GOOD_COLOR["veg"]
    e = _darker(c, 0.6)
    p.ellipse((26, 26, 74, 98), c, e, 6)
    p.ellipse((36, 40, 48, 60), mix(c, (255, 255, 255), 0.55), None, 0)
    leaf = (36, 100, 28)
    p.poly([(8, 40), (30, 18), (50, 30), (70, 18), (92, 40), (66, 34), (50, 44), (34, 34)], leaf, e, 4)
    p.rect((45, 2, 55, 24), leaf, e, 2, 3)


def _fruit(p: Pen, _color: Color | None) -> None:
    """Star fruit (carambola)."""
    c = GOOD_COLOR["fruit"]
    p.poly(_star(50, 53, 48, 22), c, _darker(c, 0.55), 6)
    p.poly(_star(50, 53, 18, 9), mix(c, (255, 255, 255), 0.55), None, 0)


def _fish(p: Pen, _color: Color | None) -> None:
    """A fish."""
    c = GOOD_COLOR["fish"]
    p.poly([(66, 50), (97, 22), (90, 50), (97, 78)], c, _darker(c, 0.55), 6)
    p.ellipse((3, 24, 76, 76), c, _darker(c, 0.55), 6)
    p.ellipse((16, 38, 28, 50), (255, 255, 255), _darker(c, 0.6), 3)


def _meat(p: Pen, _color: Color | None) -> None:
    """Drumstick with a big white bone."""
    c = GOOD_COLOR["meat"]
    bone = (250, 246, 236)
    e = _darker(c, 0.5)
    p.line([(40, 60), (16, 84)], INK, 24)
    p.line([(40, 60), (16, 84)], bone, 14)
    p.ellipse((0, 78, 22, 100), bone, INK, 4)
    p.ellipse((10, 66, 32, 88), bone, INK, 4)
    p.ellipse((30, 2, 98, 70), c, e, 6)
    p.ellipse((50, 14, 68, 30), mix(c, (255, 255, 255), 0.45), None, 0)


def _flower(p: Pen, _color: Color | None) -> None:
    """Plumeria: five petals."""
    c = FLOWER
    for cx, cy in ((50, 22), (78, 42), (67, 76), (33, 76), (22, 42)):
        p.ellipse((cx - 20, cy - 20, cx + 20, cy + 20), c, _darker(c, 0.5), 4)
    p.ellipse((38, 40, 62, 64), (250, 214, 64), _darker(c, 0.5), 4)


def _favor(p: Pen, _color: Color | None) -> None:
    """Royal favour: gold medallion with a crown."""
    p.ellipse((4, 4, 96, 96), GOLD, GOLD_DARK, 6)
    p.ellipse((16, 16, 84, 84), None, GOLD_DARK, 3)
    p.poly(
        [(28, 66), (24, 34), (40, 48), (50, 28), (60, 48), (76, 34), (72, 66)],
        (255, 246, 210),
        GOLD_DARK,
        4,
    )


def _coin(p: Pen, _color: Color | None) -> None:
    """A gold coin."""
    p.ellipse((4, 4, 96, 96), (242, 200, 70), (150, 110, 20), 6)
    p.ellipse((20, 20, 80, 80), None, (176, 132, 30), 4)


def _crown(p: Pen, _color: Color | None) -> None:
    """The King's crown."""
    p.poly([(8, 84), (4, 24), (30, 50), (50, 10), (70, 50), (96, 24), (92, 84)], GOLD, GOLD_DARK, 6)
    p.rect((8, 78, 92, 94), GOLD, GOLD_DARK, 3, 5)
    for cx in (4, 50, 96):
        cy = 24 if cx != 50 else 10
        p.ellipse((cx - 7, cy - 7, cx + 7, cy + 7), (220, 60, 60), GOLD_DARK, 3)


def _rower(p: Pen, _color: Color | None) -> None:
    """An oar."""
    c = (140, 96, 52)
    p.line([(20, 90), (70, 20)], _darker(c, 0.4), 12)
    p.line([(20, 90), (70, 20)], c, 6)
    p.poly([(62, 22), (78, 2), (96, 14), (80, 36)], c, _darker(c, 0.4), 5)


def _basket(p: Pen, _color: Color | None) -> None:
    """A woven basket with a handle."""
    c = (190, 140, 80)
    p.poly([(8, 40), (92, 40), (80, 92), (20, 92)], c, _darker(c, 0.45), 6)
    for x in (32, 50, 68):
        p.line([(x, 44), (x - (x - 50) * 0.25, 88)], _darker(c, 0.35), 4)
    p.line([(14, 60), (86, 60)], _darker(c, 0.35), 4)
    p.d.arc(p.box((22, 6, 78, 66)), 180, 360, fill=_darker(c, 0.45), width=p.w(7))


def _card(p: Pen, _color: Color | None) -> None:
    """A market card."""
    p.rect((18, 6, 82, 94), (250, 246, 236), INK, 10, 6)
    p.rect((30, 20, 70, 52), (214, 190, 140), None, 4, 0)
    p.line([(30, 66), (70, 66)], (150, 140, 128), 6)
    p.line([(30, 80), (62, 80)], (150, 140, 128), 6)


def _stall(p: Pen, color: Color | None) -> None:
    """A stall piece: roof and counter."""
    c = color or (120, 120, 120)
    edge = INK if contrast(c, (255, 255, 255)) < 1.6 else _darker(c, 0.55)
    p.poly([(6, 44), (50, 6), (94, 44)], c, edge, 6)
    p.rect((16, 44, 84, 94), c, edge, 4, 6)


def _temple(p: Pen, _color: Color | None) -> None:
    """A stupa."""
    c = (196, 150, 40)
    e = _darker(c, 0.5)
    p.poly([(50, 4), (58, 26), (42, 26)], c, e, 4)
    p.ellipse((22, 22, 78, 70), c, e, 5)
    p.rect((10, 64, 90, 78), c, e, 3, 5)
    p.rect((4, 78, 96, 94), c, e, 3, 5)


def _scroll(p: Pen, _color: Color | None) -> None:
    """The scribe: a card being written."""
    p.rect((14, 6, 76, 94), (250, 246, 236), INK, 8, 6)
    for yy in (26, 42, 58):
        p.line([(26, yy), (62, yy)], (150, 140, 128), 6)
    p.line([(56, 92), (92, 30)], (60, 60, 70), 9)
    p.poly([(50, 100), (52, 84), (62, 90)], (60, 60, 70), (60, 60, 70), 2)


def _admin(p: Pen, _color: Color | None) -> None:
    """The administration: a stall piece with a "+"."""
    c = (130, 130, 136)
    e = _darker(c, 0.5)
    p.poly([(4, 46), (44, 10), (84, 46)], c, e, 6)
    p.rect((12, 46, 76, 94), c, e, 4, 6)
    p.ellipse((56, 50, 98, 92), (255, 255, 255), e, 5)
    p.line([(77, 58), (77, 84)], e, 8)
    p.line([(64, 71), (90, 71)], e, 8)


def _bowl(p: Pen, _color: Color | None) -> None:
    """The restaurant: a bowl with chopsticks."""
    c = (226, 110, 70)
    e = _darker(c, 0.5)
    p.line([(30, 8), (60, 44)], (120, 80, 40), 7)
    p.line([(52, 4), (70, 44)], (120, 80, 40), 7)
    p.d.chord(p.box((4, 18, 96, 96)), 0, 180, fill=c, outline=e, width=p.w(6))
    p.rect((4, 52, 96, 60), c, e, 2, 5)


def _disk(p: Pen, color: Color | None) -> None:
    """A round disk."""
    c = color or (120, 120, 120)
    edge = INK if contrast(c, (255, 255, 255)) < 1.6 else _darker(c, 0.55)
    p.ellipse((4, 4, 96, 96), c, edge, 7)


_ICONS: dict[str, Callable[[Pen, Color | None], None]] = {
    "veg": _veg,
    "fruit": _fruit,
    "fish": _fish,
    "meat": _meat,
    "flower": _flower,
    "favor": _favor,
    "coin": _coin,
    "crown": _crown,
    "rower": _rower,
    "basket": _basket,
    "card": _card,
    "stall": _stall,
    "temple": _temple,
    "scroll": _scroll,
    "admin": _admin,
    "bowl": _bowl,
    "disk": _disk,
}


def _draw(name: str, p: Pen, color: Color | None) -> None:
    """Draw the icon ``name`` (KeyError for an unknown one) with ``p`` on the design grid."""
    _ICONS[name](p, color)


@lru_cache(maxsize=512)
def icon(name: str, size: int, color: Color | None = None) -> Image.Image:
    """An RGBA sprite of ``name`` at ``size`` px."""
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    _draw(name, Pen(ImageDraw.Draw(big), size * SS), color)
    return big.resize((size, size), Image.Resampling.LANCZOS)


def paste(img: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
    img.paste(sprite, (round(x), round(y)), _hard(sprite))


_masks: dict[int, tuple[Image.Image, Image.Image]] = {}


def _hard(sprite: Image.Image) -> Image.Image:
    """The sprite's alpha made two-level (inside or out): its edge then takes no blend of the
    background, so a board holds far fewer colours and its 256-colour PNG keeps them."""
    got = _masks.get(id(sprite))
    if got is None or got[0] is not sprite:
        got = (sprite, sprite.getchannel("A").point(lambda a: 255 if a >= 110 else 0))
        if len(_masks) > 2048:
            _masks.clear()
        _masks[id(sprite)] = got
    return got[1]


def paste_c(img: Image.Image, sprite: Image.Image, cx: float, cy: float) -> None:
    """Paste centred on (cx, cy)."""
    paste(img, sprite, cx - sprite.width / 2, cy - sprite.height / 2)


def _letter(d: ImageDraw.ImageDraw, cx: float, cy: float, letter: str, room: float, fill: Color) -> None:
    """The seat's initials centred on (cx, cy) at the real size (never under MIN_TEXT px):
    condensed for two characters, as large as ``room`` (the px across) allows."""
    two = len(letter) > 1
    size = max(MIN_TEXT, round(room * (0.5 if two else 0.62)))
    d.text((cx, cy + 1), letter, font=font(size, True, two), fill=fill, anchor="mm")


@lru_cache(maxsize=256)
def _seat_disc(seat: int, size: int, letter: str, square: bool) -> Image.Image:
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    c = seat_fill(seat)
    edge = mix(c, (0, 0, 0), 0.5)
    w = max(2, round(size * SS * 0.07))
    box = (w / 2, w / 2, size * SS - w / 2 - 1, size * SS - w / 2 - 1)
    if square:
        d.rounded_rectangle(box, radius=size * SS * 0.2, fill=c, outline=edge, width=w)
    else:
        d.ellipse(box, fill=c, outline=edge, width=w)
    out = big.resize((size, size), Image.Resampling.LANCZOS)
    _letter(ImageDraw.Draw(out), size / 2, size / 2, letter, size, seat_fg(seat))
    return out


def seat_disc(
    img: Image.Image, seat: int, letter: str, cx: float, cy: float, size: int, square: bool = False
) -> None:
    """A disc (or rounded square) in the seat's colour with its initials, centred on (cx, cy)."""
    paste_c(img, _seat_disc(seat, size, letter, square), cx, cy)


@lru_cache(maxsize=128)
def _boat(seat: int, w: int, h: int, letter: str) -> Image.Image:
    """A top-down hull pointing right (w > h) or down (h > w) with the seat's initials upright."""
    vertical = h > w
    L, S = (h, w) if vertical else (w, h)
    big = Image.new("RGBA", (L * SS, S * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    c = seat_fill(seat)
    edge = mix(c, (0, 0, 0), 0.55)
    k = SS
    lw = max(2, round(2.5 * k))
    pts = [
        (2 * k, 3 * k),
        (L * k * 0.68, 2 * k),
        (L * k - 2 * k, S * k / 2),
        (L * k * 0.68, S * k - 2 * k),
        (2 * k, S * k - 3 * k),
    ]
    d.polygon(pts, fill=c, outline=edge, width=lw)
    out = big.resize((L, S), Image.Resampling.LANCZOS)
    if vertical:
        out = out.transpose(Image.Transpose.ROTATE_270)
        _letter(ImageDraw.Draw(out), S / 2, L * 0.42, letter, S, seat_fg(seat))
    else:
        _letter(ImageDraw.Draw(out), L * 0.42, S / 2, letter, S, seat_fg(seat))
    return out


def boat(img: Image.Image, seat: int, letter: str, cx: float, cy: float, w: int, h: int) -> None:
    paste_c(img, _boat(seat, w, h, letter), cx, cy)


def goods_row(img: Image.Image, goods: Sequence[str], x: float, cy: float, size: int, gap: int = 2) -> float:
    """Goods icons left to right from ``x``, centred on ``cy``. Returns the x after the last."""
    for g in goods:
        paste(img, icon(g, size), x, cy - size / 2)
        x += size + gap
    return x


def hatch_poly(
    d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], color: Color, step: int = 9, width: int = 2
) -> None:
    """Diagonal hatching inside ``box`` (used to mark an ownable goods stall): the shared
    :func:`render.common.hatch` at this board's pitch."""
    hatch(d, box, color, step, width)


def card_info(cid: str) -> CardView | None:
    """The static data of card ``cid`` (docs/rules/phraya.md#cards) in the view's card shape without
    the effects in words (``text`` empty), or None for an unknown id."""
    if cid not in CARDS:
        return None
    card = card_view(cid)
    card["text"] = ""
    return card
