"""What the host asks of Ra: each step's controls, the buttons' labels and the warning before an
irreversible move.

The lists are short: a turn offers draw, invoke and the gods' picks (buttons); an auction offers
one button per sun the bidder may bid, then Pass on a row of its own; a disaster offers the tiles
to discard. Nothing in Ra is hidden from the other players, so every prompt is public (under the
board).
"""

from __future__ import annotations

from engines.contract import Action
from engines.engine import HostBase
from engines.prompt import Prompt
from engines.ra import data
from engines.ra.state import State
from engines.ra.view import RaView


def prompt(engine: HostBase[State, RaView], state: State, seat: int) -> Prompt:
    """``seat``'s controls now: the step's legal actions as labelled buttons (or a menu)."""
    return engine.legal_prompt(state, seat, str(engine.view(state, seat)["headline"]))


def label(action: Action) -> str:
    """A short button label: "Draw a tile", "Invoke Ra", "God → Pharaoh", "Bid 13"…"""
    if action == "draw":
        return "Draw a tile"
    if action == "invoke":
        return "Invoke Ra"
    if action == "done":
        return "Done"
    if action == "pass":
        return "Pass"
    verb, _, arg = action.partition(" ")
    if verb == "bid":
        return f"Bid {arg}"
    name = data.TILE_NAME.get(arg, arg)
    if verb == "god":
        return f"God → {name}"
    if verb == "discard":
        return f"Discard {name}"
    return action


def irreversible(state: State, seat: int, action: Action) -> str | None:
    """Bidding the last face-up sun: the seat then sits out the rest of the epoch."""
    if action.startswith("bid ") and len(state.up[seat]) == 1:
        return (
            f"Sun {state.up[seat][0]} is your last sun this epoch: once it is spent you take "
            "no more turns until the epoch ends."
        )
    return None
