"""Kathai (Cathay) renderer: pure functions of a view (``engines.kathai`` ``view(state,
viewer)``, schema ``engines.kathai.view.KathaiView``).

* :func:`board` — the public snapshot from a spectator view: whose turn, the market (price
  cards, goods, the lock in its placer's colour), pile, last sale, the open offer, a row per
  seat (hand size, profit, score, final-turn marks) and, at the end, the ranking;
* :func:`hand` — one seat's private view: its cards, per-goods totals and what selling each now
  would score, the offer it is a party to;
* :func:`score_sheet` — the final sheet with every sale;
* :func:`text` — the same information as Discord markdown (≤ 1900 characters).

Pieces: ``art`` (goods, cards, badges), ``board``, ``hand``, ``sheet``, ``text``. Goods are drawn
as colour plus letters (Go Sa Si Sp Te) and seats as colour plus an initial badge.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from render.kathai.board import board
from render.kathai.hand import hand_image
from render.kathai.sheet import score_sheet
from render.kathai.text import score_text, text

__all__ = ["board", "hand", "score_sheet", "score_text", "text"]


def hand(view: dict[str, Any], names: Sequence[str] | None = None) -> Image.Image:
    """One seat's private view (``view(state, seat)``); a spectator view gives a short notice."""
    return hand_image(view, names)
