"""The Pralaya score sheet (docs/rules/pralaya.md#scoring): one row per category, one column per player,
then the Dhoni each seat escaped on, the total and the rank; winners highlighted, stranded seats
greyed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from engines.pralaya.view import OutcomeView, PralayaView
from render.common import (
    BAD,
    INK,
    LINE,
    MUTED,
    NUMBER_TEXT,
    RGB,
    WIDTH,
    font,
    num,
    ordinal,
    panel,
    seat_color,
    seat_initials,
    seat_ink,
    wrap,
)
from render.common import fit as fit_text
from render.frame import HEADER_H, header, seat_badge
from render.pralaya.art.cards import CATEGORIES
from render.pralaya.art.pieces import section_title
from render.pralaya.layout import INNER, M, crop, names_for, new_canvas, price_text

LABEL_W = 250
HEAD_H = 100
ROW = 40
WIN_FILL = (250, 236, 188)
WIN_EDGE = (196, 150, 20)
WIN_INK = (124, 90, 0)  # gold that reads as text on WIN_FILL
STRANDED_FILL = (236, 232, 226)


def _result(view: PralayaView) -> OutcomeView:
    """The view's outcome, or an empty one (nobody has scored) while the game runs."""
    out = view["outcome"]
    if out is not None:
        return out
    n = view["n_players"]
    none: list[int | None] = [None] * n
    return {
        "ranks": [0] * n,
        "scores": none,
        "categories": list(CATEGORIES),
        "breakdown": [None] * n,
        "winners": [],
        "notes": [],
    }


def _categories(res: OutcomeView) -> list[str]:
    return list(res["categories"] or CATEGORIES)


def sheet_height(view: PralayaView) -> int:
    """Height of the sheet block (title included) for ``view``."""
    cats = _categories(_result(view))
    return 36 + HEAD_H + (len(cats) + 1) * ROW + 50 + 24


def _name_lines(name: str, width: int) -> list[tuple[str, Any]]:
    """``name`` in one line at 28 px, else in two (the second ellipsised if need be)."""
    s, f = fit_text(name, width, 28, bold=True, min_size=28)
    if not s.endswith("…"):
        return [(s, f)]
    f = font(28, True, True)
    lines = wrap(name, width, f)
    out = [fit_text(ln, width, 28, bold=True, min_size=28) for ln in lines[:2]]
    if len(lines) > 2:
        out[1] = fit_text(" ".join(lines[1:]), width, 28, bold=True, min_size=28)
    return out


class _Grid:
    """Where the sheet's columns stand: one per seat after the label column."""

    def __init__(self, n: int, top: int) -> None:
        self.n, self.top = n, top
        self.col_w = (INNER - LABEL_W - 16) // n

    def x0(self, s: int) -> int:
        return M + LABEL_W + s * self.col_w

    def cx(self, s: int) -> int:
        return self.x0(s) + self.col_w // 2


def _columns(d: ImageDraw.ImageDraw, res: OutcomeView, names: Sequence[str], g: _Grid, height: int) -> None:
    """Each seat's column: its background (winners gold, stranded grey), colour bar, name, status."""
    scores, winners, top = res["scores"], set(res["winners"]), g.top
    anyone = any(s is not None for s in scores)
    for s in range(g.n):
        x0, x1 = g.x0(s) + 3, g.x0(s + 1) - 3
        if scores[s] is None:
            d.rectangle((x0, top + 8, x1, top + height - 8), fill=STRANDED_FILL)
        elif s in winners and anyone:
            d.rounded_rectangle(
                (x0, top + 6, x1, top + height - 6), radius=8, fill=WIN_FILL, outline=WIN_EDGE, width=2
            )
    for s in range(g.n):
        x0 = g.x0(s)
        d.rounded_rectangle((x0 + 10, top + 10, x0 + g.col_w - 10, top + 16), radius=3, fill=seat_color(s))
        lines = _name_lines(names[s], g.col_w - 16)
        ly = top + 20 if len(lines) == 2 else top + 30
        for text, f in lines:
            d.text((g.cx(s), ly), text, font=f, fill=seat_ink(s, WIN_FILL), anchor="mt")
            ly += 30
        status, col = ("winner", WIN_INK) if s in winners and anyone else ("", MUTED)
        if scores[s] is None:
            status, col = "not escaped", MUTED
        if status:
            d.text((g.cx(s), top + HEAD_H - 12), status, font=font(26, True), fill=col, anchor="mm")


def _row(
    d: ImageDraw.ImageDraw,
    g: _Grid,
    y: int,
    label: str,
    values: list[str],
    colors: list[RGB],
    bold: bool = False,
    size: int = 28,
    h: int = ROW,
) -> int:
    """One row of the sheet at ``y``: its label, then a value per seat; returns the y below."""
    d.text(
        (M + 18, y + h / 2),
        label,
        font=font(max(26, size - 4) if not bold else size, bold),
        fill=INK,
        anchor="lm",
    )
    for s, v in enumerate(values):
        d.text((g.cx(s), y + h / 2), v, font=font(size, bold), fill=colors[s], anchor="mm")
    return y + h


