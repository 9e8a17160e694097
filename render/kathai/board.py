"""Kathai board sections: header band, the "who is awaited" line, the market (price cards,
goods cards, the lock), the supply and last sale, the open offer, and one row per seat. Each
``draw_*`` function draws at ``y`` and returns the y below it; callers stack them and crop.

Sizes follow the phone rule: a 1000 px board is seen at ~380 px, so names, goods, scores, whose
turn and prices use ≥ 28 px type and nothing is below 20 px.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from engines.base import format_text
from render.common import (
    ACCENT,
    GOOD,
    INK,
    LINE,
    MUTED,
    WIDTH,
    canvas,
    crop_to,
    fit,
    font,
    mark_box,
    mark_tag,
    on_color,
    ordinal,
    panel,
    seat_color,
    seat_ink,
    seat_names,
    stamp,
    text_width,
    wrap,
)
from render.kathai.art import (
    DANGER,
    card_back,
    card_face,
    card_goods,
    card_id_key,
    goods_card,
    goods_name,
    goods_tag,
    price_card,
    seat_badge,
    seat_tags,
)

View = dict[str, Any]
M = 20
X0, X1 = M, WIDTH - M
PAD = 18
HEADER_BG = (58, 40, 34)
CREAM = (250, 242, 226)
GOLDEN = (236, 190, 70)
NEUTRAL = (110, 104, 98)
WHITE = (255, 255, 255)

STEP_LABEL = {"main": "Turn", "reply": "Trade offer", "trading": "Trading", "over": "Game over"}


class Ctx:
    """What every section needs: the view, seat names, seat tags (initials)."""

    def __init__(self, view: View, names: Sequence[str] | None) -> None:
        self.view = view
        self.n = int(view["n_players"])
        self.names = seat_names(names, self.n)
        self.tags = seat_tags(self.names)

    def fmt(self, s: str | None) -> str:
        return format_text(s or "", list(self.names))


def new_canvas(height: int = 3000) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    return canvas(height)


def crop(img: Image.Image, y: int) -> Image.Image:
    return crop_to(img, y, M)


def goods_words(want: str, k: int) -> str:
    """'1 salt', '2 cards of any goods'."""
    if want == "any":
        return f"{k} card{'s' if k != 1 else ''} (any goods)"
    return f"{k} {goods_name(want)}"


def seat_label(
    c: Ctx,
    s: int,
    d: ImageDraw.ImageDraw,
    x: float,
    y: float,
    size: int = 28,
    max_w: int = 300,
    bold: bool = True,
    badge: bool = True,
) -> float:
    """Badge (initial) and name in the seat's ink at (x, y) (y = text middle). Returns x after."""
    if badge:
        bs = size + 6
        seat_badge(d, x, y - bs / 2, bs, s, c.tags[s])
        x += bs + 8
    t, f = fit(c.names[s], max_w, size, bold, min_size=max(20, size - 8))
    d.text((x, y), t, font=f, fill=seat_ink(s), anchor="lm")
    return x + text_width(t, f)


# --------------------------------------------------------------------------- header


def draw_header(d: ImageDraw.ImageDraw, c: Ctx, title: str | None = None) -> int:
    """Dark band: KATHAI, turn number, the step pill on the right. Returns the y below."""
    v = c.view
    h = 76
    d.rectangle((0, 0, WIDTH, h), fill=HEADER_BG)
    x = M
    d.text((x, h / 2), "KATHAI", font=font(34, True), fill=GOLDEN, anchor="lm")
    x += text_width("KATHAI", font(34, True)) + 22
    sub = title if title else f"Turn {int(v.get('turn_no') or 0)}"
    d.text((x, h / 2), sub, font=font(28, True), fill=CREAM, anchor="lm")
    if title:
        return h
    step = v.get("step", "")
    label = STEP_LABEL.get(step, str(step).title())
    if v.get("final") is not None and not v.get("over"):
        label = "Final turns"
    f = font(26, True)
    w = text_width(label, f) + 30
    fill = GOOD if v.get("over") else (DANGER if label == "Final turns" else ACCENT)
    d.rounded_rectangle((X1 - w, h / 2 - 21, X1, h / 2 + 21), radius=21, fill=fill)
    d.text((X1 - w / 2, h / 2), label, font=f, fill=WHITE, anchor="mm")
    return h


