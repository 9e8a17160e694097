"""Which Kathai moves may be taken back (:meth:`engines.contract.HostSupport.reveals`).

Hands and the pile are hidden (docs/rules/kathai.md#hidden-information). A sale shows its cards
to everyone, an offer shows the cards given to the seats it asks, an accepted trade shows each
side the other's cards, and ``buy`` and ``swap`` draw from the pile. Any move that ends the turn
starts the next one, whose first step draws a card for the next seat (unless it holds 7 or the
pile is empty). What is left may be taken back: a ``pass`` or a bribe after which nobody drew,
a ``decline``.
The ruling: docs/rules/kathai.md#undo.
"""

from __future__ import annotations

from engines.events import Event
from engines.kathai.state import OVER, State

_SHOWN = {
    "sell": "selling showed the sold cards to everyone.",
    "offer": "the offer showed the cards you give to the players it asks.",
    "accept": "the trade showed your cards to the player you traded with.",
    "buy": "buying drew a card from the pile.",
    "swap": "swapping drew a card from the pile.",
}


def reveals(before: State, seat: int, action: str, after: State, events: list[Event]) -> str | None:
    """What ``action`` (played by ``seat`` in ``before``, giving ``after`` and ``events``) showed
    to someone who did not know it, or None."""
    if after.step == OVER:
        return "it ended the game."
    shown = _SHOWN.get(action.split(" ", 1)[0])
    if shown is not None:
        return shown
    if len(after.pile) < len(before.pile):
        return "it ended the turn, and {s%d} drew a card from the pile to start theirs." % after.active
    return None
