"""Ra's controls for each step (see ``engines/prompt.py``).

The lists are short: a turn offers draw, invoke and the gods' picks (buttons); an auction offers
one button per sun the bidder may bid, then Pass on a row of its own; a disaster offers the tiles
to discard. Nothing in Ra is hidden from the other players, so every prompt is public (under the
board).
"""

from __future__ import annotations

from engines.base import Engine
from engines.prompt import Prompt, from_legal
from engines.ra.state import State


def prompt(engine: Engine, state: State, seat: int) -> Prompt:
    """``seat``'s controls now: the step's legal actions as labelled buttons (or a menu)."""
    legal = engine.legal_actions(state, seat)
    headline = str(engine.view(state, seat).get("headline") or "")
    return from_legal(
        seat,
        headline,
        legal,
        [engine.action_label(state, seat, a) for a in legal],
        public=engine.public_actions(state, seat),
    )
