"""The ``/leaderboard`` picture: the house header band, then one row per player of the top (place
in a round badge, name, games and wins, the rating in large figures), the asker's row outlined
in the accent colour, and their own row below the top when they are not in it. A short table
is followed by the asker's card (their place of how many, rating, games, wins and win rate, or
how to get on the table), so the picture is never less than :data:`MIN_H` tall. 1000 px wide;
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
    num,
    panel,
)
from render.frame import HEADER_H, MARGIN, header

from .cards import Board, Line

ROW_H = 82
GAP = 8
MAX_ROWS = 10
MIN_H = 760  # a short table's picture: the rows, then the asker's card below them
CARD_MIN = 220
MEDALS = {1: (212, 160, 23), 2: (150, 150, 160), 3: (176, 110, 60)}


def draw(board: Board) -> Image.Image:
    """The leaderboard of ``board`` (an empty table says how to get on it)."""
    rows: list[Line | None] = list(board.top[:MAX_ROWS])
    if board.mine is not None and not any(ln.me for ln in board.top):
        # the top shortened by two rows: the gap (None), then the asker's own place
        rows = [*rows[: MAX_ROWS - 2], None, board.mine]
    rows_h = HEADER_H + MARGIN + 56 + max(1, len(rows)) * (ROW_H + GAP)
    with_card = rows_h + 16 + CARD_MIN + MARGIN <= HEADER_H + MARGIN + 56 + MAX_ROWS * (ROW_H + GAP) + MARGIN
    height = max(MIN_H, rows_h + 16 + CARD_MIN + MARGIN) if with_card else rows_h + MARGIN
    img, d = canvas(height, WIDTH, BG)
    vs = "vs AI" if board.ladder == "ai" else "Ladder"
    header(img, d, board.game, vs, pill=board.where, label=f"{board.total} rated")
    y = HEADER_H + MARGIN
    draw_text(d, (MARGIN + 8, y + 8), "Player", 26, MUTED, bold=True)
    draw_text(d, (WIDTH - MARGIN - 8, y + 8), "Rating", 26, MUTED, bold=True, anchor="ra")
    y += 56
    if not rows:
        draw_text(d, (WIDTH / 2, y + 10), "Nobody is rated here yet.", PRIMARY_TEXT, INK, True, "ma")
    for ln in rows:
        if ln is None:
            draw_text(d, (WIDTH / 2, y + ROW_H / 2), "…", NUMBER_TEXT, MUTED, True, "mm")
        else:
            _row(d, y, ln)
        y += ROW_H + GAP
    if with_card:
        _card(d, (MARGIN, rows_h + 16, WIDTH - MARGIN, height - MARGIN), board)
    return img


def _card(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], board: Board) -> None:
    """The asker's standing on this table, in large figures, or how to get on it."""
    x0, y0, x1, y1 = box
    panel(d, box, fill=PANEL, outline=ACCENT, width=3)
    me = board.mine
    cy = (y0 + y1) / 2
    if me is None:
        draw_text(d, (WIDTH / 2, cy - 44), "You are not on this table yet", NUMBER_TEXT, INK, True, "mm")
        how = f"Finish a rated {board.game} game" + (" against the AI" if board.ladder == "ai" else "")
        draw_text(d, (WIDTH / 2, cy + 8), how, PRIMARY_TEXT, MUTED, False, "mm")
        draw_text(d, (WIDTH / 2, cy + 48), "to get your rating.", PRIMARY_TEXT, MUTED, False, "mm")
        return
    draw_text(d, (x0 + 24, y0 + 20), "You", PRIMARY_TEXT, MUTED, True)
    rate = round(100 * me.wins / me.games) if me.games else 0
    cells = (
        (f"#{me.place}", f"of {num(board.total)}"),
        (str(me.rating), "rating"),
        (num(me.games), "games" if me.games != 1 else "game"),
        (f"{rate}%", f"{me.wins} win{'s' if me.wins != 1 else ''}"),
    )
    w = (x1 - x0) / len(cells)
    for i, (big, small) in enumerate(cells):
        cx = x0 + w * (i + 0.5)
        draw_text(d, (cx, cy + 4), big, 64, ACCENT if i == 1 else INK, True, "mm")
        draw_text(d, (cx, cy + 62), small, PRIMARY_TEXT, MUTED, False, "mm")


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
