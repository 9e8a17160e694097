"""Edits of the private copy an action works on (made by :func:`engines.fastcopy.thaw` in
``apply``; every field is written through :func:`engines.fastcopy.poke`): a change to one seat's
tiles or to the box rebuilds that row only."""

from __future__ import annotations

from engines.fastcopy import poke
from engines.ra.state import State


def add_tile(w: State, seat: int, code: int, k: int) -> None:
    """Give ``seat`` ``k`` tiles of ``code`` (``k`` may be negative)."""
    tiles = list(w.tiles)
    row = list(tiles[seat])
    row[code] += k
    tiles[seat] = tuple(row)
    poke(w, "tiles", tuple(tiles))


def to_box(w: State, code: int, k: int) -> None:
    """Put ``k`` tiles of ``code`` out of the game."""
    box = list(w.box)
    box[code] += k
    poke(w, "box", tuple(box))
