"""The Phraya board (the first picture): the house header, the 4×4-island map with its canals,
stalls, boats and the Royal Barge, the restaurants' orders and the basket stalls beside it, the
standings strip and one legend line. One fixed size for every state of every game
(:data:`BOARD_H`); prices, Temple, King, market and the players' goods are the second picture
(:mod:`render.phraya.board.extra`).

Section, crossing and stall ids are the targets a player types in ``/move`` ("move h12", "buy
h00s 1", "barge x11"): they appear as small muted tags in the water and beside the orders, never
as the face of a thing (stalls show their good or service as a picture)."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

from engines.phraya.view.types import PhrayaView
from render import frame
from render.common import (
    BG,
    INK,
    MARK,
    MIN_TEXT,
    MUTED,
    WIDTH,
    font,
    mark_box,
    mark_tag,
    mix,
    text_width,
)
from render.phraya import layout
from render.phraya.art import (
    GOLD,
    GOLD_DARK,
    GOOD_COLOR,
    GOOD_TINT,
    LAND,
    LAND_EDGE,
    WATER,
    WATER_DARK,
    boat,
    hatch_poly,
    icon,
    paste_c,
    seat_disc,
)
from render.phraya.art.layers import layer
from render.phraya.board.orders import draw_orders
from render.phraya.layout.model import Model, model
from render.phraya.marks import NONE, Changes, changes, labels

BOARD_H = 964
"""Every Phraya board is 1000 × BOARD_H px, at every player count (with the caption strip
1092 px, within :data:`render.frame.MAX_HEIGHT`)."""
MAP_X, MAP_Y = frame.MARGIN + 4, frame.HEADER_H + 14
COL_X = MAP_X + layout.SPAN + 18  # the orders' column
COL_W = WIDTH - frame.MARGIN - COL_X
STRIP_Y = MAP_Y + layout.SPAN + 14
LEGEND_Y = STRIP_Y + 84 + 4
REACH = (255, 214, 64)  # the sections / crossings the step can reach
REACH_EDGE = (200, 80, 0)
TAG = (40, 78, 108)  # the ids in the water
SERVICE = {
    "restaurant": ("bowl", (232, 120, 70)),
    "temple": ("temple", (190, 150, 40)),
    "basket": ("basket", (160, 112, 60)),
    "scribe": ("scroll", (96, 120, 170)),
    "admin": ("admin", (120, 120, 120)),
}


def board_height(n_players: int) -> int:
    """The board's fixed height (the same at 2, 3 and 4 players)."""
    return BOARD_H


# --------------------------------------------------------------------------- header


def stage(m: Model) -> str:
    if m.over:
        return f"Round {m.round}" if m.round else ""
    if not m.round:
        return "Set-up"
    limit = m.view["round_limit"]
    return f"Round {m.round}" + (f" of {limit}" if limit else "")


def draw_header(
    img: Image.Image, d: ImageDraw.ImageDraw, m: Model, label: str | None = None, chips: bool = True
) -> int:
    """The house header: PHRAYA, the round, and who acts with what (or who won); without the
    chip of the seat to act when ``chips`` is false (a hand names its owner instead)."""
    seats = [] if m.over or m.active is None or not chips else [m.active]
    pill = None
    if m.over:
        ranks = m.view["ranks"] or []
        win = [m.names[q] for q in range(m.n) if q < len(ranks) and ranks[q] == 1]
        pill = (" and ".join(win) + (" win" if len(win) > 1 else " wins")) if win else None
    text = (m.step_label if not m.over else "") if label is None else label
    text = _fit_label(text, stage(m), pill, [m.names[q] for q in seats])
    return frame.header(
        img, d, "Phraya", stage(m), pill=pill, label=text, seats=seats, names=m.names, over=m.over
    )


def _fit_label(text: str, stage_text: str, pill: str | None, chips: list[str]) -> str:
    """The header's label cut (its last " · " parts first, then letters) to the room the
    title, stage, pill and seat chips leave, so that it never runs into them."""
    used = (
        frame.MARGIN + text_width("PHRAYA", font(32, True)) + 16 + text_width(stage_text, font(28, True)) + 14
    )
    if pill:
        used += text_width(pill, font(MIN_TEXT, True)) + 24 + 14
    used += sum(min(200, text_width(c, font(28, True)) + 22) + 8 for c in chips) + frame.MARGIN + 8
    room = WIDTH - used
    f = font(MIN_TEXT)
    while " · " in text and text_width(text, f) > room:
        text = text.rsplit(" · ", 1)[0]
    while text and text_width(text, f) > room:
        text = text[:-2] + "…"
    return text


