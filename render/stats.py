"""The picture of ``/stats``: a server's figures for one game, in the house style. For each player
count, a bar per seat position, in that seat's colour, as long as the share of games it won;
then each AI level's record against people as a bar split into ahead, level and behind. Plain
numbers in, a PNG out (:func:`png`), so it draws in a worker like the boards. A game of many
player counts gets thinner rows (down to :data:`MIN_ROW`) so the picture stays within
:data:`MAX_H` and about square."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from . import frame
from .common import BAD, GOOD, INK, LINE, MUTED, PANEL, WIDTH, canvas, font, seat_color, text_width
from .png import to_png

MARGIN = 30
ROW = 52  # one seat's bar
MIN_ROW = 40  # the thinnest, for a game of many player counts
MAX_H = 1060
GAP = 22
LABEL_W = 150  # "Seat 1" / "normal" column
BAR_W = WIDTH - 2 * MARGIN - LABEL_W - 130  # the bar; its figure to its right

Counts = Sequence[tuple[int, int, Sequence[int]]]
"""Per player count: ``(players, games, wins of each seat position)``."""
Levels = Sequence[tuple[str, int, int, int, int]]
"""Per AI level: ``(level, seats, ahead, behind, level with)`` against people."""


def picture(title: str, summary: str, counts: Counts, levels: Levels) -> Image.Image:
    """The figures as one picture (see the module docstring)."""
    rows = sum(1 + n for n, _, _ in counts) + (1 + len(levels) if levels else 0)
    fixed = 80 + 70 + (len(counts) + (1 if levels else 0)) * GAP + 40
    row = max(MIN_ROW, min(ROW, (MAX_H - fixed) // max(1, rows)))
    img, d = canvas(max(fixed + rows * row, 600))
    y = frame.header(img, d, title, "server figures") + 20
    d.text((MARGIN, y + 20), summary, font=font(28, True), fill=INK, anchor="lm")
    y += 60
    for n, games, wins in counts:
        y = _count(d, y, row, n, games, wins) + GAP
    if levels:
        y = _levels(d, y, row, levels)
    return img


def _count(d: ImageDraw.ImageDraw, y: int, row: int, n: int, games: int, wins: Sequence[int]) -> int:
    """The bars of one player count, ``row`` px each; returns the y below them."""
    d.text(
        (MARGIN, y + row / 2),
        f"{n} players · {games} game{'s' if games != 1 else ''}: wins by seat",
        font=font(28, True),
        fill=INK,
        anchor="lm",
    )
    y += row
    inset = row // 6
    for seat in range(n):
        share = wins[seat] / games if games and seat < len(wins) else 0.0
        d.text((MARGIN, y + row / 2), f"Seat {seat + 1}", font=font(28), fill=INK, anchor="lm")
        x0 = MARGIN + LABEL_W
        d.rounded_rectangle(
            (x0, y + inset, x0 + BAR_W, y + row - inset), radius=8, fill=PANEL, outline=LINE, width=2
        )
        if share > 0:
            d.rounded_rectangle(
                (x0, y + inset, x0 + max(16, BAR_W * share), y + row - inset), radius=8, fill=seat_color(seat)
            )
        d.text(
            (x0 + BAR_W + 16, y + row / 2), f"{100 * share:.0f}%", font=font(30, True), fill=INK, anchor="lm"
        )
        y += row
    return y


def _levels(d: ImageDraw.ImageDraw, y: int, row: int, levels: Levels) -> int:
    """Each AI level's record against people: ahead (green), level (grey), behind (red)."""
    d.text(
        (MARGIN, y + row / 2),
        "The AI against people: ahead · level · behind",
        font=font(28, True),
        fill=INK,
        anchor="lm",
    )
    y += row
    for level, _seats, ahead, behind, even in levels:
        total = ahead + behind + even
        d.text((MARGIN, y + row / 2), level, font=font(28), fill=INK, anchor="lm")
        x = float(MARGIN + LABEL_W)
        d.rounded_rectangle(
            (x, y + row // 6, x + BAR_W, y + row - row // 6), radius=8, fill=PANEL, outline=LINE, width=2
        )
        for part, colour in ((ahead, GOOD), (even, MUTED), (behind, BAD)):
            w = BAR_W * part / total if total else 0
            if w > 0:
                d.rectangle((x, y + row // 6, x + w, y + row - row // 6), fill=colour)
            x += w
        said = f"{ahead}–{even}–{behind}"
        f = font(28, True)
        d.text(
            (MARGIN + LABEL_W + BAR_W + 16, y + row / 2),
            said if text_width(said, f) < 120 else f"{ahead}–{behind}",
            font=f,
            fill=INK,
            anchor="lm",
        )
        y += row
    return y


def png(title: str, summary: str, counts: Counts, levels: Levels) -> bytes:
    """:func:`picture` as PNG bytes (a job for the bot's workers)."""
    return to_png(picture(title, summary, counts, levels))
