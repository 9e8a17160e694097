"""The ``/leaderboard`` picture: the house header band, then one row per player of the top (place
in a round badge, name, games and wins, the rating in large figures), the asker's row outlined
in the accent colour, and their own row below the top when they are not in it. 1000 px wide;
at most :data:`MAX_ROWS` rows keep it about square (shown whole on a phone)."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.common import (
    ACCENT,
    BG,
    INK,
    LINE,
    MUTED,
    NUMBER_TEXT,
    PANEL,
    PRIMARY_TEXT,
    WIDTH,
    canvas,
    draw_text,
    font,
    panel,
)
from render.frame import HEADER_H, MARGIN, header

from .cards import Board, Line

ROW_H = 82
GAP = 8
MAX_ROWS = 10
MEDALS = {1: (212, 160, 23), 2: (150, 150, 160), 3: (176, 110, 60)}


def draw(board: Board) -> Image.Image:
    """The leaderboard of ``board`` (an empty table says how to get on it)."""
    rows: list[Line | None] = list(board.top[:MAX_ROWS])
    if board.mine is not None and not any(ln.me for ln in board.top):
        # the top shortened by two rows: the gap (None), then the asker's own place
        rows = [*rows[: MAX_ROWS - 2], None, board.mine]
    height = HEADER_H + MARGIN + 56 + max(1, len(rows)) * (ROW_H + GAP) + MARGIN
    img, d = canvas(max(height, 420), WIDTH, BG)
    vs = "vs AI" if board.ladder == "ai" else "Ladder"
    header(img, d, board.game, vs, pill=board.where, label=f"{board.total} rated")
    y = HEADER_H + MARGIN
    draw_text(d, (MARGIN + 8, y + 8), "Player", 26, MUTED, bold=True)
    draw_text(d, (WIDTH - MARGIN - 8, y + 8), "Rating", 26, MUTED, bold=True, anchor="ra")
    y += 56
    if not rows:
        draw_text(d, (WIDTH / 2, y + 60), "Nobody is rated here yet.", PRIMARY_TEXT, INK, True, "ma")
        draw_text(
            d, (WIDTH / 2, y + 110), "Finish a rated game to be the first.", PRIMARY_TEXT, MUTED, False, "ma"
        )
        return img
    for ln in rows:
        if ln is None:
            draw_text(d, (WIDTH / 2, y + ROW_H / 2), "…", NUMBER_TEXT, MUTED, True, "mm")
        else:
            _row(d, y, ln)
        y += ROW_H + GAP
    return img


def _row(d: ImageDraw.ImageDraw, y: float, ln: Line) -> None:
    box = (MARGIN, y, WIDTH - MARGIN, y + ROW_H)
    panel(d, box, fill=PANEL, outline=ACCENT if ln.me else LINE, width=4 if ln.me else 2)
    cx, cy = MARGIN + 48, y + ROW_H / 2
    medal = MEDALS.get(ln.place)
    d.ellipse((cx - 30, cy - 30, cx + 30, cy + 30), fill=medal or BG, outline=LINE if medal is None else None)
    place = str(ln.place)
    d.text((cx, cy), place, font=font(30 if len(place) < 3 else 26, True), fill=INK, anchor="mm")
    x = MARGIN + 100
    name = ln.name + ("  (you)" if ln.me else "")
    draw_text(d, (x, y + 10), name, 32, INK, True, max_width=WIDTH - x - 230)
    stats = f"{ln.games} game{'s' if ln.games != 1 else ''} · {ln.wins} win{'s' if ln.wins != 1 else ''}"
    draw_text(d, (x, y + 48), stats, 26, MUTED)
    draw_text(d, (WIDTH - MARGIN - 20, cy), str(ln.rating), 44, ACCENT if ln.me else INK, True, "rm")
