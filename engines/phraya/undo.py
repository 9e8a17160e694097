"""Which Phraya moves may be taken back (:meth:`engines.contract.HostSupport.reveals`).

Hidden from everyone are the deck order, the bag, the order stacks and the goods of the baskets
lying on stalls; with ``hidden_hands`` the hands too (docs/rules/phraya.md#hidden-information).
So a move reveals something when it draws from the deck (a scribe's refill, ``refresh``), the
bag (a basket stall refilled) or a stack (a restaurant refilled), when it buys a basket whose
goods were face down, or when it plays a card from a hidden hand. Everything else (setup
placements, movement, the merchant, prices, trades, offerings) may be taken back.
The ruling: docs/rules/phraya.md#undo.
"""

from __future__ import annotations

from engines.events import Event
from engines.phraya.state import OVER, State


def reveals(before: State, seat: int, action: str, after: State, events: list[Event]) -> str | None:
    """What ``action`` (played by ``seat`` in ``before``, giving ``after`` and ``events``) showed
    that was hidden, or None."""
    verb = action.split(" ", 1)[0]
    if after.step == OVER:
        return "it ended the game."
    if before.deck and after.deck != before.deck:
        return "a card was drawn from the market deck."
    if after.bag != before.bag:
        return "a new basket was drawn from the bag."
    if after.stacks != before.stacks:
        return "a new order was drawn from the stacks."
    if verb == "basket" and not before.opts.open_baskets:
        return "buying the basket showed its goods."
    if verb == "play" and before.opts.hidden_hands:
        return "playing showed a card from your hidden hand."
    return None
