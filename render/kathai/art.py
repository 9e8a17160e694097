"""Kathai drawing pieces: goods data (colour, name, picture), trade cards face up and face down,
goods cards, price cards and the small icons of the seat cards.

Each of the five goods is a picture with its own shape as well as its own colour (a square-holed
gold coin, a salt block, a silk spool, a spice mound, a tea leaf), so that nothing depends on
telling colours apart and nothing is a two-letter code. Seats are their colour and initials in the
house badge (:func:`render.frame.seat_badge`). A card face shows one picture per item (a card
holds at most three); its id (``t19``) is drawn only in a hand, as a small tag, since that is where
a player types it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import INK, LINE, MIN_TEXT, MUTED, NUMBER_TEXT, PANEL, font, mix, stamp

Color = tuple[int, int, int]

GOODS: tuple[str, ...] = ("gold", "salt", "silk", "spice", "tea")
GOODS_NAME = {"gold": "Gold", "salt": "Salt", "silk": "Silk", "spice": "Spices", "tea": "Tea"}
GOODS_SHAPE = {"gold": "coin", "salt": "block", "silk": "spool", "spice": "mound", "tea": "leaf"}
"""The silhouette of each goods' picture: five different shapes."""
GOODS_COLOR: dict[str, Color] = {
    "gold": (0xE2, 0xB9, 0x3B),
    "salt": (0xD8, 0xDE, 0xE6),
    "silk": (0x76, 0x4E, 0xA8),  # violet: apart from the magenta "changed" mark
    "spice": (0xC4, 0x62, 0x2D),
    "tea": (0x4E, 0x8F, 0x3A),
}
# a darker rim per goods, so pale salt and gold still have an edge on cream paper
GOODS_RIM: dict[str, Color] = {g: mix(c, (0, 0, 0), 0.45) for g, c in GOODS_COLOR.items()}
# Price row (docs/rules/kathai.md#price-row): bonus and minimum per position 1–4; position 5 is unsellable.
PRICES: tuple[tuple[int | None, int | None], ...] = ((4, 7), (2, 5), (1, 3), (0, 1), (None, None))

CARD_BACK = (92, 58, 42)
CARD_BACK_2 = (132, 88, 60)
CARD_FACE = (255, 251, 240)
CARD_EDGE = (150, 138, 120)
DANGER = (190, 30, 30)
COIN = (236, 190, 70)


def _build_cards() -> dict[str, dict[str, int]]:
    """The stand-in deck (docs/rules/kathai.md#stand-in-deck), in its fixed order (ids t1–t55)."""
    c: list[dict[str, int]] = [{g: n} for n, k in ((1, 2), (2, 2), (3, 1)) for g in GOODS for _ in range(k)]
    c += [{a: 1, b: 1} for i, a in enumerate(GOODS) for b in GOODS[i + 1 :]]
    c += [{a: 2, b: 1} for a in GOODS for b in GOODS if b != a]
    return {f"t{i}": d for i, d in enumerate(c, 1)}


def _engine_cards() -> dict[str, dict[str, int]]:
    try:  # the engine's data is the authority once it exists
        from engines.kathai import data

        return {k: dict(v) for k, v in data.CARDS.items()}
    except Exception:  # noqa: BLE001 - the engine is optional for drawing
        return _build_cards()


CARDS: dict[str, dict[str, int]] = _engine_cards()


def card_id_key(cid: str) -> int:
    """Numeric sort key of a card id ('t9' before 't10')."""
    try:
        return int(str(cid).lstrip("t"))
    except ValueError:
        return 10**6


def card_goods(cid: str, view_cards: Mapping[str, Any] | None = None) -> dict[str, int]:
    """``{goods: items}`` of a card id, goods in GOODS order (the view's own table first)."""
    raw = None
    if view_cards and cid in view_cards:
        raw = view_cards[cid]
    if raw is None:
        raw = CARDS.get(cid, {})
    return {g: int(raw[g]) for g in GOODS if raw.get(g)}


def goods_name(g: str) -> str:
    return GOODS_NAME.get(g, str(g).title())


def goods_color(g: str) -> Color:
    return GOODS_COLOR.get(g, (150, 150, 150))


# --------------------------------------------------------------------------- goods pictures

_SS = 4  # supersampling: the pictures are drawn 4× and scaled down, for smooth edges


def _coin(d: ImageDraw.ImageDraw, s: float, w: int, fill: Color, rim: Color) -> None:
    """A round coin with a square hole."""
    d.ellipse((w, w, s - w, s - w), fill=fill, outline=rim, width=round(w * 1.4))
    d.ellipse((s * 0.22, s * 0.22, s * 0.78, s * 0.78), outline=rim, width=w)
    h = s * 0.13
    d.rectangle((s / 2 - h, s / 2 - h, s / 2 + h, s / 2 + h), fill=rim)


