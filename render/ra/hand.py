"""The Ra private view (DM): prompt and legal actions, a compact table, the player's own row
enlarged, and the score preview for this epoch (§7 rows)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from engines.ra.view import RaView
from render.common import (
    ACCENT,
    BAD,
    GOOD,
    INK,
    LINE,
    MUTED,
    PANEL,
    fit,
    font,
    mix,
    panel,
    seat_color,
    seat_ink,
    signed,
    text_width,
    wrap,
)
from render.ra.art import CATEGORY_COLOR, CATEGORY_ICON, SCORE_CATEGORIES, icon, paste, sun, track_tile
from render.ra.board import (
    PAD,
    X0,
    X1,
    crop,
    draw_auction,
    draw_chips,
    draw_header,
    draw_headline,
    draw_pending,
    fmt,
    new_canvas,
    seat_status,
)


def hand_image(view: RaView, names: Sequence[str]) -> Image.Image:
    """The private view image of ``view["me"]`` (or ``view["viewer"]``). Raises ValueError when
    the view belongs to no seat."""
    me = view.get("me")
    seat = me["seat"] if me else view.get("viewer")
    if seat is None:
        raise ValueError("hand() needs a player's view (viewer is a seat), not a spectator view")
    seat = int(seat)
    img, d = new_canvas(1700)
    y = draw_header(img, d, view, names, right_label="Private view", right_seats=[seat])
    y = draw_headline(d, view, names, y)
    y = draw_prompt(d, view, names, seat, y)
    y = draw_pending(d, view, names, y)
    y = draw_mini_table(img, d, view, y)
    y = draw_auction(img, d, view, names, y)
    y = draw_big_row(img, d, view, names, seat, y)
    y = draw_preview(img, d, view, seat, y)
    return crop(img, y)


def draw_prompt(d: ImageDraw.ImageDraw, view: RaView, names: Sequence[str], seat: int, y: int) -> int:
    """The current prompt (names filled in) and the legal actions as pills. Returns the y below."""
    me = view.get("me")
    legal = list(me["legal"]) if me else []
    prompt = fmt(me["prompt"] if me else None, names)
    if not prompt:
        if view.get("over"):
            prompt = "The game is over."
        elif legal:
            prompt = "Your move."
        else:
            waiting = ", ".join(names[s] for s in view.get("to_move") or [])
            prompt = f"Waiting for {waiting}." if waiting else "Nothing to do now."
    f = font(22, True)
    lines = wrap(prompt, X1 - X0 - 2 * PAD, f)[:3]
    pills: list[tuple[int, int, int, str]] = []  # rows of (x, y, w, text) laid out below
    pf = font(19, True)
    x, py = X0 + PAD, 0
    for a in legal:
        t = a if text_width(a, pf) <= 400 else fit(a, 400, 19, True)[0]
        w = text_width(t, pf) + 28
        if x + w > X1 - PAD:
            x, py = X0 + PAD, py + 46
        pills.append((x, py, w, t))
        x += w + 10
    ph = (py + 38 + 14) if legal else 0
    top = y + 12
    h = PAD + 30 * len(lines) + 6 + ph + PAD - 6
    mine = seat in (view.get("to_move") or [])
    panel(d, (X0, top, X1, top + h), outline=seat_color(seat) if mine else LINE, width=4 if mine else 2)
    yy = top + PAD
    for line in lines:
        d.text((X0 + PAD, yy), line, font=f, fill=INK)
        yy += 30
    yy += 10
    for x, py, w, t in pills:
        box = (x, yy + py, x + w, yy + py + 38)
        d.rounded_rectangle(box, radius=19, fill=mix(ACCENT, PANEL, 0.88), outline=ACCENT, width=2)
        d.text((x + w / 2, yy + py + 19), t, font=pf, fill=mix(ACCENT, INK, 0.5), anchor="mm")
    return top + h


def draw_mini_table(img: Image.Image, d: ImageDraw.ImageDraw, view: RaView, y: int) -> int:
    """Ra track count, centre sun and the auction track in small tiles. Returns the y below."""
    top = y + 12
    tw = 80
    h = PAD + tw + PAD
    panel(d, (X0, top, X1, top + h))
    x, yy = X0 + PAD, top + PAD
    limit, filled = int(view.get("ra_limit") or 0), int(view.get("ra_track") or 0)
    d.text((x, yy + 4), "Ra track", font=font(17, True), fill=MUTED)
    d.text((x, yy + 28), f"{filled} / {limit}", font=font(26, True), fill=INK)
    d.text((x + 96, yy + 4), "Centre", font=font(17, True), fill=MUTED)
    sun(img, d, x + 98, yy + 28, 50, int(view.get("center") or 0), True)
    track = list(view.get("track") or [])
    tx = X1 - PAD - 8 * tw - 7 * 8
    for i in range(8):
        track_tile(img, d, tx + i * (tw + 8), yy, tw, tw, track[i] if i < len(track) else None, i + 1)
    return top + h


def draw_big_row(
    img: Image.Image, d: ImageDraw.ImageDraw, view: RaView, names: Sequence[str], seat: int, y: int
) -> int:
    """The viewer's row enlarged: name, score, suns, status, then captioned tile groups."""
    p = view["players"][seat]
    me = view.get("me")
    traders = bool((view.get("options") or {}).get("traders", True))
    top = y + 12
    cw = ch = 80
    h = PAD + 60 + 14 + 2 * (22 + ch + 8) + PAD - 8 + 6
    col = seat_color(seat)
    panel(d, (X0, top, X1, top + h))
    d.rounded_rectangle((X0 + 2, top + 2, X0 + 14, top + h - 2), radius=6, fill=col)
    x = X0 + 30
    score = me["score"] if me else p.get("score")
    st = "?" if score is None else str(score)
    sf = font(44, True)
    d.text((X1 - PAD, top + PAD - 6), st, font=sf, fill=INK, anchor="ra")
    d.text((X1 - PAD, top + PAD + 44), "points", font=font(17), fill=MUTED, anchor="ra")
    sw = text_width(st, sf)
    ups, downs = list(p.get("up") or []), list(p.get("down") or [])
    dsz = 54
    suns_w = (len(ups) + len(downs)) * (dsz + 8)
    name_w = X1 - PAD - sw - 30 - x - suns_w - 20
    t, nf = fit(names[seat], max(name_w, 160), 28, True, min_size=16)
    d.text((x, top + PAD), t, font=nf, fill=seat_ink(seat))
    # status pills under the name
    px = x
    for text_, fill, fg in seat_status(view, seat):
        pf = font(16, True)
        w = text_width(text_, pf) + 18
        d.rounded_rectangle((px, top + PAD + 40, px + w, top + PAD + 66), radius=13, fill=fill)
        d.text((px + w / 2, top + PAD + 53), text_, font=pf, fill=fg, anchor="mm")
        px += w + 6
    sx = X1 - PAD - sw - 30 - suns_w
    sx = max(sx, x + text_width(t, nf) + 20, px + 10)
    for v in ups:
        sun(img, d, sx, top + PAD - 2, dsz, int(v), True)
        sx += dsz + 8
    for v in downs:
        sun(img, d, sx, top + PAD - 2, dsz, int(v), False)
        sx += dsz + 8
    draw_chips(img, d, p, x, top + PAD + 74, cw, ch, traders, small_gap=4, big_gap=14, captions=True)
    return top + h


