"""The Kathai private view (DM): the house header with the seat, what the seat is to do (its rank
once the game is over), the offer it is a party to, its cards (pictures of their goods, the id
as a small tag since the player types it; the ones just received marked), and per goods in
market order: the price, the items in hand and what selling them now would score. Made only
from that seat's ``view(state, seat)``.

The open offer in a hand: who offers what to whom, every addressee's answer so far, and the
offered cards as pictures (only for the parties of the offer, who alone see them)."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engines.kathai.view import KathaiView, MeView, OfferView, SellNow
from render import frame
from render.common import (
    ACCENT,
    GOOD,
    INK,
    MARK,
    MIN_TEXT,
    MUTED,
    NUMBER_TEXT,
    PANEL,
    canvas,
    fit,
    font,
    mark_box,
    mark_tag,
    mix,
    ordinal,
    panel,
    seat_ink,
    text_width,
)
from render.kathai.art import (
    DANGER,
    PRICES,
    card_face,
    card_goods,
    card_id_key,
    goods_icon,
    goods_name,
    padlock,
    profit_icon,
)
from render.kathai.board.table import offer_runs
from render.kathai.layout import (
    GAP,
    PAD,
    SALE_H,
    SALE_W,
    X0,
    X1,
    Ctx,
    Run,
    badge,
    draw_runs,
    lock_positions,
    name_run,
    runs_width,
)

View = KathaiView
CARD_W, CARD_H = 124, 180
ROW_H = 54


def draw_hand_header(img: Image.Image, d: ImageDraw.ImageDraw, c: Ctx, seat: int) -> int:
    v = c.view
    over = bool(v["over"])
    pill = "Game over" if over else "Final turns" if v["final"] is not None else None
    return frame.header(
        img,
        d,
        "Kathai",
        f"Turn {int(v['turn_no'] or 0)}",
        pill=pill,
        pill_fill=DANGER,
        label="your hand",
        seats=[seat],
        names=c.names,
        over=over,
    )


def status_runs(c: Ctx, me: MeView) -> list[Run]:
    """What this seat is to do now; at the end, its rank and total."""
    v = c.view
    seat = int(me["seat"])
    p = v["players"][seat]
    out = v["outcome"] if v["over"] else None
    if out:
        rank = int(out["ranks"][seat])
        shared = sum(1 for r in out["ranks"] if int(r) == rank) > 1
        head = "You won" if rank == 1 and not shared else f"You finished {ordinal(rank)}"
        tail = " (shared)" if shared else ""
        return [
            (head + tail, 30, True, GOOD if rank == 1 else INK),
            (" with ", 28, False, INK),
            (f"{p['score']} pts", NUMBER_TEXT, True, INK),
        ]
    of = v["offer"]
    if me["offer_for_me"] and of is not None:
        by = int(of["by"])
        return [
            ("▶ Answer ", 28, True, INK),
            name_run(c, by, 300),
            ("'s offer: accept or decline", 28, True, INK),
        ]
    if seat in (v["to_move"] or []):
        step = v["step"]
        what = "trade more or end the turn" if step == "trading" else "sell, bribe, buy, swap, offer or pass"
        return [("▶ Your turn: ", 28, True, INK), (what, 28, False, INK)]
    runs: list[Run] = [("Waiting for ", 28, False, MUTED)]
    for i, s in enumerate(v["to_move"] or []):
        if i:
            runs.append((", ", 28, False, MUTED))
        runs.append(name_run(c, int(s), 240))
    return runs


def draw_cards(img: Image.Image, d: ImageDraw.ImageDraw, c: Ctx, me: MeView, y: int) -> int:
    """The hand, sorted by id: cards just received marked "new"; in a reply the cards that may
    be given, for the offerer the cards offered, tagged under them."""
    hand = sorted(me["hand"] or [], key=lambda card: card_id_key(card["id"]))
    received = set(me["received"] or [])
    eligible = set(me["eligible"] or []) if me["offer_for_me"] else set()
    of = c.view["offer"]
    mine = of is not None and int(of["by"]) == int(me["seat"])
    offered = {card["id"] for card in of["give"] or []} if of is not None and mine else set()
    top = y + GAP
    k = len(hand)
    tags = bool(eligible or offered)
    h = PAD + 50 + CARD_H + (44 if tags else 0) + PAD
    panel(d, (X0, top, X1, top + h))
    mid = top + PAD + 16
    d.text((X0 + PAD, mid), f"{k}", font=font(NUMBER_TEXT, True), fill=INK, anchor="lm")
    kw = text_width(f"{k}", font(NUMBER_TEXT, True))
    d.text(
        (X0 + PAD + kw + 8, mid),
        f"card{'s' if k != 1 else ''} " + ("left in hand" if c.view["over"] else "in hand (limit 7)"),
        font=font(28, True),
        fill=INK,
        anchor="lm",
    )
    pr = int(me["profit"] or 0)
    pf = font(NUMBER_TEXT, True)
    d.text((X1 - PAD, mid), f"{pr}", font=pf, fill=INK, anchor="rm")
    profit_icon(d, X1 - PAD - text_width(f"{pr}", pf) - 44, mid - 17, 34)
    d.text(
        (X1 - PAD - text_width(f"{pr}", pf) - 52, mid),
        "profit cards",
        font=font(MIN_TEXT),
        fill=MUTED,
        anchor="rm",
    )
    cy = top + PAD + 50
    if not hand:
        d.text((X0 + PAD, cy + CARD_H / 2), "No cards", font=font(28), fill=MUTED, anchor="lm")
        return top + h
    gap = min(12, (X1 - X0 - 2 * PAD - k * CARD_W) // max(1, k - 1))  # seven cards fit
    x = X0 + PAD
    for card in hand:
        cid = card["id"]
        card_face(img, x, cy, CARD_W, CARD_H, card["items"] or card_goods(cid), cid=cid)
        if cid in received:
            mark_box(d, (x - 4, cy - 4, x + CARD_W + 4, cy + CARD_H + 4), radius=14, width=5)
            mark_tag(d, (x + CARD_W + 2, cy - 17), "new")
        if cid in eligible or cid in offered:
            word, fill = ("✓ give", GOOD) if cid in eligible else ("offered", MARK)
            d.rounded_rectangle((x, cy + CARD_H + 8, x + CARD_W, cy + CARD_H + 42), radius=12, fill=fill)
            t, f = fit(word, CARD_W - 10, MIN_TEXT, True)
            d.text((x + CARD_W / 2, cy + CARD_H + 25), t, font=f, fill=(255, 255, 255), anchor="mm")
        x += CARD_W + gap
    return top + h


def sale_words(row: SellNow) -> tuple[str, tuple[int, int, int]]:
    """'sell: 7 pts', 'need 2 more', 'no sale', 'none'."""
    items = int(row["items"] or 0)
    if not row["min"] and int(row["pos"] or 5) >= 5:
        return ("no sale at X" if items else "—"), MUTED
    if not items:
        return "none", MUTED
    if row["can_sell"]:
        pts = int(row["points"] or 0)
        return f"sell: {pts} pt{'s' if pts != 1 else ''}", GOOD
    need = int(row["min"] or 0) - items
    return f"need {need} more", MUTED


def _my_turn(c: Ctx, seat: int) -> bool:
    v = c.view
    opts = v["options"]
    return (
        seat == int(v["active"])
        and not v["over"]
        and (
            v["step"] == "main" or (v["step"] == "trading" and bool(opts["free_asking"]) and not v["traded"])
        )
    )


def _totals_heads(d: ImageDraw.ImageDraw, y: float, my_turn: bool) -> None:
    mf = font(MIN_TEXT)
    for x, word in ((X0 + PAD, "goods"), (X0 + 230, "price"), (X0 + 446, "in hand")):
        d.text((x, y), word, font=mf, fill=MUTED, anchor="lm")
    right = "if you sell now" if my_turn else "a sale would score"
    d.text((X1 - PAD, y), right, font=mf, fill=MUTED, anchor="rm")


def draw_totals(img: Image.Image, d: ImageDraw.ImageDraw, c: Ctx, me: MeView, y: int) -> int:
    """One row per goods in market order: the position with its bonus and minimum, the goods,
    the items in hand (on how many cards) and what selling every matching card now scores."""
    rows = sorted(me["sell_now"] or [], key=lambda r: int(r["pos"] or 9))
    top = y + GAP
    h = PAD + 36 + ROW_H * len(rows) + PAD - 6
    panel(d, (X0, top, X1, top + h))
    my_turn = _my_turn(c, int(me["seat"]))
    _totals_heads(d, top + PAD + 14, my_turn)
    yy = top + PAD + 36
    lock = lock_positions(c.view)
    for r in rows:
        mid = yy + ROW_H / 2 - 2
        pos = int(r["pos"] or 5)
        g = str(r["goods"])
        if bool(r["can_sell"]) and my_turn:
            d.rounded_rectangle((X0 + 6, yy, X1 - 6, yy + ROW_H - 4), radius=10, fill=mix(GOOD, PANEL, 0.88))
        nf = font(NUMBER_TEXT, True)
        d.text(
            (X0 + PAD + 14, mid),
            "X" if pos >= 5 else str(pos),
            font=nf,
            fill=DANGER if pos >= 5 else INK,
            anchor="mm",
        )
        icon = goods_icon(g, 42)
        img.paste(icon, (X0 + PAD + 40, round(mid - 21)), icon)
        d.text((X0 + PAD + 88, mid), goods_name(g), font=font(28, True), fill=INK, anchor="lm")
        if pos < 5:
            d.text((X0 + 230, mid), f"+{PRICES[pos - 1][0]}", font=nf, fill=INK, anchor="lm")
            d.text((X0 + 290, mid), f"min {r['min']}", font=nf, fill=INK, anchor="lm")
        if pos in lock:
            padlock(d, X0 + 402, mid - 16, 32, MUTED)
        items, cards = int(r["items"] or 0), int(r["cards"] or 0)
        d.text((X0 + 474, mid), str(items), font=nf, fill=INK if items else MUTED, anchor="rm")
        if items:
            d.text(
                (X0 + 482, mid),
                f"on {cards} card{'s' if cards != 1 else ''}",
                font=font(MIN_TEXT),
                fill=MUTED,
                anchor="lm",
            )
        words, col = sale_words(r)
        if col == GOOD and not my_turn:
            col = INK
        t, f = fit(words, 300, NUMBER_TEXT, True)
        d.text((X1 - PAD, mid), t, font=f, fill=col, anchor="rm")
        yy += ROW_H
    return top + h


def draw_extras(img: Image.Image, d: ImageDraw.ImageDraw, c: Ctx, me: MeView, y: int) -> int:
    """The score, the pile, the own lock card and the final turns left, in one line, the
    numbers at NUMBER_TEXT."""
    v = c.view
    seat = int(me["seat"])
    p = v["players"][seat]
    runs: list[Run] = [("Score ", 28, True, INK), (str(p["score"]), NUMBER_TEXT, True, INK)]
    runs += [(" · pile ", 28, False, INK), (str(v["pile"]), NUMBER_TEXT, True, INK)]
    fl = p["final_left"]
    if fl is not None and not v["over"]:
        runs += [(" · ", 28, False, INK), (str(fl), NUMBER_TEXT, True, DANGER)]
        runs.append((f" final turn{'s' if fl != 1 else ''} left", 28, True, DANGER))
    if me["lock_card"]:
        runs.append((f" · your lock card {me['lock_card']}", 28, False, MUTED))
    y += GAP
    draw_runs(img, d, X0 + 4, y + 18, runs)
    return y + 36


def hand_image(view: View, names: Sequence[str] | None = None) -> Image.Image:
    """The private view image of ``view["me"]``. A spectator view (no seat) gives a short
    notice instead of an error."""
    c = Ctx(view, names)
    me = view["me"]
    seat = view["viewer"] if not me else me["seat"]
    img, d = canvas(1600)
    if me is None or seat is None:
        y = frame.header(img, d, "Kathai", f"Turn {int(view['turn_no'] or 0)}")
        d.text((X0 + 4, y + 34), "Spectators hold no cards.", font=font(28), fill=MUTED, anchor="lm")
        return img.crop((0, 0, img.width, y + 70))
    seat = int(seat)
    y = draw_hand_header(img, d, c, seat)
    draw_runs(img, d, X0 + 4, y + 30, status_runs(c, me))
    y += 52
    y = draw_hand_offer(img, d, c, y, seat)
    y = draw_cards(img, d, c, me, y)
    if not view["over"]:  # at the end the result says it all
        y = draw_totals(img, d, c, me, y)
        y = draw_extras(img, d, c, me, y)
    return img.crop((0, 0, img.width, min(img.height, y + frame.MARGIN // 2)))


# --------------------------------------------------------------------------- the offer in a hand


def answers_runs(c: Ctx, of: OfferView, viewer: int) -> list[Run]:
    """'Bob declined · Cy to answer · Dee skipped' (the viewer as "you")."""
    awaiting = set(of["awaiting"] or [])
    declined = set(of["declined"] or [])
    runs: list[Run] = []
    entries = [
        (s, "to answer" if s in awaiting else "declined" if s in declined else "answered")
        for s in of["addressees"] or []
    ]
    entries += [(s, "skipped") for s in of["skipped"] or []]
    for i, (s, word) in enumerate(entries):
        if i:
            runs.append((" · ", MIN_TEXT, False, MUTED))
        who = "you" if s == viewer else c.names[s]
        runs.append((who, MIN_TEXT, True, seat_ink(s)))
        runs.append((f" {word}", MIN_TEXT, False, INK if word == "to answer" else MUTED))
    return runs


def grouped_answers(c: Ctx, of: OfferView, viewer: int) -> str:
    """'to answer: you, Ann · declined: Bartholomew… · skipped: Zoë' (names cut to 12)."""
    awaiting = set(of["awaiting"] or [])
    declined = set(of["declined"] or [])
    groups: dict[str, list[int]] = {}
    for s in of["addressees"] or []:
        word = "to answer" if s in awaiting else "declined" if s in declined else "answered"
        groups.setdefault(word, []).append(int(s))
    if of["skipped"]:
        groups["skipped"] = [int(s) for s in of["skipped"]]

    def short(s: int) -> str:
        name = "you" if s == viewer else c.names[s]
        return name if len(name) <= 12 else name[:11] + "…"

    return " · ".join(f"{word}: {', '.join(short(s) for s in seats)}" for word, seats in groups.items())


def draw_hand_offer(img: Image.Image, d: ImageDraw.ImageDraw, c: Ctx, y: int, viewer: int) -> int:
    """The offer panel of a hand: the offer line, the answers, and the offered cards for an
    addressee (the offerer sees them marked in its own hand)."""
    of = c.view["offer"]
    if not of:
        return y
    top = y + GAP
    give = of["give"] if int(of["by"]) != viewer else None
    h = PAD + 44 + 36 + (SALE_H + 12 if give else 0) + PAD
    panel(d, (X0, top, X1, top + h), outline=mix(ACCENT, PANEL, 0.2), width=4)
    mid = top + PAD + 22
    x = badge(d, c, int(of["by"]), X0 + PAD, mid)
    draw_runs(img, d, x, mid, offer_runs(c, of, int(X1 - PAD - x), viewer))
    runs = answers_runs(c, of, viewer)
    mid2 = mid + 42
    if runs:
        if runs_width(runs) > X1 - X0 - 2 * PAD:  # too long: the seats grouped by answer
            t, f = fit(grouped_answers(c, of, viewer), X1 - X0 - 2 * PAD, MIN_TEXT)
            d.text((X0 + PAD, mid2), t, font=f, fill=INK, anchor="lm")
        else:
            draw_runs(img, d, X0 + PAD, mid2, runs)
    if give:
        cy = mid2 + 22
        for i, card in enumerate(give):
            card_face(
                img,
                X0 + PAD + i * (SALE_W + 8),
                cy,
                SALE_W,
                SALE_H,
                card["items"] or card_goods(card["id"]),
            )
        gx = X0 + PAD + len(give) * (SALE_W + 8) + 8
        if X1 - PAD - gx >= 120:
            t, f = fit(f"what {c.names[int(of['by'])]} gives", X1 - PAD - gx, MIN_TEXT)
            d.text((gx, cy + SALE_H / 2), t, font=f, fill=MUTED, anchor="lm")
    return top + h
