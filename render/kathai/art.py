"""Kathai drawing pieces: goods data (colour, letter, name), trade cards face up and face down,
goods cards, price cards, seat badges. Every piece draws straight onto the board's
``ImageDraw`` at the given top-left corner and size, so there is nothing to cache or paste.

Goods are always colour *and* letters (``Go Sa Si Sp Te``), seats are colour *and* an initial
badge, so nothing depends on telling colours apart.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import ImageDraw

from render.common import INK, LINE, MUTED, PANEL, font, mix, on_color, seat_color, text_width

Color = tuple[int, int, int]

GOODS: tuple[str, ...] = ("gold", "salt", "silk", "spice", "tea")
GOODS_NAME = {"gold": "Gold", "salt": "Salt", "silk": "Silk", "spice": "Spices", "tea": "Tea"}
GOODS_ABBR = {"gold": "Go", "salt": "Sa", "silk": "Si", "spice": "Sp", "tea": "Te"}
GOODS_COLOR: dict[str, Color] = {
    "gold": (0xE2, 0xB9, 0x3B),
    "salt": (0xCF, 0xD6, 0xDE),
    "silk": (0xA8, 0x3F, 0x7A),
    "spice": (0xC4, 0x62, 0x2D),
    "tea": (0x4E, 0x8F, 0x3A),
}
# a darker rim per goods, so pale salt and gold still have an edge on cream paper
GOODS_RIM: dict[str, Color] = {g: mix(c, (0, 0, 0), 0.35) for g, c in GOODS_COLOR.items()}
# Price row (spec §2): bonus and minimum per position 1–4; position 5 is unsellable.
PRICES: tuple[tuple[int | None, int | None], ...] = ((4, 7), (2, 5), (1, 3), (0, 1), (None, None))

CARD_BACK = (92, 58, 42)
CARD_BACK_2 = (132, 88, 60)
CARD_FACE = (255, 251, 240)
DANGER = (190, 30, 30)


def _build_cards() -> dict[str, dict[str, int]]:
    """The stand-in deck of spec §2, in its exact order (ids t1–t55)."""
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


def goods_abbr(g: str) -> str:
    return GOODS_ABBR.get(g, str(g)[:2].title())


def goods_color(g: str) -> Color:
    return GOODS_COLOR.get(g, (150, 150, 150))


# --------------------------------------------------------------------------- seat tags


def seat_tags(names: Sequence[str]) -> list[str]:
    """A short second cue per seat, besides its colour: the names' initials when they differ,
    else two letters, else the seat numbers 1…n."""
    for k in (1, 2):
        tags = [
            (nm.strip()[:k] or "?").upper() if k == 1 else (nm.strip()[:k] or "?").title() for nm in names
        ]
        if len(set(tags)) == len(tags) and all(t.strip() for t in tags):
            return tags
    return [str(i + 1) for i in range(len(names))]


def seat_badge(d: ImageDraw.ImageDraw, x: float, y: float, size: int, seat: int, tag: str) -> None:
    """A filled disc in the seat's colour with its tag (initial) in white, top-left at (x, y)."""
    col = seat_color(seat)
    d.ellipse((x, y, x + size, y + size), fill=col, outline=mix(col, (0, 0, 0), 0.35), width=2)
    fs = max(20, int(size * (0.6 if len(tag) == 1 else 0.5)))
    d.text((x + size / 2, y + size / 2 + 1), tag, font=font(fs, True), fill=on_color(col), anchor="mm")


# --------------------------------------------------------------------------- goods


