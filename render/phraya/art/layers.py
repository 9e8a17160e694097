"""Static layers of the Phraya board: the parts of a section that do not change from move to
move (the price grid, the Temple's grid and labels, the water with its section ids), drawn once
per look and pasted with :func:`render.common.stamp`; the board then draws only what changes on
top of them.

A layer's key names everything it draws (its size and every value it shows: price rows, costs,
the ids), so the cache holds nothing of one game that another could show; the stamp cache is
bounded. The piece is drawn with its origin on even coordinates and the layer at the same
offset inside it, so sprites pasted at half-pixel positions round the same way (Python rounds
half to even) and the layer has the very pixels of drawing it in place.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from PIL import Image, ImageDraw

from render.common import stamp

Draw = Callable[[Image.Image, ImageDraw.ImageDraw, int, int], object]


def layer(img: Image.Image, x: int, y: int, x1: int, y1: int, key: Hashable, draw: Draw) -> None:
    """Paint the layer ``draw(img, d, x, y)`` (which draws inside the box ``x, y, x1, y1``,
    inclusive, on the page's plain background and depends on nothing but ``key``) into ``img``
    from the stamp cache."""
    bx, by = x - x % 2, y - y % 2

    def piece(im: Image.Image, d: ImageDraw.ImageDraw, sx: float, sy: float) -> None:
        draw(im, d, int(sx) + x - bx, int(sy) + y - by)

    stamp(img, (bx, by, x1, y1), ("phraya.layer", key, x - bx, y - by), piece)
