"""Ra's action grammar (docs/rules/ra.md#actions): the canonical forms, parsing, the action
space, samples of it and the bound on a game's length.

Canonical forms: ``draw``, ``invoke``, ``god <tile>``, ``done``, ``bid <sun>``, ``pass``,
``discard <tile>``, tiles by their code in ``data.TILE_ORDER``. The legal lists (``legal.py``)
are built from the same texts (``GOD_TEXT``, ``BID_TEXT``, ``DISCARD_TEXT``).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from engines.contract import Action
from engines.errors import BadNotation
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


def forms() -> str:
    return "Moves: " + ", ".join(f"`{f}`" for f in FORMS) + "."


def bad_form(text: str) -> str:
    return f"`{text}` is not a Ra move. " + forms()


_SPACES: dict[int, tuple[Action, ...]] = {}


def sample_actions(n_players: int, rng: random.Random, k: int) -> list[Action]:
    """``k`` well-formed texts drawn from :func:`action_space` (small enough to list)."""
    space = _SPACES.get(n_players)
    if space is None:
        space = _SPACES[n_players] = tuple(action_space(n_players))
    return rng.choices(space, k=k)


def action_bound(n_players: int) -> int:
    """An upper bound on a game's actions (docs/rules/ra.md#action-bound): draws <= 200,
    invocations <= 3S + 21, n bids or passes per auction over <= 3S + 21 + 30 auctions, gods
    and dones <= 16, discards <= 20 (431/554/641/782 for 2-5 players)."""
    s = len(data.SUN_SETS[n_players][0]) * n_players
    auctions = 3 * s + 21 + 30
    return 200 + (3 * s + 21) + n_players * auctions + 16 + 20
