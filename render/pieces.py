"""Pieces drawn once and pasted after: a chip, a tile or a card that a key fully describes is
drawn on a plain patch of its background the first time and pasted from a bounded cache after
(:func:`stamp`), the very pixels drawing it in place would give."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator

from PIL import Image, ImageDraw

STAMP_CACHE = 1024
"""How many drawn pieces :func:`stamp` keeps by default (least recently used first out; a few MB)."""


class Pieces:
    """A bounded, thread-safe LRU of drawn pieces for :func:`stamp` (``size`` pieces at most).
    A renderer whose pieces are large (a whole seat row) keeps a small one of its own."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, Image.Image] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Image.Image | None:
        with self._lock:
            piece = self._items.get(key)
            if piece is not None:
                self._items.move_to_end(key)
            return piece

    def put(self, key: Hashable, piece: Image.Image) -> None:
        with self._lock:
            self._items[key] = piece
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[Hashable]:
        with self._lock:
            return iter(list(self._items))


_stamps = Pieces(STAMP_CACHE)


def stamp(
    img: Image.Image,
    box: tuple[float, float, float, float],
    key: Hashable,
    draw: Callable[[Image.Image, ImageDraw.ImageDraw, float, float], None],
    cache: Pieces = _stamps,
) -> None:
    """Paint a self-contained piece (a chip, a tile, a card) into ``box`` of ``img`` from a
    cache of drawn pieces: ``draw(img, d, x, y)`` draws it with its top-left corner at (x, y),
    inside ``box`` (x0, y0, x1, y1, inclusive), and depends on nothing but ``key`` (which names
    the piece and every value that shapes it, the game's name first) and the background it is
    drawn on. The piece is drawn once per key, box size and background colour on a plain patch
    of that colour and pasted afterwards: the very same pixels as drawing it in place, as long
    as the background under ``box`` is that one colour (checked at its four corners; a box at a
    fractional position, off the picture, or on a mixed background is drawn in place). The
    cache holds only pieces a key fully describes, never a picture, so nothing of one board
    can reach another; it is a bounded LRU (``cache``, by default one of :data:`STAMP_CACHE`
    pieces)."""
    x0, y0, x1, y1 = box
    x, y, w, h = int(x0), int(y0), int(x1) - int(x0) + 1, int(y1) - int(y0) + 1
    if (x, y, x + w - 1, y + h - 1) != box or x < 0 or y < 0 or x + w > img.width or y + h > img.height:
        draw(img, ImageDraw.Draw(img), x0, y0)
        return
    bg = img.getpixel((x, y))
    if any(img.getpixel(c) != bg for c in ((x + w - 1, y), (x, y + h - 1), (x + w - 1, y + h - 1))):
        draw(img, ImageDraw.Draw(img), x, y)
        return
    k = (key, w, h, img.mode, bg)
    piece = cache.get(k)
    if piece is None:
        piece = Image.new(img.mode, (w, h), bg)
        draw(piece, ImageDraw.Draw(piece), 0, 0)
        cache.put(k, piece)
    img.paste(piece, (x, y))


def clear() -> None:
    """Forget every piece :func:`stamp` keeps by default."""
    _stamps.clear()
