"""Pure drawing: a view (from ``engines``) -> ``PIL.Image``. No discord, sqlite or asyncio.

Each game has a module ``render.<game>`` exposing:

* ``board(view, names=None) -> Image``: the public snapshot (pass ``view(state, None)``);
* ``hand(view, names=None) -> Image``: one player's private view (pass ``view(state, seat)``);
* ``score_sheet(view, names=None) -> Image``: the final sheet (a view of a finished game);
* ``text(view, names=None) -> str``: the same information as plain text (terminal, DM text);
* ``score_text(view, names=None) -> str``: a finished game's final score as text, by category
  per seat, best first, with the reason for a zero where the seat held something for it ("Fossils:
  tied with Bob (2 each), a tie scores nothing"); "" while the game runs.

Optionally:

* ``interim_sheet(view, events, names=None) -> (caption, Image) | None``: a sheet to show when
  ``events`` (the public events of one batch of moves) closed a scoring stage before the end,
  e.g. a Ra epoch; the bot posts it above the new board.
* ``epoch_text(events, names=None) -> str | None``: the same as text, by category with the
  reasons for zeros (the terminal prints it).
"""

from __future__ import annotations

import importlib
from types import ModuleType


def get(game: str) -> ModuleType:
    """The renderer module of ``game`` (e.g. ``render.pralaya``)."""
    return importlib.import_module(f"render.{game}")