def awaited_verb(v: View) -> str:
    step = v.get("step")
    if step == "reply":
        return "to answer"
    if step == "trading":
        return "to trade more or end the turn"
    return "to play"


def draw_now(d: ImageDraw.ImageDraw, c: Ctx, y: int) -> int:
    """'▶ Ann to play' (awaited seats, ≥ 28 px). The last public event is the caption strip's
    (``render.board_image``), so it is not repeated here. Returns y below."""
    v = c.view
    y += 14
    mid = y + 22
    x: float = X0 + 4
    if v.get("over"):
        out = v.get("outcome") or {}
        winners = list(out.get("winners") or [])
        for i, s in enumerate(winners):
            if i:
                d.text((x, mid), "&", font=font(28, True), fill=INK, anchor="lm")
                x += text_width("& ", font(28, True))
            x = seat_label(c, s, d, x, mid, 30, max_w=340) + 10
        word = "win" if len(winners) > 1 else "wins"
        if winners:
            d.text((x, mid), word, font=font(30, True), fill=INK, anchor="lm")
        else:
            d.text((x, mid), "Game over", font=font(30, True), fill=INK, anchor="lm")
    else:
        seats = list(v.get("to_move") or [])
        d.text((x, mid), "▶", font=font(28, True), fill=ACCENT, anchor="lm")
        x += 36
        verb = awaited_verb(v)
        vw = text_width(verb, font(28))
        room = X1 - x - vw - 12
        per = max(120, room // max(1, len(seats)) - 12)
        for i, s in enumerate(seats):
            if i:
                d.text((x - 4, mid), ",", font=font(28, True), fill=INK, anchor="lm")
                x += 10
            x = seat_label(c, s, d, x, mid, 30, max_w=int(per - 40)) + 12
        d.text((x, mid), verb, font=font(28), fill=INK, anchor="lm")
    return y + 44


def draw_last(d: ImageDraw.ImageDraw, c: Ctx, y: int) -> int:
    """'Last: …' the last public event, for images posted without a caption (the hand)."""
    last = c.fmt(c.view.get("last"))
    f = font(22)
    for line in wrap("Last: " + last, X1 - X0 - 8, f)[:2] if last else []:
        d.text((X0 + 4, y + 4), line, font=f, fill=MUTED)
        y += 30
    return y


# --------------------------------------------------------------------------- market

COL_W = 170
PRICE_H = 118
GOODS_H = 140


def market_cols() -> list[int]:
    gap = (X1 - X0 - 2 * PAD - 5 * COL_W) / 4
    return [round(X0 + PAD + i * (COL_W + gap)) for i in range(5)]


def draw_market(d: ImageDraw.ImageDraw, c: Ctx, y: int, marks: frozenset[str] = frozenset()) -> int:
    """The five price cards, the goods under them and the lock bridging its pair; goods that
    moved to another price since the previous board (``marks``) are outlined and tagged."""
    v = c.view
    lock = v.get("lock")
    top = y + 12
    lock_h = 100 if lock else 0
    h = PAD + PRICE_H + 10 + GOODS_H + lock_h + PAD
    panel(d, (X0, top, X1, top + h))
    xs = market_cols()
    slots = sorted(v.get("market") or [], key=lambda s: int(s["pos"]))
    gy = top + PAD + PRICE_H + 10
    for slot in slots:
        i = int(slot["pos"]) - 1
        x = xs[i]
        price_card(d, x, top + PAD, COL_W, PRICE_H, i + 1)
        goods_card(d, x, gy, COL_W, GOODS_H, slot["goods"], dim=not slot.get("sellable", i < 4))
        if f"market:{i + 1}" in marks:
            mark_box(d, (x - 5, gy - 5, x + COL_W + 5, gy + GOODS_H + 5))
            mark_tag(d, (x + COL_W - 4, gy - 14), "moved")
    if lock:
        pos = [int(p) for p in lock.get("positions") or []]
        if len(pos) != 2:
            goods = [sl["goods"] for sl in slots]
            pos = [goods.index(g) + 1 for g in lock.get("pair", []) if g in goods]
        if len(pos) == 2:
            a, b = sorted(pos)
            by = int(lock.get("by", 0))
            col = seat_color(by)
            ca = xs[a - 1] + COL_W / 2
            cb = xs[b - 1] + COL_W / 2
            ly = gy + GOODS_H
            # brackets from both goods cards down to the lock card
            cw, ch = int(cb - ca - 40), 58
            cx0 = (ca + cb) / 2 - cw / 2
            cy0 = ly + 20
            for cx in (ca, cb):
                d.line((cx, ly, cx, cy0 + ch / 2), fill=col, width=5)
            d.line((ca, cy0 + ch / 2, cx0, cy0 + ch / 2), fill=col, width=5)
            d.line((cx0 + cw, cy0 + ch / 2, cb, cy0 + ch / 2), fill=col, width=5)
            card_back(d, cx0, cy0, cw, ch, ring=col, ring_w=5)
            if "lock" in marks:
                mark_box(d, (cx0 - 6, cy0 - 6, cx0 + cw + 6, cy0 + ch + 6))
                mark_tag(d, (cx0 + cw + 4, cy0 - 16), "new")
            seat_badge(d, cx0 + cw / 2 - 20, cy0 + ch / 2 - 20, 40, by, c.tags[by])
            # caption beside the lock, under the other columns
            right = b <= 3
            lx0, lx1 = (xs[b - 1] + COL_W + 16, X1 - PAD) if right else (X0 + PAD, xs[a - 1] - 16)
            room = int(lx1 - lx0)
            ax = lx0 if right else lx1
            anchor = "l" if right else "r"
            t, f = fit(c.names[by], room, 28, True, min_size=24)
            d.text((ax, cy0 + ch / 2 - 16), "locked by", font=font(24), fill=MUTED, anchor=anchor + "m")
            d.text((ax, cy0 + ch / 2 + 16), t, font=f, fill=seat_ink(by), anchor=anchor + "m")
    return top + h


# --------------------------------------------------------------------------- supply / last sale

MINI_W, MINI_H = 100, 140


def draw_supply(d: ImageDraw.ImageDraw, c: Ctx, y: int, marks: frozenset[str] = frozenset()) -> int:
    """Pile (red when low), the face-down discard count, and the last sale with its cards; a
    draw from the pile and a sale made since the previous board (``marks``) are outlined."""
    v = c.view
    top = y + 12
    sale = v.get("last_sale")
    h = PAD + 34 + 46 + 12 + MINI_H + PAD if sale else PAD + 108 + PAD  # no sale: no empty space
    panel(d, (X0, top, X1, top + h))
    x = X0 + PAD
    yy = top + PAD
    pile = int(v.get("pile") or 0)
    low = bool(v.get("pile_low", pile <= c.n))
    card_back(d, x, yy + 4, 70, 100)
    if "pile" in marks:
        mark_box(d, (x - 5, yy - 1, x + 75, yy + 109), radius=10, width=4)
    col = DANGER if low else INK
    d.text((x + 86, yy + 30), str(pile), font=font(44, True), fill=col, anchor="lm")
    d.text((x + 86, yy + 76), "in pile", font=font(24, True), fill=DANGER if low else MUTED, anchor="lm")
    down = int(v.get("discard_down") or 0)
    sx = X0 + PAD + 220
    dx, dy = (x, yy + 124) if sale else (sx, yy + 56)
    card_back(d, dx + 2, dy, 32, 44)
    d.text((dx + 46, dy + 22), f"{down} face down", font=font(22), fill=MUTED, anchor="lm")
    # last sale
    d.line((sx - 16, top + 14, sx - 16, top + h - 14), fill=LINE, width=2)
    if not sale:
        d.text((sx, yy + 17), "No sale yet", font=font(28, True), fill=MUTED, anchor="lm")
        return top + h
    if "sale" in marks:
        mark_box(d, (sx - 8, top + 6, X1 - 6, top + h - 6))
        mark_tag(d, (X1 - 12, top - 10), "just sold")
    s = int(sale["seat"])
    g = sale["goods"]
    mid = yy + 17
    tag_w = text_width(goods_name(g), font(28, True)) + 28
    sold_w = text_width("sold", font(28)) + 20
    xx = seat_label(c, s, d, sx, mid, 28, max_w=int(X1 - PAD - sx - 42 - sold_w - tag_w)) + 10
    d.text((xx, mid), "sold", font=font(28), fill=INK, anchor="lm")
    xx += sold_w - 10
    goods_tag(d, xx, mid - 21, g, 28, h=42)
    mid += 46
    count = int(sale.get("count") or len(sale.get("cards") or []))
    pts = (
        f"at {sale['pos']}: {count} card{'s' if count != 1 else ''} + {sale['bonus']} = "
        f"{sale['points']} pt{'s' if int(sale['points']) != 1 else ''}"
    )
    t, f = fit(pts, int(X1 - PAD - sx), 28, True, min_size=22)
    d.text((sx, mid), t, font=f, fill=INK, anchor="lm")
    yy += 46
    cards = sorted(sale.get("cards") or [], key=card_id_key)
    cy = yy + 46
    room = X1 - PAD - sx
    k = max(1, len(cards))
    cw = min(MINI_W, int((room - 8 * (k - 1)) / k))
    for i, cid in enumerate(cards):
        card_face(d, sx + i * (cw + 8), cy, cw, MINI_H, cid, card_goods(cid), highlight=g)
    return top + h


# --------------------------------------------------------------------------- seat rows

ROW_H = 112


def draw_seat_row(
    img: Image.Image, d: ImageDraw.ImageDraw, c: Ctx, s: int, y: int, marks: frozenset[str] = frozenset()
) -> int:
    """Name with badge, status (turn, answering, final turns), hand backs, profit, score; a
    hand size, profit or score changed since the previous board (``marks``) is outlined. The
    fan of card backs and the profit card are drawn once per look (:func:`render.common.stamp`)."""
    v = c.view
    p = v["players"][s]
    top = y + 10
    h = ROW_H
    col = seat_color(s)
    awaited = s in (v.get("to_move") or [])
    active = int(v.get("active", -1)) == s and not v.get("over")
    panel(d, (X0, top, X1, top + h), outline=col if awaited else LINE, width=5 if awaited else 2)
    d.rounded_rectangle((X0 + 2, top + 2, X0 + 14, top + h - 2), radius=6, fill=col)
    x = X0 + 28
    mid = top + 36
    seat_badge(d, x, mid - 21, 42, s, c.tags[s])
    t, f = fit(c.names[s], 340, 30, True, min_size=28)
    d.text((x + 54, mid), t, font=f, fill=seat_ink(s), anchor="lm")
    # status line
    sy = top + 82
    sx = x
    pills: list[tuple[str, tuple[int, int, int]]] = []
    if awaited:
        pills.append(("▶ " + ("to answer" if v.get("step") == "reply" and not active else "to play"), col))
    elif active:
        pills.append(("turn", NEUTRAL))
    out = v.get("outcome") if v.get("over") else None
    if out:
        rank = out["ranks"][s]
        win = s in (out.get("winners") or [])
        pills.append(("winner" if win else ordinal(rank), GOOD if win else NEUTRAL))
    for text, fill in pills:
        f = font(24, True)
        w = text_width(text, f) + 24
        d.rounded_rectangle((sx, sy - 17, sx + w, sy + 17), radius=17, fill=fill)
        d.text((sx + w / 2, sy), text, font=f, fill=on_color(fill), anchor="mm")
        sx += w + 10
    fl = p.get("final_left")
    if fl is not None and not v.get("over"):
        fl = int(fl)
        label = "final turns left" if fl else "no turns left"
        if sx + text_width(label, font(22, True)) + 8 + 26 * fl > X0 + 430:
            label = "final" if fl else "done"
        d.text((sx, sy), label, font=font(22, True), fill=DANGER if fl else MUTED, anchor="lm")
        sx += text_width(label, font(22, True)) + 8
        for _ in range(fl):
            d.ellipse((sx, sy - 10, sx + 20, sy + 10), fill=DANGER)
            sx += 26
    # hand: small backs + count
    hx, px0 = X0 + 440, X0 + 650
    k = int(p.get("hand_size") or 0)
    bw, bh, step = 30, 44, 16
    if k:
        box = (hx, top + 22, hx + (k - 1) * step + bw, top + 22 + bh)
        stamp(img, box, ("kathai.hand", k), lambda im, dd, x, y: _hand_fan(dd, x, y, k))
    cx = hx + (max(k, 1) - 1) * step + bw + 12 if k else hx
    d.text((cx, top + 44), str(k), font=font(32, True), fill=INK, anchor="lm")
    d.text((hx, top + 88), "in hand", font=font(22), fill=MUTED, anchor="lm")
    if f"hand:{s}" in marks:
        mark_box(d, (hx - 8, top + 12, px0 - 16, top + h - 8), width=4)
    # profit
    px = X0 + 650
    pr = int(p.get("profit") or 0)
    stamp(
        img,
        (px, top + 26, px + 40, top + 66),
        ("kathai.profit",),
        lambda im, dd, x, y: profit_icon(dd, x, y, 36),
    )
    d.text((px + 46, top + 44), str(pr), font=font(32, True), fill=INK, anchor="lm")
    d.text((px, top + 88), "profit", font=font(22), fill=MUTED, anchor="lm")
    if f"profit:{s}" in marks:
        mark_box(d, (px - 8, top + 12, px + 110, top + h - 8), width=4)
    # score
    score = p.get("score")
    d.text(
        (X1 - 18, top + 44), "?" if score is None else str(score), font=font(44, True), fill=INK, anchor="rm"
    )
    d.text((X1 - 18, top + 88), "points", font=font(22), fill=MUTED, anchor="rm")
    if f"score:{s}" in marks:
        mark_box(d, (X1 - 130, top + 8, X1 - 8, top + h - 8), width=4)
    return top + h


def _hand_fan(d: ImageDraw.ImageDraw, x: float, y: float, k: int) -> None:
    """The ``k`` card backs of a hand as a seat row shows them, from (x, y)."""
    for i in range(k):
        card_back(d, x + i * 16, y, 30, 44)


def profit_icon(d: ImageDraw.ImageDraw, x: float, y: float, size: int) -> None:
    """A face-down card with a coin: a profit card."""
    card_back(d, x + 4, y, int(size * 0.7), size)
    r = size * 0.36
    cx, cy = x + size * 0.7, y + size * 0.68
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=GOLDEN, outline=(150, 112, 20), width=2)


