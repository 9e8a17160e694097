"""Ra action text (spec §5): the canonical forms, parsing, the action space and button labels.

Canonical forms: ``draw``, ``invoke``, ``god <tile>``, ``done``, ``bid <sun>``, ``pass``,
``discard <tile>``, tiles by their code in ``data.TILE_ORDER``. :class:`~engines.ra.rules.RaEngine`
delegates ``parse``, ``action_space`` and ``action_label`` here; its legal lists are built from
the same texts (``GOD_TEXT``, ``BID_TEXT``, ``DISCARD_TEXT``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from engines.base import Action, BadNotation
from engines.ra import data
from engines.ra.state import CODES

GOD_CODES = tuple(c for c in CODES if c != "ra")
"""Codes that may follow ``god`` in a well-formed action (``god god`` is well formed but never
legal)."""
DISCARD_CODES = ("nile", "flood", *data.CIVS, *data.MONUMENTS)
"""Codes that may follow ``discard`` (nile/flood only matter with ``drought_floods_first`` off)."""

GOD_TEXT = tuple("god " + c for c in CODES)
DISCARD_TEXT = tuple("discard " + c for c in CODES)
BID_TEXT = tuple(f"bid {v}" for v in range(max(data.MAX_SUN.values()) + 1))
_NOARG = ("draw", "invoke", "done", "pass")
WELL_FORMED = frozenset(_NOARG) | {"god " + c for c in GOD_CODES} | {"discard " + c for c in DISCARD_CODES}
MAX_BID = max(data.MAX_SUN.values())
_DIGITS = re.compile(r"[0-9]+")
FORMS = ("draw", "invoke", "god <tile>", "done", "bid <sun>", "pass", "discard <tile>")


def parse(text: str) -> Action:
    """The canonical text of ``text`` (case and spacing free, integers normalised:
    ``BID  013`` → ``bid 13``). Raises :class:`BadNotation` naming the forms."""
    if not isinstance(text, str):
        raise BadNotation(bad_form(repr(text)))
    parts = text.strip().lower().split()
    if not parts:
        raise BadNotation("Empty move. " + forms())
    if parts[0] == "bid" and len(parts) == 2 and _DIGITS.fullmatch(parts[1]):
        digits = parts[1].lstrip("0") or "0"  # int() refuses over 4300 digits
        v = int(digits) if len(digits) <= 3 else MAX_BID + 1
        if 1 <= v <= MAX_BID:
            return BID_TEXT[v]
        raise BadNotation(
            f"There is no sun {digits[:6]}{'…' if len(digits) > 6 else ''}: suns run from 1 to {MAX_BID}."
        )
    canon = " ".join(parts)
    if canon in WELL_FORMED:
        return canon
    if parts[0] in ("god", "discard") and len(parts) == 2:
        if parts[1] == "ra" and parts[0] == "god":
            raise BadNotation("Ra tiles never reach the auction track, so a god cannot take one.")
        if parts[1] in data.TILE_NAME and parts[0] == "discard":
            raise BadNotation(
                f"{data.TILE_NAME[parts[1]]} is never discarded by choice: you "
                "choose only civilization and monument tiles (and nile or "
                "flood after a drought when floods do not go first)."
            )
        codes = GOD_CODES if parts[0] == "god" else DISCARD_CODES
        raise BadNotation(f"Unknown tile `{parts[1][:30]}` for {parts[0]}. Tiles: " + ", ".join(codes) + ".")
    raise BadNotation(bad_form(text.strip()[:40]))


def action_space(n_players: int) -> Iterator[Action]:
    """Every well-formed action text for ``n_players``: draw, invoke, god X, done, bid 1..N,
    pass, discard X."""
    yield "draw"
    yield "invoke"
    for c in GOD_CODES:
        yield "god " + c
    yield "done"
    for v in range(1, data.MAX_SUN[n_players] + 1):
        yield BID_TEXT[v]
    yield "pass"
    for c in DISCARD_CODES:
        yield "discard " + c


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


def forms() -> str:
    return "Moves: " + ", ".join(f"`{f}`" for f in FORMS) + "."


def bad_form(text: str) -> str:
    return f"`{text}` is not a Ra move. " + forms()
