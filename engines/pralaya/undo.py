"""Which Pralaya moves may be taken back (:meth:`engines.contract.HostSupport.reveals`).

The island is face up, takes and payments are public (docs/rules/pralaya.md#hidden-hands), and
the only hidden things are the deck order and the hands. So a move reveals something only when
its turn's END refills the island from the deck (the new cards were hidden in the deck) or when
it ends the game (every hand is then shown).
The ruling: docs/rules/pralaya.md#undo.
"""

from __future__ import annotations

from engines.events import Event
from engines.pralaya.state import OVER, State


def reveals(before: State, seat: int, action: str, after: State, events: list[Event]) -> str | None:
    """What ``action`` (played by ``seat`` in ``before``, giving ``after`` and ``events``) showed
    that was hidden, or None: ``take`` and ``done`` while the turn goes on show nothing; a move
    ending the turn shows the refill's cards unless the deck was empty."""
    if after.step == OVER:
        return "it ended the game, which showed every hand and the scores."
    drawn = len(before.deck) - len(after.deck)
    if drawn > 0:
        cards = "a new card" if drawn == 1 else f"{drawn} new cards"
        return f"it ended the turn and the island was refilled with {cards} from the deck."
    return None