def goods_chip(
    d: ImageDraw.ImageDraw, x: float, y: float, size: int, g: str, label: str | None = None
) -> None:
    """A round goods pip: colour disc with a dark rim and the goods letters."""
    col = goods_color(g)
    d.ellipse((x, y, x + size, y + size), fill=col, outline=GOODS_RIM.get(g, INK), width=max(2, size // 16))
    t = goods_abbr(g) if label is None else label
    fs = max(20, int(size * (0.5 if len(t) <= 2 else 0.4)))
    d.text((x + size / 2, y + size / 2 + 1), t, font=font(fs, True), fill=on_color(col), anchor="mm")


def goods_tag(
    d: ImageDraw.ImageDraw,
    x: float,
    y: float,
    g: str,
    size: int = 28,
    text: str | None = None,
    h: int | None = None,
) -> int:
    """A rounded label in the goods colour: 'Go Gold' style, ``text`` defaults to the name.
    Returns its width."""
    col = goods_color(g)
    t = goods_name(g) if text is None else text
    f = font(size, True)
    h = h or size + 14
    w = text_width(t, f) + 2 * (size // 2)
    d.rounded_rectangle((x, y, x + w, y + h), radius=h // 3, fill=col, outline=GOODS_RIM.get(g, INK), width=2)
    d.text((x + w / 2, y + h / 2 + 1), t, font=f, fill=on_color(col), anchor="mm")
    return w


def goods_card(d: ImageDraw.ImageDraw, x: float, y: float, w: int, h: int, g: str, dim: bool = False) -> None:
    """A market goods card: colour field with the big letters and the name below."""
    col = goods_color(g)
    if dim:
        col = mix(col, (200, 196, 190), 0.45)
    d.rounded_rectangle((x, y, x + w, y + h), radius=12, fill=col, outline=GOODS_RIM.get(g, INK), width=3)
    ink = on_color(col)
    cs = min(w - 40, h - 60)
    d.text(
        (x + w / 2, y + 14 + cs * 0.45), goods_abbr(g), font=font(int(cs * 0.7), True), fill=ink, anchor="mm"
    )
    name = goods_name(g)
    fs = 28
    while fs > 22 and text_width(name, font(fs, True)) > w - 12:
        fs -= 1
    d.text((x + w / 2, y + h - 24), name, font=font(fs, True), fill=ink, anchor="mm")


def price_card(d: ImageDraw.ImageDraw, x: float, y: float, w: int, h: int, pos: int) -> None:
    """Price card of position ``pos`` (1–5): position, bonus, minimum (X for unsellable)."""
    bonus, minimum = PRICES[pos - 1] if 1 <= pos <= 5 else (None, None)
    sellable = bonus is not None
    fill = PANEL if sellable else (226, 220, 210)
    d.rounded_rectangle((x, y, x + w, y + h), radius=12, fill=fill, outline=LINE, width=2)
    d.text((x + 12, y + 10), f"{pos}", font=font(24, True), fill=MUTED)
    if sellable:
        d.text((x + w / 2, y + h * 0.45), f"+{bonus}", font=font(44, True), fill=INK, anchor="mm")
        d.text((x + w / 2, y + h - 24), f"min {minimum}", font=font(28, True), fill=INK, anchor="mm")
    else:
        d.text((x + w / 2, y + h * 0.45), "X", font=font(48, True), fill=DANGER, anchor="mm")
        d.text((x + w / 2, y + h - 24), "unsellable", font=font(22, True), fill=MUTED, anchor="mm")


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


def card_face(
    d: ImageDraw.ImageDraw,
    x: float,
    y: float,
    w: int,
    h: int,
    cid: str,
    goods: Mapping[str, int] | None = None,
    outline: Color | None = None,
    outline_w: int = 3,
    highlight: str | None = None,
) -> None:
    """A face-up trade card with its id at the top. Wide cards (≥ 120 px, the hand) show one
    pip per item, a column per goods; narrow ones (the last sale, an offer) show a pip per goods
    with the count beside it. Pips carry the goods letters, so colour is never the only cue.
    ``highlight`` fades the other goods (e.g. the goods just sold)."""
    goods = dict(goods) if goods is not None else card_goods(cid)
    goods = {g: goods[g] for g in GOODS if goods.get(g)}
    r = max(6, w // 10)
    d.rounded_rectangle(
        (x, y, x + w, y + h),
        radius=r,
        fill=CARD_FACE,
        outline=outline or (150, 138, 120),
        width=outline_w if outline else 2,
    )
    id_size = 30 if w >= 120 else 24
    d.text((x + w / 2, y + 8 + id_size / 2), cid, font=font(id_size, True), fill=INK, anchor="mm")
    if not goods:
        return
    top = y + id_size + 16
    room_h = y + h - 10 - top

    def chip(px: float, py: float, size: int, g: str) -> None:
        if highlight and g != highlight:
            col = mix(goods_color(g), CARD_FACE, 0.45)
            d.ellipse(
                (px, py, px + size, py + size), fill=col, outline=mix(GOODS_RIM[g], CARD_FACE, 0.4), width=2
            )
            d.text(
                (px + size / 2, py + size / 2 + 1),
                goods_abbr(g),
                font=font(max(20, size // 2), True),
                fill=on_color(col),
                anchor="mm",
            )
        else:
            goods_chip(d, px, py, size, g)

    if w >= 120:
        most = max(goods.values())
        pip = int(min(46, (room_h - 6 * (most - 1)) / most, (w - 24 - 10) / 2))
        cols = list(goods)
        total_w = len(cols) * pip + (len(cols) - 1) * 12
        px = x + (w - total_w) / 2
        for g in cols:
            k = goods[g]
            col_h = k * pip + (k - 1) * 6
            py = top + (room_h - col_h) / 2
            for _ in range(k):
                chip(px, py, pip, g)
                py += pip + 6
            px += pip + 12
        return
    rows = list(goods)
    pip = int(min(42, (room_h - 8 * (len(rows) - 1)) / len(rows)))
    f = font(24, True)
    row_w = pip + 4 + text_width("×3", f)
    py = top + (room_h - (len(rows) * pip + (len(rows) - 1) * 8)) / 2
    for g in rows:
        k = goods[g]
        px = x + (w - (row_w if k > 1 or len(rows) > 1 else pip)) / 2
        chip(px, py, pip, g)
        if k > 1 or len(rows) > 1:
            fill = INK if not highlight or g == highlight else mix(INK, CARD_FACE, 0.5)
            d.text((px + pip + 4, py + pip / 2), f"×{k}", font=f, fill=fill, anchor="lm")
        py += pip + 8


def pips_row(
    d: ImageDraw.ImageDraw,
    x: float,
    y: float,
    k: int,
    size: int,
    fill: Color,
    empty: Color | None = None,
    total: int | None = None,
    gap: int = 6,
) -> float:
    """``k`` filled circles (of ``total``, the rest hollow). Returns the x after them."""
    for i in range(total if total is not None else k):
        box = (x, y, x + size, y + size)
        if i < k:
            d.ellipse(box, fill=fill, outline=mix(fill, (0, 0, 0), 0.3), width=2)
        else:
            d.ellipse(box, fill=None, outline=empty or MUTED, width=2)
        x += size + gap
    return x


def padlock(d: ImageDraw.ImageDraw, x: float, y: float, size: int, color: Color) -> None:
    """A small padlock (the lock marker), top-left at (x, y)."""
    w = size * 0.8
    bx = x + (size - w) / 2
    d.arc((bx + w * 0.18, y, bx + w * 0.82, y + size * 0.7), 180, 360, fill=color, width=max(2, size // 8))
    d.line(
        (bx + w * 0.18, y + size * 0.35, bx + w * 0.18, y + size * 0.5), fill=color, width=max(2, size // 8)
    )
    d.line(
        (bx + w * 0.82, y + size * 0.35, bx + w * 0.82, y + size * 0.5), fill=color, width=max(2, size // 8)
    )
    d.rounded_rectangle((bx, y + size * 0.45, bx + w, y + size), radius=max(2, size // 8), fill=color)
