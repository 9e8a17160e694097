"""Ra board sections: header band, headline, the table (Ra track, centre sun, bag, auction track),
the auction and discard panels, the group labels, and one seat's row. Each ``draw_*`` function
draws at ``y`` and returns the y below what it drew, so callers stack sections on a tall canvas
and crop. Sizes are for a phone: primary text (names, tile names, scores, whose turn) at 28 px or
more, nothing under 20 px. ``marks`` (see ``render.ra.marks``) are outlined and tagged."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from engines.base import format_text
from engines.ra.view import PendingView, PlayerView, RaView
from render.common import (
    ACCENT,
    GOOD,
    INK,
    LINE,
    MUTED,
    PANEL,
    WIDTH,
    canvas,
    crop_to,
    draw_text,
    fit,
    font,
    mark_box,
    mark_tag,
    mix,
    on_color,
    ordinal,
    panel,
    seat_color,
    seat_ink,
    text_width,
    wrap,
)
from render.ra.art import (
    CATEGORY_COLOR,
    CIVS,
    DANGER,
    MONUMENTS,
    chip,
    icon,
    paste,
    ra_slot,
    sun,
    track_tile,
)

M = 20  # outer margin
X0, X1 = M, WIDTH - M  # panel edges
PAD = 20  # inner padding of panels
HEADER_BG = (54, 44, 36)
CREAM = (250, 242, 226)
GOLDEN = (244, 196, 72)
NEUTRAL = (112, 106, 99)  # grey pills (passed, out of suns, lower ranks)
SUN_PILL = (150, 104, 10)  # a bid's pill

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
    h = 64
    d.rectangle((0, 0, WIDTH, h), fill=HEADER_BG)
    paste(img, icon("sun", 40, GOLDEN), M, 12)
    x = M + 48
    d.text((x, h / 2), "RA", font=font(32, True), fill=GOLDEN, anchor="lm")
    x += text_width("RA", font(32, True)) + 16
    tf = font(28, True)
    if title:
        t, tf = fit(title, 420, 28, True)
        d.text((x, h / 2), t, font=tf, fill=CREAM, anchor="lm")
        x += text_width(t, tf) + 16
    else:
        epoch = int(view.get("epoch", 1))
        title = f"Epoch {epoch}"
        d.text((x, h / 2), title, font=tf, fill=CREAM, anchor="lm")
        x += text_width(title, tf) + 10
        for i in range(3):
            fill = GOLDEN if i < epoch else None
            d.ellipse((x, h / 2 - 7, x + 14, h / 2 + 7), fill=fill, outline=GOLDEN, width=2)
            x += 19
        x += 10
        step = STEP_LABEL.get(view.get("step", ""), str(view.get("step", "")))
        f = font(24, True)
        w = text_width(step, f) + 24
        d.rounded_rectangle(
            (x, h / 2 - 18, x + w, h / 2 + 18), radius=18, fill=GOOD if view.get("over") else ACCENT
        )
        d.text((x + w / 2, h / 2), step, font=f, fill=(255, 255, 255), anchor="mm")
        x += w + 16
    seats = list(view.get("to_move") or []) if right_seats is None else list(right_seats)
    label = awaited_label(view) if right_label is None else right_label
    if seats:
        lf = font(24)
        room = WIDTH - M - x - (text_width(label, lf) + 12 if label else 0)
        per = max(70, room // len(seats) - 8)
        xr = WIDTH - M
        for s in reversed(seats):
            t, f = fit(names[s], min(per - 20, 300), 28, True)
            w = text_width(t, f) + 22
            col = seat_color(s)
            d.rounded_rectangle((xr - w, h / 2 - 20, xr, h / 2 + 20), radius=20, fill=col)
            d.text((xr - w / 2, h / 2), t, font=f, fill=on_color(col), anchor="mm")
            xr -= w + 8
        if label:
            d.text((xr - 4, h / 2), label, font=lf, fill=CREAM, anchor="rm")
    return h


def draw_headline(d: ImageDraw.ImageDraw, view: RaView, names: Sequence[str], y: int) -> int:
    """The engine's one-line summary (names filled in), wrapped to at most two lines."""
    s = fmt(view.get("headline"), names)
    if not s:
        return y
    f = font(24)
    lines = wrap(s, X1 - X0 - 8, f)[:2]
    y += 10
    for line in lines:
        d.text((X0 + 4, y), line, font=f, fill=INK)
        y += 32
    return y


