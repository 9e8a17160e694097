"""The AI's move as a job for the worker pool (:mod:`bot.host.workers`).

The job gets what the seat may see and nothing more: the game's name, the seat's own view, its
legal list, the level and the decision's seed (``engines.search.ai_seed`` of the game's stored
seed, its version and the seat, so a replay reproduces the choice). It returns the move and how it
was found; the host checks the move with ``play()`` like any other.
"""

from __future__ import annotations

from typing import Any

import engines
from engines import base, search


def think(game: str, view: dict[str, Any], legal: list[str], level: str, seed: int) -> search.Result:
    """The AI's move at ``level`` for the seat whose ``view`` this is."""
    engines.load_all()
    return search.choose(base.get(game), view, legal, level, seed)
