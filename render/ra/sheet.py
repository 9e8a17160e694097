"""Ra score sheets: one column per seat, headed by the seat's name in words; for each scored
epoch a band of the §7 rows that scored for anyone (the floor adjustment when it applied), the
epoch total and the running total; then the final ranking (or the standings so far)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from engines.base import format_text
from engines.ra.view import EpochView, HistoryRow, PlayerView, RaView
from render.common import (
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
    seat_names,
    signed,
    text_width,
    wrap,
)
from render.ra.art import CATEGORY_COLOR, CATEGORY_ICON, SCORE_CATEGORIES, icon, paste, ra_disc
from render.ra.board import PAD, X0, X1, crop, draw_header, new_canvas

LABEL_W = 250
ROW_H = 40
WIN_BG = (252, 236, 190)
GOLD_MEDAL = (222, 170, 30)
GREY_MEDAL = (160, 154, 146)


def score_sheet(view: RaView, names: Sequence[str] | None = None) -> Image.Image:
    """The score sheet of ``view``: every epoch scored so far (``view["history"]``) and, once the
    game is over, the final ranking with winners highlighted and the tie-break explained; before
    that, the standings after the last scored epoch. Returns a ~1000 px wide RGB image."""
    n = int(view["n_players"])
    nm = seat_names(names, n)
    hist = sorted(view.get("history") or [], key=lambda e: e["epoch"])
    if view.get("over"):
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
    hist = [e for e in view.get("history") or [] if int(e["epoch"]) == int(epoch)]
    if not hist:
        raise ValueError(f"epoch {epoch} has not been scored yet")
    return _sheet(view, nm, hist, f"Epoch {epoch} scoring", final=False)


def _sheet(
    view: RaView, nm: Sequence[str], hist: list[EpochView], title: str, final: bool | None = None
) -> Image.Image:
    n = int(view["n_players"])
    img, d = new_canvas(600 + 36 * ROW_H + 70 * n)
    y = draw_header(img, d, view, nm, right_seats=[], title=title)
    if hist:
        y = draw_grid(img, d, view, nm, hist, y)
    else:
        y += 16
        d.text((X0 + 4, y), "No epoch has been scored yet.", font=font(24), fill=MUTED)
        y += 30
    show_final = bool(view.get("over") and view.get("outcome")) if final is None else final
    y = draw_ranking(img, d, view, nm, hist, y, show_final)
    return crop(img, y)


def _categories(view: RaView, hist: list[EpochView]) -> list[str]:
    """The §7 rows to show: all of them, minus Traders when the module is off, plus any extra
    category the engine reported."""
    seen: list[str] = []
    for e in hist:
        for r in e["rows"]:
            for c in r.get("points") or {}:
                if c not in seen:
                    seen.append(c)
    traders = (view.get("options") or {}).get("traders", True)
    cats = [c for c in SCORE_CATEGORIES if c != "Traders" or traders]
    return cats + [c for c in seen if c not in SCORE_CATEGORIES]


def _epoch_rows(cats: Sequence[str], e: EpochView) -> list[str]:
    """The rows of one epoch's band: the categories that scored for anyone (Monuments and Suns
    only in epoch 3; Gods and Pharaohs always), the floor adjustment where it applied, the epoch
    and running totals."""
    rows = e["rows"]
    final = int(e["epoch"]) >= 3
    out = []
    for c in cats:
        if c in ("Monuments", "Suns") and not final:
            continue
        if any(int((r.get("points") or {}).get(c, 0) or 0) for r in rows) or c in ("Gods", "Pharaohs"):
            out.append(c)
    if any(int(r.get("floor") or 0) for r in rows):
        out.append("Floor adjustment")
    return out + ["Epoch total", "Running total"]


def draw_grid(
    img: Image.Image, d: ImageDraw.ImageDraw, view: RaView, nm: Sequence[str], hist: list[EpochView], y: int
) -> int:
    """The table: a label column, then one column per seat headed by its name; one band of rows
    per scored epoch. Returns the y below."""
    n = int(view["n_players"])
    cats = _categories(view, hist)
    top = y + 14
    cw = (X1 - X0 - 2 * PAD - LABEL_W) / n
    bands = [(e, _epoch_rows(cats, e)) for e in hist]
    head_h = 50
    band_head = 40
    h = PAD + head_h + sum(band_head + ROW_H * len(rows) + 8 for _, rows in bands) + PAD - 8
    panel(d, (X0, top, X1, top + h))
    x0, yy = X0 + PAD + LABEL_W, top + PAD
    for s in range(n):
        cx = x0 + s * cw
        d.rectangle((cx + 6, yy + head_h - 8, cx + cw - 6, yy + head_h - 3), fill=seat_color(s))
        t, f = fit(nm[s], int(cw - 10), 26, True)
        d.text((cx + cw / 2, yy + head_h - 14), t, font=f, fill=seat_ink(s), anchor="md")
    yy += head_h
    for e, rows in bands:
        by_seat = {int(r["seat"]): r for r in e["rows"]}
        d.rectangle((X0 + PAD, yy + 4, X1 - PAD, yy + band_head - 2), fill=mix(LINE, PANEL, 0.55))
        d.text(
            (X0 + PAD + 8, yy + band_head / 2 + 1),
            f"Epoch {e['epoch']}",
            font=font(24, True),
            fill=INK,
            anchor="lm",
        )
        yy += band_head
        for ri, label in enumerate(rows):
            ry = yy + ri * ROW_H
            total = label in ("Epoch total", "Running total")
            if label == "Epoch total":
                d.line((X0 + PAD, ry, X1 - PAD, ry), fill=LINE, width=2)
            elif ri % 2 == 1 and not total:
                d.rectangle((X0 + PAD, ry, X1 - PAD, ry + ROW_H), fill=mix(LINE, PANEL, 0.82))
            code = CATEGORY_ICON.get(label)
            lx = X0 + PAD + 6
            if code:
                paste(img, icon(code, 26, _cat_rgb(code)), lx, ry + 7)
                lx += 34
            t, f = fit(label, LABEL_W - (lx - X0 - PAD) - 6, 24, total)
            d.text((lx, ry + ROW_H / 2), t, font=f, fill=INK, anchor="lm")
            for s in range(n):
                val, colr, f = _cell(label, by_seat.get(s), int(e["epoch"]))
                d.text((x0 + s * cw + cw / 2, ry + ROW_H / 2), val, font=f, fill=colr, anchor="mm")
        yy += ROW_H * len(rows) + 8
    return top + h


def _cell(label: str, r: HistoryRow | None, epoch: int) -> tuple[str, tuple[int, int, int], Any]:
    """Text, colour and font of one table cell ('–' for rows an epoch does not score)."""
    plain = font(24)
    if r is None:
        return "–", MUTED, plain
    if label == "Running total":
        v = r.get("running_total")
        return ("?" if v is None else str(v)), INK, font(28, True)
    if label == "Epoch total":
        return signed(int(r.get("epoch_total", 0))), INK, font(24, True)
    if label == "Floor adjustment":
        v = int(r.get("floor") or 0)
        return (signed(v) if v else "–"), (GOOD if v else MUTED), plain
    pts = r.get("points") or {}
    if label not in pts or (epoch < 3 and label in ("Monuments", "Suns") and not pts[label]):
        return "–", mix(MUTED, PANEL, 0.35), plain
    v = int(pts[label])
    return signed(v), (GOOD if v > 0 else BAD if v < 0 else MUTED), plain


def _cat_rgb(code: str) -> tuple[int, int, int]:
    return {
        "writing": CATEGORY_COLOR["civ"],
        "pyramid": CATEGORY_COLOR["monument"],
        "nile": CATEGORY_COLOR["river"],
        "sun": (196, 146, 18),
    }.get(code) or CATEGORY_COLOR[code]


def highest_sun(p: PlayerView) -> int:
    """The highest sun a seat holds, face up or down (0 if none)."""
    return max(list(p.get("up") or []) + list(p.get("down") or []) or [0])


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
    players = view.get("players") or []
    out = view.get("outcome") if final else None
    if out:
        scores = list(out["scores"])
        ranks = list(out["ranks"])
        winners = set(out.get("winners") or [])
        notes = list(out.get("notes") or [])
        title = "Final ranking"
    else:
        last = {int(r["seat"]): r for r in (hist[-1]["rows"] if hist else [])}
        scores = [last[s]["running_total"] if s in last else None for s in range(n)]
        if not hist or any(v is None for v in scores):  # nothing scored, or hidden scores
            return y
        ranks = [1 + sum(1 for v in scores if v > w) for w in scores]
        winners, notes = set(), []
        title = f"Standings after epoch {hist[-1]['epoch']}"
    order = sorted(range(n), key=lambda s: (ranks[s], s))
    tie_note = _tie_note(view, nm, scores, ranks) if out else ""
    row_h = 56
    top = y + 14
    note_lines = wrap(tie_note, X1 - X0 - 2 * PAD, font(22)) if tie_note else []
    h = PAD + 40 + row_h * n + (8 + 30 * len(note_lines) if note_lines else 0) + PAD
    panel(d, (X0, top, X1, top + h))
    d.text((X0 + PAD, top + PAD), title, font=font(28, True), fill=INK)
    yy = top + PAD + 44
    for s in order:
        win = s in winners
        if win:
            d.rounded_rectangle(
                (X0 + PAD - 6, yy, X1 - PAD + 6, yy + row_h - 6),
                radius=10,
                fill=WIN_BG,
                outline=GOLD_MEDAL,
                width=2,
            )
        ra_disc(img, X0 + PAD + 4, yy + 6, 38, GOLD_MEDAL if win else GREY_MEDAL)
        d.text(
            (X0 + PAD + 23, yy + 25), str(ranks[s]), font=font(24, True), fill=(255, 255, 255), anchor="mm"
        )
        d.rectangle((X0 + PAD + 54, yy + 10, X0 + PAD + 60, yy + 40), fill=seat_color(s))
        label = nm[s]
        t, f = fit(label, 400, 28, True)
        d.text((X0 + PAD + 72, yy + 25), t, font=f, fill=seat_ink(s), anchor="lm")
        extra = []
        if win:
            extra.append("winner")
        note = format_text(notes[s], list(nm)) if s < len(notes) and notes[s] else ""
        if note:
            extra.append(note)
        elif s < len(players) and out and scores.count(scores[s]) > 1:
            extra.append(f"highest sun {highest_sun(players[s])}")
        if extra:
            ex = X0 + PAD + 72 + text_width(t, f) + 14
            et, ef = fit(" · ".join(extra), int(X1 - PAD - 90 - ex), 22)
            d.text((ex, yy + 27), et, font=ef, fill=MUTED, anchor="lm")
        v = scores[s]
        d.text(
            (X1 - PAD - 4, yy + 25), "?" if v is None else str(v), font=font(28, True), fill=INK, anchor="rm"
        )
        yy += row_h
    if note_lines:
        yy += 8
        for line in note_lines:
            d.text((X0 + PAD, yy), line, font=font(22), fill=MUTED)
            yy += 30
    return top + h


def _tie_note(view: RaView, nm: Sequence[str], scores: Sequence[int | None], ranks: Sequence[int]) -> str:
    """A sentence explaining how equal final scores were ranked ('' when no two seats tie)."""
    groups: dict[int, list[int]] = {}
    for s, v in enumerate(scores):
        if v is not None:
            groups.setdefault(int(v), []).append(s)
    tied = [g for g in groups.values() if len(g) > 1]
    if not tied:
        return ""
    players = view.get("players") or []
    opts = view.get("options") or {}
    parts = []
    for g in tied:
        who = ", ".join(f"{nm[s]} ({highest_sun(players[s])})" for s in g if s < len(players))
        if opts.get("tiebreak_highest_sun", True) and len({ranks[s] for s in g}) > 1:
            parts.append(f"Tie on {scores[g[0]]} points broken by the highest sun held: {who}.")
        else:
            parts.append(f"Tie on {scores[g[0]]} points: the tied players share the place.")
    return " ".join(parts)
