"""Kathai (Cathay) renderer: pure functions of a view (``engines.kathai`` ``view(state,
viewer)``, schema ``engines.kathai.view.KathaiView``).

* :func:`board` — the public snapshot from a spectator view: whose turn, the market (price
  cards, goods, the lock in its placer's colour), pile, last sale, the open offer, a row per
  seat (hand size, profit, score, final-turn marks) and, at the end, the ranking;
* :func:`hand` — one seat's private view: its cards, per-goods totals and what selling each now
  would score, the offer it is a party to;
* :func:`score_sheet` — the final sheet with every sale;
* :func:`text` — the same information as Discord markdown (≤ 1900 characters).

Pieces: ``art`` (goods, cards, badges), ``board`` (its sections), ``offer``, ``marks`` (what
changed since the previous board), ``hand``, ``sheet``, ``text``. Goods are drawn
as colour plus letters (Go Sa Si Sp Te) and seats as colour plus an initial badge.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from render.kathai.board import (
    Ctx,
    View,
    crop,
    draw_footer,
    draw_header,
    draw_market,
    draw_now,
    draw_results,
    draw_seat_row,
    draw_supply,
    new_canvas,
)
from render.kathai.hand import hand_image
from render.kathai.marks import changes
from render.kathai.offer import draw_offer
from render.kathai.sheet import score_sheet
from render.kathai.text import score_text, text

__all__ = ["changes", "board", "hand", "score_sheet", "score_text", "text"]


def hand(view: dict[str, Any], names: Sequence[str] | None = None) -> Image.Image:
    """One seat's private view (``view(state, seat)``); a spectator view gives a short notice."""
    return hand_image(view, names)


def board(view: View, names: Sequence[str] | None = None, previous: View | None = None) -> Image.Image:
    """The public snapshot of a spectator view: header, awaited seats, the market, pile and
    last sale, the open offer, a row per seat and, at the end, the ranking. What changed since
    ``previous`` (the public view of the board posted before; None for the first) is outlined
    and tagged (see ``render.kathai.marks``)."""
    c = Ctx(view, names)
    marks = changes(previous, view)
    img, d = new_canvas()
    y = draw_header(d, c)
    y = draw_now(d, c, y)
    y = draw_market(d, c, y, marks)
    y = draw_supply(d, c, y, marks)
    y = draw_offer(d, c, y, show_cards=False, marks=marks)
    for s in range(c.n):
        y = draw_seat_row(img, d, c, s, y, marks)
    y = draw_results(d, c, y)
    y = draw_footer(d, c, y)
    return crop(img, y)
