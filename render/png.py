"""Pictures as small 8-bit palette PNGs, fast: the palette, the mapping onto it, and the file.

A posted board is about a million pixels of a few thousand colours (flat fills plus the smoothed
edges of text and shapes). :func:`to_png` maps it onto 256 colours without dithering and writes
the PNG itself:

* **The palette.** A picture of at most 256 colours keeps each exactly. Otherwise, when the
  caller passes a *house palette* (one fixed palette per game and player count,
  :mod:`render.house`) and that palette fits the picture (:func:`fits`, checked on a sample),
  the picture is mapped onto it; otherwise onto an octree palette of a sample of the picture.
  Pillow keeps its nearest-colour lookup inside the palette image it maps onto, so a palette
  used board after board skips most of the nearest-colour searches a new palette needs, and
  no palette has to be made per board (the figures: docs/benchmarks.md).
* **The file.** Each row of the palette image gets its filter byte (none) by pasting the image
  one pixel to the right on a zero column, and the rows are deflated as one zlib stream, at the
  fastest level by ISA-L (:func:`compress`). Any PNG reader decodes the file to the same pixels
  as Pillow's own file of the same palette image (tests/test_render_png.py).

:func:`to_png` is a pure function of the picture (and of the house palette passed): the same
picture always gives the same bytes, however warm the caches.
"""

from __future__ import annotations

import io
import struct
import threading
import zlib
from collections.abc import Sequence
from types import ModuleType

from PIL import Image, ImageChops

isal_zlib: ModuleType | None
try:
    from isal import isal_zlib
except ImportError:  # without it, zlib's level 1 (slower: docs/benchmarks.md)
    isal_zlib = None

PNG_LIMIT = 120_000  # the stricter reading of "120 KB" (tests/test_render_phraya.py uses it)
"""The most bytes a posted picture should take (issue #13); :func:`to_png` compresses harder
only for a picture that would be larger."""
PNG_LEVELS = (1, 6, 9)
"""zlib levels :func:`to_png` tries in turn, keeping the first within :data:`PNG_LIMIT`: the
fastest level first, a slower and smaller one only for a picture that would not fit."""
PALETTE_SAMPLE = 3
"""The palette of a picture is built from (and a house palette checked on) every third pixel of
every third row: fills, lines and the cores of glyphs are never thinner than that."""
FIT_WORST = 40
"""A house palette fits a picture when no sampled pixel maps more than this many levels (in any
channel) off its colour..."""
FIT_OFF = 16
FIT_SHARE = 0.001
"""...and at most this share of the sampled pixels lands more than :data:`FIT_OFF` levels off."""


