"""The Phraya private view (DM image): the prompt and legal actions, the player's coins,
flowers, favors, rowers, stall pieces and disks, the boat's baskets with the goods in them,
fulfilled orders, active passives, the hand of cards with their effects in words (playable ones
outlined) and the score preview."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engines.phraya.view.types import CardView, MeView, PhrayaView, PlayerView
from render.common import (
    ACCENT,
    INK,
    LINE,
    MIN_TEXT,
    MUTED,
    PANEL,
    WIDTH,
    fit,
    font,
    num,
    ordinal,
    text_width,
    wrap,
)
from render.phraya.art import GOOD_COLOR, GOOD_TINT, GOODS, card_info, icon, paste_c, seat_disc
from render.phraya.art.cards import card_lines, draw_card, effect_short, word_parts
from render.phraya.art.draw import M, crop, new_canvas, text_at, title
from render.phraya.board import draw_header
from render.phraya.layout.model import Model, model
from render.phraya.sheet import category_label


def _notice(m: Model, s: str) -> Image.Image:
    img, d = new_canvas(200)
    y = draw_header(img, d, m, label="")
    d.text((M, y + 20), s, font=font(MIN_TEXT), fill=MUTED)
    return crop(img, y + 60)


def final_line(m: Model, seat: int) -> str:
    """The seat's place at the end: "You finished 2nd of 4 with 58 VP · Asha won with 85"."""
    totals, ranks = m.view["totals"] or [], m.view["ranks"] or []
    if seat >= len(totals) or seat >= len(ranks):
        return ""
    rank, total = int(ranks[seat]), int(totals[seat])
    tied = sum(1 for r in ranks if r == rank) > 1
    place = ("tied " if tied else "") + ("1st: you win" if rank == 1 else ordinal(rank))
    s = f"You finished {place} of {m.n} with {num(total)} VP"
    winners = [q for q in range(m.n) if q < len(ranks) and ranks[q] == 1 and q != seat]
    if winners and rank != 1:
        s += f" · {' and '.join(m.names[q] for q in winners)} won with {num(int(totals[winners[0]]))}"
    return s


