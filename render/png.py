"""Pictures as small 8-bit palette PNGs, fast: the palette, the mapping onto it, and the file.

A posted board is about a million pixels of a few thousand colours (flat fills plus the smoothed
edges of text and shapes). :func:`to_png` maps it onto 256 colours without dithering and writes
the PNG itself:

* **The palette.** A picture of at most 256 colours keeps each exactly. Otherwise, when the
  caller passes a *house palette* (one fixed palette per game and player count,
  :mod:`render.house`) and that palette fits the picture (:func:`fits`, checked on a sample),
  the picture is mapped onto it; otherwise onto an octree palette of a sample of the picture.
  Pillow keeps its nearest-colour lookup inside the palette image it maps onto, so a palette
  used board after board maps each board in about half the time a new palette needs, and no
  palette has to be made per board.
* **The file.** Each row of the palette image gets its filter byte (none) by pasting the image
  one pixel to the right on a zero column. The rows of a large picture are cut in two bands
  deflated as one zlib stream: the first band ends on a byte boundary (a sync flush), the
  second starts from the first band's last 32 KB as its dictionary, and the Adler-32 is that
  of all the rows. When the machine has an idle core (:func:`spare_core`) the second band is
  deflated in a helper thread (zlib lets other threads run while it compresses a large
  buffer); the bytes are the same either way. Any PNG reader decodes the file to the same
  pixels as Pillow's own file of the same palette image (tests/test_render_png.py).

:func:`to_png` is a pure function of the picture (and of the house palette passed): the same
picture always gives the same bytes, however warm the caches.
"""

from __future__ import annotations

import io
import os
import struct
import threading
import zlib
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from PIL import Image, ImageChops

PNG_LIMIT = 120_000  # the stricter reading of "120 KB" (tests/test_render_phraya.py uses it)
"""The most bytes a posted picture should take (issue #13); :func:`to_png` compresses harder
only for a picture that would be larger."""
PNG_LEVELS = (1, 6, 9)
"""zlib levels :func:`to_png` tries in turn, keeping the first within :data:`PNG_LIMIT`: level
1 encodes a board 2-3 times faster than 6 at about 1.4 times the bytes, which every board but
the densest fits in."""
PALETTE_SAMPLE = 3
"""The palette of a picture is built from (and a house palette checked on) every third pixel of
every third row: fills, lines and the cores of glyphs are never thinner than that."""
FIT_WORST = 40
"""A house palette fits a picture when no sampled pixel maps more than this many levels (in any
channel) off its colour..."""
FIT_OFF = 16
FIT_SHARE = 0.001
"""...and at most this share of the sampled pixels lands more than :data:`FIT_OFF` levels off."""
SPLIT_PIXELS = 200_000
"""Pictures of at least this many pixels are deflated in two bands in parallel."""
WINDOW = 32_768  # deflate's window: the second band's dictionary


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


_pool: tuple[int, ThreadPoolExecutor] | None = None
_pool_lock = threading.Lock()


def _worker() -> ThreadPoolExecutor:
    """One helper thread per process (made again in a forked child, which has no threads)."""
    global _pool
    with _pool_lock:
        if _pool is None or _pool[0] != os.getpid():
            _pool = (os.getpid(), ThreadPoolExecutor(1, thread_name_prefix="png"))
        return _pool[1]


def spare_core() -> bool:
    """Whether a helper thread would likely find an idle core (the load average is below the
    cores less one): on a busy machine it only waits for one, and the band is deflated in the
    calling thread instead, to the same bytes."""
    try:
        return os.getloadavg()[0] < (os.cpu_count() or 1) - 1
    except OSError:  # no load average on this system
        return (os.cpu_count() or 1) > 1


def _inline(fn: Callable[..., bytes], *args: Any) -> Future[bytes]:
    done: Future[bytes] = Future()
    done.set_result(fn(*args))
    return done


