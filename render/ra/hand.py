"""The Ra private view (DM): prompt and legal actions, the table (Ra track, centre sun, the
auction track), what a bidder needs to know of the others (their face-up suns, pharaohs and
score), the player's own row enlarged, and the score preview for this epoch (the rows of
docs/rules/ra.md#scoring)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from engines.ra.view import RaView
from render import frame
from render.common import (
    ACCENT,
    BAD,
    GOOD,
    INK,
    LINE,
    MIN_TEXT,
    MUTED,
    NUMBER_TEXT,
    PANEL,
    fit,
    font,
    mix,
    ordinal,
    panel,
    seat_color,
    seat_initials,
    seat_ink,
    signed,
    text_width,
    wrap,
)
from render.ra.art import CATEGORY_COLOR, SCORE_CATEGORIES, icon, paste, sun
from render.ra.board import draw_band, draw_header, draw_table, fmt
from render.ra.board.rows import draw_seat_row
from render.ra.layout import PAD, X0, X1, crop, new_canvas

MAX_HEIGHT = 1100


def hand_image(view: RaView, names: Sequence[str], table: bool = True) -> Image.Image:
    """The private view image of ``view["me"]`` (or ``view["viewer"]``), at most
    :data:`MAX_HEIGHT` px: when a long prompt with many actions would make it taller, it is
    drawn again without the table (the posted board shows it), never with smaller text. Raises
    ValueError when the view belongs to no seat."""
    me = view["me"]
    seat = me["seat"] if me else view["viewer"]
    if seat is None:
        raise ValueError("hand() needs a player's view (viewer is a seat), not a spectator view")
    seat = int(seat)
    img, d = new_canvas(1600)
    y = draw_header(img, d, view, names, right_label="Private view", right_seats=[seat])
    y = draw_prompt(d, view, names, seat, y)
    if not view["over"]:  # at the end the prompt names the rank and the winner
        if view["auction"] or view["pending"]:  # else the prompt says whose turn
            y = draw_band(img, d, view, names, y)
        if table:
            y = draw_table(img, d, view, y)
    y = draw_opponents(img, d, view, names, seat, y)
    y = draw_seat_row(img, d, view, names, seat, y + 2)
    y = draw_preview(img, d, view, seat, y)
    out = crop(img, y)
    if out.height > MAX_HEIGHT and table:
        return hand_image(view, names, table=False)
    return out


def final_line(view: RaView, names: Sequence[str], seat: int) -> str:
    """The final hand's sentence: the viewer's rank and total ("You finished 2nd of 4 with 38
    pts; Ann won with 45.")."""
    out = view["outcome"] or {}
    ranks, scores = list(out.get("ranks") or []), list(out.get("scores") or [])
    winners = list(out.get("winners") or [])
    if seat >= len(ranks) or seat >= len(scores):
        return "Final scores are on the sheet."
    n = int(view["n_players"])
    mine = f"{scores[seat]} pts"
    if seat in winners:
        shared = [names[s] for s in winners if s != seat]
        return f"You won, 1st of {n}, with {mine}" + (
            f" (shared with {', '.join(shared)})." if shared else "."
        )
    best = " and ".join(names[s] for s in winners)
    top = scores[winners[0]] if winners else max(scores)
    return f"You finished {ordinal(ranks[seat])} of {n} with {mine}; {best} won with {top}."


def draw_prompt(d: ImageDraw.ImageDraw, view: RaView, names: Sequence[str], seat: int, y: int) -> int:
    """The current prompt (names filled in) and the legal actions as pills. Returns the y below."""
    me = view["me"]
    legal = list(me["legal"]) if me else []
    prompt = fmt(me["prompt"] if me else None, names)
    if view["over"]:
        prompt = final_line(view, names, seat)
    elif not prompt:
        if legal:
            prompt = "Your move."
        else:
            waiting = ", ".join(names[s] for s in view["to_move"])
            prompt = f"Waiting for {waiting}." if waiting else "Nothing to do now."
    f = font(28, True)
    lines = wrap(prompt, X1 - X0 - 2 * PAD, f)[:3]
    pills: list[tuple[int, int, int, str]] = []  # rows of (x, y, w, text) laid out below
    pf = font(MIN_TEXT, True)
    x, py = X0 + PAD, 0
    for a in legal:
        t = a if text_width(a, pf) <= 400 else fit(a, 400, MIN_TEXT, True)[0]
        w = text_width(t, pf) + 28
        if x + w > X1 - PAD:
            x, py = X0 + PAD, py + 52
        pills.append((x, py, w, t))
        x += w + 10
    ph = (py + 44 + 14) if legal else 0
    top = y + 12
    h = PAD + 36 * len(lines) + 6 + ph + PAD - 6
    mine = seat in view["to_move"]
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
    top = y + 8
    line_h = 52
    h = 12 + 36 + line_h * len(others) + 6
    panel(d, (X0, top, X1, top + h))
    d.text(
        (X0 + PAD, top + 12),
        "The others: suns they can bid, pharaohs, score",
        font=font(MIN_TEXT, True),
        fill=MUTED,
    )
    yy = top + 12 + 36
    initials = seat_initials(names)
    for s in others:
        p = view["players"][s]
        yc = yy + line_h / 2
        frame.seat_badge(d, (X0 + PAD + 17, yc), s, initials[s], 17)
        t, nf = fit(names[s], 220, 28, True)
        d.text((X0 + PAD + 42, yc), t, font=nf, fill=seat_ink(s), anchor="lm")
        sx = X0 + PAD + 280
        ups = list(p["up"])
        for v in ups:
            sun(img, d, sx, yc - 24, 48, int(v), True)
            sx += 52
        if not ups:
            d.text((sx, yc), "no suns left", font=font(MIN_TEXT), fill=MUTED, anchor="lm")
        px = X1 - PAD - 250
        paste(img, icon("pharaoh", 36, CATEGORY_COLOR["pharaoh"]), px, yc - 18)
        k = int(p["tiles"].get("pharaoh", 0))
        d.text((px + 42, yc), str(k), font=font(NUMBER_TEXT, True), fill=INK, anchor="lm")
        score = p["score"]
        st = f"{'?' if score is None else score} pts"
        d.text((X1 - PAD, yc), st, font=font(NUMBER_TEXT, True), fill=INK, anchor="rm")
        yy += line_h
    return top + h


def preview_categories(view: RaView, prev: Mapping[str, int]) -> list[str]:
    """The scoring rows (docs/rules/ra.md#scoring) of a preview worth showing: Traders only with
    the module on, Monuments and Suns only in epoch 3 (or when non-zero), then any extra category
    the engine sent."""
    traders = view["options"].get("traders", True)
    final = int(view["epoch"]) >= 3
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
    """This epoch's score if it ended now: one cell per scoring row, then the total and the new score.
    Returns the y below (unchanged when the view has no preview)."""
    me = view["me"]
    prev = me["preview"] if me else None
    if not prev or view["over"]:
        return y
    cats = preview_categories(view, prev)
    top = y + 8
    cell_h = 84
    h = 14 + 40 + cell_h + 14
    panel(d, (X0, top, X1, top + h))
    x, yy = X0 + PAD, top + 14
    epoch = int(view["epoch"])
    title = f"If epoch {epoch} ended now"
    tf = font(28, True)
    d.text((x, yy), title, font=tf, fill=INK)
    delta = sum(int(v) for v in prev.values())
    score = me["score"] if me else None
    line = f"total {signed(delta)}"
    if score is not None:
        floor = view["options"].get("score_floor_zero", True)
        new = max(0, score + delta) if floor else score + delta
        line += f" · {score} → {new} pts" + (" (floor 0)" if floor and score + delta < 0 else "")
    t, f = fit(line, X1 - PAD - x - text_width(title, tf) - 20, 28, True)
    d.text((X1 - PAD, yy), t, font=f, fill=INK, anchor="ra")
    yy += 40
    n = max(1, len(cats))
    gap = 8
    cw = (X1 - X0 - 2 * PAD - gap * (n - 1)) / n
    for i, c in enumerate(cats):
        cx = x + i * (cw + gap)
        v = int(prev[c])
        d.rounded_rectangle((cx, yy, cx + cw, yy + cell_h), radius=10, fill=PANEL, outline=LINE, width=2)
        t, f = fit(PREVIEW_WORD.get(c, c), int(cw - 6), MIN_TEXT, True)
        d.text((cx + cw / 2, yy + 8), t, font=f, fill=MUTED, anchor="ma")
        d.text(
            (cx + cw / 2, yy + cell_h - 8),
            signed(v),
            font=font(NUMBER_TEXT, True),
            fill=GOOD if v > 0 else BAD if v < 0 else MUTED,
            anchor="md",
        )
    return top + h


# short words for the preview cells (eight cells share 920 px)
PREVIEW_WORD = {"Nile & floods": "Nile", "Civilizations": "Civs", "Monuments": "Mon.", "Pharaohs": "Phar."}
