"""The Kathai private view (DM): whose turn, the viewer's cards (sorted by id, the ones just
received outlined), per-goods totals in market order with what selling each now would score,
the profit count, the lock card, and the open offer with its cards when the viewer is a party.
Made only from that seat's ``view(state, seat)``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    ACCENT,
    GOOD,
    INK,
    MUTED,
    PANEL,
    WIDTH,
    fit,
    font,
    mix,
    panel,
    seat_color,
    text_width,
)
from render.kathai.art import (
    DANGER,
    card_face,
    card_goods,
    card_id_key,
    goods_tag,
    padlock,
    seat_badge,
)
from render.kathai.board import (
    CREAM,
    GOLDEN,
    HEADER_BG,
    PAD,
    X0,
    X1,
    Ctx,
    M,
    crop,
    draw_last,
    draw_now,
    new_canvas,
    profit_icon,
)
from render.kathai.offer import draw_offer

View = dict[str, Any]
CARD_W, CARD_H = 128, 190


def draw_hand_header(d: ImageDraw.ImageDraw, c: Ctx, seat: int) -> int:
    """Dark band: KATHAI, 'Your hand', the seat's badge and name on the right."""
    h = 76
    d.rectangle((0, 0, WIDTH, h), fill=HEADER_BG)
    d.text((M, h / 2), "KATHAI", font=font(34, True), fill=GOLDEN, anchor="lm")
    x = M + text_width("KATHAI", font(34, True)) + 22
    t = f"Turn {int(c.view.get('turn_no') or 0)} · your hand"
    d.text((x, h / 2), t, font=font(28, True), fill=CREAM, anchor="lm")
    x += text_width(t, font(28, True)) + 20
    col = seat_color(seat)
    room = X1 - x - 60
    name, f = fit(c.names[seat], room, 28, True, min_size=22)
    w = text_width(name, f)
    d.rounded_rectangle((X1 - w - 64, h / 2 - 24, X1, h / 2 + 24), radius=24, fill=col)
    seat_badge(d, X1 - w - 60, h / 2 - 20, 40, seat, c.tags[seat])
    d.text((X1 - 14, h / 2), name, font=f, fill=(255, 255, 255), anchor="rm")
    return h


