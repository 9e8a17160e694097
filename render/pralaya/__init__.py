"""Pralaya renderer: pure functions of a view (``engines.pralaya`` ``view(state, viewer)``).

* :func:`board` — the public snapshot from a spectator view, one size per player count
  (:func:`board_height`): header (round, whose turn, step), who acts with the Vitality left, the
  island grid, the supply strip (deck, unseen relics, discard, Veda and Dhoni piles) and a box
  per player; at game over the result line and each seat's rank.
* :func:`extra` — the second picture of a game with open hands: every seat's relics.
* :func:`hand` — one player's private view (``view(state, seat)``).
* :func:`score_sheet` — the final sheet of a finished game: the ranking first, then by category.
* :func:`text` — the same information as Discord-markdown text (≤ 1900 characters).

One role per module: ``layout`` (sizes, geometry, the fixed canvas per player count), ``art``
(each card's look and icon, the header, tags and island tiles), ``board`` (the board, its player
boxes and the open-hands picture), ``hand``, ``sheet``, ``marks`` (what the last move changed) and
``text``.
"""

from __future__ import annotations

from render.pralaya.board import board, extra
from render.pralaya.hand import hand
from render.pralaya.layout import board_height
from render.pralaya.sheet import score_sheet
from render.pralaya.text import score_text, text

__all__ = ["board", "board_height", "extra", "hand", "score_sheet", "score_text", "text"]
