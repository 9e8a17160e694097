"""The second Phraya picture, posted with the board: prices, Temple, King's Chart, supply and
the end conditions, the Merchant's route, the card market and one row per player. One fixed
size per player count (:func:`extra_height`), at most 1000 × 1100.

Things are drawn as pictures (goods, coins, flowers, favors, rowers, stall pieces, disks); the
ids a player types in ``/move`` (King's spaces "c3", cards "m24") are small muted tags beside
them. What the moves since the previous board changed is outlined in the house mark colour and
named in a tag on the section's title row."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from engines.phraya.view.types import CardView, PhrayaView, PlayerView
from render.common import (
    BG,
    INK,
    LINE,
    MIN_TEXT,
    MUTED,
    NUMBER_TEXT,
    PANEL,
    WIDTH,
    fit,
    font,
    mark_box,
    mark_tag,
    text_width,
    wrap,
)
from render.phraya.art import (
    GOLD_DARK,
    GOOD_COLOR,
    GOODS,
    goods_row,
    icon,
    paste_c,
    seat_disc,
    seat_fill,
)
from render.phraya.art.cards import card_lines
from render.phraya.art.layers import Draw, layer
from render.phraya.board.charts import _tags, draw_king, draw_temple
from render.phraya.layout import (
    GAP,
    HALF,
    MARKET_H,
    MERCHANT_H,
    ROW1_H,
    ROW2_H,
    TABLE_HEAD,
    TABLE_ROW,
    TOP,
    XR,
    X,
)
from render.phraya.layout.model import Model, model
from render.phraya.marks import NONE, Changes, changes, labels


def extra_height(n_players: int) -> int:
    """The second picture's fixed height at ``n_players``."""
    return _players_y() + TABLE_HEAD + TABLE_ROW * n_players + 12


def _players_y() -> int:
    return TOP + ROW1_H + GAP + ROW2_H + GAP + MERCHANT_H + GAP + MARKET_H + GAP


# --------------------------------------------------------------------------- prices


def draw_prices(img: Image.Image, d: ImageDraw.ImageDraw, m: Model, x: int, y: int, tags: list[str]) -> None:
    """Four rows (one per good) of its seven prices; the current one filled in the good's
    colour at 34 px."""
    rows = m.price_rows
    key = ("xprices", tuple(tuple(rows[g]) for g in GOODS))
    layer(img, x, y, x + HALF, y + 34 + 4 * 52, key, lambda im, dd, lx, ly: _price_grid(im, dd, rows, lx, ly))
    _tags(d, x + HALF, y, tags)
    top, cw, rh = y + 34, (HALF - 50) // 7, 52
    for r, g in enumerate(GOODS):
        idx = m.price_index[g]
        if not 0 <= idx <= 6:
            continue
        bx = x + 50 + idx * cw
        box = (bx + 2, top + r * rh + 3, bx + cw - 2, top + (r + 1) * rh - 3)
        d.rounded_rectangle(box, radius=8, fill=GOOD_COLOR[g], outline=INK, width=3)
        fg = INK if g in ("fruit", "veg") else (255, 255, 255)
        d.text(_mid(box), str(rows[g][idx]), font=font(NUMBER_TEXT, True), fill=fg, anchor="mm")
        if any(t.startswith(f"{g} ") for t in tags):
            mark_box(d, (box[0] - 3, box[1] - 3, box[2] + 3, box[3] + 3), radius=10)


def _mid(box: tuple[float, float, float, float]) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2 + 1


def _price_grid(
    img: Image.Image, d: ImageDraw.ImageDraw, rows: Mapping[str, Sequence[int]], x: int, y: int
) -> None:
    d.text((x, y), "Prices", font=font(MIN_TEXT, True), fill=MUTED)
    top, cw, rh = y + 34, (HALF - 50) // 7, 52
    f = font(MIN_TEXT)
    for r, g in enumerate(GOODS):
        paste_c(img, icon(g, 40), x + 20, top + r * rh + rh / 2)
        for idx in range(7):
            bx = x + 50 + idx * cw
            box = (bx + 2, top + r * rh + 3, bx + cw - 2, top + (r + 1) * rh - 3)
            d.rounded_rectangle(
                box, radius=8, fill=(236, 230, 216) if idx == 2 else PANEL, outline=LINE, width=1
            )
            d.text(_mid(box), str(rows[g][idx]), font=f, fill=MUTED, anchor="mm")


# --------------------------------------------------------------------------- Temple


# --------------------------------------------------------------------------- King


# --------------------------------------------------------------------------- supply, conditions


