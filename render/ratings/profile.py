"""The ``/profile`` card: the house header band with the person's name, one row per table they
are on (game, rating, place, games and wins, best), the trend of their most played table as a
line, their best rating reached, and their last games. 1000 px wide, about square."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.common import (
    ACCENT,
    BAD,
    BG,
    GOOD,
    INK,
    LINE,
    MUTED,
    PANEL,
    WIDTH,
    canvas,
    draw_text,
    num,
    ordinal,
    panel,
    signed,
)
from render.frame import HEADER_H, MARGIN, header

from .cards import Profile, Standing

ROW_H = 74
MAX_TABLES = 4
CHART_H = 200
LAST_H = 44


def draw(p: Profile) -> Image.Image:
    """The card of ``p`` (someone with no rated game gets a card that says so)."""
    tables = p.standings[:MAX_TABLES]
    height = HEADER_H + MARGIN + max(1, len(tables)) * (ROW_H + 8) + 20
    if p.trend:
        height += CHART_H + 70
    height += 56 + len(p.last) * LAST_H + MARGIN + 50
    img, d = canvas(height, WIDTH, BG)
    header(img, d, "Profile", p.name[:40], pill=p.where)
    y = HEADER_H + MARGIN
    if not tables:
        draw_text(d, (WIDTH / 2, y + 30), f"{p.name} has no rated game yet.", 30, INK, True, "ma", WIDTH - 80)
        return img
    for s in tables:
        _table(d, y, s)
        y += ROW_H + 8
    y += 12
    if p.trend:
        games = "last game" if len(p.trend) == 2 else f"last {len(p.trend) - 1} games"
        draw_text(d, (MARGIN + 4, y), f"Trend: {p.trend_game}, {games}", 28, INK, True)
        _chart(d, (MARGIN, y + 44, WIDTH - MARGIN, y + 44 + CHART_H), p.trend)
        y += CHART_H + 70
    if p.best is not None:
        vs = " vs AI" if p.best.ladder == "ai" else ""
        best = f"Best: {p.best.best} in {p.best.game}{vs} (game #{p.best.best_game})"
        draw_text(d, (MARGIN + 4, y), best, 28, ACCENT, True, max_width=WIDTH - 2 * MARGIN)
    y += 56
    if p.last:
        draw_text(d, (MARGIN + 4, y), "Last games", 28, INK, True)
        y += 44
        for g in p.last:
            delta = g.now - (g.was if g.was is not None else g.now)
            vs = " vs AI" if g.ladder == "ai" else ""
            line = f"#{g.game_id} {g.game}{vs}: {ordinal(g.place)} of {g.players}"
            draw_text(d, (MARGIN + 4, y), line, 28, INK, max_width=WIDTH - 2 * MARGIN - 240)
            draw_text(d, (WIDTH - MARGIN - 4, y), f"{g.now} ({signed(delta)})", 28,
                      GOOD if delta > 0 else BAD if delta < 0 else MUTED, True, "ra")  # fmt: skip
            y += LAST_H
    return img


def _table(d: ImageDraw.ImageDraw, y: float, s: Standing) -> None:
    panel(d, (MARGIN, y, WIDTH - MARGIN, y + ROW_H), fill=PANEL, outline=LINE)
    vs = " vs AI" if s.ladder == "ai" else ""
    draw_text(d, (MARGIN + 16, y + 8), f"{s.game}{vs}", 30, INK, True, max_width=420)
    games = f"{s.games} game{'s' if s.games != 1 else ''}"
    sub = f"#{s.place} of {s.total} · {games} · {s.wins} win{'s' if s.wins != 1 else ''}"
    draw_text(d, (MARGIN + 16, y + 42), sub, 26, MUTED, max_width=560)
    draw_text(d, (WIDTH - MARGIN - 20, y + ROW_H / 2), str(s.rating), 44, ACCENT, True, "rm")
    draw_text(d, (WIDTH - MARGIN - 150, y + ROW_H / 2), f"best {s.best}", 26, MUTED, anchor="rm")


def _chart(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], points: tuple[int, ...]) -> None:
    panel(d, box, fill=PANEL, outline=LINE)
    x0, y0, x1, y1 = box
    lo, hi = min(points), max(points)
    if hi - lo < 40:  # a flat trend still reads as one
        lo, hi = lo - 20, hi + 20
    left, right, top, bottom = x0 + 110, x1 - 24, y0 + 24, y1 - 24
    for v, yy in ((hi, top), (lo, bottom)):
        draw_text(d, (left - 14, yy), num(v), 26, MUTED, anchor="rm")
        d.line((left, yy, right, yy), fill=LINE, width=2)
    n = len(points)
    xy = [
        (
            left + (right - left) * (i / (n - 1) if n > 1 else 0.5),
            bottom - (bottom - top) * (v - lo) / (hi - lo),
        )
        for i, v in enumerate(points)
    ]
    if len(xy) > 1:
        d.line(xy, fill=ACCENT, width=5, joint="curve")
    for x, y in xy[-1:]:
        d.ellipse((x - 9, y - 9, x + 9, y + 9), fill=ACCENT)
