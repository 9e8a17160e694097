"""The Pralaya score sheet (docs/rules/pralaya.md#scoring): one row per category, one column per player,
then the Dhoni each seat escaped on, the total and the rank; winners highlighted, stranded seats
greyed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from engines.pralaya.view import PralayaView
from render.common import (
    BAD,
    INK,
    LINE,
    MUTED,
    NUMBER_TEXT,
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


def _categories(outcome: dict[str, Any]) -> list[str]:
    return list(outcome.get("categories") or CATEGORIES)


def sheet_height(view: PralayaView) -> int:
    """Height of the sheet block (title included) for ``view``."""
    cats = _categories(view.get("outcome") or {})
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


def sheet_block(
    img: Image.Image, d: ImageDraw.ImageDraw, view: PralayaView, names: Sequence[str], y: int
) -> int:
    """Draw the score sheet at ``y``; returns the y below it."""
    out = view.get("outcome") or {}
    n = int(view["n_players"])
    cats = _categories(out)
    scores = list(out.get("scores") or [None] * n)
    ranks = list(out.get("ranks") or [0] * n)
    winners = set(out.get("winners") or [])
    breakdown = list(out.get("breakdown") or [None] * n)
    players = {int(p["seat"]): p for p in view.get("players", [])}
    anyone = any(s is not None for s in scores)

    y = section_title(d, y, "By category")
    top = y
    col_w = (INNER - LABEL_W - 16) // n
    height = HEAD_H + (len(cats) + 1) * ROW + 50 + 8
    panel(d, (M, top, WIDTH - M, top + height), radius=10)

    def cx(s: int) -> int:
        return M + LABEL_W + s * col_w + col_w // 2

    # column backgrounds: winners gold, stranded grey
    for s in range(n):
        x0, x1 = M + LABEL_W + s * col_w + 3, M + LABEL_W + (s + 1) * col_w - 3
        if scores[s] is None:
            d.rectangle((x0, top + 8, x1, top + height - 8), fill=STRANDED_FILL)
        elif s in winners and anyone:
            d.rounded_rectangle(
                (x0, top + 6, x1, top + height - 6), radius=8, fill=WIN_FILL, outline=WIN_EDGE, width=2
            )
    # header: colour bar, name, status
    for s in range(n):
        x0 = M + LABEL_W + s * col_w
        d.rounded_rectangle((x0 + 10, top + 10, x0 + col_w - 10, top + 16), radius=3, fill=seat_color(s))
        lines = _name_lines(names[s], col_w - 16)
        ly = top + 20 if len(lines) == 2 else top + 30
        for text, f in lines:
            d.text((cx(s), ly), text, font=f, fill=seat_ink(s, WIN_FILL), anchor="mt")
            ly += 30
        status, col = ("winner", WIN_INK) if s in winners and anyone else ("", MUTED)
        if scores[s] is None:
            status, col = "not escaped", MUTED
        if status:
            d.text((cx(s), top + HEAD_H - 12), status, font=font(26, True), fill=col, anchor="mm")
    y = top + HEAD_H
    d.line((M + 12, y, WIDTH - M - 12, y), fill=LINE, width=2)

    def row(
        label: str,
        values: list[str],
        bold: bool = False,
        size: int = 28,
        colors: list[Any] | None = None,
        h: int = ROW,
    ) -> None:
        nonlocal y
        d.text(
            (M + 18, y + h / 2),
            label,
            font=font(max(26, size - 4) if not bold else size, bold),
            fill=INK,
            anchor="lm",
        )
        for s, v in enumerate(values):
            c = colors[s] if colors else INK
            d.text((cx(s), y + h / 2), v, font=font(size, bold), fill=c, anchor="mm")
        y += h

    for cat in cats:
        vals, cols = [], []
        for s in range(n):
            b = breakdown[s] if s < len(breakdown) else None
            if scores[s] is None or b is None:
                vals.append("—")
                cols.append(MUTED)
            else:
                v = int(b.get(cat, 0))
                vals.append(num(v))
                cols.append(BAD if v < 0 else (MUTED if v == 0 else INK))
        row(cat, vals, colors=cols)
    esc = []
    for s in range(n):
        p: Mapping[str, Any] = players.get(s, {})
        esc.append(f"Dhoni {price_text(p.get('dhoni_price'))}" if p.get("dhoni") else "—")
    row("Escaped via", esc, colors=[INK if v != "—" else MUTED for v in esc])
    d.line((M + 12, y + 4, WIDTH - M - 12, y + 4), fill=INK, width=2)
    y += 4
    totals = ["—" if v is None else num(v) for v in scores]
    row(
        "Total",
        totals,
        bold=True,
        size=32,
        h=50,
        colors=[MUTED if v is None else (BAD if v < 0 else INK) for v in scores],
    )
    del ranks
    return top + height


RANK_H = 52


def ranked(view: PralayaView) -> list[tuple[int, int, int | None]]:
    """(seat, rank, total or None) for every seat, best first; the seats that did not escape
    last, in seat order."""
    out = view.get("outcome") or {}
    n = int(view["n_players"])
    scores = list(out.get("scores") or [None] * n)
    ranks = list(out.get("ranks") or [0] * n)
    order = sorted(range(n), key=lambda s: (scores[s] is None, ranks[s] or n + 1, s))
    return [(s, int(ranks[s] or 0), scores[s]) for s in order]


def ranking(img: Image.Image, d: ImageDraw.ImageDraw, view: PralayaView, names: Sequence[str], y: int) -> int:
    """The result first: one line per seat, best first, with its rank, total and the Dhoni it
    escaped on (or that it did not escape). Returns the y below."""
    out = view.get("outcome") or {}
    n = int(view["n_players"])
    scores = list(out.get("scores") or [None] * n)
    ranks = list(out.get("ranks") or [0] * n)
    winners = set(out.get("winners") or [])
    players = {int(p["seat"]): p for p in view.get("players", [])}
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
        p: Mapping[str, Any] = players.get(s, {})
        how = f"escaped on Dhoni {price_text(p.get('dhoni_price'))}" if p.get("dhoni") else "did not escape"
        total = "no score" if scores[s] is None else f"{num(scores[s])} pts"
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
    over = bool(view.get("outcome"))
    header(img, d, "Pralaya", "Final score" if over else f"Round {view.get('round', 1)}", over=over)
    y = HEADER_H + 12
    if not over:
        y = section_title(d, y, "Final score", "the game is still running: no result yet")
        return crop(img, y)
    y = section_title(d, y, "Result", "ties go to the seat furthest from the first player")
    y = ranking(img, d, view, nm, y) + 10
    y = sheet_block(img, d, view, nm, y)
    return crop(img, y)
