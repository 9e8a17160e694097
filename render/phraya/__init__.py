"""Phraya renderer: pure functions of a Phraya view (``engines/phraya/view.py``, spec §13).

* :func:`board` — the public snapshot, from ``view(state, None)``;
* :func:`hand` — one seat's private view (DM), from ``view(state, seat)``;
* :func:`score_sheet` — the final score sheet of a finished game;
* :func:`text` — the same information as Discord markdown (≤ 1900 characters).

Pieces: ``art`` (colours, icons), ``geo`` (board geometry), ``model`` (what is read from a view),
``board``, ``hand``, ``sheet``, ``text``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from render.phraya.board import board_image
from render.phraya.hand import hand_image
from render.phraya.sheet import sheet_image
from render.phraya.text import score_text, text

View = dict[str, Any]

BOARD_PNG_LEVELS = (6, 9)
"""A board is 127-150 KB at zlib level 1 (2-4 players, measured over whole games), over the
120 KB limit, so :func:`render.board_png` starts at level 6 instead of throwing a level-1 try
away (about 10 ms a board)."""

__all__ = ["board", "hand", "score_sheet", "score_text", "text"]


def board(view: View, names: Sequence[str] | None = None, previous: View | None = None) -> Image.Image:
    """The public snapshot: the islands with stalls, boats, barge and the marks of the current
    step, prices, orders, the Merchant, Temple, King's Chart, card market and every player. With
    ``previous`` (the public view of the board posted before) what changed since is ringed."""
    return board_image(view, names, previous)


def hand(view: View, names: Sequence[str] | None = None) -> Image.Image:
    """One seat's private view: coins, goods in baskets, flowers, favors, the hand of cards with
    their effects in words, and the prompt with the legal actions. A spectator view gets a short
    notice."""
    return hand_image(view, names)


def score_sheet(view: View, names: Sequence[str] | None = None) -> Image.Image:
    """The score sheet: every category per player, totals and ranks (a preview before the end)."""
    return sheet_image(view, names)
