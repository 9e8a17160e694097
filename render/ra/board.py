"""Ra board sections: header band, headline, the table (Ra track, centre sun, bag, auction track),
the auction and discard panels, and one seat's row. Each ``draw_*`` function draws at ``y`` and
returns the y below what it drew, so callers stack sections on a tall canvas and crop."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from engines.base import format_text
from engines.ra.view import PendingView, PlayerView, RaView
from render.common import (
    ACCENT,
    BG,
    GOOD,
    INK,
    LINE,
    MUTED,
    PANEL,
    WIDTH,
    draw_text,
    fit,
    font,
    mix,
    ordinal,
    panel,
    seat_color,
    seat_ink,
    text_width,
    wrap,
)
from render.ra.art import CATEGORY_COLOR, CIVS, DANGER, MONUMENTS, chip, icon, paste, ra_slot, sun, track_tile

M = 20  # outer margin
X0, X1 = M, WIDTH - M  # panel edges
PAD = 20  # inner padding of panels
HEADER_BG = (54, 44, 36)
CREAM = (250, 242, 226)
GOLDEN = (244, 196, 72)
NEUTRAL = (128, 122, 115)  # grey pills (passed, out of suns, lower ranks)

STEP_LABEL = {
    "turn": "Turn",
    "god_more": "Gods",
    "auction": "Auction",
    "discard": "Discard",
    "over": "Game over",
}
STEP_VERB = {
    "turn": "to play",
    "god_more": "to play",
    "auction": "to bid",
    "discard": "to discard",
    "over": "",
}
KIND_LABEL = {"ra_tile": "Ra tile drawn", "voluntary": "Ra invoked", "full": "Ra invoked · full track"}
LINE1 = (("god", "gold", "pharaoh"), ("nile", "flood"), CIVS)
LINE2 = (MONUMENTS, ("trader", "crate"))


def fmt(text: str | None, names: Sequence[str]) -> str:
    """Engine text with ``{sN}`` replaced by names ('' for None)."""
    return format_text(text or "", list(names))


def awaited_label(view: RaView) -> str:
    """'to play', 'to bid'… for the step the game is in."""
    return STEP_VERB.get(view.get("step", ""), "to play")


# --------------------------------------------------------------------------- header


def draw_header(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    view: RaView,
    names: Sequence[str],
    right_label: str | None = None,
    right_seats: Sequence[int] | None = None,
    title: str | None = None,
) -> int:
    """The dark band: sun, "RA", epoch with pips, step pill; on the right the awaited seats (or
    ``right_label`` with ``right_seats``). Returns the y below the band."""
    h = 68
    d.rectangle((0, 0, WIDTH, h), fill=HEADER_BG)
    paste(img, icon("sun", 42, GOLDEN), M, 13)
    x = M + 52
    d.text((x, h / 2), "RA", font=font(32, True), fill=GOLDEN, anchor="lm")
    x += text_width("RA", font(32, True)) + 18
    if title:
        d.text((x, h / 2), title, font=font(24, True), fill=CREAM, anchor="lm")
        x += text_width(title, font(24, True)) + 16
    else:
        epoch = int(view.get("epoch", 1))
        title = f"Epoch {epoch}"
        d.text((x, h / 2), title, font=font(24, True), fill=CREAM, anchor="lm")
        x += text_width(title, font(24, True)) + 10
        for i in range(3):
            fill = GOLDEN if i < epoch else None
            d.ellipse((x, h / 2 - 6, x + 12, h / 2 + 6), fill=fill, outline=GOLDEN, width=2)
            x += 17
        x += 12
        step = STEP_LABEL.get(view.get("step", ""), str(view.get("step", "")))
        f = font(18, True)
        w = text_width(step, f) + 22
        d.rounded_rectangle(
            (x, h / 2 - 15, x + w, h / 2 + 15), radius=15, fill=GOOD if view.get("over") else ACCENT
        )
        d.text((x + w / 2, h / 2), step, font=f, fill=(255, 255, 255), anchor="mm")
        x += w + 16
    seats = list(view.get("to_move") or []) if right_seats is None else list(right_seats)
    label = awaited_label(view) if right_label is None else right_label
    if seats:
        room = WIDTH - M - x
        per = max(60, (room - text_width(label, font(18)) - 12) // len(seats) - 8)
        xr = WIDTH - M
        for s in reversed(seats):
            t, f = fit(names[s], min(per - 20, 300), 18, True, min_size=13)
            w = text_width(t, f) + 20
            d.rounded_rectangle((xr - w, h / 2 - 16, xr, h / 2 + 16), radius=16, fill=seat_color(s))
            d.text((xr - w / 2, h / 2), t, font=f, fill=(255, 255, 255), anchor="mm")
            xr -= w + 8
        if label:
            d.text((xr - 4, h / 2), label, font=font(18), fill=CREAM, anchor="rm")
    return h


def draw_headline(d: ImageDraw.ImageDraw, view: RaView, names: Sequence[str], y: int) -> int:
    """The engine's one-line summary (names filled in), wrapped to at most two lines."""
    s = fmt(view.get("headline"), names)
    if not s:
        return y
    f = font(19)
    lines = wrap(s, X1 - X0 - 8, f)[:2]
    y += 12
    for line in lines:
        d.text((X0 + 4, y), line, font=f, fill=INK)
        y += 26
    return y + 2