# --------------------------------------------------------------------------- table


def draw_table(
    img: Image.Image, d: ImageDraw.ImageDraw, view: RaView, y: int, marks: frozenset[str] = frozenset()
) -> int:
    """The Ra track, the centre sun, the bag, and the 8-slot auction track in two rows of four
    (tile names stay large). Returns the y below."""
    top = y + 10
    track = list(view.get("track") or [])
    tw, th, tgap = (X1 - X0 - 2 * PAD - 3 * 10) // 4, 58, 10
    h = 14 + 56 + 10 + 30 + 2 * th + tgap + 16
    panel(d, (X0, top, X1, top + h))
    x, yy = X0 + PAD, top + 14
    limit = int(view.get("ra_limit") or 0)
    filled = int(view.get("ra_track") or 0)
    lf = font(24, True)
    d.text((x, yy + 28), "Ra track", font=lf, fill=MUTED, anchor="lm")
    sx = x + text_width("Ra track", lf) + 12
    size = 40 if limit <= 9 else 36
    for i in range(limit):
        ra_slot(img, d, sx + i * (size + 5), yy + 28 - size / 2, size, i < filled, i == limit - 1)
    if "ra_track" in marks and filled:
        bx = sx + (filled - 1) * (size + 5)
        mark_box(d, (bx - 4, yy + 24 - size / 2, bx + size + 4, yy + 32 + size / 2))
    # the bag, then the centre sun, right-aligned
    xr = X1 - PAD
    bt = str(int(view.get("bag_total") or 0))
    nf = font(28, True)
    d.text((xr, yy + 28), bt, font=nf, fill=INK, anchor="rm")
    xr -= text_width(bt, nf) + 6
    paste(img, icon("bag", 40, (150, 118, 80)), xr - 40, yy + 8)
    xr -= 40 + 24
    ssz = 52
    sun(img, d, xr - ssz, yy + 2, ssz, int(view.get("center") or 0), True)
    if "center" in marks:
        mark_box(d, (xr - ssz - 5, yy - 3, xr + 5, yy + ssz + 7), radius=30)
    xr -= ssz + 10
    d.text((xr, yy + 28), "Centre", font=lf, fill=MUTED, anchor="rm")
    # auction track
    yy += 56 + 10
    d.text((x, yy), f"Auction track · {len(track)} of 8 tiles", font=lf, fill=MUTED)
    yy += 30
    for i in range(8):
        tx, ty = x + (i % 4) * (tw + 10), yy + (i // 4) * (th + tgap)
        track_tile(img, d, tx, ty, tw, th, track[i] if i < len(track) else None, i + 1)
        if f"track:{i}" in marks and i < len(track):
            mark_box(d, (tx - 4, ty - 4, tx + tw + 4, ty + th + 4))
            mark_tag(d, (tx + tw - 6, ty - 10), "new")
    return top + h


# --------------------------------------------------------------------------- auction / discard


def draw_auction(img: Image.Image, d: ImageDraw.ImageDraw, view: RaView, names: Sequence[str], y: int) -> int:
    """The running auction in one band: kind and Ra player, forced flag, the high bid. Each seat's
    bid or pass is on its row. Returns the y below (unchanged if no auction)."""
    a = view.get("auction")
    if not a:
        return y
    top = y + 10
    h = 60
    panel(d, (X0, top, X1, top + h), outline=mix(ACCENT, PANEL, 0.35), width=3)
    x, yc = X0 + PAD, top + h / 2
    rp = int(a.get("ra_player", view.get("current", 0)))
    kind = KIND_LABEL.get(a.get("kind", ""), str(a.get("kind", "")))
    f = font(28, True)
    d.text((x, yc), "Auction", font=f, fill=ACCENT, anchor="lm")
    x += text_width("Auction", f) + 14
    right = X1 - PAD
    high = a.get("high")
    if high:
        t, hf = fit(names[int(high["seat"])], 220, 28, True)
        d.text((right, yc), t, font=hf, fill=seat_ink(int(high["seat"])), anchor="rm")
        right -= text_width(t, hf) + 8
        sun(img, d, right - 44, yc - 22, 44, int(high["sun"]), True)
        right -= 52
        d.text((right, yc), "high", font=font(24), fill=MUTED, anchor="rm")
        right -= text_width("high", font(24)) + 14
    else:
        d.text((right, yc), "no bid yet", font=font(24), fill=MUTED, anchor="rm")
        right -= text_width("no bid yet", font(24)) + 14
    if a.get("forced"):
        pf = font(22, True)
        fw = text_width("forced", pf) + 22
        d.rounded_rectangle((right - fw, yc - 17, right, yc + 17), radius=17, fill=DANGER)
        d.text((right - fw / 2, yc), "forced", font=pf, fill=(255, 255, 255), anchor="mm")
        right -= fw + 12
    by = f"{kind} by "
    t, kf = fit(by, max(60, (right - x) // 2), 24)
    d.text((x, yc), t, font=kf, fill=INK, anchor="lm")
    x += text_width(t, kf)
    t, nf = fit(names[rp], max(60, right - x - 8), 28, True)
    d.text((x, yc), t, font=nf, fill=seat_ink(rp), anchor="lm")
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
    """The discards a disaster still demands (DISCARD step), wrapped to two lines if needed.
    Returns the y below."""
    p = view.get("pending")
    if not p:
        return y
    top = y + 10
    f = font(24)
    lw = text_width("Disaster", font(24, True)) + 14
    s = names[int(p["seat"])] + " must discard " + owed_text(p)
    lines = wrap(s, X1 - X0 - 2 * PAD - lw, f)[:2]
    h = 24 + 32 * len(lines)
    panel(d, (X0, top, X1, top + h), outline=mix(DANGER, PANEL, 0.4), width=3)
    d.text((X0 + PAD, top + 12), "Disaster", font=font(24, True), fill=DANGER)
    for i, line in enumerate(lines):
        d.text((X0 + PAD + lw, top + 12 + 32 * i), line, font=f, fill=INK)
    return top + h


# --------------------------------------------------------------------------- seat rows


def seat_status(view: RaView, s: int) -> list[tuple[str, tuple[int, int, int], tuple[int, int, int]]]:
    """Status pills for seat ``s``: (text, fill, text colour). In an auction: the Ra player, the
    seat bidding now, each bid or pass, and each later bidder's place in the order."""
    out = []
    white = (255, 255, 255)
    a = view.get("auction")
    p = view["players"][s]
    if s in (view.get("to_move") or []):
        out.append(("▶ " + awaited_label(view), seat_color(s), on_color(seat_color(s))))
    if a:
        if int(a.get("ra_player", -1)) == s:
            out.append(("Ra player", CATEGORY_COLOR["ra"], white))
        acted = {int(b["seat"]): b.get("sun") for b in a.get("bids") or []}
        if s in acted:
            v = acted[s]
            out.append(("passed", NEUTRAL, white) if v is None else (f"bid {v}", SUN_PILL, white))
        elif s not in (view.get("to_move") or []):
            order = list(a.get("to_bid") or [])
            if s in order:
                k = order.index(s)
                out.append(("bids next" if k == 1 else f"bids {ordinal(k + 1)}", NEUTRAL, white))
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


def chip_layout(
    x: float, w: int, traders: bool, small_gap: int, big_gap: int
) -> list[list[tuple[float, str]]]:
    """The x of every chip slot, line by line, grouped as scoring groups them."""
    lines = (LINE1, LINE2 if traders else (MONUMENTS,))
    out = []
    for groups in lines:
        cx, row = x, []
        for g in groups:
            for code in g:
                row.append((cx, code))
                cx += w + small_gap
            cx += big_gap - small_gap
        out.append(row)
    return out


def group_spans(
    x: float, w: int, traders: bool, small_gap: int, big_gap: int
) -> list[list[tuple[float, float, str]]]:
    """(x0, x1, caption) of every chip group, line by line."""
    lines = (LINE1, LINE2 if traders else (MONUMENTS,))
    out = []
    for groups in lines:
        cx, row = x, []
        for g in groups:
            gw = len(g) * w + (len(g) - 1) * small_gap
            row.append((cx, cx + gw, GROUP_WORD[tuple(g)]))
            cx += gw + big_gap
        out.append(row)
    return out


GROUP_WORD = {
    ("god", "gold", "pharaoh"): "Gods, gold, pharaohs",
    ("nile", "flood"): "Nile · flood",
    CIVS: "Civilizations",
    MONUMENTS: "Monuments",
    ("trader", "crate"): "Traders",
}


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
    changed: frozenset[str] = frozenset(),
) -> float:
    """The held tiles in two lines of fixed slots, grouped as scoring groups them; codes in
    ``changed`` are outlined. Returns the y below. With ``captions``, each group gets a caption
    above it (with its count of types for civilizations and monuments)."""
    tiles = p.get("tiles") or {}
    counts = dict(tiles)
    counts["trader"] = int(p.get("traders", tiles.get("trader", 0)) or 0)
    counts["crate"] = int(p.get("crates", 0) or 0)
    spans = group_spans(x, w, traders, small_gap, big_gap)
    for li, row in enumerate(chip_layout(x, w, traders, small_gap, big_gap)):
        if captions:
            for gx0, gx1, word in spans[li]:
                cap = group_caption(word, counts)
                t, f = fit(cap, int(gx1 - gx0 + big_gap - 4), 22, True)
                d.text((gx0, y), t, font=f, fill=MUTED)
            y += 28
        for cx, code in row:
            chip(img, d, cx, y, w, h, code, int(counts.get(code, 0)), show_zero=code in ("pharaoh",))
            if code in changed:
                mark_box(d, (cx - 3, y - 3, cx + w + 3, y + h + 3), width=4)
        y += h + 6
    return y - 6


def group_caption(word: str, counts: Mapping[str, int]) -> str:
    """A group's caption with its count of types: 'Civilizations · 3 types' and the like."""
    for codes, name in ((CIVS, "Civilizations"), (MONUMENTS, "Monuments")):
        if word == name:
            k = sum(1 for c in codes if counts.get(c))
            return f"{name} · {k} type{'s' if k != 1 else ''}"
    return word


# pill words shortened when the full ones do not fit beside a seat's suns
SHORT_PILL = {"▶ to discard": "▶ discard", "▶ to play": "▶ play", "bids next": "next"}

# the left block of a seat row and the chips beside it
LEFT_W = 292
CHIP_W, CHIP_H = 56, 46
CHIP_X = X0 + 24 + LEFT_W


def draw_group_labels(d: ImageDraw.ImageDraw, view: RaView, y: int) -> int:
    """The words over the seat rows' tile columns, one line per chip line ("Gods, gold,
    pharaohs", "Nile · flood", "Civilizations" over the first, "Monuments", "Traders" over the
    second), each over its group with a bracket. Returns the y below."""
    traders = bool((view.get("options") or {}).get("traders", True))
    spans = group_spans(CHIP_X, CHIP_W, traders, 4, 12)
    top = y + 8
    f = font(20, True, True)
    d.text((X0 + 24, top + 12), "Tiles held", font=font(22, True), fill=MUTED, anchor="lm")
    for li, row in enumerate(spans):
        ly = top + 26 * li
        for gi, (gx0, gx1, word) in enumerate(row):
            tw = text_width(word, f)
            # the first group's words may reach left of it (nothing is drawn there)
            lx = gx1 - tw if gi == 0 and tw > gx1 - gx0 else (gx0 + gx1 - tw) / 2
            d.text((lx, ly + 12), word, font=f, fill=INK, anchor="lm")
            if lx - gx0 > 10:
                d.line((gx0, ly + 13, lx - 6, ly + 13), fill=LINE, width=2)
            if gx1 - (lx + tw) > 10:
                d.line((lx + tw + 6, ly + 13, gx1, ly + 13), fill=LINE, width=2)
    return top + 26 * len(spans)


def draw_seat_row(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    view: RaView,
    names: Sequence[str],
    s: int,
    y: int,
    marks: frozenset[str] = frozenset(),
) -> int:
    """One seat's row on the board: name and score, suns and status pills; held tiles on the
    right (owned ones solid, missing ones ghosted). The awaited seat is outlined in its colour;
    what changed since the previous board (``marks``) is outlined and tagged. Returns the y
    below."""
    p = view["players"][s]
    traders = bool((view.get("options") or {}).get("traders", True))
    top = y + 8
    col = seat_color(s)
    awaited = s in (view.get("to_move") or [])
    ups, downs = list(p.get("up") or []), list(p.get("down") or [])
    dsz = 44 if len(ups) + len(downs) <= 3 else 40
    x = X0 + 24
    a = view.get("auction")
    ra_player = a is not None and int(a.get("ra_player", -1)) == s
    # the Ra player is a badge by the name; grey suns already say "out of suns"
    pills = [
        pl for pl in seat_status(view, s) if pl[0] != "Ra player" and not (pl[0] == "out of suns" and downs)
    ]
    pf = font(22, True)
    sx_end = x + (len(ups) + len(downs)) * (dsz + 5)

    def pills_fit(ps: list[tuple[str, tuple[int, int, int], tuple[int, int, int]]]) -> bool:
        w = sum(text_width(t, pf) + 22 for t, _, _ in ps) + 6 * max(0, len(ps) - 1)
        return sx_end + 8 + w <= x + LEFT_W - 4

    if not pills_fit(pills):  # shorter words beside the suns rather than a taller row
        pills = [(SHORT_PILL.get(t, t), f, g) for t, f, g in pills]
    pills_below = bool(pills) and not pills_fit(pills)
    h = 2 * CHIP_H + 6 + 18 + (38 if pills_below else 0)
    panel(d, (X0, top, X1, top + h), outline=col if awaited else LINE, width=4 if awaited else 2)
    d.rounded_rectangle((X0 + 2, top + 2, X0 + 14, top + h - 2), radius=5, fill=col)
    # name, and the score at the right of the left block
    score = p.get("score")
    st = "?" if score is None else str(score)
    sf = font(32, True)
    sw = text_width(st, sf)
    d.text((x + LEFT_W - 4, top + 26), st, font=sf, fill=INK, anchor="rm")
    if f"score:{s}" in marks:
        mark_box(d, (x + LEFT_W - sw - 12, top + 4, x + LEFT_W + 4, top + 48), width=4)
    badge = font(22, True)
    bw = text_width("Ra", badge) + 16 if ra_player else 0
    t, nf = fit(names[s], LEFT_W - sw - 20 - (bw + 8 if bw else 0), 28, True)
    d.text((x, top + 26), t, font=nf, fill=seat_ink(s), anchor="lm")
    if ra_player:
        bx = x + text_width(t, nf) + 8
        d.rounded_rectangle((bx, top + 11, bx + bw, top + 41), radius=8, fill=CATEGORY_COLOR["ra"])
        d.text((bx + bw / 2, top + 26), "Ra", font=badge, fill=(255, 255, 255), anchor="mm")
    # suns (face up bright, face down grey), then the status pills
    sy = top + 52
    sx = x
    for v, up in [(v, True) for v in ups] + [(v, False) for v in downs]:
        sun(img, d, sx, sy, dsz, int(v), up)
        if f"sun:{s}:{v}" in marks:
            mark_box(d, (sx - 3, sy - 3, sx + dsz + 3, sy + dsz + 3), radius=24, width=4)
        sx += dsz + 5
    px, py = (x, sy + dsz + 6) if pills_below else (sx + 8, sy + 5)
    for text, fill, fg in pills:
        w = text_width(text, pf) + 22
        if px + w > x + LEFT_W:
            break
        d.rounded_rectangle((px, py, px + w, py + 34), radius=17, fill=fill)
        d.text((px + w / 2, py + 17), text, font=pf, fill=fg, anchor="mm")
        if f"bid:{s}" in marks and not text.startswith("▶") and text != "Ra player":
            mark_box(d, (px - 4, py - 4, px + w + 4, py + 38), radius=20, width=4)
        px += w + 6
    # tiles
    changed = frozenset(k.split(":", 2)[2] for k in marks if k.startswith(f"tiles:{s}:"))
    draw_chips(img, d, p, CHIP_X, top + 9, CHIP_W, CHIP_H, traders, 4, 12, changed=changed)
    if f"won:{s}" in marks:
        mark_tag(d, (X1 - 8, top - 8), "just won")
    return top + h


def draw_footer(d: ImageDraw.ImageDraw, view: RaView, y: int) -> int:
    """A muted last line: tiles out of the game and the options that differ from the defaults."""
    opts = view.get("options") or {}
    box = sum(int(v) for v in (view.get("box") or {}).values())
    bits = ["grey suns are spent", f"out of the game: {box} tiles"]
    if not opts.get("traders", True):
        bits.append("no Traders")
    if opts.get("hidden_scores"):
        bits.append("hidden scores")
    if opts.get("god_takes_disaster"):
        bits.append("gods take disasters")
    if opts.get("score_floor_zero") is False:
        bits.append("no score floor")
    y += 8
    draw_text(d, (X0 + 4, y), "  ·  ".join(bits), 20, MUTED, max_width=X1 - X0 - 8)
    return y + 26


def new_canvas(height: int = 2400) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A tall canvas to draw on; crop it with :func:`crop` once the height is known."""
    return canvas(height)


def crop(img: Image.Image, y: int) -> Image.Image:
    """``img`` cut to height ``y`` plus the bottom margin."""
    return crop_to(img, y, M)