def _rows(q: Image.Image) -> bytes:
    """The PNG scanlines of the palette image ``q``: each row led by filter type 0 (none)."""
    wide = Image.new("P", (q.width + 1, q.height), 0)
    wide.paste(q, (1, 0))
    return wide.tobytes()


def _deflate(raw: memoryview, level: int, last: bool, zdict: bytes = b"") -> bytes:
    """``raw`` as raw deflate data: a finished stream when ``last``, else ending on a byte
    boundary (a sync flush) so that another band can follow it."""
    c = zlib.compressobj(level, zlib.DEFLATED, -15, 9, zdict=zdict) if zdict else None
    c = c or zlib.compressobj(level, zlib.DEFLATED, -15, 9)
    return c.compress(raw) + c.flush(zlib.Z_FINISH if last else zlib.Z_SYNC_FLUSH)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _zlib_header(level: int) -> bytes:
    cmf = 0x78  # deflate, 32 KB window
    flg = (0 if level < 2 else 1 if level < 6 else 2 if level == 6 else 3) << 6
    return bytes((cmf, flg + (31 - (cmf * 256 + flg) % 31) % 31))


def write_png(size: tuple[int, int], palette: bytes, bands: Sequence[memoryview], level: int) -> bytes:
    """The PNG file of a palette image of ``size`` whose palette is ``palette`` (RGB triples)
    and whose scanlines are ``bands`` (in order), deflated at zlib ``level`` (every band but the
    first in the helper thread)."""
    later: list[Future[bytes]] = []
    for i in range(1, len(bands)):
        zdict = bytes(bands[i - 1][-WINDOW:])
        run = _worker().submit if spare_core() else _inline
        later.append(run(_deflate, bands[i], level, i == len(bands) - 1, zdict))
    first = _deflate(bands[0], level, len(bands) == 1)
    adler = 1
    for band in bands:
        adler = zlib.adler32(band, adler)
    stream = _zlib_header(level) + first + b"".join(f.result() for f in later) + struct.pack(">I", adler)
    ihdr = struct.pack(">IIBBBBB", size[0], size[1], 8, 3, 0, 0, 0)
    parts = (_chunk(b"IHDR", ihdr), _chunk(b"PLTE", palette), _chunk(b"IDAT", stream), _chunk(b"IEND", b""))
    return b"\x89PNG\r\n\x1a\n" + b"".join(parts)


def _bands(raw: bytes, width: int) -> list[memoryview]:
    """``raw`` (scanlines of ``width`` + 1 bytes) cut at a row boundary into two bands for a
    large picture (always the same cut for the same picture: the file does not depend on how
    many threads write it), else one."""
    rows = len(raw) // (width + 1)
    whole = memoryview(raw)
    if width * rows < SPLIT_PIXELS:
        return [whole]
    cut = (rows // 2) * (width + 1)
    return [whole[:cut], whole[cut:]]


def to_png(
    img: Image.Image,
    limit: int = PNG_LIMIT,
    levels: Sequence[int] = PNG_LEVELS,
    house: Image.Image | None = None,
) -> bytes:
    """Encode as an 8-bit palette PNG (:func:`palette_image`'s; RGBA keeps an octree palette
    with its alpha), at the fastest of ``levels`` (zlib levels, fastest first) that keeps it
    within ``limit`` bytes (the last level if none does). A pure function of the picture and
    ``house``."""
    if img.mode == "RGBA":
        q = img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        return _pillow_png(q, limit, levels)
    rgb = img if img.mode == "RGB" else img.convert("RGB")
    s = sample(rgb)
    few = exact(rgb, s)
    if few is not None:  # Pillow packs 16 colours or fewer into fewer bits
        return _pillow_png(few, limit, levels)
    palette = choose_palette(rgb, house, s)
    bands = _bands(_rows(mapped(rgb, _own(palette) if palette is house else palette)), rgb.width)
    colours = bytes(palette.getpalette("RGB") or b"")
    png = b""
    for level in levels:
        png = write_png(rgb.size, colours, bands, level)
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