# --------------------------------------------------------------------------- table


def draw_table(img: Image.Image, d: ImageDraw.ImageDraw, view: RaView, y: int, tile_w: int = 108) -> int:
    """The Ra track, the centre sun, the bag, and the 8-slot auction track. Returns the y below."""
    top = y + 12
    track = list(view.get("track") or [])
    th = tile_w
    h = PAD + 60 + 14 + 26 + th + PAD
    panel(d, (X0, top, X1, top + h))
    x, yy = X0 + PAD, top + PAD
    limit = int(view.get("ra_limit") or 0)
    filled = int(view.get("ra_track") or 0)
    d.text((x, yy + 2), "Ra track", font=font(17, True), fill=MUTED)
    d.text((x, yy + 24), f"{filled} / {limit}", font=font(26, True), fill=INK)
    sx = x + 118
    size = 40 if limit <= 8 else 36
    for i in range(limit):
        ra_slot(img, d, sx + i * (size + 6), yy + 10, size, i < filled, i == limit - 1)
    # centre sun and bag, right-aligned
    xr = X1 - PAD
    bag_total = int(view.get("bag_total") or 0)
    bt = str(bag_total)
    bw = max(text_width(bt, font(26, True)), text_width("in bag", font(17, True)))
    d.text((xr, yy + 2), "in bag", font=font(17, True), fill=MUTED, anchor="ra")
    d.text((xr, yy + 24), bt, font=font(26, True), fill=INK, anchor="ra")
    paste(img, icon("bag", 46, (150, 118, 80)), xr - bw - 54, yy + 6)
    xr -= bw + 54 + 28
    d.text((xr, yy + 2), "Centre", font=font(17, True), fill=MUTED, anchor="ra")
    d.text((xr, yy + 24), "sun", font=font(17, True), fill=MUTED, anchor="ra")
    sun(
        img, d, xr - text_width("Centre", font(17, True)) - 70, yy - 2, 62, int(view.get("center") or 0), True
    )
    # auction track
    yy += 60 + 14
    d.text((x, yy), f"Auction track  {len(track)} / 8", font=font(17, True), fill=MUTED)
    yy += 26
    gap = (X1 - X0 - 2 * PAD - 8 * tile_w) / 7
    for i in range(8):
        track_tile(
            img, d, x + i * (tile_w + gap), yy, tile_w, th, track[i] if i < len(track) else None, i + 1
        )
    return top + h


# --------------------------------------------------------------------------- auction / discard