# --------------------------------------------------------------------------- the map


def _stall_tile(
    img: Image.Image, d: ImageDraw.ImageDraw, m: Model, sid: str, x0: int, y0: int, marked: bool, active: bool
) -> None:
    st = m.stalls[sid]
    kind = st["kind"]
    poly = layout.stall_poly(sid, x0, y0)
    cx, cy, horiz = layout.stall_anchor(sid, x0, y0)
    if kind == "goods":
        good = st["good"] or "veg"
        d.polygon(poly, fill=GOOD_TINT[good])
        owner = st["owner"]
        if st["ownable"] and owner is None:  # for sale: hatched
            xs, ys = [p[0] for p in poly], [p[1] for p in poly]
            box = (int(min(xs)), int(min(ys)), int(max(xs)) + 1, int(max(ys)) + 1)
            shape = tuple((px - box[0], py - box[1]) for px, py in poly)
            tile, mask = _hatched(good, box[2] - box[0], box[3] - box[1], shape)
            img.paste(tile, box[:2], mask)
        d.polygon(poly, outline=mix(GOOD_COLOR[good], INK, 0.3), width=2)
        if owner is None:
            paste_c(img, icon(good, 36), cx, cy)
        elif horiz:
            paste_c(img, icon(good, 34), cx - 21, cy)
            seat_disc(img, owner, m.letters[owner], cx + 21, cy, 40)
        else:
            paste_c(img, icon(good, 34), cx, cy - 21)
            seat_disc(img, owner, m.letters[owner], cx, cy + 21, 40)
    else:
        ic, col = SERVICE.get(kind, ("admin", (120, 120, 120)))
        d.polygon(poly, fill=mix(col, (255, 255, 255), 0.78), outline=mix(col, INK, 0.2), width=2)
        paste_c(img, icon(ic, 38), cx, cy)
    if marked or active:  # the stalls the step can use now
        d.polygon(poly, outline=REACH_EDGE, width=5)


@lru_cache(maxsize=256)
def _hatched(
    good: str, w: int, h: int, shape: tuple[tuple[float, float], ...]
) -> tuple[Image.Image, Image.Image]:
    """The hatching of a goods stall for sale of ``shape`` over its fill, and the mask."""
    fill = GOOD_TINT[good]
    tile = Image.new("RGB", (w, h), fill)
    hatch_poly(ImageDraw.Draw(tile), (0, 0, w, h), mix(GOOD_COLOR[good], fill, 0.5), 12, 2)
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).polygon(list(shape), fill=255)
    return tile, mask