def sample(img: Image.Image, k: int = PALETTE_SAMPLE) -> Image.Image:
    """Every ``k``-th pixel of every ``k``-th row of ``img`` (a nearest-neighbour reduction)."""
    return img.resize((max(1, img.width // k), max(1, img.height // k)), Image.Resampling.NEAREST)


_local = threading.local()


def _own(palette: Image.Image) -> Image.Image:
    """This thread's copy of a long-lived ``palette`` (each copy holds its own nearest-colour
    lookup, which Pillow fills in as it maps; two threads never share one)."""
    copies: dict[int, tuple[Image.Image, Image.Image]] = _local.__dict__.setdefault("copies", {})
    found = copies.get(id(palette))
    if found is None or found[0] is not palette:
        found = (palette, palette.copy())
        copies[id(palette)] = found
    return found[1]


def mapped(img: Image.Image, palette: Image.Image) -> Image.Image:
    """``img`` (RGB) as a palette image on ``palette``, each pixel its nearest colour."""
    return img.quantize(palette=palette, dither=Image.Dither.NONE)


def fits(img: Image.Image, palette: Image.Image, s: Image.Image | None = None) -> bool:
    """Whether the long-lived ``palette`` renders ``img`` (RGB) faithfully, judged on its
    sample ``s`` (see :data:`FIT_WORST`, :data:`FIT_SHARE`)."""
    s = s if s is not None else sample(img)
    r, g, b = ImageChops.difference(s, mapped(s, _own(palette)).convert("RGB")).split()
    worst = ImageChops.lighter(ImageChops.lighter(r, g), b).histogram()  # each pixel's worst channel
    if any(worst[FIT_WORST + 1 :]):
        return False
    return sum(worst[FIT_OFF + 1 :]) <= FIT_SHARE * s.width * s.height


def exact(img: Image.Image, s: Image.Image | None = None) -> Image.Image | None:
    """``img`` (RGB) as a palette image of its own colours when it has at most 256 (a data
    picture, a plain card: every pixel kept), else None. ``s``: its :func:`sample`, if made."""
    if (s if s is not None else sample(img)).getcolors(256) is None or img.getcolors(256) is None:
        return None
    return img.quantize(256, method=Image.Quantize.MAXCOVERAGE, dither=Image.Dither.NONE)


def choose_palette(
    img: Image.Image, house: Image.Image | None = None, s: Image.Image | None = None
) -> Image.Image:
    """The palette image a picture of more than 256 colours is mapped onto: ``house`` where it
    :func:`fits`, else the octree palette of its sample ``s``."""
    s = s if s is not None else sample(img)
    if house is not None and fits(img, house, s):
        return house
    return s.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def palette_image(img: Image.Image, house: Image.Image | None = None) -> Image.Image:
    """``img`` (RGB) as a 256-colour palette image without dithering, on the palette the module
    docstring describes (its exact colours, the ``house`` palette where it fits, or a sampled
    one)."""
    s = sample(img)
    q = exact(img, s)
    return q if q is not None else mapped(img, choose_palette(img, house, s))


# --------------------------------------------------------------------------- the file


def _rows(parts: Sequence[Image.Image]) -> bytes:
    """The PNG scanlines of the palette images ``parts`` stacked top to bottom: each row led by
    filter type 0 (none)."""
    wide = Image.new("P", (parts[0].width + 1, sum(q.height for q in parts)), 0)
    y = 0
    for q in parts:
        wide.paste(q, (1, y))
        y += q.height
    return wide.tobytes()


def stack(parts: Sequence[Image.Image]) -> Image.Image:
    """``parts`` (RGB, of one width) on one canvas, top to bottom."""
    if len(parts) == 1:
        return parts[0]
    out = Image.new("RGB", (parts[0].width, sum(p.height for p in parts)), None)  # every pixel pasted
    y = 0
    for p in parts:
        out.paste(p, (0, y))
        y += p.height
    return out


def compress(raw: bytes, level: int) -> bytes:
    """``raw`` as a zlib stream at zlib ``level``; level 1 (or 0) by ISA-L's deflate (the
    ``isal`` package) where it is installed, much faster than zlib's and no larger (the
    figures: docs/benchmarks.md)."""
    if level <= 1 and isal_zlib is not None:
        fast: bytes = isal_zlib.compress(raw, 1)
        return fast
    return zlib.compress(raw, level)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def write_png(size: tuple[int, int], palette: bytes, rows: bytes, level: int) -> bytes:
    """The PNG file of a palette image of ``size`` whose palette is ``palette`` (RGB triples)
    and whose scanlines are ``rows``, deflated at zlib ``level`` (:func:`compress`)."""
    ihdr = struct.pack(">IIBBBBB", size[0], size[1], 8, 3, 0, 0, 0)
    chunks = (b"IHDR", ihdr), (b"PLTE", palette), (b"IDAT", compress(rows, level)), (b"IEND", b"")
    return b"\x89PNG\r\n\x1a\n" + b"".join(_chunk(kind, data) for kind, data in chunks)


Picture = Image.Image | Sequence[Image.Image]
"""A picture, or the parts of one from top to bottom, all of one width (a posted board is its
caption strip and the game's board): encoded as the one picture they make, without copying them
onto one canvas first."""


def to_png(
    picture: Picture,
    limit: int = PNG_LIMIT,
    levels: Sequence[int] = PNG_LEVELS,
    house: Image.Image | None = None,
) -> bytes:
    """Encode as an 8-bit palette PNG (:func:`palette_image`'s; RGBA keeps an octree palette
    with its alpha), at the fastest of ``levels`` (zlib levels, fastest first) that keeps it
    within ``limit`` bytes (the last level if none does). A pure function of the picture (or
    its parts: the palette of parts is made from their samples stacked) and ``house``."""
    parts = [picture] if isinstance(picture, Image.Image) else list(picture)
    if len({p.width for p in parts}) != 1:
        raise ValueError(
            f"the parts of a picture must have one width, not {sorted({p.width for p in parts})}"
        )
    if len(parts) == 1 and parts[0].mode == "RGBA":
        q = parts[0].quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        return _pillow_png(q, limit, levels)
    rgb = [p if p.mode == "RGB" else p.convert("RGB") for p in parts]
    s = stack([sample(p) for p in rgb])
    few = exact(stack(rgb), s) if s.getcolors(256) is not None else None
    if few is not None:  # Pillow packs 16 colours or fewer into fewer bits
        return _pillow_png(few, limit, levels)
    palette = choose_palette(rgb[0], house, s)
    onto = _own(palette) if palette is house else palette
    rows = _rows([mapped(p, onto) for p in rgb])
    colours = bytes(palette.getpalette("RGB") or b"")
    size = (rgb[0].width, sum(p.height for p in rgb))
    png = b""
    for level in levels:
        png = write_png(size, colours, rows, level)
        if len(png) <= limit:
            break
    return png


def _pillow_png(q: Image.Image, limit: int, levels: Sequence[int]) -> bytes:
    """Pillow's own PNG of the palette image ``q``."""
    data = b""
    for level in levels:
        buf = io.BytesIO()
        q.save(buf, format="PNG", compress_level=level)
        data = buf.getvalue()
        if len(data) <= limit:
            break
    return data