def draw_supply(img: Image.Image, d: ImageDraw.ImageDraw, m: Model, x: int, y: int) -> None:
    """The supply as pictures with counts (goods, flowers, favors, rowers, cards in the deck)
    and the three end conditions."""
    v = m.view
    sup = v["supply"]
    d.text((x, y), "Supply", font=font(MIN_TEXT, True), fill=MUTED)
    items = [(g, sup.get(g, 0)) for g in GOODS] + [
        ("flower", sup["flowers"]),
        ("favor", sup["favors"]),
        ("rower", sup["rowers"]),
        ("card", v["deck"]),
    ]
    cw = HALF // 4
    numf = font(NUMBER_TEXT, True)
    for k, (ic, val) in enumerate(items):
        cx, cy = x + (k % 4) * cw, y + 34 + (k // 4) * 48 + 22
        paste_c(img, icon(ic, 36), cx + 20, cy)
        d.text((cx + 44, cy + 1), str(val), font=numf, fill=INK, anchor="lm")
    cond = v["conditions"]
    yy = y + 34 + 2 * 48 + 4
    d.text((x, yy), "Game ends with 2 of 3:", font=font(MIN_TEXT, True), fill=MUTED)
    yy += 32
    xx = x
    for key, word in (("tithe", "Tithe"), ("buddha", "Buddha"), ("supremacy", "Supremacy")):
        s = ("✔ " if cond.get(key) else "") + word
        f = font(MIN_TEXT, bool(cond.get(key)))
        d.text((xx, yy), s, font=f, fill=INK if cond.get(key) else MUTED)
        xx += text_width(s, f) + 18


# --------------------------------------------------------------------------- Merchant


def draw_merchant(img: Image.Image, d: ImageDraw.ImageDraw, m: Model, y: int, moved: bool) -> None:
    """The Merchant's loop of 12 spaces (the pair of goods whose prices change there), each
    with its distance from him."""
    route = m.view["merchant_route"]
    at = int(m.view["merchant"])
    key = ("xmerchant", repr(route), at)
    layer(
        img,
        X,
        y,
        WIDTH - X,
        y + MERCHANT_H - 1,
        key,
        lambda im, dd, lx, ly: _merchant(im, dd, route, at, lx, ly),
    )
    if moved and route:
        _tags(d, WIDTH - X, y, ["Merchant moved"])
        cw = (WIDTH - 2 * X) // len(route)
        mark_box(d, (X + at * cw, y + 34, X + (at + 1) * cw, y + MERCHANT_H), radius=10)


def _merchant(
    img: Image.Image, d: ImageDraw.ImageDraw, route: Sequence[Sequence[str]], at: int, x: int, y: int
) -> None:
    f = font(MIN_TEXT, True)
    d.text((x, y), "Merchant", font=f, fill=MUTED)
    d.text(
        (x + text_width("Merchant", f) + 12, y),
        "the prices of the pair he stops at change",
        font=font(MIN_TEXT),
        fill=MUTED,
    )
    k = len(route)
    if not k:
        return
    cw = (WIDTH - 2 * X) // k
    for i, pair in enumerate(route):
        off = (i - at) % k
        off = off - k if off > k // 2 else off
        bx = x + i * cw
        here = off == 0
        box = (bx + 2, y + 36, bx + cw - 2, y + MERCHANT_H - 2)
        d.rounded_rectangle(
            box,
            radius=8,
            fill=(252, 232, 160) if here else PANEL,
            outline=GOLD_DARK if here else LINE,
            width=4 if here else 1,
        )
        goods_row(img, list(pair), bx + (cw - 60) / 2, y + 56, 29, 2)
        lab = "here" if here else (f"+{off}" if off > 0 else f"−{-off}")
        d.text(
            (bx + cw / 2, y + 87),
            lab,
            font=font(MIN_TEXT if here else NUMBER_TEXT, True),
            fill=INK if abs(off) <= 3 else MUTED,
            anchor="mm",
        )


# --------------------------------------------------------------------------- market


def draw_market(img: Image.Image, d: ImageDraw.ImageDraw, m: Model, y: int, ch: Changes) -> None:
    v = m.view
    disp = list(v["display"] or [])
    f = font(MIN_TEXT, True)
    d.text((X, y), "Card market", font=f, fill=MUTED)
    d.text(
        (X + text_width("Card market", f) + 12, y),
        f"bought at a scribe stall · {v['deck']} in the deck",
        font=font(MIN_TEXT),
        fill=MUTED,
    )
    k = max(4, len(disp))
    gap = 10
    cw = (WIDTH - 2 * X - gap * (k - 1)) // k
    h = MARKET_H - 34
    for i in range(k):
        card = disp[i] if i < len(disp) else None
        x = X + i * (cw + gap)
        layer(img, x, y + 34, x + cw, y + 34 + h, ("xcard", cw, h, repr(card)), _card_tile(card, cw, h))
        if i in ch.display:
            mark_box(d, (x - 2, y + 32, x + cw + 2, y + 36 + h), radius=12)
            mark_tag(d, (x + cw - 4, y + 34 + h - 38), "new card")


def _card_tile(card: CardView | None, cw: int, h: int) -> Any:
    def draw(im: Image.Image, dd: ImageDraw.ImageDraw, x: int, y: int) -> None:
        draw_card_face(im, dd, card, (x, y, x + cw, y + h))

    return draw


def draw_card_face(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    card: CardView | None,
    box: tuple[int, int, int, int],
    hot: bool = False,
    lines: int = 3,
) -> int:
    """A card: its cost (coins, flowers) as pictures, its id as a small tag, its name and what
    it does in short words. Returns the y below the text."""
    x0, y0, x1, y1 = box
    if not card:
        d.rounded_rectangle(box, radius=10, fill=BG, outline=LINE, width=2)
        d.text(((x0 + x1) / 2, (y0 + y1) / 2), "empty", font=font(MIN_TEXT), fill=MUTED, anchor="mm")
        return y1
    d.rounded_rectangle(
        box, radius=10, fill=PANEL, outline=(196, 84, 38) if hot else LINE, width=4 if hot else 2
    )
    numf = font(NUMBER_TEXT, True)
    x = x0 + 8
    for ic, amount in (("coin", card["coins"]), ("flower", card["flowers"])):
        if amount:
            paste_c(img, icon(ic, 28), x + 14, y0 + 24)
            d.text((x + 31, y0 + 25), str(amount), font=numf, fill=INK, anchor="lm")
            x += 34 + text_width(str(amount), numf) + 10
    d.text((x1 - 8, y0 + 24), str(card["id"]), font=font(MIN_TEXT, False, True), fill=MUTED, anchor="rm")
    w = x1 - x0 - 16
    t, tf = fit(str(card["name"]), w, MIN_TEXT, True, condensed=True)
    d.text((x0 + 8, y0 + 44), t, font=tf, fill=INK)
    f = font(MIN_TEXT, False, True)
    out: list[str] = []
    for ln in card_lines(card):
        out += wrap(ln, w, f)
    yy = y0 + 72
    room = max(0, (y1 - yy - 2) // 28)
    shown = out[:room]
    if len(out) > room and room:
        shown[-1] = fit(shown[-1] + "…", w, MIN_TEXT, condensed=True)[0]
    for ln in shown:
        d.text((x0 + 8, yy), ln, font=f, fill=INK)
        yy += 28
    return yy


# --------------------------------------------------------------------------- players

COLS = (
    "coins",
    "flowers",
    "favors",
    "rowers",
    "stalls_left",
    "disks_left",
    "veg",
    "fruit",
    "fish",
    "meat",
    "hand_count",
)
ICONS = {
    "coins": "coin",
    "flowers": "flower",
    "favors": "favor",
    "rowers": "rower",
    "stalls_left": "stall",
    "disks_left": "disk",
    "hand_count": "card",
}
NAME_W = 214


def _col_x(k: int) -> tuple[int, int]:
    """The left x and width of column ``k`` of :data:`COLS` (goods columns are wider)."""
    x = X + NAME_W
    for j in range(k):
        x += 78 if COLS[j] in GOODS else 60
    return x, 78 if COLS[k] in GOODS else 60


def draw_players(img: Image.Image, d: ImageDraw.ImageDraw, m: Model, y: int, ch: Changes) -> None:
    """One row per player under a row of pictures: coins, flowers, favors, rowers, stall
    pieces and disks left, each good held (of the room for it), cards in hand."""
    layer(img, X, y, WIDTH - X, y + TABLE_HEAD - 1, ("xplayers-head",), _players_head)
    for s in range(m.n):
        p = m.players[s]
        yy = y + TABLE_HEAD + s * TABLE_ROW
        changed = ch.players.get(s, frozenset())
        shown = tuple(p.get(c, 0) for c in COLS if c not in GOODS)
        goods = tuple(((p["goods"] or {}).get(g, 0), (p["capacity"]).get(g, 0)) for g in GOODS)
        key = ("xplayer", s, m.names[s], m.letters[s], s == m.active, shown, goods, tuple(sorted(changed)))
        layer(img, X, yy, WIDTH - X, yy + TABLE_ROW - 1, key, _row_drawer(m, s, p, changed))


def _row_drawer(m: Model, s: int, p: PlayerView, changed: frozenset[str]) -> Draw:
    def draw(im: Image.Image, dd: ImageDraw.ImageDraw, lx: int, ly: int) -> None:
        _player_row(im, dd, m, s, p, lx, ly, changed)

    return draw


def _player_row(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    m: Model,
    s: int,
    p: PlayerView,
    x0: int,
    yy: int,
    changed: frozenset[str],
) -> None:
    """One player's row with its left edge at ``x0`` (the table's at :data:`X`)."""
    numf, small = font(NUMBER_TEXT, True), font(MIN_TEXT)
    dx = x0 - X
    act = s == m.active
    d.rounded_rectangle(
        (x0, yy + 2, x0 + WIDTH - 2 * X, yy + TABLE_ROW - 2),
        radius=8,
        fill=PANEL,
        outline=seat_fill(s) if act else LINE,
        width=4 if act else 1,
    )
    seat_disc(img, s, m.letters[s], x0 + 22, yy + TABLE_ROW / 2, 36)
    t, tf = fit(m.names[s], NAME_W - 50, MIN_TEXT, True)
    d.text((x0 + 46, yy + TABLE_ROW / 2), t, font=tf, fill=INK, anchor="lm")
    goods, cap = p["goods"] or {}, p["capacity"]
    for k, c in enumerate(COLS):
        cx, cw = _col_x(k)
        cx += dx
        if c in GOODS:
            held = str(goods.get(c, 0))
            d.text((cx + 6, yy + TABLE_ROW / 2 + 1), held, font=numf, fill=INK, anchor="lm")
            d.text(
                (cx + 8 + text_width(held, numf), yy + TABLE_ROW / 2 + 4),
                f"/{cap.get(c, 0)}",
                font=small,
                fill=MUTED,
                anchor="lm",
            )
            hot = f"goods:{c}" in changed
        else:
            d.text((cx + cw / 2, yy + TABLE_ROW / 2 + 1), str(p.get(c, 0)), font=numf, fill=INK, anchor="mm")
            hot = c in changed
        if hot:
            mark_box(d, (cx + 1, yy + 3, cx + cw - 1, yy + TABLE_ROW - 3), radius=8, width=4)


def _players_head(img: Image.Image, d: ImageDraw.ImageDraw, x: int, y: int) -> None:
    d.text((x, y + 20), "Players", font=font(MIN_TEXT, True), fill=MUTED, anchor="lm")
    for k, c in enumerate(COLS):
        cx, cw = _col_x(k)
        cx += x - X
        col = (130, 130, 136) if c in ("stalls_left", "disks_left") else None
        paste_c(img, icon(ICONS.get(c, c), 34, col), cx + cw / 2, y + 20)


# --------------------------------------------------------------------------- assembly


def extra_image(
    view: PhrayaView, names: Sequence[str] | None = None, previous: PhrayaView | None = None
) -> Image.Image:
    """The second picture of ``view`` at 1000 × :func:`extra_height` (n)."""
    m = model(view, names)
    ch = changes(previous, view) if previous is not None else NONE
    tags = labels(previous, view, ch)
    m.extra["temple_changed"] = [t for t, _ in tags if t.startswith("temple:")]
    img = Image.new("RGB", (WIDTH, extra_height(m.n)), BG)
    d = ImageDraw.Draw(img)
    y = TOP
    price_tags = [f"{t.split(':')[1]} {lab}" for t, lab in tags if t.startswith("price:")]
    draw_prices(img, d, m, X, y, price_tags)
    temple_tags = [f"{t.split(':')[1]} offered" for t, _ in tags if t.startswith("temple:")][:2]
    draw_temple(img, d, m, XR, y, temple_tags)
    y += ROW1_H + GAP
    king_tags = [f"{t} taken" for t, lab in tags if lab == "taken"]
    draw_king(img, d, m, X, y, king_tags)
    v = m.view
    sup = repr(sorted((v["supply"]).items()))
    key = ("xsupply", sup, v["deck"], repr(sorted((v["conditions"]).items())))
    # (from 4 px left of the column: a glyph may reach a pixel left of where it starts)
    layer(
        img,
        XR - 4,
        y,
        XR + HALF,
        y + ROW2_H - 1,
        key,
        lambda im, dd, lx, ly: draw_supply(im, dd, m, lx + 4, ly),
    )
    y += ROW2_H + GAP
    draw_merchant(img, d, m, y, ch.merchant)
    y += MERCHANT_H + GAP
    draw_market(img, d, m, y, ch)
    y += MARKET_H + GAP
    draw_players(img, d, m, y, ch)
    return img