def draw_auction(img: Image.Image, d: ImageDraw.ImageDraw, view: RaView, names: Sequence[str], y: int) -> int:
    """The running auction: kind, Ra player, forced flag, high bid, and one box per bidder in
    order (bid, passed, bidding now, waiting). Returns the y below (unchanged if no auction)."""
    a = view.get("auction")
    if not a:
        return y
    top = y + 12
    order = list(a.get("order") or [])
    h = PAD + 40 + 14 + 84 + PAD
    panel(d, (X0, top, X1, top + h), outline=mix(ACCENT, PANEL, 0.35), width=3)
    x, yy = X0 + PAD, top + PAD
    rp = int(a.get("ra_player", view.get("current", 0)))
    kind = KIND_LABEL.get(a.get("kind", ""), str(a.get("kind", "")))
    f = font(22, True)
    d.text((x, yy + 20), "Auction", font=f, fill=ACCENT, anchor="lm")
    x += text_width("Auction", f) + 14
    by = f"{kind} by "
    d.text((x, yy + 20), by, font=font(20), fill=INK, anchor="lm")
    x += text_width(by, font(20))
    high = a.get("high")
    right = X1 - PAD
    # high bid at the right
    if high:
        hs = names[int(high["seat"])]
        t, hf = fit(hs, 320, 20, True, min_size=15)
        d.text((right, yy + 20), t, font=hf, fill=seat_ink(int(high["seat"])), anchor="rm")
        right -= text_width(t, hf) + 8
        sun(img, d, right - 40, yy, 40, int(high["sun"]), True)
        right -= 48
        d.text((right, yy + 20), "High bid", font=font(18, True), fill=MUTED, anchor="rm")
        right -= text_width("High bid", font(18, True)) + 16
    else:
        t = "No bid yet"
        d.text((right, yy + 20), t, font=font(19, True), fill=MUTED, anchor="rm")
        right -= text_width(t, font(19, True)) + 16
    if a.get("forced"):
        t = "forced bid"
        fw = text_width(t, font(17, True)) + 22
        d.rounded_rectangle((right - fw, yy + 5, right, yy + 35), radius=15, fill=DANGER)
        d.text((right - fw / 2, yy + 20), t, font=font(17, True), fill=(255, 255, 255), anchor="mm")
        right -= fw + 12
    t, nf = fit(names[rp], max(60, right - x - 8), 20, True, min_size=14)
    d.text((x, yy + 20), t, font=nf, fill=seat_ink(rp), anchor="lm")
    # one box per bidder, in bidding order
    yy += 40 + 14
    acted = {int(b["seat"]): b.get("sun") for b in a.get("bids") or []}
    to_bid = list(a.get("to_bid") or [])
    n = max(1, len(order))
    gap = 10
    bw = min(300, (X1 - X0 - 2 * PAD - gap * (n - 1)) // n)
    bx = X0 + PAD
    for i, s in enumerate(order):
        now = bool(to_bid) and to_bid[0] == s
        col = seat_color(s)
        box = (bx, yy, bx + bw, yy + 84)
        if now:
            d.rounded_rectangle(box, radius=10, fill=mix(col, PANEL, 0.85), outline=col, width=4)
        else:
            d.rounded_rectangle(box, radius=10, fill=PANEL, outline=LINE, width=2)
        d.text((bx + 12, yy + 10), f"{i + 1}", font=font(16, True), fill=MUTED)
        t, nf = fit(names[s], bw - 40 - (26 if s == rp else 0), 18, True, min_size=15)
        d.text((bx + 32, yy + 9), t, font=nf, fill=seat_ink(s))
        ly = yy + 54
        if s in acted:
            v = acted[s]
            if v is None:
                d.text((bx + 14, ly), "passed", font=font(19), fill=MUTED, anchor="lm")
            else:
                d.text((bx + 14, ly), "bid", font=font(19), fill=INK, anchor="lm")
                sun(img, d, bx + 14 + text_width("bid ", font(19)), ly - 17, 34, int(v), True)
        elif s == rp and a.get("forced"):
            t, tf = fit("must bid now" if now else "must bid if all pass", bw - 24, 19, True, min_size=14)
            d.text((bx + 14, ly), t, font=tf, fill=DANGER, anchor="lm")
        elif now:
            d.text((bx + 14, ly), "bidding now", font=font(19, True), fill=mix(col, INK, 0.45), anchor="lm")
        else:
            d.text((bx + 14, ly), "waiting", font=font(19), fill=mix(MUTED, PANEL, 0.2), anchor="lm")
        if s == rp:
            d.text((bx + bw - 10, yy + 10), "Ra", font=font(16, True), fill=CATEGORY_COLOR["ra"], anchor="ra")
        bx += bw + gap
    return top + h


def owed_text(p: PendingView) -> str:
    """'2 Nile/flood, 1 civilization and 2 monument tiles' for a pending-discard record."""
    owed = ((p.get("river"), "Nile/flood"), (p.get("civ"), "civilization"), (p.get("monument"), "monument"))
    parts = [f"{k} {w}" for k, w in owed if k]
    if not parts:
        return "tiles"
    total = sum(int(k or 0) for k, _w in owed)
    head = ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]
    return head + (" tiles" if total != 1 else " tile")


