"""The game pieces as application emojis (what ``bazaar sync`` uploads, see docs/playing.md):
each game's ``render/<game>/emoji.py`` draws the pieces its ``engines/<game>/icons.py`` names,
128 × 128 px RGBA, filling the frame so that they still read at 32 px, the size Discord shows
an emoji on a button.

An emoji's name is its piece key and a short hash of its pixels (``ra_sun13_3fa9c1``): a changed
drawing gets a new name, so a sync uploads exactly the pieces that are missing or changed and
never mistakes an old picture for a current one. Names fit Discord's ``[a-z0-9_]{2,32}``.
"""

from __future__ import annotations

import hashlib
import importlib
import io
import re
from collections.abc import Mapping
from functools import cache
from types import ModuleType

from PIL import Image, ImageDraw

import engines

SIZE = 128
"""Discord's size for an emoji image."""
MAX_EMOJIS = 2000
"""Application emojis an application may hold."""
HASH_LEN = 6
NAME = re.compile(r"^([a-z0-9_]{1,25})_([0-9a-f]{%d})$" % HASH_LEN)
"""An emoji name of ours: the piece key, then the hash."""
SS = 4


def badge(sprite: Image.Image, fill: tuple[int, int, int], rim: tuple[int, int, int]) -> Image.Image:
    """``sprite`` centred on a rounded square of ``fill`` edged with ``rim``, :data:`SIZE` px: a
    piece that is light or thin still stands out on Discord's dark and light themes."""
    big = SIZE * SS
    out = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(out)
    d.rounded_rectangle((0, 0, big - 1, big - 1), radius=big // 5, fill=rim + (255,))
    w = big // 24
    d.rounded_rectangle((w, w, big - 1 - w, big - 1 - w), radius=big // 5 - w, fill=fill + (255,))
    out = out.resize((SIZE, SIZE), Image.Resampling.LANCZOS)
    x = (SIZE - sprite.width) // 2
    y = (SIZE - sprite.height) // 2
    out.alpha_composite(sprite, (x, y))
    return out


def _module(game: str) -> ModuleType:
    return importlib.import_module(f"render.{game}.emoji")


def keys(game: str) -> tuple[str, ...]:
    """The piece keys ``game`` draws as emojis."""
    found: tuple[str, ...] = _module(game).KEYS
    return found


def words(game: str) -> Mapping[str, str]:
    """The words of ``game``'s texts that name a piece -> its key (``engines/<game>/icons.py``)."""
    found: Mapping[str, str] = importlib.import_module(f"engines.{game}.icons").WORDS
    return found


def all_keys() -> list[str]:
    """Every game's piece keys, in game then key order, without drawing them."""
    return [key for game in engines.game_packages() for key in keys(game)]


def draw(game: str, key: str) -> Image.Image:
    """Piece ``key`` of ``game``, :data:`SIZE` px square RGBA."""
    img: Image.Image = _module(game).draw(key)
    if img.size != (SIZE, SIZE) or img.mode != "RGBA":
        raise ValueError(f"emoji {key} of {game} is {img.size} {img.mode}, not {SIZE}px RGBA")
    return img


def digest(img: Image.Image) -> str:
    """A short hash of the pixels (not of the PNG bytes, which a Pillow upgrade may change)."""
    return hashlib.sha256(img.tobytes()).hexdigest()[:HASH_LEN]


def name(key: str, img: Image.Image) -> str:
    """The emoji name of piece ``key`` drawn as ``img``."""
    out = f"{key}_{digest(img)}"
    if not NAME.match(out):
        raise ValueError(f"piece key {key!r} does not make an emoji name ([a-z0-9_], at most 32)")
    return out


def key_of(emoji_name: str) -> str | None:
    """The piece key of an emoji name of ours, or None for another name."""
    m = NAME.match(emoji_name)
    return m.group(1) if m else None


def png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


@cache
def catalogue() -> Mapping[str, tuple[str, Image.Image]]:
    """Every piece of every game: key -> (emoji name, image), in game then key order."""
    out: dict[str, tuple[str, Image.Image]] = {}
    for game in engines.game_packages():
        for key in keys(game):
            img = draw(game, key)
            out[key] = (name(key, img), img)
    if len(out) > MAX_EMOJIS:
        raise ValueError(f"{len(out)} pieces, more than the {MAX_EMOJIS} emojis an application holds")
    return out