def _block(d: ImageDraw.ImageDraw, s: float, w: int, fill: Color, rim: Color) -> None:
    """A salt block seen from above a corner: a hexagon of three faces."""
    cx, t, b = s / 2, s * 0.04, s * 0.96
    lx, rx, hi, lo = s * 0.05, s * 0.95, s * 0.28, s * 0.72
    hexagon = [(cx, t), (rx, hi), (rx, lo), (cx, b), (lx, lo), (lx, hi)]
    d.polygon(hexagon, fill=mix(fill, rim, 0.35))  # the left face
    d.polygon([(cx, s * 0.52), (rx, hi), (rx, lo), (cx, b)], fill=mix(fill, rim, 0.15))  # the right
    d.polygon(
        [(cx, t), (rx, hi), (cx, s * 0.52), (lx, hi)],
        fill=mix(fill, (255, 255, 255), 0.5),
        outline=rim,
        width=w,
    )
    d.line((cx, s * 0.52, cx, b), fill=rim, width=w)
    d.polygon(hexagon, outline=rim, width=w * 2)


def _spool(d: ImageDraw.ImageDraw, s: float, w: int, fill: Color, rim: Color) -> None:
    """A spool of silk: two flanges and the wound thread between them."""
    f = s * 0.16
    d.rounded_rectangle((s * 0.06, s * 0.04, s * 0.94, s * 0.04 + f), radius=f / 3, fill=rim)
    d.rounded_rectangle((s * 0.06, s * 0.96 - f, s * 0.94, s * 0.96), radius=f / 3, fill=rim)
    d.rectangle((s * 0.2, s * 0.04 + f, s * 0.8, s * 0.96 - f), fill=fill, outline=rim, width=w)
    light = mix(fill, (255, 255, 255), 0.45)
    for i in range(1, 5):
        y = s * 0.04 + f + i * (s * 0.92 - 2 * f) / 5
        d.line((s * 0.22, y - s * 0.05, s * 0.78, y + s * 0.05), fill=light, width=w)


def _mound(d: ImageDraw.ImageDraw, s: float, w: int, fill: Color, rim: Color) -> None:
    """A heap of spice: a wide triangle with a rounded top and grains."""
    d.polygon(
        [(s * 0.5, s * 0.06), (s * 0.98, s * 0.9), (s * 0.02, s * 0.9)],
        fill=fill,
        outline=rim,
        width=w * 2,
    )
    d.rounded_rectangle((s * 0.02, s * 0.84, s * 0.98, s * 0.96), radius=s * 0.05, fill=rim)
    dot = mix(fill, (255, 255, 255), 0.45)
    for px, py in ((0.5, 0.4), (0.38, 0.62), (0.62, 0.62), (0.26, 0.78), (0.5, 0.76), (0.74, 0.78)):
        r = s * 0.045
        d.ellipse((s * px - r, s * py - r, s * px + r, s * py + r), fill=dot)


