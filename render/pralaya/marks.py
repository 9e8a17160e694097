"""What changed between two public Pralaya views: the places the board marks after a move.

Computed only from the two spectator views (the board posted before and this one), so it shows
nothing a spectator could not work out by comparing the two pictures.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# cell marks, as shown on the tile's tag
TAKEN, DISCARDED, DRAWN, SANK = "taken", "discarded", "drawn", "sank"


@dataclass(frozen=True)
class Changes:
    """``cells``: cell name → TAKEN, DISCARDED, DRAWN or SANK; ``players``: seat → the parts of
    its row that changed ("hand", "veda", "dhoni", "escaped"); ``supply``: the piles that changed
    ("veda", "dhoni", "discard")."""

    cells: dict[str, str] = field(default_factory=dict)
    players: dict[int, frozenset[str]] = field(default_factory=dict)
    supply: frozenset[str] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.cells or self.players or self.supply)


NONE = Changes()


def _escaped(view: Mapping[str, Any] | None, seat: Any) -> bool:
    return view is not None and any(
        p.get("escaped") for p in view.get("players") or [] if p.get("seat") == seat
    )


def emptied_by(view: Mapping[str, Any], previous: Mapping[str, Any] | None = None) -> str:
    """How the empty cells of ``view`` were emptied: every cell is refilled when a turn ends, so
    an empty cell was emptied in the turn now being played (or the last one, once the game is
    over), by the seat to act, who discards (:data:`DISCARDED`) in a turn begun escaped and
    takes (:data:`TAKEN`) otherwise. Escaping ends a turn, so a running game's escaped seat to
    act began its turn escaped; a finished game's may have escaped in its last turn, after
    taking: it discarded only if it had escaped by the ``previous`` board."""
    active = view.get("active")
    if not _escaped(view, active):
        return TAKEN
    if view.get("over"):
        return DISCARDED if _escaped(previous, active) else TAKEN
    return DISCARDED


def changes(previous: Mapping[str, Any] | None, view: Mapping[str, Any]) -> Changes:
    """The places that differ from ``previous`` to ``view`` (both public views of one game);
    nothing when ``previous`` is None or is not the same board (other size or player count)."""
    if previous is None or previous.get("n_players") != view.get("n_players"):
        return NONE
    before, after = previous.get("island") or [], view.get("island") or []
    if len(before) != len(after):
        return NONE
    discarded = len(view.get("discard") or []) > len(previous.get("discard") or [])
    emptied = emptied_by(view, previous)
    cells: dict[str, str] = {}
    for old, new in zip(before, after, strict=True):
        if old.get("card") == new.get("card"):
            continue
        if new.get("card") is None:
            cells[str(new.get("cell"))] = emptied
        elif new.get("code") == "oce":
            cells[str(new.get("cell"))] = SANK
        else:
            cells[str(new.get("cell"))] = DRAWN
    players: dict[int, frozenset[str]] = {}
    old_players = {int(p["seat"]): p for p in previous.get("players") or []}
    for p in view.get("players") or []:
        q = old_players.get(int(p["seat"]))
        if q is None:
            continue
        parts = set()
        shown = p.get("hand") is not None and q.get("hand") is not None  # not just revealed
        if p.get("hand_size") != q.get("hand_size") or (shown and p.get("hand") != q.get("hand")):
            parts.add("hand")
        for key in ("veda", "dhoni", "escaped"):
            if bool(p.get(key)) and p.get(key) != q.get(key):
                parts.add(key)
        if parts:
            players[int(p["seat"])] = frozenset(parts)
    supply = set()
    if (view.get("veda") or {}).get("left") != (previous.get("veda") or {}).get("left"):
        supply.add("veda")
    if [d.get("id") for d in view.get("dhoni") or []] != [d.get("id") for d in previous.get("dhoni") or []]:
        supply.add("dhoni")
    if discarded:
        supply.add("discard")
    return Changes(cells, players, frozenset(supply))
