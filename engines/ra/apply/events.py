"""Ra's events, built cheaply: the frequent events (draws, bids, passes, invocations, turns
ended) made once at import instead of at every action, and one constructor for the others.

:func:`event` makes the same :class:`~engines.events.Event` as ``Event(kind, text, data)`` (equal,
same repr, same fields in the same order) without the frozen dataclass's ``__init__``, which
sets each field through ``object.__setattr__``. The tables are indexed by seat (``{s0}``…
tokens, up to the 5 seats of a game) and by a sun, a tile code or a track length.
"""

from __future__ import annotations

from typing import Any

from engines.events import Event
from engines.fastcopy import make
from engines.ra import data
from engines.ra.state import CODES, NCODES

Events = list[Event]


def event(kind: str, text: str, data_: dict[str, Any]) -> Event:
    """``Event(kind, text, data_)``, public and without a twin: made from a dict literal of its
    fields in the constructor's order (:func:`engines.fastcopy.make`), with no call per field."""
    return make(Event, {"kind": kind, "text": text, "data": data_, "private_to": None, "twin": None})


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

_TRACK = tuple(
    "an empty track" if k == 0 else "the full track" if k == data.AUCTION_SLOTS else count(k, "tile")
    for k in range(data.AUCTION_SLOTS + 1)
)

# The frequent events, each made once at import: they depend only on a seat and a tile, a sun or
# a track length. Events are immutable values (nothing changes an event or its data after it is
# made), so one object serves every game.

DRAW = tuple(
    tuple(Event("draw", f"{{s{s}}} draws {a_tile(c)}", {"seat": s, "tile": CODES[c]}) for c in range(NCODES))
    for s in SEATS
)
"""``DRAW[seat][code]``: a draw onto the auction track."""
BID = tuple(tuple(Event("bid", f"{{s{s}}} bids {v}", {"seat": s, "sun": v}) for v in SUNS) for s in SEATS)
"""``BID[seat][sun]``."""
PASS = tuple(Event("pass", f"{{s{s}}} passes", {"seat": s, "auto": False}) for s in SEATS)
"""``PASS[seat]``: a pass the seat chose."""
AUTO_PASS = tuple(
    tuple(Event("pass", f"{{s{s}}} passes (no sun higher than {v})", {"seat": s, "auto": True}) for v in SUNS)
    for s in SEATS
)
"""``AUTO_PASS[seat][high]``: a pass made for the seat (no face-up sun above the high bid)."""
INVOKE = tuple(
    tuple(
        Event(
            "auction",
            f"{{s{s}}} invokes Ra on {what}",
            {"seat": s, "kind": "full" if k == data.AUCTION_SLOTS else "voluntary", "tiles": k},
        )
        for k, what in enumerate(_TRACK)
    )
    for s in SEATS
)
"""``INVOKE[seat][track length]``: Ra invoked (a full-track auction on 8 tiles, else voluntary)."""
DONE = tuple(Event("done", f"{{s{s}}} ends the turn", {"seat": s}) for s in SEATS)
"""``DONE[seat]``."""