def _water(img: Image.Image, d: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """The map's static layer: the water with every section's and crossing's id as a tag."""
    x0, y0 = x + 4, y + 4
    span = layout.SPAN
    d.rectangle((x0 - 4, y0 - 4, x0 + span + 4, y0 + span + 4), fill=WATER, outline=WATER_DARK, width=3)
    f = font(MIN_TEXT, False, True)
    for sec in layout.SECTIONS:
        X0, Y0, X1, Y1 = layout.section_box(sec, x0, y0)
        d.text(((X0 + X1) / 2, (Y0 + Y1) / 2 + 1), sec, font=f, fill=TAG, anchor="mm")
    for xid in layout.CROSSINGS:
        X0, Y0, X1, Y1 = layout.crossing_box(xid, x0, y0)
        d.text(((X0 + X1) / 2, (Y0 + Y1) / 2 + 1), xid, font=f, fill=TAG, anchor="mm")


def draw_map(img: Image.Image, d: ImageDraw.ImageDraw, m: Model, x0: int, y0: int) -> None:
    """Water, islands with stall tiles, the ids, boats, barge and the marks of the step."""
    sec_marks, x_marks = set(m.mark_sections), set(m.mark_crossings)
    boats = {sec: seat for seat, sec in enumerate(m.boats) if sec}
    f = font(MIN_TEXT, False, True)
    for sec in layout.SECTIONS:
        hot, seat = sec in sec_marks, boats.get(sec)
        if not hot and seat is None:
            continue
        X0, Y0, X1, Y1 = layout.section_box(sec, x0, y0)
        if hot:
            d.rectangle((X0 + 2, Y0 + 2, X1 - 2, Y1 - 2), fill=REACH, outline=REACH_EDGE, width=4)
        else:
            d.rectangle((X0 + 1, Y0 + 1, X1 - 1, Y1 - 1), fill=WATER)
        col = (120, 40, 0) if hot else TAG
        if seat is None:
            d.text(((X0 + X1) / 2, (Y0 + Y1) / 2 + 1), sec, font=f, fill=col, anchor="mm")
        elif sec[0] == "h":
            d.text((X0 + 6, (Y0 + Y1) / 2 + 1), sec, font=f, fill=col, anchor="lm")
            boat(img, seat, m.letters[seat], X1 - 40, (Y0 + Y1) / 2, 76, 44)
        else:
            d.text(((X0 + X1) / 2, Y0 + 18), sec, font=f, fill=col, anchor="mm")
            boat(img, seat, m.letters[seat], (X0 + X1) / 2, Y1 - 40, 44, 76)
    for xid in x_marks - {m.barge}:
        X0, Y0, X1, Y1 = layout.crossing_box(xid, x0, y0)
        d.rectangle((X0 + 2, Y0 + 2, X1 - 2, Y1 - 2), fill=REACH, outline=REACH_EDGE, width=4)
        d.text(((X0 + X1) / 2, (Y0 + Y1) / 2 + 1), xid, font=f, fill=(120, 40, 0), anchor="mm")
    for i in range(4):
        for j in range(4):
            _island(img, m, i, j, x0, y0, set(m.mark_stalls), set(m.active_stalls))
    if m.barge in layout.CROSSINGS:
        X0, Y0, X1, Y1 = layout.crossing_box(m.barge, x0, y0)
        cx, cy = (X0 + X1) / 2, (Y0 + Y1) / 2
        d.ellipse((X0 - 10, Y0 - 10, X1 + 10, Y1 + 10), fill=GOLD, outline=GOLD_DARK, width=4)
        paste_c(img, icon("crown", 34), cx, cy - 14)
        d.text((cx, cy + 16), m.barge, font=f, fill=INK, anchor="mm")


def _island(
    img: Image.Image, m: Model, i: int, j: int, x0: int, y0: int, marked: set[str], active: set[str]
) -> None:
    """Island (i, j) with its stall tiles, drawn once per look and pasted from the stamp cache
    (the key holds every stall's view and owner initials and whether it is marked)."""
    X0, Y0, X1, Y1 = layout.island_box(i, j, x0, y0)
    bx, by = X0 - X0 % 2, Y0 - Y0 % 2
    sides = list(layout.island_sides(i, j).items())
    key = (
        "phraya.island",
        X0 - bx,
        Y0 - by,
        tuple((side, _stall_key(m, sid), sid in marked, sid in active) for side, sid in sides),
    )

    def draw(im: Image.Image, dd: ImageDraw.ImageDraw, sx: float, sy: float) -> None:
        ox, oy = x0 - bx + int(sx), y0 - by + int(sy)
        dd.rounded_rectangle(
            layout.island_box(i, j, ox, oy), radius=10, fill=LAND, outline=LAND_EDGE, width=2
        )
        for _, sid in sides:
            _stall_tile(im, dd, m, sid, ox, oy, sid in marked, sid in active)

    from render.common import stamp

    stamp(img, (bx, by, X1, Y1), key, draw)


def _stall_key(m: Model, sid: str) -> str:
    st = m.stalls[sid]
    owner = st["owner"]
    return repr(
        (
            st["kind"],
            st["good"],
            st["ownable"],
            owner,
            m.letters[owner] if isinstance(owner, int) and 0 <= owner < len(m.letters) else None,
        )
    )


Box = tuple[float, float, float, float]


def _map_marks(d: ImageDraw.ImageDraw, m: Model, tags: list[tuple[str, str]], x0: int, y0: int) -> None:
    """What the last move changed on the map: the section a boat moved to, the barge's new
    crossing and a stall just placed, outlined in the house mark colour with their tags (each
    tag beside its thing where it covers no place the step can reach, no boat and no other tag)."""
    busy: list[Box] = [layout.section_box(sec, x0, y0) for sec in m.mark_sections + [b for b in m.boats if b]]
    busy += [layout.crossing_box(xid, x0, y0) for xid in m.mark_crossings]
    for thing, label in tags:
        if thing in layout.SECTIONS:
            X0, Y0, X1, Y1 = layout.section_box(thing, x0, y0)
            mark_box(d, (X0 - 2, Y0 - 2, X1 + 2, Y1 + 2), radius=8)
        elif thing in layout.CROSSINGS:
            X0, Y0, X1, Y1 = layout.crossing_box(thing, x0, y0)
            d.ellipse((X0 - 16, Y0 - 16, X1 + 16, Y1 + 16), outline=MARK, width=6)
        elif thing in layout.STALLS and label == "placed":
            d.polygon(layout.stall_poly(thing, x0, y0), outline=MARK, width=6)
        else:
            continue
        own = _thing_box(thing, x0, y0)
        spot = _tag_spot(own, text_width(label, font(MIN_TEXT, True)) + 16, busy, x0, y0)
        mark_tag(d, (spot[2], spot[1]), label)
        busy.append(spot)


def _tag_spot(own: Box, w: float, busy: list[Box], x0: int, y0: int) -> Box:
    """Where a tag ``w`` px wide goes beside the box ``own``: above, below, right or left of
    it, the first inside the map that overlaps nothing in ``busy`` but ``own`` (else the first
    inside the map)."""
    bx0, by0, bx1, by1 = own
    cx, cy, h = (bx0 + bx1) / 2, (by0 + by1) / 2, 34
    lo, hi = x0, x0 + layout.SPAN

    def clamp(x: float) -> float:
        return min(max(x, lo), hi - w)

    spots = [
        (clamp(cx - w / 2), by0 - h - 4, clamp(cx - w / 2) + w, by0 - 4),
        (clamp(cx - w / 2), by1 + 4, clamp(cx - w / 2) + w, by1 + 4 + h),
        (bx1 + 4, cy - h / 2, bx1 + 4 + w, cy + h / 2),
        (bx0 - 4 - w, cy - h / 2, bx0 - 4, cy + h / 2),
    ]
    inside = [t for t in spots if lo <= t[0] and t[2] <= hi and y0 <= t[1] and t[3] <= y0 + layout.SPAN]
    for t in inside:
        if not any(_overlap(t, b) for b in busy if b != own):
            return t
    return inside[0] if inside else spots[0]


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _thing_box(thing: str, x0: int, y0: int) -> tuple[float, float, float, float]:
    if thing in layout.SECTIONS:
        return layout.section_box(thing, x0, y0)
    if thing in layout.CROSSINGS:
        X0, Y0, X1, Y1 = layout.crossing_box(thing, x0, y0)
        return X0 - 10, Y0 - 10, X1 + 10, Y1 + 10
    xs, ys = zip(*layout.stall_poly(thing, x0, y0), strict=True)
    return min(xs), min(ys), max(xs), max(ys)


# --------------------------------------------------------------------------- beside the map


# --------------------------------------------------------------------------- standings, legend


def standing_entries(m: Model) -> list[frame.Standing]:
    """One strip entry per seat: VP from orders during the game (and coins as the note), the
    final total and rank at the end."""
    totals, ranks = m.view["totals"], m.view["ranks"]
    out = []
    for s in range(m.n):
        p = m.players[s]
        if m.over and totals and ranks and s < len(totals):
            score = f"{totals[s]} VP"
            note = "winner" if ranks[s] == 1 else _ordinal(int(ranks[s]))
        else:
            score = f"{p['orders_vp']} VP"
            note = f"{p['coins']} coins"
        out.append(frame.Standing(s, m.names[s], m.letters[s], score, note, s == m.active))
    return out


def _ordinal(n: int) -> str:
    from render.common import ordinal

    return ordinal(n)


@lru_cache(maxsize=8)
def _legend_pics() -> list[tuple[Image.Image | None, str]]:
    sale = Image.new("RGB", (34, 26), GOOD_TINT["fish"])
    hd = ImageDraw.Draw(sale)
    hatch_poly(hd, (0, 0, 34, 26), mix(GOOD_COLOR["fish"], GOOD_TINT["fish"], 0.5), 12, 2)
    hd.rectangle((0, 0, 33, 25), outline=mix(GOOD_COLOR["fish"], INK, 0.3), width=2)
    changed = Image.new("RGB", (34, 26), BG)
    ImageDraw.Draw(changed).rounded_rectangle((1, 1, 32, 24), radius=6, outline=MARK, width=5)
    return [
        (icon("bowl", 30), "orders"),
        (icon("basket", 30), "baskets"),
        (icon("temple", 30), "temple"),
        (icon("scroll", 30), "scribe"),
        (icon("admin", 30), "admin"),
        (sale, "for sale"),
        (changed, "changed"),
    ]


def _legend(img: Image.Image, d: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """The house legend row (:func:`render.frame.legend`'s look) on one line: the condensed
    face where the plain one would wrap."""
    items = _legend_pics()
    for cond in (False, True):
        f = font(MIN_TEXT, False, cond)
        gap = 16
        w = sum(p.width + 6 + text_width(t, f) + gap for p, t in items if p is not None) - gap
        if w <= WIDTH - 2 * frame.MARGIN:
            break
    xx = x + frame.MARGIN
    line_h = MIN_TEXT + 14
    for pic, text in items:
        if pic is None:
            continue
        img.paste(pic, (int(xx), int(y + (line_h - pic.height) / 2)), pic if pic.mode == "RGBA" else None)
        xx += pic.width + 6
        d.text((xx, y + line_h / 2), text, font=f, fill=MUTED, anchor="lm")
        xx += text_width(text, f) + gap


# --------------------------------------------------------------------------- assembly


def board_image(
    view: PhrayaView, names: list[str] | None = None, previous: PhrayaView | None = None
) -> Image.Image:
    """The public board of ``view`` at 1000 × :data:`BOARD_H`; with ``previous`` (the public
    view of the board before) what the moves since changed is outlined and tagged."""
    m = model(view, names)
    ch = changes(previous, view) if previous is not None else NONE
    img = _base().copy()
    d = ImageDraw.Draw(img)
    draw_header(img, d, m)
    draw_map(img, d, m, MAP_X, MAP_Y)
    _map_marks(d, m, labels(previous, view, ch), MAP_X, MAP_Y)
    _orders_column(img, m, ch)
    _standings(img, m)
    return img


def _standings(img: Image.Image, m: Model) -> None:
    """The house standings strip, each seat's box from the stamp cache (keyed by its entry)."""
    entries = standing_entries(m)
    for e, (x0, y0, x1, y1) in zip(entries, frame.standing_boxes(m.n, STRIP_Y), strict=True):
        frac = x0 - int(x0)
        layer(
            img, int(x0), int(y0), int(x1) + 1, int(y1), ("standing", m.n, e), _box_drawer(e, frac, x1 - x0)
        )


def _box_drawer(
    e: frame.Standing, frac: float, w: float
) -> Callable[[Image.Image, ImageDraw.ImageDraw, int, int], None]:
    def draw(im: Image.Image, dd: ImageDraw.ImageDraw, x: int, y: int) -> None:
        frame.standing_box(dd, (x + frac, y, x + frac + w, y + 84), e)

    return draw


@lru_cache(maxsize=1)
def _base() -> Image.Image:
    """What every board shares: the paper, the water with the ids and the legend line."""
    img = Image.new("RGB", (WIDTH, BOARD_H), BG)
    d = ImageDraw.Draw(img)
    _water(img, d, MAP_X - 4, MAP_Y - 4)
    _legend(img, d, 0, LEGEND_Y)
    return img


def _orders_column(img: Image.Image, m: Model, ch: Changes) -> None:
    """:func:`draw_orders` from the stamp cache: the key holds every order and basket shown
    and which of their stalls changed."""
    key = (
        "orders",
        tuple((sid, repr(m.order_on.get(sid)), sid in ch.stalls) for sid in m.restaurants),
        tuple((sid, repr(m.basket_on.get(sid))) for sid in m.basket_stalls),
    )
    layer(
        img,
        COL_X - 4,
        MAP_Y - 6,
        WIDTH - 1,
        STRIP_Y - 6,
        key,
        lambda im, dd, x, y: draw_orders(im, dd, m, x + 4, y + 2, COL_W, ch),
    )
