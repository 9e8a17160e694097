"""Ra score sheets: one column per seat, headed by the seat's name in words; for each scored
epoch a band of the scoring rows (docs/rules/ra.md#scoring) that scored for anyone (the floor
adjustment when it applied), the epoch total and the running total; then the final ranking (or
the standings so far)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from engines.base import format_text
from engines.ra.view import EpochView, HistoryRow, PlayerView, RaView
from render import frame
from render.common import (
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
    seat_names,
    signed,
    text_width,
    wrap,
)
from render.ra.art import CATEGORY_COLOR, CATEGORY_ICON, SCORE_CATEGORIES, icon, paste
from render.ra.board import draw_header
from render.ra.layout import PAD, X0, X1, crop, new_canvas

LABEL_W = 250
ROW_H = 38
MAX_HEIGHT = frame.MAX_HEIGHT
WIN_BG = (252, 236, 190)
GOLD_MEDAL = (222, 170, 30)
GREY_MEDAL = (160, 154, 146)


def score_sheet(view: RaView, names: Sequence[str] | None = None) -> Image.Image:
    """The score sheet of ``view``: every epoch scored so far (``view["history"]``) and, once the
    game is over, the final ranking with winners highlighted and the tie-break explained; before
    that, the standings after the last scored epoch. Returns a ~1000 px wide RGB image."""
    n = int(view["n_players"])
    nm = seat_names(names, n)
    hist = sorted(view["history"], key=lambda e: e["epoch"])
    if view["over"]:
        title = "Final scores"
    elif hist:
        title = f"Scores after epoch {hist[-1]['epoch']}"
    else:
        title = "Score sheet"
    return _sheet(view, nm, hist, title)


def epoch_sheet(view: RaView, epoch: int, names: Sequence[str] | None = None) -> Image.Image:
    """The sheet of one scored ``epoch`` (the bot may post it when an epoch ends) with the
    standings after it. Raises ValueError if ``view["history"]`` has no such epoch."""
    n = int(view["n_players"])
    nm = seat_names(names, n)
    hist = [e for e in view["history"] if int(e["epoch"]) == int(epoch)]
    if not hist:
        raise ValueError(f"epoch {epoch} has not been scored yet")
    return _sheet(view, nm, hist, f"Epoch {epoch} scoring", final=False)


def _sheet(
    view: RaView, nm: Sequence[str], hist: list[EpochView], title: str, final: bool | None = None
) -> Image.Image:
    """The ranking (or standings) first, then the points by category with a subtotal per epoch;
    at most :data:`MAX_HEIGHT` px."""
    n = int(view["n_players"])
    img, d = new_canvas(MAX_HEIGHT + 400 + 70 * n)
    y = draw_header(img, d, view, nm, right_seats=[], title=title)
    show_final = bool(view["over"] and view["outcome"]) if final is None else final
    y = draw_ranking(img, d, view, nm, hist, y, show_final)
    if hist:
        y = draw_grid(img, d, view, nm, hist, y)
    else:
        y += 16
        d.text((X0 + 4, y), "No epoch has been scored yet.", font=font(MIN_TEXT), fill=MUTED)
        y += 34
    return crop(img, y)


def _categories(view: RaView, hist: list[EpochView]) -> list[str]:
    """The scoring rows to show: all of them, minus Traders when the module is off, plus any extra
    category the engine reported."""
    seen: list[str] = []
    for e in hist:
        for r in e["rows"]:
            for c in r["points"]:
                if c not in seen:
                    seen.append(c)
    traders = view["options"].get("traders", True)
    cats = [c for c in SCORE_CATEGORIES if c != "Traders" or traders]
    return cats + [c for c in seen if c not in SCORE_CATEGORIES]


def _points(hist: list[EpochView], seat: int, label: str) -> int | None:
    """Seat's points in category ``label`` over the epochs of ``hist`` (None when no epoch of
    them scores it: Monuments and Suns before epoch 3)."""
    total, scored = 0, False
    for e in hist:
        for r in e["rows"]:
            if int(r["seat"]) != seat:
                continue
            if label == "Floor adjustment":
                total += int(r["floor"])
                scored = True
            elif label in r["points"]:
                total += int(r["points"][label] or 0)
                scored = scored or int(e["epoch"]) >= 3 or label not in ("Monuments", "Suns")
    return total if scored else None


def _rows(view: RaView, hist: list[EpochView]) -> list[str]:
    """The rows of the table: the categories that scored for anyone over ``hist`` (Gods and
    Pharaohs always), the floor adjustment where it applied, one subtotal per epoch, the total."""
    n = int(view["n_players"])
    out = []
    for c in _categories(view, hist):
        vals = [_points(hist, s, c) for s in range(n)]
        if any(vals) or (c in ("Gods", "Pharaohs") and any(v is not None for v in vals)):
            out.append(c)
    if any(int(r["floor"]) for e in hist for r in e["rows"]):
        out.append("Floor adjustment")
    return out + [f"Epoch {e['epoch']}" for e in hist] + ["Total"]


def draw_grid(
    img: Image.Image, d: ImageDraw.ImageDraw, view: RaView, nm: Sequence[str], hist: list[EpochView], y: int
) -> int:
    """The table: a label column, then one column per seat headed by its name; the points by
    category over the epochs of ``hist``, each epoch's total, and the running total. Returns the
    y below."""
    n = int(view["n_players"])
    rows = _rows(view, hist)
    top = y + 10
    cw = (X1 - X0 - 2 * PAD - LABEL_W) / n
    head_h = 44
    h = 12 + head_h + ROW_H * len(rows) + 12
    panel(d, (X0, top, X1, top + h))
    x0, yy = X0 + PAD + LABEL_W, top + 12
    what = "Points by category" if len(hist) > 1 else f"Epoch {hist[0]['epoch']}"
    d.text((X0 + PAD, yy + head_h / 2), what, font=font(MIN_TEXT, True), fill=MUTED, anchor="lm")
    initials = seat_initials(nm)
    for s in range(n):
        cx = x0 + s * cw
        d.rectangle((cx + 6, yy + head_h - 5, cx + cw - 6, yy + head_h - 1), fill=seat_color(s))
        t, f = fit(nm[s] if cw >= 150 else initials[s], int(cw - 10), MIN_TEXT, True)
        d.text((cx + cw / 2, yy + head_h - 10), t, font=f, fill=seat_ink(s), anchor="md")
    yy += head_h
    by_epoch = {int(e["epoch"]): {int(r["seat"]): r for r in e["rows"]} for e in hist}
    for ri, label in enumerate(rows):
        ry = yy + ri * ROW_H
        total = label == "Total" or label.startswith("Epoch ")
        if label.startswith("Epoch ") and (ri == 0 or not rows[ri - 1].startswith("Epoch ")):
            d.line((X0 + PAD, ry, X1 - PAD, ry), fill=LINE, width=2)
        elif label == "Total":
            d.rectangle((X0 + PAD, ry, X1 - PAD, ry + ROW_H), fill=mix(LINE, PANEL, 0.6))
        elif ri % 2 == 1 and not total:
            d.rectangle((X0 + PAD, ry, X1 - PAD, ry + ROW_H), fill=mix(LINE, PANEL, 0.82))
        code = CATEGORY_ICON.get(label)
        lx = X0 + PAD + 6
        if code:
            paste(img, icon(code, 28, _cat_rgb(code)), lx, ry + (ROW_H - 28) // 2)
            lx += 36
        word = "Epoch " + label[6:] + " total" if label.startswith("Epoch ") else label
        t, f = fit(word, LABEL_W - (lx - X0 - PAD) - 6, MIN_TEXT, total)
        d.text((lx, ry + ROW_H / 2), t, font=f, fill=INK, anchor="lm")
        for s in range(n):
            if label.startswith("Epoch "):
                r = by_epoch.get(int(label[6:]), {}).get(s)
                val, colr, f = _cell("Epoch total", r)
            elif label == "Total":
                rs = by_epoch.get(int(hist[-1]["epoch"]), {}).get(s)
                val, colr, f = _cell("Running total", rs)
            else:
                val, colr, f = _cell_value(_points(hist, s, label))
            d.text((x0 + s * cw + cw / 2, ry + ROW_H / 2), val, font=f, fill=colr, anchor="mm")
    return top + h


def _cell_value(v: int | None) -> tuple[str, tuple[int, int, int], Any]:
    if v is None:
        return "–", mix(MUTED, PANEL, 0.35), font(MIN_TEXT)
    return signed(v), (GOOD if v > 0 else BAD if v < 0 else MUTED), font(28)


def _cell(label: str, r: HistoryRow | None) -> tuple[str, tuple[int, int, int], Any]:
    """Text, colour and font of a total cell ('–' for a seat without a row)."""
    if r is None:
        return "–", MUTED, font(MIN_TEXT)
    if label == "Running total":
        v = r["running_total"]
        return ("?" if v is None else str(v)), INK, font(NUMBER_TEXT, True)
    return signed(int(r["epoch_total"])), INK, font(28, True)


def _cat_rgb(code: str) -> tuple[int, int, int]:
    return {
        "writing": CATEGORY_COLOR["civ"],
        "pyramid": CATEGORY_COLOR["monument"],
        "nile": CATEGORY_COLOR["river"],
        "sun": (196, 146, 18),
    }.get(code) or CATEGORY_COLOR[code]


def highest_sun(p: PlayerView) -> int:
    """The highest sun a seat holds, face up or down (0 if none)."""
    return max(list(p["up"]) + list(p["down"]) or [0])


Ranking = tuple[list[int | None], list[int], set[int], list[str], str]
"""Scores, ranks, winners, notes and the title of a ranking."""


def draw_ranking(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    view: RaView,
    nm: Sequence[str],
    hist: list[EpochView],
    y: int,
    final: bool,
) -> int:
    """Final ranking (winners highlighted, tie-break note) or standings after the last epoch in
    ``hist``. Returns the y below."""
    n = int(view["n_players"])
    out = view["outcome"] if final else None
    got = _ranking(view, hist, out)
    if got is None:
        return y
    scores, ranks, winners, notes, title = got
    order = sorted(range(n), key=lambda s: (ranks[s], s))
    tie_note = _tie_note(view, nm, scores, ranks) if out else ""
    row_h = 56
    top = y + 10
    note_lines = wrap(tie_note, X1 - X0 - 2 * PAD, font(MIN_TEXT))[:2] if tie_note else []
    h = 14 + 40 + row_h * n + (4 + 34 * len(note_lines) if note_lines else 0) + 10
    panel(d, (X0, top, X1, top + h))
    d.text((X0 + PAD, top + 14), title, font=font(28, True), fill=INK)
    yy = top + 14 + 40
    initials = seat_initials(nm)
    for s in order:
        extra = ["winner"] if s in winners else []
        note = format_text(notes[s], list(nm)) if s < len(notes) and notes[s] else ""
        if note:
            extra.append(note)
        elif s < len(view["players"]) and out and scores.count(scores[s]) > 1:
            extra.append(f"highest sun {highest_sun(view['players'][s])}")
        _rank_row(d, nm[s], initials[s], s, ranks[s], scores[s], s in winners, extra, yy, row_h)
        yy += row_h
    if note_lines:
        yy += 4
        for line in note_lines:
            d.text((X0 + PAD, yy), line, font=font(MIN_TEXT), fill=MUTED)
            yy += 34
    return top + h


def _ranking(view: RaView, hist: list[EpochView], out: dict[str, Any] | None) -> Ranking | None:
    """The final ranking from the outcome, or the standings after the last epoch in ``hist``
    (None when nothing is scored yet or the totals are hidden)."""
    n = int(view["n_players"])
    if out:
        return (
            list(out["scores"]),
            list(out["ranks"]),
            set(out.get("winners") or []),
            list(out.get("notes") or []),
            "Final ranking",
        )
    last = {int(r["seat"]): r for r in (hist[-1]["rows"] if hist else [])}
    scores = [last[s]["running_total"] if s in last else None for s in range(n)]
    if not hist or any(v is None for v in scores):  # nothing scored, or hidden scores
        return None
    known = [v for v in scores if v is not None]
    ranks = [1 + sum(1 for v in known if v > w) for w in known]
    return scores, ranks, set(), [], f"Standings after epoch {hist[-1]['epoch']}"


def _rank_row(
    d: ImageDraw.ImageDraw,
    name: str,
    initial: str,
    s: int,
    rank: int,
    v: int | None,
    win: bool,
    extra: list[str],
    yy: int,
    row_h: int,
) -> None:
    """One seat's line of the ranking: medal with the place, badge, name, notes, points."""
    yc = yy + (row_h - 4) / 2
    if win:
        d.rounded_rectangle(
            (X0 + PAD - 6, yy, X1 - PAD + 6, yy + row_h - 4),
            radius=10,
            fill=WIN_BG,
            outline=GOLD_MEDAL,
            width=2,
        )
    medal = GOLD_MEDAL if win else GREY_MEDAL
    d.rounded_rectangle((X0 + PAD, yc - 20, X0 + PAD + 52, yc + 20), radius=20, fill=medal)
    rf = font(MIN_TEXT, True, True)
    d.text((X0 + PAD + 26, yc), ordinal(rank), font=rf, fill=(255, 255, 255), anchor="mm")
    frame.seat_badge(d, (X0 + PAD + 74, yc), s, initial, 18)
    st = f"{'?' if v is None else v} pts"
    sf = font(NUMBER_TEXT, True)
    d.text((X1 - PAD - 4, yc), st, font=sf, fill=INK, anchor="rm")
    right = X1 - PAD - 4 - text_width(st, sf) - 16
    t, f = fit(name, min(420, right - (X0 + PAD + 100)), 28, True)
    d.text((X0 + PAD + 100, yc), t, font=f, fill=seat_ink(s), anchor="lm")
    ex = X0 + PAD + 100 + text_width(t, f) + 14
    if extra and right - ex >= 80:
        et, ef = fit(" · ".join(extra), int(right - ex), MIN_TEXT)
        d.text((ex, yc), et, font=ef, fill=MUTED, anchor="lm")


def _tie_note(view: RaView, nm: Sequence[str], scores: Sequence[int | None], ranks: Sequence[int]) -> str:
    """A sentence explaining how equal final scores were ranked ('' when no two seats tie)."""
    groups: dict[int, list[int]] = {}
    for s, v in enumerate(scores):
        if v is not None:
            groups.setdefault(int(v), []).append(s)
    tied = [g for g in groups.values() if len(g) > 1]
    if not tied:
        return ""
    players = view["players"]
    opts = view["options"]
    parts = []
    for g in tied:
        who = ", ".join(f"{nm[s]} ({highest_sun(players[s])})" for s in g if s < len(players))
        if opts.get("tiebreak_highest_sun", True) and len({ranks[s] for s in g}) > 1:
            parts.append(f"Tie on {scores[g[0]]} points broken by the highest sun held: {who}.")
        else:
            parts.append(f"Tie on {scores[g[0]]} points: the tied players share the place.")
    return " ".join(parts)
