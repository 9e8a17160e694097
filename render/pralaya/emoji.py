"""Pralaya's relics, the Veda and the Dhoni as emojis (see :mod:`render.emojis`): each the icon
the board draws on its cards, on a light card face."""

from __future__ import annotations

from PIL import Image

from engines.pralaya.icons import KEYS as KEYS
from engines.pralaya.icons import PIECE_OF_KEY
from render.common import LINE, PANEL
from render.emojis import badge
from render.pralaya.art.icons import icon


def draw(key: str) -> Image.Image:
    """The emoji of ``key`` (a key of :data:`KEYS`), 128 px RGBA. KeyError for another key."""
    return badge(icon(PIECE_OF_KEY[key], 112), PANEL, LINE)
