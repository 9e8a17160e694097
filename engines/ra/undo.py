"""Which Ra moves may be taken back (:meth:`engines.contract.HostSupport.reveals`).

Everything in Ra is public but the order of the bag (docs/rules/ra.md#view), so a move reveals
something when a tile comes out of the bag (``draw``). Besides, a move that ends an auction (the
last bid or pass: the lot is won or left unsold) or an epoch (its scores, hidden totals with
``hidden_scores``) settles what the others played on, and so may not be taken back either.
The ruling: docs/rules/ra.md#undo.
"""

from __future__ import annotations

from engines.events import Event
from engines.ra.state import OVER, State


def reveals(before: State, seat: int, action: str, after: State, events: list[Event]) -> str | None:
    """What ``action`` (played by ``seat`` in ``before``, giving ``after`` and ``events``) showed
    or settled, or None when it may be taken back (an ``invoke``, a bid or pass that leaves the
    auction open, a god tile, ``done``, a discard)."""
    if after.step == OVER:
        return "it ended the game."
    if after.bag_pos != before.bag_pos:
        return "drawing showed the next tile of the bag."
    kinds = {e.kind for e in events}
    if "win" in kinds:
        return "it ended the auction and the lot was won."
    if "unsold" in kinds:
        return "it ended the auction, with the lot unsold."
    if "epoch_score" in kinds:
        return "it ended the epoch and scored it."
    return None
