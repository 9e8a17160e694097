"""The Phraya board image: header, the 4×4-island map with stalls, boats, barge and the marks of
the current step, a side column (prices, restaurant orders, basket stalls), then the Merchant's
route, the Temple and the King's Chart, the card market and one strip per player.

Each ``draw_*`` function draws at ``y`` and returns the y below what it drew."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    ACCENT,
    BG,
    INK,
    LINE,
    MUTED,
    PALETTE_SAMPLE,
    PANEL,
    WIDTH,
    fit,
    font,
    mix,
    ordinal,
    stamp,
    text_width,
)
from render.phraya import geo
from render.phraya.art import (
    GOLD,
    GOLD_DARK,
    GOOD_COLOR,
    GOOD_TINT,
    GOODS,
    LAND,
    LAND_EDGE,
    SEAT_FILL,
    WATER,
    WATER_DARK,
    Color,
    boat,
    goods_row,
    hatch_poly,
    icon,
    paste,
    paste_c,
    seat_disc,
    seat_fill,
    seat_text,
)
from render.phraya.cards import card_lines, draw_card, effect_short, word_parts
from render.phraya.changes import NONE, Changes, changes
from render.phraya.draw import M, crop, mark_ring, new_canvas, text_at
from render.phraya.layers import layer
from render.phraya.model import Model, model
from render.phraya.tracks import draw_king, draw_merchant, draw_temple, title

__all__ = ["M", "board_image", "card_lines", "crop", "draw_card", "draw_header", "effect_short", "flatten"]
__all__ += ["new_canvas", "text_at", "title", "word_parts"]

HEADER_H = 64
HEADER_BG = (40, 70, 84)
CREAM = (250, 244, 228)
MARK = (255, 214, 64)  # reachable sections / crossings
MARK_EDGE = (200, 80, 0)
SERVICE = {
    "restaurant": ("bowl", (232, 120, 70)),
    "temple": ("temple", (190, 150, 40)),
    "basket": ("basket", (160, 112, 60)),
    "scribe": ("scroll", (96, 120, 170)),
    "admin": ("admin", (120, 120, 120)),
}


# --------------------------------------------------------------------------- header


def draw_header(img: Image.Image, d: ImageDraw.ImageDraw, m: Model, title: str | None = None) -> int:
    """Dark band: PHRAYA, the round, whose turn (disc, letter, name) and the step."""
    h = HEADER_H
    d.rectangle((0, 0, WIDTH, h), fill=HEADER_BG)
    paste(img, icon("crown", 40), M, 12)
    x = M + 48
    d.text((x, h / 2), "PHRAYA", font=font(30, True), fill=GOLD, anchor="lm")
    x += text_width("PHRAYA", font(30, True)) + 16
    if title:
        text_at(d, (x, h / 2), title, 28, CREAM, True, "lm", WIDTH - x - M)
        return h
    if m.over:
        totals, ranks = m.view.get("totals"), m.view.get("ranks")
        s = "Game over"
        if totals and ranks:
            win = [q for q in range(m.n) if ranks[q] == 1]
            s += (
                " · "
                + " and ".join(m.names[q] for q in win)
                + (" win" if len(win) > 1 else " wins")
                + f" with {totals[win[0]]}"
            )
        text_at(d, (x, h / 2), s, 28, CREAM, True, "lm", WIDTH - M - x)
        return h
    s = f"Round {m.round}" if m.round else "Set-up"
    text_at(d, (x, h / 2), s, 28, CREAM, False, "lm")
    x += text_width(s, font(28)) + 18
    if m.active is not None:
        seat_disc(img, m.active, m.letters[m.active], x + 20, h / 2, 40)
        x += 48
        room = WIDTH - M - x
        step = m.step_label
        sw = text_width(step, font(28))
        t, f = fit(m.names[m.active], max(80, room - sw - 20), 28, True, min_size=28)
        d.text((x, h / 2), t, font=f, fill=CREAM, anchor="lm")
        x += int(f.getlength(t)) + 14
        text_at(d, (x, h / 2), step, 28, (250, 214, 120), False, "lm", WIDTH - M - x)
    return h


# --------------------------------------------------------------------------- the map


def _stall_tile(
    img: Image.Image, d: ImageDraw.ImageDraw, m: Model, sid: str, x0: int, y0: int, marked: bool, active: bool
) -> None:
    st: Mapping[str, Any] = m.stalls.get(sid) or {}
    kind = st.get("kind", "goods")
    poly = geo.stall_poly(sid, x0, y0)
    cx, cy, horiz = geo.stall_anchor(sid, x0, y0)
    if kind == "goods":
        good = st.get("good") or "veg"
        fill = GOOD_TINT[good]
        d.polygon(poly, fill=fill)
        if st.get("ownable") and st.get("owner") is None:  # owned: the disc says it
            xs, ys = [p[0] for p in poly], [p[1] for p in poly]
            box = (int(min(xs)), int(min(ys)), int(max(xs)) + 1, int(max(ys)) + 1)
            shape = tuple((px - box[0], py - box[1]) for px, py in poly)
            tile, mask = _hatched(good, box[2] - box[0], box[3] - box[1], shape)
            img.paste(tile, box[:2], mask)
        d.polygon(poly, outline=mix(GOOD_COLOR[good], INK, 0.3), width=2)
        owner = st.get("owner")
        size = 34
        if owner is None:
            paste_c(img, icon(good, size), cx, cy)
        elif horiz:
            paste_c(img, icon(good, 32), cx - 19, cy)
            seat_disc(img, owner, m.letters[owner], cx + 20, cy, 37)
        else:
            paste_c(img, icon(good, 32), cx, cy - 19)
            seat_disc(img, owner, m.letters[owner], cx, cy + 20, 37)
    else:
        ic, col = SERVICE.get(kind, ("admin", (120, 120, 120)))
        d.polygon(poly, fill=mix(col, (255, 255, 255), 0.78), outline=mix(col, INK, 0.2), width=2)
        extra = None
        if kind == "basket":
            b = m.basket_on.get(sid)
            extra = str(b["price"]) if b else "–"
        if extra is None:
            paste_c(img, icon(ic, 38), cx, cy)
        elif horiz:
            paste_c(img, icon(ic, 32), cx - 17, cy)
            _badge(d, cx + 19, cy, extra, col)
        else:
            paste_c(img, icon(ic, 32), cx, cy - 17)
            _badge(d, cx, cy + 19, extra, col)
    if marked:
        d.polygon(poly, outline=MARK_EDGE, width=5)
    if active:  # the stalls the boat can use now: the colour of the step's marks
        d.polygon(poly, outline=MARK_EDGE, width=4)


@lru_cache(maxsize=256)
def _hatched(
    good: str, w: int, h: int, shape: tuple[tuple[float, float], ...]
) -> tuple[Image.Image, Image.Image]:
    """The hatching of an ownable goods stall of ``shape`` (its polygon, relative to its w × h
    box) over the stall's fill, and the polygon's mask: drawn once per stall shape and good
    (the stall is filled with that one colour before the hatching goes on, so the same pixels)."""
    fill = GOOD_TINT[good]
    tile = Image.new("RGB", (w, h), fill)
    hatch_poly(ImageDraw.Draw(tile), (0, 0, w, h), mix(GOOD_COLOR[good], fill, 0.5), 12, 2)
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).polygon(list(shape), fill=255)
    return tile, mask


def _badge(d: ImageDraw.ImageDraw, cx: float, cy: float, s: str, col: Color) -> None:
    f = font(24, True)
    w = max(30, text_width(s, f) + 10)
    d.rounded_rectangle((cx - w / 2, cy - 15, cx + w / 2, cy + 15), radius=8, fill=mix(col, INK, 0.25))
    d.text((cx, cy + 1), s, font=f, fill=(255, 255, 255), anchor="mm")


def draw_map(img: Image.Image, d: ImageDraw.ImageDraw, m: Model, x0: int, y0: int, ch: Changes = NONE) -> int:
    """The board: water, islands with stall tiles, section and crossing ids, boats, barge and the
    marks of the current step. Returns the y below."""
    span = geo.SPAN
    layer(img, x0 - 4, y0 - 4, x0 + span + 4, y0 + span + 4, ("water", span), _water)
    sec_marks = set(m.mark_sections)
    x_marks = set(m.mark_crossings)
    stall_marks = set(m.mark_stalls)
    path = set(m.last_move)
    boats = {sec: seat for seat, sec in enumerate(m.boats) if sec}
    # water sections (the plain ones and their ids are in the layer)
    for sec in geo.SECTIONS:
        X0, Y0, X1, Y1 = geo.section_box(sec, x0, y0)
        if sec in sec_marks:
            d.rectangle((X0 + 2, Y0 + 2, X1 - 2, Y1 - 2), fill=MARK, outline=MARK_EDGE, width=4)
        elif sec in path:
            d.rectangle(
                (X0 + 2, Y0 + 2, X1 - 2, Y1 - 2), fill=(200, 228, 242), outline=(60, 120, 170), width=2
            )
        elif sec in boats:  # the id moves aside for the boat
            d.rectangle((X0 + 2, Y0 + 2, X1 - 2, Y1 - 2), fill=WATER)
    for xid in geo.CROSSINGS:
        X0, Y0, X1, Y1 = geo.crossing_box(xid, x0, y0)
        if xid in x_marks:
            d.rectangle((X0 + 2, Y0 + 2, X1 - 2, Y1 - 2), fill=MARK, outline=MARK_EDGE, width=4)
    # islands and stalls
    active_stalls = set(m.active_stalls)
    for i in range(4):
        for j in range(4):
            _island(img, m, i, j, x0, y0, stall_marks, active_stalls)
    # section ids and boats
    for sec in geo.SECTIONS:
        seat = boats.get(sec)
        hot = sec in sec_marks
        if not hot and sec not in path and seat is None:
            continue
        X0, Y0, X1, Y1 = geo.section_box(sec, x0, y0)
        col = (120, 40, 0) if hot else (28, 60, 90)
        f = font(28, True, True)
        if sec[0] == "h":
            cy = (Y0 + Y1) / 2
            if seat is None:
                d.text(((X0 + X1) / 2, cy + 1), sec, font=f, fill=col, anchor="mm")
            else:
                d.text((X0 + 6, cy + 1), sec, font=f, fill=col, anchor="lm")
                boat(img, seat, m.letters[seat], X1 - 42, cy, 74, 40)
        else:
            cx = (X0 + X1) / 2
            if seat is None:
                d.text((cx, (Y0 + Y1) / 2 + 1), sec, font=f, fill=col, anchor="mm")
            else:
                d.text((cx, Y0 + 20), sec, font=f, fill=col, anchor="mm")
                boat(img, seat, m.letters[seat], cx, Y1 - 42, 40, 74)
    # crossings
    for xid in geo.CROSSINGS:
        X0, Y0, X1, Y1 = geo.crossing_box(xid, x0, y0)
        cx, cy = (X0 + X1) / 2, (Y0 + Y1) / 2
        if xid == m.barge:
            d.ellipse((X0 - 8, Y0 - 8, X1 + 8, Y1 + 8), fill=GOLD, outline=GOLD_DARK, width=4)
            paste_c(img, icon("crown", 30), cx, Y0 + 8)
            d.text((cx, cy + 12), xid, font=font(28, True, True), fill=INK, anchor="mm")
        elif xid in x_marks:
            d.text((cx, cy + 1), xid, font=font(28, True, True), fill=(120, 40, 0), anchor="mm")
    _map_marks(d, ch, m.barge, x0, y0)
    return y0 + span + 4


def _water(img: Image.Image, d: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """The map's static layer with its top-left corner at (x, y): the water and the id of every
    section and crossing as it reads on plain water."""
    x0, y0 = x + 4, y + 4
    span = geo.SPAN
    d.rectangle((x0 - 4, y0 - 4, x0 + span + 4, y0 + span + 4), fill=WATER, outline=WATER_DARK, width=3)
    f = font(28, True, True)
    for sec in geo.SECTIONS:
        X0, Y0, X1, Y1 = geo.section_box(sec, x0, y0)
        d.text(((X0 + X1) / 2, (Y0 + Y1) / 2 + 1), sec, font=f, fill=(28, 60, 90), anchor="mm")
    for xid in geo.CROSSINGS:
        X0, Y0, X1, Y1 = geo.crossing_box(xid, x0, y0)
        d.text(((X0 + X1) / 2, (Y0 + Y1) / 2 + 1), xid, font=f, fill=(60, 100, 130), anchor="mm")


def _island(
    img: Image.Image, m: Model, i: int, j: int, x0: int, y0: int, marked: set[str], active: set[str]
) -> None:
    """Island (i, j) with its stall tiles, drawn once per look and pasted
    (:func:`render.common.stamp`): the key holds every stall's view, basket and owner letter
    and whether it is marked or active. The piece starts at even coordinates, so the shift to
    it keeps Python's half-to-even rounding of the sprites' positions (the same pixels)."""
    X0, Y0, X1, Y1 = geo.island_box(i, j, x0, y0)
    bx, by = X0 - X0 % 2, Y0 - Y0 % 2
    sides = list(geo.island_sides(i, j).items())  # in the order they overlap
    key = (
        "phraya.island",
        X0 - bx,
        Y0 - by,
        tuple((side, _stall_key(m, sid), sid in marked, sid in active) for side, sid in sides),
    )

    def draw(im: Image.Image, dd: ImageDraw.ImageDraw, sx: float, sy: float) -> None:
        ox, oy = x0 - bx + int(sx), y0 - by + int(sy)
        dd.rounded_rectangle(geo.island_box(i, j, ox, oy), radius=10, fill=LAND, outline=LAND_EDGE, width=2)
        for _, sid in sides:
            _stall_tile(im, dd, m, sid, ox, oy, sid in marked, sid in active)

    stamp(img, (bx, by, X1, Y1), key, draw)


def _stall_key(m: Model, sid: str) -> str:
    """Everything of stall ``sid`` that :func:`_stall_tile` draws, as a key."""
    st: Mapping[str, Any] = m.stalls.get(sid) or {}
    owner = st.get("owner")
    basket = m.basket_on.get(sid)
    return repr(
        (
            sorted(st.items()),
            sorted(basket.items()) if basket else None,
            m.letters[owner] if isinstance(owner, int) and 0 <= owner < len(m.letters) else None,
        )
    )


def _map_marks(d: ImageDraw.ImageDraw, ch: Changes, barge: str, x0: int, y0: int) -> None:
    """Rings on the sections a boat moved to, the barge's new crossing and the stalls that
    changed (placed, order or basket replaced)."""
    for sec in sorted(ch.boats):
        if sec in geo.SECTIONS:
            mark_ring(d, geo.section_box(sec, x0, y0), inside=True)
    for sid in sorted(ch.stalls):
        try:
            poly = geo.stall_poly(sid, x0, y0)
        except (ValueError, IndexError):
            continue
        d.polygon(poly, outline=INK, width=5)
    if ch.barge and barge in geo.CROSSINGS:
        X0, Y0, X1, Y1 = geo.crossing_box(barge, x0, y0)
        d.ellipse((X0 - 14, Y0 - 14, X1 + 14, Y1 + 14), outline=(255, 255, 255), width=3)
        d.ellipse((X0 - 18, Y0 - 18, X1 + 18, Y1 + 18), outline=INK, width=5)


# --------------------------------------------------------------------------- side column


def draw_prices(
    img: Image.Image, d: ImageDraw.ImageDraw, m: Model, x: int, y: int, w: int, ch: Changes = NONE
) -> int:
    """The price chart as four columns (one per good), highest price on top; the cube's box is
    filled in the good's colour. The grid with every price is a static layer (keyed by the
    price rows); the four cubes are drawn on it."""
    rows = m.price_rows
    cw, rh, top = w // 4, 33, y + 70
    key = ("prices", w, tuple(tuple(rows[g]) for g in GOODS))
    layer(
        img, x, y, x + w - 1, top + 7 * rh, key, lambda im, dd, lx, ly: _price_grid(im, dd, rows, lx, ly, w)
    )
    for k, g in enumerate(GOODS):
        idx = m.price_index[g]
        if not 0 <= idx <= 6:
            continue
        bx, r = x + k * cw, 6 - idx
        box = (bx + 3, top + r * rh + 1, bx + cw - 3, top + (r + 1) * rh - 1)
        d.rounded_rectangle(box, radius=7, fill=GOOD_COLOR[g], outline=INK, width=3)
        d.text(
            ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2 + 1),
            str(rows[g][idx]),
            font=font(28, True),
            fill=INK if g in ("fruit", "veg") else (255, 255, 255),
            anchor="mm",
        )
        if g in ch.prices:
            mark_ring(d, box, radius=7)
    return top + 7 * rh


def _price_grid(
    img: Image.Image, d: ImageDraw.ImageDraw, rows: Mapping[str, Sequence[int]], x: int, y: int, w: int
) -> None:
    """The price chart's title, goods and every price in its plain box (no cube)."""
    d.text((x, y), "Prices", font=font(22, True), fill=MUTED)
    y += 30
    cw = w // 4
    for k, g in enumerate(GOODS):
        paste_c(img, icon(g, 34), x + k * cw + cw / 2, y + 18)
    y += 40
    rh = 33
    for r in range(7):
        idx = 6 - r
        for k, g in enumerate(GOODS):
            bx = x + k * cw
            box = (bx + 3, y + r * rh + 1, bx + cw - 3, y + (r + 1) * rh - 1)
            d.rounded_rectangle(
                box, radius=7, fill=(236, 230, 216) if idx == 2 else PANEL, outline=LINE, width=1
            )
            d.text(
                ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2 + 1),
                str(rows[g][idx]),
                font=font(26),
                fill=MUTED,
                anchor="mm",
            )