def _baskets(img: Image.Image, d: ImageDraw.ImageDraw, p: PlayerView, x: int, y: int, w: int) -> int:
    """Each basket as a tile with its two goods; a held good fills its slot."""
    left = dict(p["goods"] or {})
    baskets = list(p["baskets"])
    bw, gap = 112, 10
    per = max(1, (w + gap) // (bw + gap))
    for k, pair in enumerate(baskets):
        bx = x + (k % per) * (bw + gap)
        by = y + (k // per) * 64
        d.rounded_rectangle(
            (bx, by, bx + bw, by + 56), radius=10, fill=(238, 222, 196), outline=(160, 112, 60), width=2
        )
        for i, g in enumerate(pair):
            cx = bx + 30 + i * 52
            held = left.get(g, 0) > 0
            if held:
                left[g] -= 1
                d.ellipse(
                    (cx - 24, by + 4, cx + 24, by + 52), fill=GOOD_TINT[g], outline=GOOD_COLOR[g], width=3
                )
                paste_c(img, icon(g, 36), cx, by + 28)
            else:
                d.ellipse((cx - 22, by + 6, cx + 22, by + 50), outline=(190, 170, 140), width=2)
                ic = icon(g, 30).copy()
                ic.putalpha(ic.getchannel("A").point(lambda a: a * 35 // 100))
                paste_c(img, ic, cx, by + 28)
    free = int(p["basket_spaces"])
    for k in range(len(baskets), len(baskets) + free):
        bx = x + (k % per) * (bw + gap)
        by = y + (k // per) * 64
        d.rounded_rectangle((bx, by, bx + bw, by + 56), radius=10, outline=LINE, width=2)
        d.text((bx + bw / 2, by + 28), "free", font=font(MIN_TEXT), fill=MUTED, anchor="mm")
    rows = (len(baskets) + free + per - 1) // per
    return y + rows * 64


def card_height(card: CardView, w: int) -> int:
    """The height a hand tile needs for the card's effects in words."""
    f = font(MIN_TEXT, False, True)
    lines = sum(len(wrap(part, w - 20, f)) for part in word_parts(card))
    return 92 + 32 * max(1, lines)


def action_label(m: Model, a: str, me: MeView) -> str:
    """What an action costs or gives, from the view: 'veg, 4 coins', '8 coins'…"""
    t = a.split()
    passives = set(me["passives"])
    if t[0] in ("buy", "sell") and len(t) >= 3 and t[1] in m.stalls:
        g = m.stalls[t[1]]["good"]
        if not g:
            return ""
        n = int(t[2])
        unit = m.price_rows[g][0] if t[0] == "buy" and f"cheap:{g}" in passives else m.price[g]
        k = int(t[4]) if len(t) > 4 else 0
        return f"{g} {'−' if t[0] == 'buy' else '+'}{(n - k) * unit}c"
    if t[0] == "king" and len(t) > 1:
        sp = next((x for x in m.view["king"] if x["space"] == t[1]), None)
        return str(sp["cost"]) if sp else ""
    if t[0] == "scribe" and len(t) > 2:
        c = card_info(t[1])
        if c:
            return (
                f"{c['name']}, {c['coins']} coins"
                if t[2] == "coins"
                else f"{c['name']}, {c['flowers']} flowers"
            )
    if t[0] == "play" and len(t) > 1:
        c = card_info(t[1])
        return c["name"] if c else ""
    return ""


def hand_image(view: PhrayaView, names: Sequence[str] | None = None) -> Image.Image:
    m = model(view, names)
    me = view["me"]
    if not me:
        return _notice(m, "A spectator has no hand: this view belongs to nobody.")
    seat = int(me["seat"])
    p = m.players[seat]
    img, d = new_canvas(3200)
    y = draw_header(img, d, m, label=f"{m.names[seat]}'s hand" if not m.over else "", chips=False)
    y += 12
    y = _prompt(d, m, me, seat, y)
    if me["legal"]:
        y = _action_chips(d, m, me, y)
    y = _played_card(d, m, seat, y) + 6
    y = _resources(img, d, m, p, seat, y)
    y = _goods(img, d, me, p, y)
    y = _orders_and_passives(d, me, p, y)
    y = _hand_and_discard(img, d, m, me, p, y)
    y = _score_preview(d, me, bool(view["over"]), y)
    return crop(img, y)


def _prompt(d: ImageDraw.ImageDraw, m: Model, me: MeView, seat: int, y: int) -> int:
    """The seat's final place once the game is over, else the prompt (in the accent colour when
    the seat has something to do)."""
    if m.over:  # the place first; the header already says the game is over
        t, f = fit(final_line(m, seat), WIDTH - 2 * M, 34, True)
        d.text((M, y), t, font=f, fill=INK)
        y += 50
    prompt = m.fmt(me["prompt"])
    if prompt and not m.over:
        f = font(MIN_TEXT, True)
        for ln in wrap(prompt, WIDTH - 2 * M, f)[:3]:
            d.text((M, y), ln, font=f, fill=ACCENT if me["legal"] else INK)
            y += 34
    return y


def _action_chips(d: ImageDraw.ImageDraw, m: Model, me: MeView, y: int) -> int:
    """The legal actions as labelled chips, wrapping, at most 30 (then a count of the rest)."""
    legal = list(me["legal"])
    x = M
    f = font(26, True, True)
    fl = font(MIN_TEXT, False, True)
    shown = 0
    for a in legal:
        lab = action_label(m, a, me)
        w = text_width(a, f) + 18 + (text_width(lab, fl) + 8 if lab else 0)
        if x + w > WIDTH - M:
            x = M
            y += 46
        if shown >= 30:
            break
        d.rounded_rectangle((x, y, x + w, y + 40), radius=8, fill=PANEL, outline=ACCENT, width=2)
        d.text((x + 9, y + 20), a, font=f, fill=INK, anchor="lm")
        if lab:
            d.text((x + w - 9, y + 21), lab, font=fl, fill=MUTED, anchor="rm")
        x += w + 8
        shown += 1
    y += 48
    if shown < len(legal):
        d.text((M, y), f"… and {len(legal) - shown} more (see the text)", font=font(MIN_TEXT), fill=MUTED)
        y += 34
    return y


def _played_card(d: ImageDraw.ImageDraw, m: Model, seat: int, y: int) -> int:
    """The card the seat played this turn, with its effects, if it is the seat's turn."""
    turn = m.view["turn"]
    if turn["card"] and seat == m.active:
        cid = turn["card"]
        card = card_info(cid)
        s = f"Played {cid}" + (f" {card['name']}: " + "; ".join(card_lines(card)) if card else "")
        text_at(d, (M, y), s, MIN_TEXT, INK, max_width=WIDTH - 2 * M)
        y += 34
    return y


def _resources(img: Image.Image, d: ImageDraw.ImageDraw, m: Model, p: PlayerView, seat: int, y: int) -> int:
    """A panel with the seat's coins, flowers, favours and rowers, then its pieces left and boat."""
    d.rounded_rectangle((M, y, WIDTH - M, y + 66), radius=10, fill=PANEL, outline=LINE, width=2)
    seat_disc(img, seat, m.letters[seat], M + 32, y + 33, 44)
    x = M + 66
    for ic, val, word in (
        ("coin", p["coins"], "coins"),
        ("flower", p["flowers"], "flowers"),
        ("favor", p["favors"], "favors"),
        ("rower", p["rowers"], "rowers"),
    ):
        paste_c(img, icon(ic, 34), x + 17, y + 33)
        x += 40
        x += text_at(d, (x, y + 33), str(val), 34, INK, True, "lm") + 6
        word = word[:-1] if val == 1 else word  # "1 flower", never "1 flowers"
        x += text_at(d, (x, y + 35), word, MIN_TEXT, MUTED, False, "lm") + 16
    y += 78
    sub = f"Stall pieces left {p['stalls_left']} · disks left {p['disks_left']} · boat at {p['boat'] or '–'}"
    text_at(d, (M, y), sub, MIN_TEXT, INK, max_width=WIDTH - 2 * M)
    return y + 38


def _goods(img: Image.Image, d: ImageDraw.ImageDraw, me: MeView, p: PlayerView, y: int) -> int:
    """Each good held against the room for it (and the room still free), then the basket tiles."""
    cap = me["capacity"] or p["capacity"]
    free = me["free"]
    goods = p["goods"] or {}
    y = title(d, M, y, "Baskets", "goods held / room for each good", WIDTH - 2 * M)
    x = M
    for g in GOODS:
        paste_c(img, icon(g, 30), x + 15, y + 16)
        x += 36
        s = f"{goods.get(g, 0)}/{cap.get(g, 0)}"
        x += text_at(d, (x, y + 16), s, 34, INK, True, "lm")
        fr = free.get(g)
        if fr is not None:
            x += text_at(d, (x + 6, y + 18), f"({fr} free)", MIN_TEXT, MUTED, False, "lm", condensed=True) + 6
        x += 16
    y += 42
    return _baskets(img, d, p, M, y, WIDTH - 2 * M) + 8


def _orders_and_passives(d: ImageDraw.ImageDraw, me: MeView, p: PlayerView, y: int) -> int:
    """The orders delivered and their VP, then the effects active this turn."""
    orders = p["orders"]
    if orders:
        vp = sum(int(o["vp"]) for o in orders)
        s = f"Orders delivered: {len(orders)}, worth {vp} VP"
        for ln in wrap(s, WIDTH - 2 * M, font(MIN_TEXT))[:2]:
            d.text((M, y), ln, font=font(MIN_TEXT), fill=INK)
            y += 34
    passives = me["passives"]
    if passives:
        s = "Active this turn: " + ", ".join(effect_short(e) for e in passives)
        text_at(d, (M, y), s, MIN_TEXT, ACCENT, True, max_width=WIDTH - 2 * M)
        y += 34
    return y


def _hand_and_discard(
    img: Image.Image, d: ImageDraw.ImageDraw, m: Model, me: MeView, p: PlayerView, y: int
) -> int:
    """The hand as cards two abreast (the playable ones outlined), then the discard pile by name;
    neither once the game is over."""
    hand = [] if m.over else list(me["hand"] or p["hand"] or [])  # at the end: the score
    playable = set(me["playable"])
    y += 4
    note = "outlined: playable now" if playable else ""
    if hand:
        y = title(d, M, y, f"Hand ({len(hand)})", note, WIDTH - 2 * M)
    cw, gap = (WIDTH - 2 * M - 12) // 2, 12
    for k in range(0, len(hand), 2):
        pair = hand[k : k + 2]
        ch = max(card_height(c, cw) for c in pair)
        for i, card in enumerate(pair):
            x = M + i * (cw + gap)
            draw_card(img, d, card, (x, y, x + cw, y + ch), hot=card["id"] in playable, words=True)
        y += ch + gap
    discard = [] if m.over else list(p["discard"])
    if discard:  # by name: an id is only a tag
        words = ", ".join(_card_name(c) for c in discard)
        text_at(d, (M, y), "Discard pile: " + words, MIN_TEXT, MUTED, max_width=WIDTH - 2 * M)
        y += 34
    return y


def _score_preview(d: ImageDraw.ImageDraw, me: MeView, over: bool, y: int) -> int:
    """The seat's score if the game ended now (or its final score), by category, wrapped."""
    prev = me["preview"]
    if not prev:
        return y
    y += 4
    total = sum(int(v) for v in prev.values())
    head = "Your score now" if not over else "Your final score"
    tw = text_at(d, (M, y + 2), head, MIN_TEXT, MUTED, True)
    text_at(d, (M + tw + 14, y - 4), f"{num(total)} VP", 34, INK, True)
    y += 44
    items = [f"{category_label(c)} {num(int(v))}" for c, v in prev.items()]
    f = font(MIN_TEXT)
    line = ""
    for it in items:
        trial = f"{line} · {it}" if line else it
        if text_width(trial, f) > WIDTH - 2 * M:
            d.text((M, y), line, font=f, fill=INK)
            y += 34
            line = it
        else:
            line = trial
    if line:
        d.text((M, y), line, font=f, fill=INK)
        y += 34
    return y


def _card_name(cid: str) -> str:
    """A card's name (its id if the id is unknown)."""
    info = card_info(cid)
    return info["name"] if info else cid
