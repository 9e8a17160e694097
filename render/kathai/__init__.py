"""Kathai (Cathay) renderer: pure functions of a view (``engines.kathai`` ``view(state,
viewer)``, schema ``engines.kathai.view.KathaiView``).

* :func:`board` — the public snapshot from a spectator view, :func:`board_height` px tall at
  every player count: the house header (turn, the final-turns pill, who is awaited), the market
  (price cards, goods, the lock in its placer's colour), the pile and the last sale, the offer
  line, a card per seat (score, hand size, profit cards, status, the rank at the end) and the
  legend;
* :func:`hand` — one seat's private view: its cards, per-goods totals and what selling each now
  would score, the offer it is a party to, its rank once the game is over;
* :func:`score_sheet` — the final sheet: the ranking with each total first, then every sale;
* :func:`text` — the same information as Discord markdown (≤ 1900 characters).

Pieces: ``layout`` (sizes, geometry, the drawing context), ``art`` (goods pictures, cards,
icons), ``board`` (its sections: ``board.table`` and ``board.seats``), ``hand`` (with the offer
in a hand), ``sheet``, ``marks`` (what changed since the previous board, as data:
:func:`labels`), ``text``. Goods are pictures with five
different shapes as well as colours; seats are the house colour and initials.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from render.kathai.board import board_image
from render.kathai.hand import hand_image
from render.kathai.layout import View, board_height
from render.kathai.marks import changes, labels
from render.kathai.sheet import score_sheet
from render.kathai.text import score_text, text

__all__ = ["board", "board_height", "changes", "hand", "labels", "score_sheet", "score_text", "text"]


def hand(view: View, names: Sequence[str] | None = None) -> Image.Image:
    """One seat's private view (``view(state, seat)``); a spectator view gives a short notice."""
    return hand_image(view, names)


def board(view: View, names: Sequence[str] | None = None, previous: View | None = None) -> Image.Image:
    """The public snapshot of a spectator view, exactly 1000 × :func:`board_height` px. What
    changed since ``previous`` (the public view of the board posted before; None for the first)
    is outlined and labelled (:func:`labels`)."""
    return board_image(view, names, previous)
