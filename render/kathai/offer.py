"""The open offer on the Kathai board and in a hand: who offers what to whom, and each
addressee's answer (to answer, accepted, declined, skipped)."""

from __future__ import annotations

from typing import Any

from PIL import ImageDraw

from render.common import (
    ACCENT,
    INK,
    LINE,
    MUTED,
    PANEL,
    fit,
    font,
    mark_box,
    mark_tag,
    mix,
    panel,
    seat_color,
    seat_ink,
    text_width,
)
from render.kathai.art import card_face, card_goods, goods_name, goods_tag, seat_badge
from render.kathai.board import MINI_H, MINI_W, PAD, X0, X1, Ctx, seat_label


def offer_what(n_give: int, want: str, k: int) -> str:
    """'2 cards, wants 1' (a goods tag follows) or '2 cards, wants 2 of any goods'."""
    head = f"{n_give} card{'s' if n_give != 1 else ''}, wants {k}"
    return head + (" of any goods" if want == "any" else "")


def _offer_two_lines(c: Ctx, of: dict[str, Any]) -> bool:
    """Whether the offer's headline needs a second line (a long offerer name)."""
    n_give, k = int(of.get("give_count") or 0), int(of.get("k") or 0)
    want = str(of.get("want") or "any")
    w = text_width(offer_what(n_give, want, k), font(28, True))
    if want != "any":
        w += 10 + text_width(goods_name(want), font(28, True)) + 28 + 10 + text_width("cards", font(28, True))
    name_w = 34 + 8 + text_width(c.names[int(of["by"])], font(30, True))
    return X0 + PAD + name_w + text_width("offers", font(28)) + 22 + w > X1 - PAD - 110


def draw_offer(
    d: ImageDraw.ImageDraw, c: Ctx, y: int, show_cards: bool = True, marks: frozenset[str] = frozenset()
) -> int:
    """The open offer: who offers what to whom and who must still answer; a new offer and the
    answers given since the previous board (``marks``) are outlined."""
    v = c.view
    of = v.get("offer")
    if not of:
        return y
    top = y + 12
    give = of.get("give") if show_cards else None
    n_entries = len(of.get("addressees") or []) + len(of.get("skipped") or [])
    rows_h = 44 + 12 + 54 * ((n_entries + 1) // 2) - 10 + (48 if _offer_two_lines(c, of) else 0)
    cards_h = (MINI_H + 12) if give else 0
    h = PAD + rows_h + cards_h + PAD
    panel(d, (X0, top, X1, top + h), outline=mix(ACCENT, PANEL, 0.2), width=4)
    if "offer" in marks:
        mark_tag(d, (X1 - 12, top - 10), "new offer")
    by = int(of["by"])
    n_give = int(of.get("give_count") or 0)
    want, k = of.get("want", "any"), int(of.get("k") or 0)
    what = offer_what(n_give, want, k)
    fb = font(28, True)
    offers_w = text_width("offers", font(28)) + 22
    two_lines = _offer_two_lines(c, of)
    x: float = X0 + PAD
    mid = top + PAD + 22
    x = seat_label(c, by, d, x, mid, 30, max_w=X1 - X0 - 2 * PAD - 200) + 12
    d.text((x, mid), "offers", font=font(28), fill=INK, anchor="lm")
    x += offers_w - 12
    if two_lines:
        mid += 48
        x = X0 + PAD + 42
    d.text((x, mid), what, font=fb, fill=INK, anchor="lm")
    x += text_width(what, fb) + 10
    if want != "any":
        x += goods_tag(d, x, mid - 21, want, 28, h=42) + 10
        d.text((x, mid), "card" if k == 1 else "cards", font=fb, fill=INK, anchor="lm")
    used, mx = int(v.get("offers_used") or 0), int(v.get("max_offers") or 0)
    if mx:
        ut = f"ask {used} of {mx}"
        d.text((X1 - PAD, top + PAD + 22), ut, font=font(22), fill=MUTED, anchor="rm")
    # answers, two to a line
    awaiting = set(of.get("awaiting") or [])
    declined = set(of.get("declined") or [])
    entries = [
        (s, "?" if s in awaiting else "declined" if s in declined else "answered")
        for s in of.get("addressees") or []
    ]
    entries += [(s, "skipped") for s in of.get("skipped") or []]
    gap = 12
    pill_w = (X1 - X0 - 2 * PAD - gap) // 2
    mid2 = mid + 22 + 12 + 22
    for i, (s, state) in enumerate(entries):
        x = X0 + PAD + (i % 2) * (pill_w + gap)
        my = mid2 + (i // 2) * (44 + 10)
        col = seat_color(s)
        fill = mix(col, PANEL, 0.82) if state == "?" else PANEL
        outline = col if state == "?" else LINE
        d.rounded_rectangle(
            (x, my - 22, x + pill_w, my + 22),
            radius=12,
            fill=fill,
            outline=outline,
            width=3 if state == "?" else 2,
        )
        if f"answer:{s}" in marks:
            mark_box(d, (x - 4, my - 26, x + pill_w + 4, my + 26), width=4)
        seat_badge(d, x + 5, my - 18, 36, s, c.tags[s])
        word = {
            "?": "to answer",
            "declined": "declined",
            "skipped": "skipped (hand)",
            "answered": "accepted",
        }[state]
        wf = font(24, state == "?")
        ww = text_width(word, wf)
        name_room = pill_w - 46 - ww - 24
        t, f = fit(c.names[s], name_room, 28, True, min_size=24)
        d.text((x + 46, my), t, font=f, fill=seat_ink(s), anchor="lm")
        d.text((x + pill_w - 12, my), word, font=wf, fill=INK if state == "?" else MUTED, anchor="rm")
    mid2 += ((len(entries) + 1) // 2 - 1) * 54 if entries else -54
    if give:
        cy = mid2 + 22 + 12
        xx = X0 + PAD
        for card in give:
            cid = card["id"]
            card_face(d, xx, cy, MINI_W, MINI_H, cid, card.get("items") or card_goods(cid))
            xx += MINI_W + 8
    return top + h
