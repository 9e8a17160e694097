"""Kathai board sections, each at a fixed place of a canvas of one fixed size (``layout.BOARD_H``
for every player count): the house header, the market (price cards, goods, the lock), the pile
and the last sale, the offer line, the seat cards and the legend. Each ``draw_*`` function
draws at ``y`` and returns the y below it.

Sizes follow the phone rule (a 1000 px board is seen at about 450 px): no text below
``MIN_TEXT`` (26 px), and the numbers a player decides by (prices, minimums, counts, scores) at
``NUMBER_TEXT`` (34 px) or more."""

from __future__ import annotations

from PIL import Image, ImageDraw

from engines.kathai.view import OfferView, SaleView
from render import frame
from render.common import (
    INK,
    LINE,
    MARK,
    MIN_TEXT,
    MUTED,
    NUMBER_TEXT,
    WIDTH,
    fit,
    font,
    mark_box,
    mark_tag,
    panel,
    seat_color,
    seat_ink,
    text_width,
)
from render.kathai.art import (
    DANGER,
    card_back,
    card_face,
    card_goods,
    card_id_key,
    goods_card,
    goods_icon,
    goods_name,
    price_card,
)
from render.kathai.layout import (
    COL_W,
    GAP,
    GOODS_H,
    LOCK_H,
    MARKET_H,
    OFFER_H,
    PAD,
    PRICE_H,
    SALE_H,
    SALE_W,
    SUPPLY_H,
    X0,
    X1,
    Ctx,
    Run,
    View,
    badge,
    draw_runs,
    lock_positions,
    market_cols,
    name_run,
    runs_width,
    stamped,
)

STEP_LABEL = {"main": "Turn", "reply": "Trade offer", "trading": "Trading", "over": "Game over"}


# --------------------------------------------------------------------------- header


def awaited_verb(v: View) -> str:
    step = v["step"]
    if step == "reply":
        return "to answer"
    if step == "trading":
        return "to trade or pass"
    return "to play"


def draw_header(img: Image.Image, d: ImageDraw.ImageDraw, c: Ctx) -> int:
    """The house header: KATHAI, the turn, a pill for the final turns (or the end), and the
    awaited seats (the winners at the end)."""
    v = c.view
    over = bool(v["over"])
    stage = f"Turn {int(v['turn_no'] or 0)}"
    if over:
        winners = list(v["outcome"]["winners"]) if v["outcome"] is not None else []
        label = "winners" if len(winners) > 1 else "winner"
        return frame.header(
            img, d, "Kathai", stage, pill="Game over", label=label, seats=winners, names=c.names, over=True
        )
    pill = "Final turns" if v["final"] is not None else None
    seats = list(v["to_move"] or [])
    return frame.header(
        img,
        d,
        "Kathai",
        stage,
        pill=pill,
        pill_fill=DANGER,
        label=awaited_verb(v),
        seats=seats,
        names=c.names,
    )


# --------------------------------------------------------------------------- market


def draw_market(img: Image.Image, d: ImageDraw.ImageDraw, c: Ctx, y: int, labels: dict[str, str]) -> int:
    """The five price cards, the goods under them and the lock bridging its pair; goods that
    moved since the previous board are outlined and tagged."""
    v = c.view
    top = y + GAP
    panel(d, (X0, top, X1, top + MARKET_H))
    xs = market_cols()
    gy = top + PAD + PRICE_H + 8
    for slot in sorted(v["market"] or [], key=lambda s: int(s["pos"])):
        i = int(slot["pos"]) - 1
        x = xs[i]
        g, dim = str(slot["goods"]), not slot["sellable"]
        stamped(
            img,
            x,
            top + PAD,
            COL_W + 1,
            PRICE_H + 1,
            ("price", i),
            lambda im, dd, px, py, i=i: price_card(dd, px, py, COL_W, PRICE_H, i + 1),
        )
        stamped(
            img,
            x,
            gy,
            COL_W + 1,
            GOODS_H + 1,
            ("goods", g, dim),
            lambda im, dd, px, py, g=g, dim=dim: goods_card(im, dd, px, py, COL_W, GOODS_H, g, dim),
        )
        if f"market:{i + 1}" in labels:
            mark_box(d, (x - 5, gy - 5, x + COL_W + 5, gy + GOODS_H + 5))
            mark_tag(d, (x + COL_W - 4, gy - 12), labels[f"market:{i + 1}"])
    pos = lock_positions(v)
    if pos:
        _draw_lock(img, d, c, xs, gy + GOODS_H, pos, labels)
    else:
        d.text(
            (WIDTH / 2, gy + GOODS_H + LOCK_H / 2), "no lock", font=font(MIN_TEXT), fill=MUTED, anchor="mm"
        )
    return top + MARKET_H