def draw_pending(d: ImageDraw.ImageDraw, view: RaView, names: Sequence[str], y: int) -> int:
    """The discards a disaster still demands (DISCARD step). Returns the y below."""
    p = view.get("pending")
    if not p:
        return y
    top = y + 12
    h = 58
    panel(d, (X0, top, X1, top + h), outline=mix(DANGER, PANEL, 0.4), width=3)
    s = names[int(p["seat"])] + " must discard " + owed_text(p)
    lw = draw_text(d, (X0 + PAD, top + h / 2), "Disaster", 20, DANGER, True, "lm") + 14
    draw_text(d, (X0 + PAD + lw, top + h / 2), s, 20, INK, False, "lm", max_width=X1 - X0 - 2 * PAD - lw)
    return top + h


# --------------------------------------------------------------------------- seat rows


def seat_status(view: RaView, s: int) -> list[tuple[str, tuple[int, int, int], tuple[int, int, int]]]:
    """Little status pills for seat ``s``: (text, fill, text colour)."""
    out = []
    white = (255, 255, 255)
    a = view.get("auction")
    p = view["players"][s]
    if s in (view.get("to_move") or []):
        out.append(("▶ " + awaited_label(view), seat_color(s), white))
    if a:
        if int(a.get("ra_player", -1)) == s:
            out.append(("Ra player", CATEGORY_COLOR["ra"], white))
        for b in a.get("bids") or []:
            if int(b["seat"]) == s:
                out.append(
                    ("passed", NEUTRAL, white)
                    if b.get("sun") is None
                    else (f"bid {b['sun']}", (176, 124, 14), white)
                )
    elif s == view.get("current") and not view.get("over") and s not in (view.get("to_move") or []):
        out.append(("current", NEUTRAL, white))
    if not p.get("up") and not view.get("over"):
        out.append(("out of suns", NEUTRAL, white))
    out_ = view.get("outcome")
    if view.get("over") and out_:
        rank = out_["ranks"][s]
        win = s in out_.get("winners", [])
        out.append((("winner" if win else ordinal(rank)), GOOD if win else NEUTRAL, white))
    return out


def draw_chips(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    p: PlayerView,
    x: float,
    y: float,
    w: int,
    h: int,
    traders: bool,
    small_gap: int = 4,
    big_gap: int = 14,
    captions: bool = False,
) -> float:
    """The held tiles in two lines of fixed slots, grouped as scoring groups them. Returns the y
    below. With ``captions``, each group gets a short caption above it."""
    tiles = p.get("tiles") or {}
    counts = dict(tiles)
    counts["trader"] = int(p.get("traders", tiles.get("trader", 0)) or 0)
    counts["crate"] = int(p.get("crates", 0) or 0)
    lines = (LINE1, LINE2 if traders else (MONUMENTS,))
    for groups in lines:
        cx = x
        if captions:
            for g in groups:
                gw = len(g) * w + (len(g) - 1) * small_gap
                cap = group_caption(g, counts)
                t, f = fit(cap, gw, 16, True, min_size=12)
                d.text((cx, y), t, font=f, fill=MUTED)
                cx += gw + big_gap
            y += 22
            cx = x
        for g in groups:
            for code in g:
                chip(img, d, cx, y, w, h, code, int(counts.get(code, 0)), show_zero=code in ("pharaoh",))
                cx += w + small_gap
            cx += big_gap - small_gap
        y += h + 8
    return y - 8