def _leaf(d: ImageDraw.ImageDraw, s: float, w: int, fill: Color, rim: Color) -> None:
    """A tea leaf: a pointed oval on the diagonal with its midrib and veins."""

    def at(u: float, v: float) -> tuple[float, float]:
        a = -math.pi / 4
        x, y = u * 0.6 * s, v * 0.6 * s
        return (
            s * 0.53 + x * math.cos(a) - y * math.sin(a),
            s * 0.47 + x * math.sin(a) + y * math.cos(a),
        )

    half = [(-1 + 2 * i / 40, 0.5 * math.sin(math.pi * i / 40)) for i in range(41)]
    poly = [at(u, v) for u, v in half] + [at(u, -v) for u, v in reversed(half)]
    d.polygon(poly, fill=fill, outline=rim, width=w * 2)
    vein = mix(fill, (255, 255, 255), 0.45)
    d.line((*at(-0.85, 0), *at(0.8, 0)), fill=vein, width=w)
    for u in (-0.45, 0.0, 0.4):
        d.line((*at(u, 0), *at(u + 0.25, 0.25)), fill=vein, width=max(1, w * 2 // 3))
        d.line((*at(u, 0), *at(u + 0.25, -0.25)), fill=vein, width=max(1, w * 2 // 3))
    d.line((*at(-1.0, 0), *at(-1.25, 0)), fill=rim, width=w * 2)


_SHAPES = {"coin": _coin, "block": _block, "spool": _spool, "mound": _mound, "leaf": _leaf}


def _shape(d: ImageDraw.ImageDraw, g: str, s: float, fill: Color, rim: Color) -> None:
    """The picture of goods ``g`` in a square of ``s`` px (supersampled) at the origin."""
    w = max(2, round(s / 16))
    _SHAPES[GOODS_SHAPE.get(g, "coin")](d, s, w, fill, rim)


@lru_cache(maxsize=128)
def goods_icon(g: str, size: int, faded: bool = False) -> Image.Image:
    """The picture of goods ``g``, ``size`` px square with a transparent background (RGBA);
    ``faded`` blends it towards the card face (the goods not meant on a card)."""
    big = size * _SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    fill, rim = goods_color(g), GOODS_RIM.get(g, INK)
    if faded:
        fill, rim = mix(fill, CARD_FACE, 0.6), mix(rim, CARD_FACE, 0.6)
    _shape(ImageDraw.Draw(img), g, big, fill, rim)
    return img.resize((size, size), Image.Resampling.LANCZOS)


def paste_icon(img: Image.Image, x: float, y: float, g: str, size: int, faded: bool = False) -> None:
    """:func:`goods_icon` pasted with its top-left corner at (x, y)."""
    icon = goods_icon(g, size, faded)
    img.paste(icon, (round(x), round(y)), icon)


def goods_label(
    img: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, g: str, size: int = 28, ink: Color = INK
) -> float:
    """The goods' picture and its name, the picture's top at ``y - size * 0.6``, the text's middle
    at ``y``. Returns the x after the name."""
    s = int(size * 1.3)
    paste_icon(img, x, y - s / 2, g, s)
    f = font(size, True)
    d.text((x + s + 6, y), goods_name(g), font=f, fill=ink, anchor="lm")
    return x + s + 6 + f.getlength(goods_name(g))


# --------------------------------------------------------------------------- market pieces


def goods_card(
    img: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, w: int, h: int, g: str, dim: bool = False
) -> None:
    """A market goods card: a pale field in the goods colour, its picture large, its name below."""
    col = mix(goods_color(g), PANEL, 0.55 if not dim else 0.8)
    d.rounded_rectangle((x, y, x + w, y + h), radius=12, fill=col, outline=GOODS_RIM.get(g, INK), width=3)
    s = min(w - 40, h - 48)
    paste_icon(img, x + (w - s) / 2, y + 8, g, s, faded=dim)
    d.text(
        (x + w / 2, y + h - 20),
        goods_name(g),
        font=font(28, True),
        fill=INK if not dim else MUTED,
        anchor="mm",
    )


def price_card(d: ImageDraw.ImageDraw, x: float, y: float, w: int, h: int, pos: int) -> None:
    """Price card of position ``pos`` (1–5): position, bonus and minimum items (X for the
    unsellable fifth); the numbers at NUMBER_TEXT or more."""
    bonus, minimum = PRICES[pos - 1] if 1 <= pos <= 5 else (None, None)
    sellable = bonus is not None
    fill = PANEL if sellable else (226, 220, 210)
    d.rounded_rectangle((x, y, x + w, y + h), radius=12, fill=fill, outline=LINE, width=2)
    d.text((x + 10, y + 2), f"{pos}", font=font(NUMBER_TEXT, True), fill=MUTED)
    if sellable:
        d.text((x + w / 2 + 8, y + h * 0.28), f"+{bonus}", font=font(40, True), fill=INK, anchor="mm")
        d.text(
            (x + w / 2, y + h * 0.7), f"min {minimum}", font=font(NUMBER_TEXT, True), fill=INK, anchor="mm"
        )
    else:
        d.text((x + w / 2, y + h * 0.32), "X", font=font(44, True), fill=DANGER, anchor="mm")
        d.text((x + w / 2, y + h * 0.7), "no sale", font=font(28, True), fill=MUTED, anchor="mm")


# --------------------------------------------------------------------------- trade cards


def card_back(
    d: ImageDraw.ImageDraw, x: float, y: float, w: int, h: int, ring: Color | None = None, ring_w: int = 5
) -> None:
    """A face-down trade card (optionally ringed in a colour)."""
    r = max(4, min(w, h) // 8)
    if ring is not None:
        d.rounded_rectangle(
            (x - ring_w, y - ring_w, x + w + ring_w, y + h + ring_w), radius=r + ring_w, fill=ring
        )
    d.rounded_rectangle((x, y, x + w, y + h), radius=r, fill=CARD_BACK, outline=(60, 36, 24), width=2)
    m = max(3, min(w, h) // 7)
    d.rounded_rectangle(
        (x + m, y + m, x + w - m, y + h - m), radius=max(2, r - 2), outline=CARD_BACK_2, width=2
    )
    cx, cy, s = x + w / 2, y + h / 2, min(w, h) / 4
    d.polygon([(cx, cy - s), (cx + s * 0.7, cy), (cx, cy + s), (cx - s * 0.7, cy)], fill=CARD_BACK_2)


def _items(goods: Mapping[str, int]) -> list[str]:
    """One entry per item, goods in GOODS order (a card holds at most three)."""
    return [g for g in GOODS for _ in range(int(goods.get(g) or 0))]


def card_face(
    img: Image.Image,
    x: float,
    y: float,
    w: int,
    h: int,
    goods: Mapping[str, int],
    *,
    cid: str | None = None,
    highlight: str | None = None,
) -> None:
    """A face-up trade card: one goods picture per item, stacked (a card holds one to three);
    ``cid`` adds the id as a small tag at the bottom (only in a hand, where it is typed);
    ``highlight`` fades the other goods (the goods just sold). Drawn once per look
    (:func:`render.common.stamp`)."""
    items = tuple(_items(goods))
    key = ("kathai.card", items, cid, highlight)
    stamp(
        img,
        (x, y, x + w, y + h),
        key,
        lambda im, dd, px, py: _card_face(im, dd, px, py, w, h, items, cid, highlight),
    )


def _card_face(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    x: float,
    y: float,
    w: int,
    h: int,
    items: tuple[str, ...],
    cid: str | None,
    highlight: str | None,
) -> None:
    r = max(6, w // 10)
    d.rounded_rectangle((x, y, x + w, y + h), radius=r, fill=CARD_FACE, outline=CARD_EDGE, width=2)
    tag_h = MIN_TEXT + 10 if cid else 0
    room = h - 12 - tag_h
    if w >= 110:  # a hand card: two pictures a row
        size = int(min((w - 22) / 2, (room - 6) / 2))
        rows = [items[i : i + 2] for i in range(0, len(items), 2)]
        top = y + 6 + (room - (len(rows) * size + 6 * (len(rows) - 1))) / 2
        for r, row in enumerate(rows):
            left = x + (w - (len(row) * size + 6 * (len(row) - 1))) / 2
            for i, g in enumerate(row):
                fade = bool(highlight and g != highlight)
                paste_icon(img, left + i * (size + 6), top + r * (size + 6), g, size, faded=fade)
    else:  # a narrow card: one picture a row, one size for one to three items
        size = int(min(w - 16, (room - 8) / 3))
        top = y + 6 + (room - (len(items) * size + 4 * (len(items) - 1))) / 2
        for i, g in enumerate(items):
            fade = bool(highlight and g != highlight)
            paste_icon(img, x + (w - size) / 2, top + i * (size + 4), g, size, faded=fade)
    if cid:
        f = font(MIN_TEXT, True)
        d.rounded_rectangle((x + 6, y + h - tag_h - 4, x + w - 6, y + h - 6), radius=8, fill=(236, 228, 212))
        d.text((x + w / 2, y + h - tag_h / 2 - 5), cid, font=f, fill=INK, anchor="mm")


# --------------------------------------------------------------------------- small icons


def hand_icon(d: ImageDraw.ImageDraw, x: float, y: float, h: int) -> float:
    """Three fanned card backs, ``h`` px tall, for a hand count. Returns the x after them."""
    w = int(h * 0.68)
    for i in range(3):
        card_back(d, x + i * w * 0.35, y, w, h)
    return x + 2 * w * 0.35 + w


def profit_icon(d: ImageDraw.ImageDraw, x: float, y: float, size: int) -> float:
    """A face-down card with a coin: a profit card. Returns the x after it."""
    card_back(d, x, y, int(size * 0.68), size)
    r = size * 0.3
    cx, cy = x + size * 0.66, y + size * 0.68
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=COIN, outline=(150, 112, 20), width=2)
    return cx + r


def padlock(d: ImageDraw.ImageDraw, x: float, y: float, size: int, color: Color) -> None:
    """A small padlock (a locked goods), top-left at (x, y)."""
    w, lw = size * 0.8, max(3, size // 7)
    bx = x + (size - w) / 2
    d.arc((bx + w * 0.18, y, bx + w * 0.82, y + size * 0.7), 180, 360, fill=color, width=lw)
    for sx in (bx + w * 0.18, bx + w * 0.82 - lw):
        d.rectangle((sx, y + size * 0.33, sx + lw, y + size * 0.5), fill=color)
    d.rounded_rectangle((bx, y + size * 0.45, bx + w, y + size), radius=max(2, size // 8), fill=color)


def pips(d: ImageDraw.ImageDraw, x: float, y: float, k: int, total: int, size: int, fill: Color) -> float:
    """``k`` filled circles of ``total`` (the rest hollow), top-left at (x, y). Returns x after."""
    for i in range(total):
        box = (x, y, x + size, y + size)
        if i < k:
            d.ellipse(box, fill=fill, outline=mix(fill, (0, 0, 0), 0.3), width=2)
        else:
            d.ellipse(box, outline=MUTED, width=2)
        x += size + 5
    return x
