"""The Ra board's fixed geometry: margins, the sections' heights and the seat rows' size per
player count (one canvas size per player count), and the canvas helpers."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render import frame
from render.common import WIDTH, canvas, crop_to

M = frame.MARGIN  # outer margin
X0, X1 = M, WIDTH - M  # panel edges
PAD = 20  # inner padding of panels

TABLE_TOP = frame.HEADER_H + 8
TABLE_H = 196
BAND_TOP = TABLE_TOP + TABLE_H + 8
BAND_H = 56
ROWS_TOP = BAND_TOP + BAND_H + 8
ROW_GAP = 6
ROW_H = {2: 128, 3: 128, 4: 120, 5: 110}
"""A seat row's height by player count (the 5-player board is the densest)."""
LEGEND_H = 50
CHIP_W = 52
SMALL_GAP, BIG_GAP = 4, 12
CHIPS_W = 10 * CHIP_W + 7 * SMALL_GAP + 2 * BIG_GAP  # the wider of the two chip lines
CHIP_X = X1 - 10 - CHIPS_W
LEFT_X = X0 + 22  # the seat row's left block, right of its colour bar
LEFT_W = CHIP_X - 10 - LEFT_X


def row_height(n: int) -> int:
    """A seat row's height at ``n`` players."""
    return ROW_H.get(n, ROW_H[5])


def board_height(n: int) -> int:
    """The board's fixed height at ``n`` players (the caption strip comes on top of it)."""
    return ROWS_TOP + n * (row_height(n) + ROW_GAP) + LEGEND_H


def new_canvas(height: int = 2400) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A canvas to draw on (crop a tall one with :func:`crop` once the height is known)."""
    return canvas(height)


def crop(img: Image.Image, y: int) -> Image.Image:
    """``img`` cut to height ``y`` plus the bottom margin."""
    return crop_to(img, y, M)
