"""Ra's events, built cheaply: one constructor and the texts of the frequent events, written
once at import instead of formatted at every action.

:func:`event` makes the same :class:`~engines.events.Event` as ``Event(kind, text, data)`` (equal,
same repr, same fields in the same order) without the frozen dataclass's ``__init__``, which
sets each field through ``object.__setattr__`` and costs about three times as much. The tables
are indexed by seat (``{s0}``… tokens, up to the 5 seats of a game) and by a sun, a tile code or
a count.
"""

from __future__ import annotations

from typing import Any

from engines.events import Event
from engines.ra import data
from engines.ra.state import CODES, NCODES

Events = list[Event]

_new = object.__new__
_set = object.__setattr__


def event(kind: str, text: str, data_: dict[str, Any]) -> Event:
    """``Event(kind, text, data_)``, public and without a twin."""
    e: Event = _new(Event)
    _set(e, "__dict__", {"kind": kind, "text": text, "data": data_, "private_to": None, "twin": None})
    return e


NAME = tuple(data.TILE_NAME[c] for c in CODES)
"""The display name of each tile index."""


def a_tile(code: int) -> str:
    """The display name with an indefinite article ("a Pharaoh", "an Obelisk")."""
    name = NAME[code]
    return ("an " if name[0] in "AEIOU" else "a ") + name


def count(k: int, what: str) -> str:
    """``1 trader``, ``2 traders``."""
    return f"{k} {what}" if k == 1 else f"{k} {what}s"


SEATS = range(max(data.SUN_SETS))
SUNS = range(max(data.MAX_SUN.values()) + 1)

DRAW = tuple(tuple(f"{{s{s}}} draws {a_tile(c)}" for c in range(NCODES)) for s in SEATS)
"""``DRAW[seat][code]``: the text of a draw onto the auction track."""
BID = tuple(tuple(f"{{s{s}}} bids {v}" for v in SUNS) for s in SEATS)
"""``BID[seat][sun]``."""
PASS = tuple(f"{{s{s}}} passes" for s in SEATS)
"""``PASS[seat]``: a pass the seat chose."""
AUTO_PASS = tuple(tuple(f"{{s{s}}} passes (no sun higher than {v})" for v in SUNS) for s in SEATS)
"""``AUTO_PASS[seat][high]``: a pass made for the seat (no face-up sun above the high bid)."""
_TRACK = tuple(
    "an empty track" if k == 0 else "the full track" if k == data.AUCTION_SLOTS else count(k, "tile")
    for k in range(data.AUCTION_SLOTS + 1)
)
INVOKE = tuple(tuple(f"{{s{s}}} invokes Ra on {what}" for what in _TRACK) for s in SEATS)
"""``INVOKE[seat][track length]``."""
DONE = tuple(f"{{s{s}}} ends the turn" for s in SEATS)
"""``DONE[seat]``."""
