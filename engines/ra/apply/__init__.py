"""What a Ra action does: the transitions and their events (docs/rules/ra.md#a-turn).

:func:`apply` checks the action against the legal list and hands the state to the action's
handler (each well-formed text has its handler and its argument, a sun or a tile index, in
:data:`HANDLERS`), which returns the new state: the frequent small moves as one
:func:`engines.fastcopy.replace`, an auction's start and settlement (which change a dozen fields)
from a work dict (:func:`engines.fastcopy.work`, edited, then :func:`engines.fastcopy.make`: no
keyword arguments gathered and merged), the others by editing a private copy made by
:func:`engines.fastcopy.thaw` through :func:`engines.fastcopy.poke`; the given state is never
changed. The handlers run the automatic steps that follow (auto-passes,
forced discards, the auction's settlement, the epoch's end, the game's end) until some seat has a
decision. The modules: ``turn`` (draw, invoke, god, done), ``auction`` (bids, passes, the lot),
``disasters`` (traders' crates, disasters, discards), ``order`` (the next turn), ``epoch`` (an
epoch's end and scoring), ``events`` (the event constructor and the frequent texts).

Speed: a handler is looked up by the action's text with its argument decoded in advance; events
come from :func:`engines.ra.apply.events.event` with the frequent texts written once at import; a
change to one seat's suns or tiles rebuilds that seat's row only; a bid or pass settles the
auction directly when it is the last, and auto-passes are looked for only after a bid (before
one, every bidder holds a higher sun).
"""

from __future__ import annotations

from collections.abc import Callable

from engines.contract import Action
from engines.events import Event
from engines.ra.apply.auction import do_bid, do_pass
from engines.ra.apply.disasters import do_discard
from engines.ra.apply.events import Events
from engines.ra.apply.turn import do_done, do_draw, do_god, do_invoke
from engines.ra.describe import rejection
from engines.ra.legal import LAST, legal_actions
from engines.ra.notation import BID_TEXT, DISCARD_CODES, DISCARD_TEXT, GOD_CODES, GOD_TEXT
from engines.ra.state import IDX, State

Handler = Callable[[State, int, Events], State]

HANDLERS: dict[str, tuple[Handler, int]] = {
    "draw": (do_draw, 0),
    "invoke": (do_invoke, 0),
    "done": (do_done, 0),
    "pass": (do_pass, 0),
    **{BID_TEXT[v]: (do_bid, v) for v in range(1, len(BID_TEXT))},
    **{GOD_TEXT[IDX[c]]: (do_god, IDX[c]) for c in GOD_CODES},
    **{DISCARD_TEXT[IDX[c]]: (do_discard, IDX[c]) for c in DISCARD_CODES},
}
"""Each well-formed action text: its handler and its argument (a sun or a tile index)."""


def apply(state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
    """Apply a legal action and every automatic step after it. Returns the new state and the
    events. Raises :class:`GameOver`, :class:`NotYourTurn`, or :class:`IllegalAction` (with the
    reason) and changes nothing."""
    last = LAST
    if last[0] is not state or last[1] != seat:
        legal_actions(state, seat)
    if action not in last[2]:  # type: ignore[operator]
        raise rejection(state, seat, action)
    handler, arg = HANDLERS[action]
    ev: list[Event] = []
    return handler(state, arg, ev), ev
