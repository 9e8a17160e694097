"""Kathai's goods as emojis (see :mod:`render.emojis`): each goods' picture from the board, on
a light card face so that the darker goods (tea, spices) read on Discord's dark theme too."""

from __future__ import annotations

from PIL import Image

from engines.kathai.icons import GOODS_OF_KEY
from engines.kathai.icons import KEYS as KEYS
from render.emojis import badge
from render.kathai.art import CARD_EDGE, CARD_FACE, goods_icon


def draw(key: str) -> Image.Image:
    """The emoji of ``key`` (a key of :data:`KEYS`), 128 px RGBA. KeyError for another key."""
    return badge(goods_icon(GOODS_OF_KEY[key], 108), CARD_FACE, CARD_EDGE)