def preview_categories(view: RaView, prev: Mapping[str, int]) -> list[str]:
    """The §7 rows of a preview worth showing: Traders only with the module on, Monuments and
    Suns only in epoch 3 (or when non-zero), then any extra category the engine sent."""
    traders = (view.get("options") or {}).get("traders", True)
    final = int(view.get("epoch") or 1) >= 3
    cats = []
    for c in SCORE_CATEGORIES:
        if c not in prev:
            continue
        if c == "Traders" and not traders and not prev[c]:
            continue
        if c in ("Monuments", "Suns") and not final and not prev[c]:
            continue
        cats.append(c)
    return cats + [c for c in prev if c not in SCORE_CATEGORIES]


def draw_preview(img: Image.Image, d: ImageDraw.ImageDraw, view: RaView, seat: int, y: int) -> int:
    """This epoch's score if it ended now: one cell per §7 row, then the total and the new score.
    Returns the y below (unchanged when the view has no preview)."""
    me = view.get("me")
    prev = me["preview"] if me else None
    if not prev or view.get("over"):
        return y
    cats = preview_categories(view, prev)
    top = y + 12
    cell_h = 96
    h = PAD + 30 + cell_h + 16 + 34 + PAD
    panel(d, (X0, top, X1, top + h))
    x, yy = X0 + PAD, top + PAD
    epoch = int(view.get("epoch") or 1)
    d.text((x, yy), f"If epoch {epoch} ended now", font=font(20, True), fill=INK)
    if epoch < 3:
        d.text(
            (X1 - PAD, yy + 3),
            "monuments and suns score after epoch 3 only",
            font=font(16),
            fill=MUTED,
            anchor="ra",
        )
    yy += 34
    n = max(1, len(cats))
    gap = 8
    cw = (X1 - X0 - 2 * PAD - gap * (n - 1)) / n
    for i, c in enumerate(cats):
        cx = x + i * (cw + gap)
        v = int(prev[c])
        d.rounded_rectangle((cx, yy, cx + cw, yy + cell_h), radius=10, fill=PANEL, outline=LINE, width=2)
        code = CATEGORY_ICON.get(c, "sun")
        colr = (
            CATEGORY_COLOR["civ"]
            if code == "writing"
            else (
                CATEGORY_COLOR["monument"]
                if code == "pyramid"
                else (196, 146, 18)
                if code == "sun"
                else CATEGORY_COLOR.get(code, CATEGORY_COLOR["river"])
            )
        )
        paste(img, icon(code, 26, colr), cx + (cw - 26) / 2, yy + 8)
        t, f = fit(c, int(cw - 8), 16, True, min_size=11)
        d.text((cx + cw / 2, yy + 40), t, font=f, fill=MUTED, anchor="ma")
        d.text(
            (cx + cw / 2, yy + cell_h - 8),
            signed(v),
            font=font(26, True),
            fill=GOOD if v > 0 else BAD if v < 0 else MUTED,
            anchor="md",
        )
    yy += cell_h + 16
    delta = sum(int(v) for v in prev.values())
    score = me["score"] if me else None
    line = f"Epoch total {signed(delta)}"
    if score is not None:
        floor = (view.get("options") or {}).get("score_floor_zero", True)
        new = max(0, score + delta) if floor else score + delta
        line += f"   ·   score {score} → {new}"
        if floor and score + delta < 0:
            line += " (floor 0)"
    d.text((x, yy), line, font=font(22, True), fill=INK)
    return top + h