def _draw_lock(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    c: Ctx,
    xs: list[int],
    ly: int,
    pos: list[int],
    labels: dict[str, str],
) -> None:
    """The face-down bribe card under the locked pair, ringed in its placer's colour, with
    brackets up to both goods and "locked by <name>" beside it."""
    v = c.view
    a, b = pos
    lock = v["lock"]
    by = int(lock["by"]) if lock is not None else 0
    col = seat_color(by)
    ca, cb = xs[a - 1] + COL_W / 2, xs[b - 1] + COL_W / 2
    cw, ch = 76, 44
    cx0, cy0 = (ca + cb) / 2 - cw / 2, ly + 10
    mid = cy0 + ch / 2
    for cx in (ca, cb):
        d.line((cx, ly, cx, mid), fill=col, width=5)
    d.line((ca, mid, cx0, mid), fill=col, width=5)
    d.line((cx0 + cw, mid, cb, mid), fill=col, width=5)
    card_back(d, cx0, cy0, cw, ch, ring=col, ring_w=4)
    frame.seat_badge(d, (cx0 + cw / 2, mid), by, c.tags[by], 17)
    right = b <= 3
    lx0, lx1 = (cb + 20, X1 - PAD) if right else (X0 + PAD, ca - 20)
    runs: list[Run] = [("locked by ", MIN_TEXT, False, MUTED), name_run(c, by, int(lx1 - lx0 - 130))]
    w = runs_width(runs)
    x = lx0 if right else lx1 - w
    if "lock" in labels:
        mark_box(d, (cx0 - 8, cy0 - 8, cx0 + cw + 8, cy0 + ch + 8), radius=10, width=4)
    draw_runs(img, d, x, mid, runs)


# --------------------------------------------------------------------------- pile / last sale


def draw_supply(img: Image.Image, d: ImageDraw.ImageDraw, c: Ctx, y: int, labels: dict[str, str]) -> int:
    """The pile (red when low), the face-down count, and the last sale with its cards."""
    v = c.view
    top = y + GAP
    panel(d, (X0, top, X1, top + SUPPLY_H))
    x, yy = X0 + PAD, top + PAD
    pile = int(v["pile"] or 0)
    low = bool(v["pile_low"])
    stamped(
        img, x + 4, yy + 6, 65, 93, ("back", 64, 92), lambda im, dd, px, py: card_back(dd, px, py, 64, 92)
    )
    if "pile" in labels:
        mark_box(d, (x - 2, yy, x + 74, yy + 104), radius=10, width=4)
    d.text((x + 86, yy + 34), str(pile), font=font(48, True), fill=DANGER if low else INK, anchor="lm")
    d.text(
        (x + 86, yy + 80), "in pile", font=font(MIN_TEXT, True), fill=DANGER if low else MUTED, anchor="lm"
    )
    down = int(v["discard_down"] or 0)
    stamped(
        img, x + 4, yy + 122, 31, 43, ("back", 30, 42), lambda im, dd, px, py: card_back(dd, px, py, 30, 42)
    )
    d.text((x + 44, yy + 143), f"{down} face down", font=font(MIN_TEXT), fill=MUTED, anchor="lm")
    sx = X0 + PAD + 244
    d.line((sx - 14, top + 12, sx - 14, top + SUPPLY_H - 12), fill=LINE, width=2)
    sale = v["last_sale"]
    if not sale:
        d.text((sx, top + SUPPLY_H / 2), "No sale yet", font=font(30, True), fill=MUTED, anchor="lm")
        return top + SUPPLY_H
    if "sale" in labels:
        mark_box(d, (sx - 8, top + 5, X1 - 5, top + SUPPLY_H - 5))
        mark_tag(d, (X1 - 14, top - 12), "just sold")
    _draw_sale(img, d, c, sx, top, sale)
    return top + SUPPLY_H


def _draw_sale(img: Image.Image, d: ImageDraw.ImageDraw, c: Ctx, sx: float, top: int, sale: SaleView) -> None:
    """'<badge> Ann sold <salt> Salt at 2    4 cards + 2 = 6 pts' over the sold cards."""
    s, g = int(sale["seat"]), str(sale["goods"])
    count = int(sale["count"] or len(sale["cards"] or []))
    pts = int(sale["points"])
    mid = top + PAD + 20
    head: list[Run] = [
        (" sold ", 28, False, INK),
        (goods_icon(g, 36), 4),
        (goods_name(g), 28, True, INK),
        (f" at {sale['pos']}", 28, False, INK),
    ]
    rf = font(NUMBER_TEXT, True)
    unit = "pt" if pts == 1 else "pts"
    right = f"{count} card{'s' if count != 1 else ''} + {sale['bonus']} = {pts} {unit}"
    room = int(X1 - PAD - text_width(right, rf) - 16 - sx - 42 - runs_width(head))
    if room < min(160, text_width(c.names[s], font(28, True))):
        right = f"{count} + {sale['bonus']} = {pts} {unit}"
        room = int(X1 - PAD - text_width(right, rf) - 16 - sx - 42 - runs_width(head))
    d.text((X1 - PAD, mid), right, font=rf, fill=INK, anchor="rm")
    x = badge(d, c, s, sx, mid)
    draw_runs(img, d, x, mid, [name_run(c, s, room), *head] if room >= 50 else head[1:])
    cards = sorted(sale["cards"] or [], key=card_id_key)
    k = max(1, len(cards))
    room_w = X1 - PAD - sx
    cw = min(SALE_W, int((room_w - 8 * (k - 1)) / k))
    cy = top + SUPPLY_H - PAD - SALE_H
    for i, cid in enumerate(cards):
        card_face(img, sx + i * (cw + 8), cy, cw, SALE_H, card_goods(cid), highlight=g)


