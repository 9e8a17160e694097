"""Phraya's goods, flowers, favors, coins and the pieces its buttons name (crown, basket, card,
scroll) as emojis (see :mod:`render.emojis`): each the icon the board draws, on a light panel."""

from __future__ import annotations

from PIL import Image

from engines.phraya.icons import KEYS as KEYS
from engines.phraya.icons import PIECE_OF_KEY
from render.common import LINE, PANEL
from render.emojis import badge
from render.phraya.art import icon


def draw(key: str) -> Image.Image:
    """The emoji of ``key`` (a key of :data:`KEYS`), 128 px RGBA. KeyError for another key."""
    return badge(icon(PIECE_OF_KEY[key], 112), PANEL, LINE)