def draw_cards(d: ImageDraw.ImageDraw, c: Ctx, me: dict[str, Any], y: int) -> int:
    """The hand, sorted by id, received cards outlined in the accent colour with a 'new' tag."""
    hand = sorted(me.get("hand") or [], key=lambda card: card_id_key(card["id"]))
    received = set(me.get("received") or [])
    eligible = set(me.get("eligible") or []) if me.get("offer_for_me") else set()
    of = c.view.get("offer") or {}
    offered = (
        {card["id"] for card in of.get("give") or []} if int(of.get("by", -1)) == int(me["seat"]) else set()
    )
    top = y + 12
    k = len(hand)
    h = PAD + 36 + CARD_H + PAD + (40 if eligible or offered else 0)
    panel(d, (X0, top, X1, top + h))
    t = f"{k} card{'s' if k != 1 else ''} in hand (limit 7)"
    if eligible:
        t = f"{k} card{'s' if k != 1 else ''} · give the ✓ ones"
    d.text((X0 + PAD, top + PAD + 14), t, font=font(28, True), fill=INK, anchor="lm")
    pr = int(me.get("profit") or 0)
    pt = f"{pr} profit card{'s' if pr != 1 else ''}"
    d.text((X1 - PAD, top + PAD + 14), pt, font=font(26, True), fill=INK, anchor="rm")
    profit_icon(d, X1 - PAD - text_width(pt, font(26, True)) - 48, top + PAD - 4, 36)
    cy = top + PAD + 40
    if not hand:
        d.text((X0 + PAD, cy + CARD_H / 2), "No cards", font=font(28), fill=MUTED, anchor="lm")
        return top + h
    gap = min(12, (X1 - X0 - 2 * PAD - k * CARD_W) // max(1, k - 1)) if k > 1 else 0
    cw = CARD_W if gap >= 4 or k == 1 else (X1 - X0 - 2 * PAD - 4 * (k - 1)) // k
    gap = max(gap, 4)
    x = X0 + PAD
    for card in hand:
        cid = card["id"]
        new = cid in received
        card_face(
            d,
            x,
            cy,
            cw,
            CARD_H,
            cid,
            card.get("items") or card_goods(cid),
            outline=ACCENT if new else None,
            outline_w=5,
        )
        if new:
            tw = text_width("new", font(20, True)) + 14
            d.rounded_rectangle((x + cw - tw - 4, cy - 12, x + cw + 4, cy + 14), radius=12, fill=ACCENT)
            d.text((x + cw - tw / 2, cy + 1), "new", font=font(20, True), fill=(255, 255, 255), anchor="mm")
        if cid in eligible or cid in offered:
            word, fill = ("✓ can give", GOOD) if cid in eligible else ("offered", ACCENT)
            d.rounded_rectangle((x, cy + CARD_H + 6, x + cw, cy + CARD_H + 38), radius=12, fill=fill)
            t, f = fit(word, cw - 10, 22, True, min_size=20)
            d.text((x + cw / 2, cy + CARD_H + 22), t, font=f, fill=(255, 255, 255), anchor="mm")
        x += cw + gap
    return top + h


def sale_words(row: dict[str, Any]) -> tuple[str, tuple[int, int, int]]:
    """'sell now: 3 cards → 5 pts', 'need 2 more', 'unsellable', 'none in hand'."""
    items = int(row.get("items") or 0)
    if not row.get("min") and int(row.get("pos") or 5) >= 5:
        return ("unsellable (X)" if items else "—"), MUTED
    if not items:
        return "none in hand", MUTED
    if row.get("can_sell"):
        k = int(row.get("cards") or 0)
        pts = int(row.get("points") or 0)
        return f"sell: {k} card{'s' if k != 1 else ''} → {pts} pt{'s' if pts != 1 else ''}", GOOD
    need = int(row.get("min") or 0) - items
    return f"need {need} more", DANGER if need <= 0 else MUTED


def draw_totals(d: ImageDraw.ImageDraw, c: Ctx, me: dict[str, Any], y: int) -> int:
    """One row per goods in market order: position with bonus and minimum, the goods, items
    and cards in hand, and what selling every matching card now would score."""
    rows = sorted(me.get("sell_now") or [], key=lambda r: int(r.get("pos") or 9))
    top = y + 12
    rh = 54
    h = PAD + 34 + rh * len(rows) + PAD - 8
    panel(d, (X0, top, X1, top + h))
    yy = top + PAD
    d.text((X0 + PAD, yy + 14), "Your goods", font=font(28, True), fill=INK, anchor="lm")
    d.text((X0 + 420, yy + 14), "in hand", font=font(22), fill=MUTED, anchor="lm")
    v = c.view
    opts = v.get("options") or {}
    my_turn = (
        int(me["seat"]) == int(v.get("active", -1))
        and not v.get("over")
        and (
            v.get("step") == "main"
            or (v.get("step") == "trading" and opts.get("free_asking") and not v.get("traded"))
        )
    )
    d.text(
        (X1 - PAD, yy + 14),
        "if you sell all now" if my_turn else "a sale would score",
        font=font(22),
        fill=MUTED,
        anchor="rm",
    )
    yy += 34 + 4
    lock = c.view.get("lock") or {}
    locked = set(lock.get("pair") or [])
    for r in rows:
        mid = yy + rh / 2 - 4
        pos = int(r.get("pos") or 5)
        g = r["goods"]
        best = bool(r.get("can_sell")) and bool(my_turn)
        if best:
            d.rounded_rectangle((X0 + 8, yy - 2, X1 - 8, yy + rh - 8), radius=10, fill=mix(GOOD, PANEL, 0.9))
        price = "X" if pos >= 5 else f"{pos}"
        d.text(
            (X0 + PAD + 14, mid), price, font=font(28, True), fill=DANGER if pos >= 5 else INK, anchor="mm"
        )
        goods_tag(d, X0 + PAD + 40, mid - 21, g, 28, h=42)
        if pos < 5:
            bonus = next((s.get("bonus") for s in c.view.get("market") or [] if int(s["pos"]) == pos), None)
            pm = f"+{bonus if bonus is not None else '?'} · min {r.get('min')}"
            d.text((X0 + PAD + 196, mid), pm, font=font(24), fill=MUTED, anchor="lm")
        if g in locked:
            padlock(d, X0 + PAD + 350, mid - 13, 26, MUTED)
        items, cards = int(r.get("items") or 0), int(r.get("cards") or 0)
        it = f"{items}" if items else "0"
        d.text((X0 + 440, mid), it, font=font(28, True), fill=INK if items else MUTED, anchor="rm")
        if items:
            d.text(
                (X0 + 448, mid),
                f"on {cards} card{'s' if cards != 1 else ''}",
                font=font(22),
                fill=MUTED,
                anchor="lm",
            )
        words, col = sale_words(r)
        if col == GOOD and not my_turn:
            col = INK
        t, f = fit(words, 360, 28, best, min_size=22)
        d.text((X1 - PAD, mid), t, font=f, fill=col, anchor="rm")
        yy += rh
    return top + h


def draw_extras(d: ImageDraw.ImageDraw, c: Ctx, me: dict[str, Any], y: int) -> int:
    """The own lock card, pile size and score, in one line."""
    v = c.view
    seat = int(me["seat"])
    p = v["players"][seat]
    bits = [f"Score {p.get('score', 0)}", f"pile {v.get('pile', 0)}"]
    if me.get("lock_card"):
        bits.append(f"your lock card {me['lock_card']}")
    fl = p.get("final_left")
    if fl is not None and not v.get("over"):
        bits.append(f"{fl} final turn{'s' if fl != 1 else ''} left")
    y += 12
    t, f = fit(" · ".join(bits), X1 - X0 - 8, 26, True, min_size=20)
    d.text((X0 + 4, y + 16), t, font=f, fill=INK, anchor="lm")
    return y + 36


def hand_image(view: View, names: Sequence[str] | None = None) -> Image.Image:
    """The private view image of ``view["me"]``. A spectator view (no seat) gives a short
    notice instead of an error."""
    c = Ctx(view, names)
    me = view.get("me")
    seat = view.get("viewer") if not me else me.get("seat")
    img, d = new_canvas(2000)
    if me is None or seat is None:
        y = draw_hand_header_plain(d)
        d.text((X0 + 4, y + 30), "Spectators hold no cards.", font=font(28), fill=MUTED, anchor="lm")
        return crop(img, y + 60)
    seat = int(seat)
    y = draw_hand_header(d, c, seat)
    y = draw_now(d, c, y)
    y = draw_last(d, c, y)
    of = view.get("offer")
    if of:  # the cards only for its parties (the view has them only then)
        # the offerer sees its offered cards marked in its hand below
        y = draw_offer(d, c, y, show_cards=int(of.get("by", -1)) != seat)
    y = draw_cards(d, c, me, y)
    y = draw_totals(d, c, me, y)
    y = draw_extras(d, c, me, y)
    return crop(img, y)


def draw_hand_header_plain(d: ImageDraw.ImageDraw) -> int:
    h = 76
    d.rectangle((0, 0, WIDTH, h), fill=HEADER_BG)
    d.text((M, h / 2), "KATHAI", font=font(34, True), fill=GOLDEN, anchor="lm")
    return h