# --------------------------------------------------------------------------- the offer line


def offer_runs(c: Ctx, of: OfferView, room: int, viewer: int | None = None) -> list[Run]:
    """'Zoë offers 3 cards to all for 4 [spices] Spices' as runs, numbers at NUMBER_TEXT."""
    by = int(of["by"])
    n_give, k = int(of["give_count"] or 0), int(of["k"] or 0)
    want = str(of["want"] or "any")
    to = str(of["to"] or "all")
    rest: list[Run] = [(" offers ", 28, False, INK), (str(n_give), NUMBER_TEXT, True, INK)]
    rest.append((f" card{'s' if n_give != 1 else ''}", 28, False, INK))
    tail: list[Run] = [(" for ", 28, False, INK), (str(k), NUMBER_TEXT, True, INK), (" ", 28, False, INK)]
    if want == "any":
        tail.append((f"card{'s' if k != 1 else ''} of any goods", 28, False, INK))
    else:
        tail += [(goods_icon(want, 36), 4), (goods_name(want), 28, True, INK)]
    free = int(room - runs_width(rest) - runs_width(tail))
    if to != "all" and to.startswith("s") and to[1:].isdigit() and int(to[1:]) == viewer:
        rest.append((" to you", 28, True, seat_ink(viewer)))
        free -= int(runs_width(rest[-1:]))
    elif to != "all" and to.startswith("s") and to[1:].isdigit():
        rest.append(name_run(c, int(to[1:]), max(60, free // 2), prefix=" to "))
        free -= int(runs_width(rest[-1:]))
    return [name_run(c, by, max(60, free)), *rest, *tail]


def draw_offer(img: Image.Image, d: ImageDraw.ImageDraw, c: Ctx, y: int, labels: dict[str, str]) -> int:
    """One line: the open offer (the answers are on the seat cards), else what the turn did;
    at the end, how the ranking was made."""
    v = c.view
    top = y + GAP
    of = v["offer"]
    mid = top + OFFER_H / 2
    panel(
        d,
        (X0, top, X1, top + OFFER_H),
        outline=MARK if "offer" in labels else LINE,
        width=4 if "offer" in labels else 2,
    )
    used, mx = int(v["offers_used"] or 0), int(v["max_offers"] or 0)
    asks = f"ask {used} of {mx}" if mx and not v["over"] else ""
    aw = text_width(asks, font(MIN_TEXT)) + 20 if asks else 0
    if asks:
        d.text((X1 - PAD, mid), asks, font=font(MIN_TEXT), fill=MUTED, anchor="rm")
    if of:
        x = badge(d, c, int(of["by"]), X0 + PAD, mid)
        draw_runs(img, d, x, mid, offer_runs(c, of, int(X1 - PAD - aw - x)))
        return top + OFFER_H
    if v["over"]:
        out = v["outcome"]
        note = "Ranked by points, then by profit cards"
        if out is not None and out["reason"] == "turn_limit":
            note = f"Ended at the turn limit ({v['turn_limit']}); ranked by points"
        d.text((X0 + PAD, mid), note, font=font(28), fill=MUTED, anchor="lm")
        return top + OFFER_H
    a = int(v["active"])
    if v["traded"]:
        runs: list[Run] = [name_run(c, a, 400), (" traded this turn", 28, False, MUTED)]
    elif v["step"] == "trading":
        runs = [("Nobody took ", 28, False, MUTED), name_run(c, a, 400), ("'s offer", 28, False, MUTED)]
    else:
        runs = [("No offer open", 28, False, MUTED)]
    x = draw_runs(img, d, X0 + PAD, mid, runs)
    rules = option_words(v)
    room = int(X1 - PAD - aw - x - 24)
    if rules and room >= 120:  # the variants in play, where the line has room
        t, f = fit(" · " + rules, room, MIN_TEXT)
        d.text((x, mid), t, font=f, fill=MUTED, anchor="lm")
    return top + OFFER_H


def option_words(v: View) -> str:
    """The options that differ from the defaults ("free asking, gifts"), "" when none do."""
    o = v["options"]
    bits = []
    if o["free_asking"]:
        bits.append("free asking")
    if o["allow_gifts"]:
        bits.append("gifts")
    if o["bribe_lock"] == "goods":
        bits.append("lock holds both goods")
    if o["turn_limit"] not in (None, 200):
        bits.append(f"turn limit {o['turn_limit']}")
    return ", ".join(bits)