def group_caption(g: Sequence[str], counts: Mapping[str, int]) -> str:
    """A caption for a chip group: 'Civilizations · 3 types' and the like."""
    if g == CIVS:
        k = sum(1 for c in CIVS if counts.get(c))
        return f"Civilizations · {k} type{'s' if k != 1 else ''}"
    if g == MONUMENTS:
        k = sum(1 for c in MONUMENTS if counts.get(c))
        return f"Monuments · {k} type{'s' if k != 1 else ''}"
    if tuple(g) == ("nile", "flood"):
        return "Nile · flood"
    if tuple(g) == ("trader", "crate"):
        return "Traders"
    return "Gods · gold · pharaohs"


def draw_seat_row(
    img: Image.Image, d: ImageDraw.ImageDraw, view: RaView, names: Sequence[str], s: int, y: int
) -> int:
    """One seat's row on the board: name, score, suns, status pills; held tiles on the right.
    The awaited seat is outlined in its colour. Returns the y below."""
    p = view["players"][s]
    traders = bool((view.get("options") or {}).get("traders", True))
    top = y + 10
    cw, ch = 55, 58
    h = 146  # two chip lines (58 + 8 + 58) plus padding; also fits name, suns and pills
    col = seat_color(s)
    awaited = s in (view.get("to_move") or [])
    panel(d, (X0, top, X1, top + h), outline=col if awaited else LINE, width=4 if awaited else 2)
    d.rounded_rectangle((X0 + 2, top + 2, X0 + 12, top + h - 2), radius=5, fill=col)
    x = X0 + 24
    lw = 300
    t, nf = fit(names[s], lw, 22, True, min_size=16)
    d.text((x, top + 12), t, font=nf, fill=seat_ink(s))
    # suns, then the score at the right of the left block
    ups, downs = list(p.get("up") or []), list(p.get("down") or [])
    dsz = 40
    sx = x
    for v in ups:
        sun(img, d, sx, top + 50, dsz, int(v), True)
        sx += dsz + 6
    for v in downs:
        sun(img, d, sx, top + 50, dsz, int(v), False)
        sx += dsz + 6
    score = p.get("score")
    st = "?" if score is None else str(score)
    d.text((x + lw - 2, top + 70), st, font=font(32, True), fill=INK, anchor="rm")
    d.text((x + lw - 2, top + 113), "points", font=font(16), fill=MUTED, anchor="rm")
    # status pills
    px = x
    for text, fill, fg in seat_status(view, s):
        f = font(16, True)
        w = text_width(text, f) + 18
        if px + w > x + lw - 60:
            break
        d.rounded_rectangle((px, top + 100, px + w, top + 126), radius=13, fill=fill)
        d.text((px + w / 2, top + 113), text, font=f, fill=fg, anchor="mm")
        px += w + 6
    # tiles
    draw_chips(img, d, p, x + lw + 16, top + 14, cw, ch, traders)
    return top + h


def draw_footer(d: ImageDraw.ImageDraw, view: RaView, y: int) -> int:
    """A muted last line: tiles out of the game and the options that differ from the defaults."""
    opts = view.get("options") or {}
    box = sum(int(v) for v in (view.get("box") or {}).values())
    bits = [f"Out of the game: {box} tiles", "Traders " + ("on" if opts.get("traders", True) else "off")]
    if opts.get("hidden_scores"):
        bits.append("hidden scores")
    if opts.get("god_takes_disaster"):
        bits.append("gods take disasters")
    if opts.get("score_floor_zero") is False:
        bits.append("no score floor")
    y += 10
    draw_text(d, (X0 + 4, y), "  ·  ".join(bits), 16, MUTED, max_width=X1 - X0 - 8)
    return y + 28


def new_canvas(height: int = 2400) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A tall canvas to draw on; crop it with :func:`crop` once the height is known."""
    img = Image.new("RGB", (WIDTH, height), BG)
    return img, ImageDraw.Draw(img)


def crop(img: Image.Image, y: int) -> Image.Image:
    """``img`` cut to height ``y`` plus the bottom margin."""
    return img.crop((0, 0, WIDTH, min(img.height, y + M)))
