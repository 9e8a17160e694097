"""Phraya renderer: pure functions of a Phraya view (``engines/phraya/view/types.py``).

* :func:`board` — the public board (canals, stalls, boats, barge, orders, standings) at one
  fixed size, 1000 × :func:`board_height`, from ``view(state, None)``;
* :func:`extra` — the second public picture posted with it (prices, Temple, King, supply,
  Merchant, card market, players), 1000 × ``extra_height(n)``;
* :func:`hand` — one seat's private view (DM), from ``view(state, seat)``;
* :func:`score_sheet` — the final score sheet of a finished game;
* :func:`text` — the same information as Discord markdown (≤ 1900 characters).

The same parts as every game's renderer: ``layout`` (the board's geometry and sizes;
``layout.model``, what the pictures read from a view), ``art`` (colours, icons, the card tiles,
drawing helpers and the cached static layers), ``board`` (the board picture; ``board.extra`` the
second picture), ``hand``, ``sheet``, ``marks`` (what changed since the previous board, and its
tags as data) and ``text``.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from engines.phraya.view.types import PhrayaView
from render.phraya.board import BOARD_H, board_image
from render.phraya.board.extra import extra_height, extra_image
from render.phraya.hand import hand_image
from render.phraya.sheet import sheet_image
from render.phraya.text import score_text, text

View = PhrayaView

__all__ = ["board", "board_height", "extra", "extra_height", "hand", "score_sheet", "score_text", "text"]


def board(view: View, names: Sequence[str] | None = None, previous: View | None = None) -> Image.Image:
    """The public board at 1000 × :func:`board_height`: the islands with stalls, boats, barge
    and the marks of the current step, the restaurants' orders and basket prices, the standings.
    With ``previous`` (the public view of the board posted before) what changed since is
    outlined and tagged."""
    return board_image(view, list(names) if names is not None else None, previous)


def board_height(n_players: int) -> int:
    """The board's fixed height: the same for every state of a game (and every player count)."""
    return BOARD_H


def extra(view: View, names: Sequence[str] | None = None, previous: View | None = None) -> Image.Image:
    """The second picture posted with the board: prices, Temple, King, supply, Merchant, card
    market and the players' goods and pieces, at 1000 × ``extra_height(n)`` (one size per
    player count); with ``previous`` what changed since is outlined and tagged."""
    return extra_image(view, names, previous)


def hand(view: View, names: Sequence[str] | None = None) -> Image.Image:
    """One seat's private view: coins, goods in baskets, flowers, favors, the hand of cards with
    their effects in words, and the prompt with the legal actions. A spectator view gets a short
    notice."""
    return hand_image(view, names)


def score_sheet(view: View, names: Sequence[str] | None = None) -> Image.Image:
    """The score sheet: every category per player, totals and ranks (a preview before the end)."""
    return sheet_image(view, names)