def _category_row(d: ImageDraw.ImageDraw, g: _Grid, y: int, res: OutcomeView, cat: str) -> int:
    vals: list[str] = []
    cols: list[RGB] = []
    for s in range(g.n):
        b = res["breakdown"][s] if s < len(res["breakdown"]) else None
        if res["scores"][s] is None or b is None:
            vals.append("—")
            cols.append(MUTED)
        else:
            v = int(b.get(cat, 0))
            vals.append(num(v))
            cols.append(BAD if v < 0 else (MUTED if v == 0 else INK))
    return _row(d, g, y, cat, vals, cols)


def sheet_block(
    img: Image.Image, d: ImageDraw.ImageDraw, view: PralayaView, names: Sequence[str], y: int
) -> int:
    """Draw the score sheet at ``y``; returns the y below it."""
    res = _result(view)
    n = view["n_players"]
    cats = _categories(res)
    y = section_title(d, y, "By category")
    g = _Grid(n, y)
    height = HEAD_H + (len(cats) + 1) * ROW + 50 + 8
    panel(d, (M, g.top, WIDTH - M, g.top + height), radius=10)
    _columns(d, res, names, g, height)
    y = g.top + HEAD_H
    d.line((M + 12, y, WIDTH - M - 12, y), fill=LINE, width=2)
    for cat in cats:
        y = _category_row(d, g, y, res, cat)
    players = {p["seat"]: p for p in view["players"]}
    esc = [f"Dhoni {price_text(players[s]['dhoni_price'])}" if players[s]["dhoni"] else "—" for s in range(n)]
    y = _row(d, g, y, "Escaped via", esc, [INK if v != "—" else MUTED for v in esc])
    d.line((M + 12, y + 4, WIDTH - M - 12, y + 4), fill=INK, width=2)
    scores = res["scores"]
    totals = ["—" if v is None else num(v) for v in scores]
    colors = [MUTED if v is None else (BAD if v < 0 else INK) for v in scores]
    _row(d, g, y + 4, "Total", totals, colors, bold=True, size=32, h=50)
    return g.top + height


RANK_H = 52


def ranked(view: PralayaView) -> list[tuple[int, int, int | None]]:
    """(seat, rank, total or None) for every seat, best first; the seats that did not escape
    last, in seat order."""
    res = _result(view)
    n = view["n_players"]
    scores, ranks = res["scores"], res["ranks"]
    order = sorted(range(n), key=lambda s: (scores[s] is None, ranks[s] or n + 1, s))
    return [(s, int(ranks[s] or 0), scores[s]) for s in order]


def ranking(img: Image.Image, d: ImageDraw.ImageDraw, view: PralayaView, names: Sequence[str], y: int) -> int:
    """The result first: one line per seat, best first, with its rank, total and the Dhoni it
    escaped on (or that it did not escape). Returns the y below."""
    res = _result(view)
    scores, ranks, winners = res["scores"], res["ranks"], set(res["winners"])
    players = {p["seat"]: p for p in view["players"]}
    initials = seat_initials(names)
    for s, _, _ in ranked(view):
        win = s in winners and scores[s] is not None
        if win:
            d.rounded_rectangle(
                (M, y, WIDTH - M, y + RANK_H - 6), radius=8, fill=WIN_FILL, outline=WIN_EDGE, width=2
            )
        cy = y + (RANK_H - 6) / 2
        place = ordinal(ranks[s]) if scores[s] is not None and ranks[s] else "—"
        d.text((M + 14, cy), place, font=font(30, True), fill=WIN_INK if win else INK, anchor="lm")
        seat_badge(d, (M + 108, cy), s, initials[s], 19)
        p = players[s]
        score = scores[s]
        how = f"escaped on Dhoni {price_text(p['dhoni_price'])}" if p["dhoni"] else "did not escape"
        total = "no score" if score is None else f"{num(score)} pts"
        tf = font(NUMBER_TEXT, True)
        d.text((WIDTH - M - 14, cy), total, font=tf, fill=MUTED if scores[s] is None else INK, anchor="rm")
        room = WIDTH - M - 14 - int(tf.getlength(total)) - 20 - (M + 140)
        t, f = fit_text(f"{names[s]} · {how}", room, 28, bold=True)
        d.text((M + 140, cy), t, font=f, fill=seat_ink(s, WIN_FILL if win else (246, 241, 230)), anchor="lm")
        y += RANK_H
    return y


def score_sheet(view: PralayaView, names: Sequence[str] | None = None) -> Image.Image:
    """The final score sheet of a finished game's view (``view["outcome"]`` set). For a game still
    running, a sheet with a note that there is no result yet. Returns an RGB image."""
    nm = names_for(view, names)
    n = int(view["n_players"])
    img, d = new_canvas(HEADER_H + 40 + n * RANK_H + 20 + sheet_height(view) + 40)
    over = view["outcome"] is not None
    header(img, d, "Pralaya", "Final score" if over else f"Round {view['round']}", over=over)
    y = HEADER_H + 12
    if not over:
        y = section_title(d, y, "Final score", "the game is still running: no result yet")
        return crop(img, y)
    y = section_title(d, y, "Result", "ties go to the seat furthest from the first player")
    y = ranking(img, d, view, nm, y) + 10
    y = sheet_block(img, d, view, nm, y)
    return crop(img, y)
