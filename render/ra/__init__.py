"""Ra renderer: pure functions of a Ra view (the view schema is in engines/ra/view.py).

* :func:`board` — the public snapshot, from ``view(state, None)``: exactly 1000 ×
  :func:`board_height` px (one size per player count, 658–970 px, so that with the caption strip
  a posted board is at most 1100 px tall);
* :func:`labels` — what a board marks as changed since the board before it, as data
  (``[(thing, label)]``: "drawn", "just won", "discarded", "used a God", "bid N", "passed",
  "score"); :func:`changes` — the marked places;
* :func:`hand` — one player's private view (DM), from ``view(state, seat)``; at the end it
  says the player's rank;
* :func:`score_sheet` — the score sheet, ranking first (final, or the epochs so far),
  :func:`epoch_sheet` — one epoch's sheet; both at most 1100 px;
* :func:`text` — the same information as plain text (Discord markdown, ≤ 1900 characters);
* :func:`interim_sheet` — the sheet to show when an epoch (not the last) has just been scored.

The drawing pieces live in ``render.ra.layout`` (the fixed geometry per player count),
``render.ra.art`` (icons, suns, tiles; the silhouettes in ``art.shapes``), ``render.ra.board``
(header, table, status band, legend; the seat rows in ``board.rows``), ``render.ra.marks`` (what
changed), ``render.ra.hand`` (the private view), ``render.ra.sheet`` (score sheets) and
``render.ra.text`` (text). Text is never under ``MIN_TEXT`` (26 px); suns,
bids, scores and tile counts are at ``NUMBER_TEXT`` (34 px).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from engines.ra.view import RaView
from render.common import seat_names
from render.frame import fixed
from render.ra.board import draw_band, draw_header, draw_legend, draw_table
from render.ra.board.rows import draw_seat_row
from render.ra.hand import hand_image
from render.ra.layout import ROWS_TOP, board_height, new_canvas
from render.ra.marks import SEAT_TAGS, changes, labels
from render.ra.sheet import epoch_sheet, score_sheet
from render.ra.text import epoch_text, score_text, text

__all__ = [
    "board_height",
    "changes",
    "labels",
    "board",
    "hand",
    "score_sheet",
    "epoch_sheet",
    "interim_sheet",
    "epoch_text",
    "score_text",
    "text",
]


def board(view: RaView, names: Sequence[str] | None = None, previous: RaView | None = None) -> Image.Image:
    """The public snapshot of ``view`` (a spectator view, ``view(state, None)``): the header
    with the epoch, step and whose turn, the Ra track, centre sun, bag and auction track, one
    band for the running auction, the owed discards, the turn or the winner, then one row per
    seat and the legend. What changed since ``previous`` (the public view of the board posted
    before, None for the first) is outlined and tagged (see :func:`labels`). Exactly 1000 ×
    :func:`board_height` px, one size through a game."""
    n = int(view["n_players"])
    nm = seat_names(names, n)
    marks = changes(previous, view) | {
        f"tag:{thing.split(':')[1]}:{label}" for thing, label in labels(previous, view) if label in SEAT_TAGS
    }
    height = board_height(n)
    img, d = new_canvas(height)
    y = draw_header(img, d, view, nm)
    y = draw_table(img, d, view, y, marks)
    y = draw_band(img, d, view, nm, y)
    y = ROWS_TOP - 6
    for s in range(n):
        y = draw_seat_row(img, d, view, nm, s, y, marks)
    y = draw_legend(img, d, view, y)
    if y > height:
        raise ValueError(f"the Ra board drew {y} px on its {height}-px canvas")
    return fixed(img, height)


def hand(view: RaView, names: Sequence[str] | None = None) -> Image.Image:
    """One player's private view (``view(state, seat)``): the prompt and legal actions, a compact
    table, the player's own row enlarged with their score, and this epoch's score preview.
    Raises ValueError for a spectator view (no seat to show)."""
    return hand_image(view, seat_names(names, int(view["n_players"])))


def interim_sheet(
    view: RaView, events: Sequence[Any], names: Sequence[str] | None = None
) -> tuple[str, Image.Image] | None:
    """When ``events`` (public engine events of one batch) scored an epoch and the game goes on,
    that epoch's sheet and a caption for it ("Epoch 1 scoring"); else None. The final epoch is
    shown by :func:`score_sheet` at the end instead."""
    if view["over"]:
        return None
    scored = [e.data.get("epoch") for e in events if e.kind == "epoch_score"]
    if not scored or scored[-1] is None:
        return None
    epoch = int(scored[-1])
    return f"Epoch {epoch} scoring", epoch_sheet(view, epoch, names)
