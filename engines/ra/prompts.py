"""Ra's controls for each step (see ``engines/prompt.py``).

The lists are short: a turn offers draw, invoke and the gods' picks (buttons); an auction offers
one button per sun the bidder may bid, then Pass on a row of its own; a disaster offers the tiles
to discard. Nothing in Ra is hidden from the other players, so every prompt is public (under the
board).
"""

from __future__ import annotations

from engines.base import Engine
from engines.prompt import Prompt
from engines.ra.state import State


def prompt(engine: Engine, state: State, seat: int) -> Prompt:
    """``seat``'s controls now: the step's legal actions as labelled buttons (or a menu)."""
    return engine.legal_prompt(state, seat, str(engine.view(state, seat).get("headline") or ""))