def draw_orders(
    img: Image.Image, d: ImageDraw.ImageDraw, m: Model, x: int, y: int, w: int, ch: Changes = NONE
) -> int:
    """Restaurant orders by stall id: goods, coins and VP; then the basket stalls' prices."""
    d.text((x, y), "Restaurants", font=font(22, True), fill=MUTED)
    y += 30
    for sid in m.restaurants:
        o = m.order_on.get(sid)
        if sid in ch.stalls:
            mark_ring(d, (x - 2, y - 2, x + w + 2, y + (36 if not o else 66)), radius=6, inside=True)
        d.text((x, y), sid, font=font(28, True, True), fill=INK)
        if not o:
            d.text((x + 76, y + 2), "empty", font=font(22), fill=MUTED)
            y += 40
            continue
        d.text((x + w, y), f"{o['coins']}c {o['vp']}VP", font=font(28, True, True), fill=INK, anchor="ra")
        y += 33
        goods_row(img, o["goods"], x + 2, y + 15, 30, 3)
        y += 34
    y += 6
    d.text((x, y), "Baskets (price)", font=font(22, True), fill=MUTED)
    y += 30
    if any(m.basket_on[s].get("goods") for s in m.basket_stalls if s in m.basket_on):
        # open_baskets: one line per stall with the basket's goods
        for sid in m.basket_stalls:
            b = m.basket_on.get(sid)
            tw = text_at(d, (x, y), sid, 28, INK, True, condensed=True)
            _badge(d, x + tw + 22, y + 17, str(b["price"]) if b else "–", SERVICE["basket"][1])
            goods = b.get("goods") if b else None
            if goods:
                goods_row(img, goods, x + tw + 46, y + 17, 28, 3)
            y += 36
        return y
    for k, sid in enumerate(m.basket_stalls):
        b = m.basket_on.get(sid)
        cx = x + (k % 2) * (w // 2)
        tw = text_at(d, (cx, y), sid, 28, INK, True, condensed=True)
        _badge(d, cx + tw + 22, y + 17, str(b["price"]) if b else "–", SERVICE["basket"][1])
        if k % 2 == 1:
            y += 36
    if len(m.basket_stalls) % 2:
        y += 36
    return y


def draw_market(img: Image.Image, d: ImageDraw.ImageDraw, m: Model, y: int, ch: Changes = NONE) -> int:
    v = m.view
    disp = list(v.get("display") or [])
    note = f"deck {v.get('deck', 0)}"
    y = title(d, M, y, "Card market", note + " · bought at a scribe stall", WIDTH - 2 * M)
    k = max(4, len(disp))
    gap = 10
    cw = (WIDTH - 2 * M - gap * (k - 1)) // k
    h = 122
    for i in range(k):
        card = disp[i] if i < len(disp) else None
        x = M + i * (cw + gap)
        layer(img, x, y, x + cw, y + h, ("card", cw, h, repr(card)), _card_tile(card, cw, h))
        if i in ch.display:
            mark_ring(d, (x, y, x + cw, y + h), radius=10)
            text_at(d, (x + cw - 10, y + h - 8), "new", 20, INK, True, "rd")
    return y + h + 4


def _card_tile(
    card: Mapping[str, Any] | None, cw: int, h: int
) -> Callable[[Image.Image, ImageDraw.ImageDraw, int, int], None]:
    """The market tile of ``card`` as a layer's drawing (``cw`` × ``h`` from its top-left)."""

    def draw(im: Image.Image, dd: ImageDraw.ImageDraw, x: int, y: int) -> None:
        draw_card(im, dd, card, (x, y, x + cw, y + h), names=False)

    return draw


def _legend(img: Image.Image, d: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """The stall icons and their words, one line from (x, y) across the page's width."""
    right = x + WIDTH - 2 * M
    for ic, word in (
        ("bowl", "restaurant"),
        ("basket", "basket"),
        ("temple", "temple"),
        ("scroll", "scribe"),
        ("admin", "admin"),
    ):
        paste_c(img, icon(ic, 26), x + 13, y + 14)
        x += 30
        x += text_at(d, (x, y + 14), word, 20, INK, False, "lm") + 16
    text_at(d, (x, y + 14), "hatched = ownable · id = section + bank", 20, INK, False, "lm", right - x)


def draw_status(img: Image.Image, d: ImageDraw.ImageDraw, m: Model, y: int, ch: Changes = NONE) -> int:
    """A legend of the stall icons (a static layer), then supplies, bag and order stacks."""
    layer(img, M, y, WIDTH - M, y + 28, ("legend",), _legend)
    y += 32
    if ch:
        d.rounded_rectangle((M + 2, y + 2, M + 30, y + 24), radius=6, outline=INK, width=5)
        text_at(
            d,
            (M + 40, y + 13),
            "ring = changed by the last move (see the caption above)",
            20,
            INK,
            False,
            "lm",
        )
        y += 30
    v = m.view
    sup = v.get("supply") or {}
    stacks = v.get("stacks") or []
    line = (
        "Supply "
        + " ".join(f"{g} {sup.get(g, 0)}" for g in GOODS)
        + f" · flowers {sup.get('flowers', 0)} · favors {sup.get('favors', 0)}"
        + f" · rowers {sup.get('rowers', 0)} · bag {v.get('bag', 0)}"
        + (" · orders " + "/".join(str(x) for x in stacks) if stacks else "")
    )
    text_at(d, (M, y), line, 22, INK, False, max_width=WIDTH - 2 * M)
    return y + 30


PLAYER_H = 118


def BAD_OR(done: int) -> Color:
    return (183, 28, 28) if done else INK


def draw_player(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    m: Model,
    s: int,
    x0: int,
    y: int,
    w: int,
    changed: frozenset[str] = frozenset(),
) -> int:
    """One player's card: letter disc and name, VP from orders (or the final total); coins,
    flowers, favors, rowers, stall pieces and disks left; goods held/capacity and hand size. What
    the last move changed (``changed``: keys of the player view) is ringed."""
    p = m.players[s]
    h = PLAYER_H
    act = s == m.active
    col = seat_text(s)
    d.rounded_rectangle(
        (x0, y, x0 + w, y + h), radius=10, fill=PANEL, outline=col if act else LINE, width=4 if act else 2
    )
    seat_disc(img, s, m.letters[s], x0 + 26, y + 23, 36)
    n_orders = len(p.get("orders") or [])
    vp, note = f"{p.get('orders_vp', 0)} VP", f"{n_orders} order" + ("" if n_orders == 1 else "s")
    totals, ranks = m.view.get("totals"), m.view.get("ranks")
    if m.over and totals and ranks and s < len(totals):
        vp, note = f"{totals[s]} VP", "winner" if ranks[s] == 1 else ordinal(int(ranks[s]))
    right = x0 + w - 10
    vw = text_at(d, (right, y + 24), vp, 28, INK, True, "rm")
    nw = text_at(d, (right - vw - 8, y + 26), note, 20, MUTED, False, "rm")
    if "orders" in changed:
        mark_ring(d, (right - vw - nw - 14, y + 6, right + 2, y + 42), radius=6, inside=True)
    text_at(d, (x0 + 52, y + 23), m.names[s], 28, col, True, "lm", w - 70 - vw - nw - 14, min_size=28)
    x = x0 + 10

    def item(yy: int, ic: str, val: str, key: str, gap: int = 14, color: Color | None = None) -> None:
        nonlocal x
        x_start = x
        paste_c(img, icon(ic, 26, color), x + 13, yy)
        x += 29
        x += text_at(d, (x, yy), val, 24, INK, True, "lm")
        if key in changed:
            mark_ring(d, (x_start - 3, yy - 16, x + 4, yy + 16), radius=6, inside=True)
        x += gap

    yy = y + 60
    item(yy, "coin", str(p.get("coins", 0)), "coins")
    item(yy, "flower", str(p.get("flowers", 0)), "flowers")
    item(yy, "favor", str(p.get("favors", 0)), "favors")
    item(yy, "rower", str(p.get("rowers", 2)), "rowers")
    item(yy, "stall", str(p.get("stalls_left", 0)), "stalls_left", 14, seat_fill(s))
    item(yy, "disk", str(p.get("disks_left", 0)), "disks_left", 14, seat_fill(s))
    x = x0 + 10
    yy = y + 96
    goods = p.get("goods") or {}
    cap = p.get("capacity") or {}
    for g in GOODS:
        item(yy, g, f"{goods.get(g, 0)}/{cap.get(g, 0)}", f"goods:{g}", 10)
    rest = f"{p.get('hand_count', 0)} cards"
    rw = text_at(d, (right, yy), rest, 22, INK, False, "rm", max(40, right - x))
    if "hand_count" in changed:
        mark_ring(d, (right - rw - 4, yy - 16, right + 3, yy + 16), radius=6, inside=True)
    return y + h


def _player_card(img: Image.Image, m: Model, s: int, x: int, y: int, w: int, changed: frozenset[str]) -> int:
    """:func:`draw_player` drawn once per look (:func:`render.phraya.layers.layer`): the key
    holds the seat's public view, name, letter, whether it is to move, its final total and rank
    and the rings."""
    totals, ranks = m.view.get("totals"), m.view.get("ranks")
    final = (totals[s], ranks[s]) if m.over and totals and ranks and s < len(totals) else None
    key: tuple[Any, ...] = (
        "player",
        s,
        w,
        repr(m.players[s]),
        m.names[s],
        m.letters[s],
        s == m.active,
        final,
    )
    key += (tuple(sorted(changed)),)
    layer(
        img,
        x,
        y,
        x + w,
        y + PLAYER_H,
        key,
        lambda im, dd, lx, ly: draw_player(im, dd, m, s, lx, ly, w, changed),
    )
    return y + PLAYER_H


def draw_players(img: Image.Image, d: ImageDraw.ImageDraw, m: Model, y: int, ch: Changes = NONE) -> int:
    cond = (m.view.get("conditions") or {}).get("supremacy")
    y = title(
        d,
        M,
        y,
        "Players",
        "Supremacy ✔ (all stalls placed)"
        if cond
        else "Supremacy: all stall pieces placed · game ends at 2 of Tithe, Buddha, Supremacy",
        WIDTH - 2 * M,
    )
    gap = 12
    w = (WIDTH - 2 * M - gap) // 2
    for s in range(m.n):
        x = M + (s % 2) * (w + gap)
        bottom = _player_card(img, m, s, x, y, w, ch.players.get(s, frozenset()))
        if s % 2 == 1 or s == m.n - 1:
            y = bottom + 10
    return y


# --------------------------------------------------------------------------- assembly


def board_image(
    view: dict[str, Any], names: Sequence[str] | None = None, previous: dict[str, Any] | None = None
) -> Image.Image:
    """The public board of ``view``; with ``previous`` (the public view of the board before) the
    places the last move changed are ringed."""
    m = model(view, names)
    ch = changes(previous, view) if previous is not None else NONE
    img, d = new_canvas()
    y = draw_header(img, d, m)
    top = y + 12
    bottom = draw_map(img, d, m, M + 4, top + 4, ch)
    cx = M + 4 + geo.SPAN + 12
    cw = WIDTH - M - cx
    yy = draw_prices(img, d, m, cx, top, cw, ch)
    yy = draw_orders(img, d, m, cx, yy + 14, cw, ch)
    y = max(bottom, yy) + 14
    y = draw_merchant(img, d, m, y, ch) + 10
    half = (WIDTH - 2 * M - 24) // 2
    y1 = draw_temple(img, d, m, M, y, half, ch)
    y2 = draw_king(img, d, m, M + half + 24, y, half, ch)
    y = max(y1, y2) + 10
    y = draw_market(img, d, m, y, ch) + 8
    y = draw_status(img, d, m, y, ch) + 6
    y = draw_players(img, d, m, y, ch)
    return flatten(crop(img, y), BOARD_COLORS)


BOARD_COLORS = 56
"""The octree colours :func:`flatten` keeps on the board (besides the key colours): at 80 a
quarter of late 4-player boards passed 120,000 bytes at zlib level 6, so ``to_png`` fell back to
level 9 (about 150 ms); at 56 the largest of 60 such boards took 118,496 bytes at level 6, the
anti-aliased edges look the same at full size and at phone width, and the golden board stays
within its tolerance."""


def flatten(img: Image.Image, colors: int = 80) -> Image.Image:
    """``img`` reduced to about ``colors`` colours (still RGB): an octree palette plus the exact
    seat, goods and board colours, so the key colours never drift. Anti-aliased edges then fall
    on fewer values, which keeps the PNG from ``to_png`` well under 120 KB. The octree is built
    from one pixel in PALETTE_SAMPLE each way (as :func:`render.common.palette_image` does): a
    third of the time of an octree over the whole board, and no fill or glyph is thinner."""
    k = PALETTE_SAMPLE
    sample = img.resize((max(1, img.width // k), max(1, img.height // k)), Image.Resampling.NEAREST)
    q = sample.quantize(colors, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    pal = list(q.getpalette() or [])[: colors * 3]
    for c in KEY_COLORS:
        pal += list(c)
    pal += [0] * (768 - len(pal))
    p = Image.new("P", (1, 1))
    p.putpalette(pal[:768])
    return img.quantize(palette=p, dither=Image.Dither.NONE).convert("RGB")


KEY_COLORS = (
    *SEAT_FILL,
    *GOOD_COLOR.values(),
    *GOOD_TINT.values(),
    GOLD,
    GOLD_DARK,
    WATER,
    WATER_DARK,
    LAND,
    LAND_EDGE,
    BG,
    PANEL,
    INK,
    MUTED,
    LINE,
    ACCENT,
    MARK,
    MARK_EDGE,
    HEADER_BG,
    CREAM,
    (255, 255, 255),
)