# --------------------------------------------------------------------------- results / footer


def draw_results(d: ImageDraw.ImageDraw, c: Ctx, y: int) -> int:
    """Final ranking (game over): place, name, points, profit cards, sales."""
    v = c.view
    out = v.get("outcome")
    if not v.get("over") or not out:
        return y
    top = y + 12
    order = sorted(range(c.n), key=lambda s: (out["ranks"][s], s))
    h = PAD + 40 + 50 * c.n + PAD
    panel(d, (X0, top, X1, top + h), outline=GOOD, width=3)
    yy = top + PAD
    d.text((X0 + PAD, yy + 18), "Final ranking", font=font(28, True), fill=INK, anchor="lm")
    reason = out.get("reason")
    profit = out.get("profit") or [v["players"][s].get("profit", 0) for s in range(c.n)]
    scores = out.get("scores") or []
    note = ""
    if reason == "turn_limit":
        note = "ended at the turn limit"
    elif any(scores[s] == scores[t] and profit[s] != profit[t] for s in range(c.n) for t in range(c.n)):
        note = "ties broken by profit cards"
    if note:
        d.text(
            (X1 - PAD, yy + 18),
            note,
            font=font(22),
            fill=DANGER if reason == "turn_limit" else MUTED,
            anchor="rm",
        )
    yy += 40
    for s in order:
        mid = yy + 25
        rank = out["ranks"][s]
        d.text(
            (X0 + PAD, mid), ordinal(rank), font=font(28, True), fill=GOOD if rank == 1 else INK, anchor="lm"
        )
        seat_label(c, s, d, X0 + PAD + 80, mid, 28, max_w=420)
        d.text((X1 - PAD - 200, mid), f"{out['scores'][s]} pts", font=font(28, True), fill=INK, anchor="rm")
        d.text((X1 - PAD, mid), f"{profit[s]} profit", font=font(24), fill=MUTED, anchor="rm")
        yy += 50
    return top + h


def draw_footer(d: ImageDraw.ImageDraw, c: Ctx, y: int) -> int:
    """Options that differ from the defaults, in a muted line (nothing when all default)."""
    o = c.view.get("options") or {}
    bits = []
    if o.get("free_asking"):
        bits.append("free asking")
    if o.get("allow_gifts"):
        bits.append("gifts allowed")
    if o.get("bribe_lock") == "goods":
        bits.append("lock holds both goods")
    if o.get("max_offers") not in (None, 6):
        bits.append(f"{o['max_offers']} asks a turn")
    if o.get("turn_limit") not in (None, 200):
        bits.append(f"turn limit {o['turn_limit']}")
    if not bits:
        return y
    y += 10
    t, f = fit("Options: " + " · ".join(bits), X1 - X0 - 8, 22, min_size=20)
    d.text((X0 + 4, y), t, font=f, fill=MUTED)
    return y + 30
