"""The Ra private view (DM): prompt and legal actions, the table (Ra track, centre sun, the
auction track), what a bidder needs to know of the others (their face-up suns, pharaohs and
score), the player's own row enlarged, and the score preview for this epoch (§7 rows)."""

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
from render.ra.art import CATEGORY_COLOR, CATEGORY_ICON, SCORE_CATEGORIES, icon, paste, sun
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
    draw_table,
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
    y = draw_table(img, d, view, y)
    y = draw_auction(img, d, view, names, y)
    y = draw_opponents(img, d, view, names, seat, y)
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
    f = font(28, True)
    lines = wrap(prompt, X1 - X0 - 2 * PAD, f)[:3]
    pills: list[tuple[int, int, int, str]] = []  # rows of (x, y, w, text) laid out below
    pf = font(26, True)
    x, py = X0 + PAD, 0
    for a in legal:
        t = a if text_width(a, pf) <= 400 else fit(a, 400, 26, True)[0]
        w = text_width(t, pf) + 28
        if x + w > X1 - PAD:
            x, py = X0 + PAD, py + 52
        pills.append((x, py, w, t))
        x += w + 10
    ph = (py + 44 + 14) if legal else 0
    top = y + 12
    h = PAD + 36 * len(lines) + 6 + ph + PAD - 6
    mine = seat in (view.get("to_move") or [])
    panel(d, (X0, top, X1, top + h), outline=seat_color(seat) if mine else LINE, width=4 if mine else 2)
    yy = top + PAD
    for line in lines:
        d.text((X0 + PAD, yy), line, font=f, fill=INK)
        yy += 36
    yy += 10
    for x, py, w, t in pills:
        box = (x, yy + py, x + w, yy + py + 44)
        d.rounded_rectangle(box, radius=22, fill=mix(ACCENT, PANEL, 0.88), outline=ACCENT, width=2)
        d.text((x + w / 2, yy + py + 22), t, font=pf, fill=mix(ACCENT, INK, 0.5), anchor="mm")
    return top + h


def draw_opponents(
    img: Image.Image, d: ImageDraw.ImageDraw, view: RaView, names: Sequence[str], seat: int, y: int
) -> int:
    """What a bidder needs of the others without the channel: one line per opponent with their
    face-up suns (what they can still bid), their pharaohs and their score. Returns the y below."""
    others = [s for s in range(int(view["n_players"])) if s != seat]
    if not others:
        return y
    top = y + 12
    line_h = 54
    h = PAD + 34 + line_h * len(others) + PAD - 8
    panel(d, (X0, top, X1, top + h))
    d.text(
        (X0 + PAD, top + PAD),
        "The others: suns they can bid, pharaohs, score",
        font=font(24, True),
        fill=MUTED,
    )
    yy = top + PAD + 38
    for s in others:
        p = view["players"][s]
        d.rounded_rectangle((X0 + PAD, yy + 6, X0 + PAD + 8, yy + line_h - 12), radius=4, fill=seat_color(s))
        t, nf = fit(names[s], 250, 28, True)
        d.text((X0 + PAD + 18, yy + line_h / 2 - 4), t, font=nf, fill=seat_ink(s), anchor="lm")
        sx = X0 + PAD + 280
        ups = list(p.get("up") or [])
        for v in ups:
            sun(img, d, sx, yy + 2, 42, int(v), True)
            sx += 47
        if not ups:
            d.text((sx, yy + line_h / 2 - 4), "no suns left", font=font(24), fill=MUTED, anchor="lm")
        px = X1 - PAD - 240
        paste(img, icon("pharaoh", 34, CATEGORY_COLOR["pharaoh"]), px, yy + 6)
        tiles = p.get("tiles") or {}
        d.text(
            (px + 42, yy + line_h / 2 - 4),
            _pharaohs(int(tiles.get("pharaoh", 0))),
            font=font(24),
            fill=INK,
            anchor="lm",
        )
        score = p.get("score")
        d.text(
            (X1 - PAD, yy + line_h / 2 - 4),
            "?" if score is None else str(score),
            font=font(28, True),
            fill=INK,
            anchor="rm",
        )
        yy += line_h
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
    h = PAD + 60 + 20 + 2 * (28 + ch + 6) + PAD - 6 + 6
    col = seat_color(seat)
    panel(d, (X0, top, X1, top + h))
    d.rounded_rectangle((X0 + 2, top + 2, X0 + 14, top + h - 2), radius=6, fill=col)
    x = X0 + 30
    score = me["score"] if me else p.get("score")
    st = "?" if score is None else str(score)
    sf = font(44, True)
    d.text((X1 - PAD, top + PAD - 6), st, font=sf, fill=INK, anchor="ra")
    d.text((X1 - PAD, top + PAD + 44), "points", font=font(20), fill=MUTED, anchor="ra")
    sw = text_width(st, sf)
    ups, downs = list(p.get("up") or []), list(p.get("down") or [])
    dsz = 54
    suns_w = (len(ups) + len(downs)) * (dsz + 8)
    name_w = X1 - PAD - sw - 30 - x - suns_w - 20
    t, nf = fit(names[seat], max(name_w, 160), 32, True)
    d.text((x, top + PAD), t, font=nf, fill=seat_ink(seat))
    # status pills under the name
    px = x
    for text_, fill, fg in seat_status(view, seat):
        pf = font(22, True)
        w = text_width(text_, pf) + 22
        d.rounded_rectangle((px, top + PAD + 40, px + w, top + PAD + 72), radius=16, fill=fill)
        d.text((px + w / 2, top + PAD + 56), text_, font=pf, fill=fg, anchor="mm")
        px += w + 6
    sx = X1 - PAD - sw - 30 - suns_w
    sx = max(sx, x + text_width(t, nf) + 20, px + 10)
    for v in ups:
        sun(img, d, sx, top + PAD - 2, dsz, int(v), True)
        sx += dsz + 8
    for v in downs:
        sun(img, d, sx, top + PAD - 2, dsz, int(v), False)
        sx += dsz + 8
    draw_chips(img, d, p, x, top + PAD + 80, cw, ch, traders, small_gap=4, big_gap=14, captions=True)
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
    cell_h = 110
    h = PAD + 36 + cell_h + 16 + 36 + PAD
    panel(d, (X0, top, X1, top + h))
    x, yy = X0 + PAD, top + PAD
    epoch = int(view.get("epoch") or 1)
    d.text((x, yy), f"If epoch {epoch} ended now", font=font(28, True), fill=INK)
    if epoch < 3:
        d.text((X1 - PAD, yy + 6), "monuments, suns: after epoch 3", font=font(20), fill=MUTED, anchor="ra")
    yy += 40
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
        paste(img, icon(code, 30, colr), cx + (cw - 30) / 2, yy + 8)
        t, f = fit(PREVIEW_WORD.get(c, c), int(cw - 8), 22, True)
        d.text((cx + cw / 2, yy + 42), t, font=f, fill=MUTED, anchor="ma")
        d.text(
            (cx + cw / 2, yy + cell_h - 8),
            signed(v),
            font=font(30, True),
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
    d.text((x, yy), line, font=font(28, True), fill=INK)
    return top + h


def _pharaohs(k: int) -> str:
    return f"{k} pharaoh" + ("" if k == 1 else "s")


# short words for the preview cells (eight cells share 920 px)
PREVIEW_WORD = {"Nile & floods": "Nile", "Civilizations": "Civs", "Monuments": "Monum."}
