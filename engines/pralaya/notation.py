"""Pralaya action text (docs/rules/pralaya.md#actions): the grammar, the action space, parsing, the bound
on a game's length (docs/rules/pralaya.md#length).

Canonical forms: ``take <cell>``, ``done``, ``buy veda <g>g <s>s <c>c``, ``buy dhoni <g>g <s>s <c>c``,
``pass``, ``discard <cell>``. A payment's counts range over the coins that exist (0–5 gold,
0–6 silver, 0–4 copper) and may be typed in any order (``buy veda 1s 0g 1c`` is read as
``buy veda 0g 1s 1c``); cells over the largest island (a1–c6).
"""

from __future__ import annotations

import random
from typing import Any

from engines.errors import BadNotation
from engines.pralaya import data
from engines.pralaya.state import CELLS, MAX_TURNS

TAKE, DONE, BUY_VEDA, BUY_DHONI, PASS, DISCARD_V = range(6)

MAX_COINS = {code: data.RELIC_BY_CODE[code].qty for code in data.COIN_CODES}  # gol 5, sil 6, cop 4

HINT = "Try `take b4`, `done`, `buy veda 0g 1s 1c`, `buy dhoni …`, `pass` or `discard c2`."


def _payments() -> list[tuple[int, int, int]]:
    return [
        (g, s, c)
        for g in range(MAX_COINS["gol"] + 1)
        for s in range(MAX_COINS["sil"] + 1)
        for c in range(MAX_COINS["cop"] + 1)
    ]


def pay_text(pay: tuple[int, int, int]) -> str:
    """``(1, 0, 2)`` -> ``"1g 0s 2c"``."""
    return "%dg %ds %dc" % pay


def _space(n_players: int) -> dict[str, tuple[int, Any]]:
    cells = CELLS[n_players]
    out: dict[str, tuple[int, Any]] = {"done": (DONE, None), "pass": (PASS, None)}
    for i, c in enumerate(cells):
        out["take " + c] = (TAKE, i)
        out["discard " + c] = (DISCARD_V, i)
    for pay in _payments():
        out["buy veda " + pay_text(pay)] = (BUY_VEDA, pay)
        out["buy dhoni " + pay_text(pay)] = (BUY_DHONI, pay)
    return out


SPACE: dict[int, dict[str, tuple[int, Any]]] = {n: _space(n) for n in data.GRID}
"""Per player count: action text -> (verb, cell index | payment | None)."""
KNOWN: frozenset[str] = frozenset(a for table in SPACE.values() for a in table)
"""Every well-formed action text for any player count (what :func:`parse` accepts)."""


def action_space(n_players: int) -> list[str]:
    """Every well-formed action for ``n_players``, sorted."""
    return sorted(SPACE[n_players])


def quote(text: str) -> str:
    t = " ".join(text.split())
    t = t if len(t) <= 40 else t[:39] + "…"
    return "`" + t.replace("`", "'") + "`" if t else "An empty message"


def parse(text: str, cols: int = 6) -> str:
    """Normalise case and spaces and return the canonical action.

    Raises :class:`BadNotation` (with a hint naming the forms) if the text is not a Pralaya action;
    ``cols``: the island's columns, named in the hint for a bad cell (6 for the largest island).
    """
    norm = " ".join(str(text).lower().split())
    if norm in KNOWN:
        return norm
    words = norm.split(" ")
    coins = sorted(words[2:], key=lambda w: "gsc".find(w[-1:]))
    if words[0] == "buy" and [w[-1:] for w in coins] == ["g", "s", "c"]:  # the coins in any order
        ordered = " ".join(words[:2] + coins)
        if ordered in KNOWN:
            return ordered
    verb = words[0]
    if verb in ("take", "discard"):
        why = f"`{verb}` needs one cell of the island, a row a–c and a column 1–{cols}, e.g. `{verb} b4`."
    elif verb == "buy":
        if len(words) < 2 or words[1] not in ("veda", "dhoni"):
            why = "Buy a `veda` or a `dhoni` with three coin counts, e.g. `buy veda 0g 1s 1c`."
        else:
            why = (
                f"A payment is three counts, gold, silver and copper, e.g. `buy {words[1]} 0g 1s 1c`"
                f" (at most {MAX_COINS['gol']} gold, {MAX_COINS['sil']} silver, {MAX_COINS['cop']} copper)."
            )
    elif verb in ("done", "pass"):
        why = f"`{verb}` takes nothing after it."
    else:
        why = HINT
    raise BadNotation(f"{quote(str(text))} is not a Pralaya action. {why}")


ACTION_BOUND = data.N_NON_OCEAN + 2 * MAX_TURNS  # takes/discards + done + buy/pass = 193
_SPACES: dict[int, tuple[str, ...]] = {}


def sample_actions(n_players: int, rng: random.Random, k: int) -> list[str]:
    """``k`` well-formed texts drawn from :func:`action_space` (small enough to list)."""
    space = _SPACES.get(n_players)
    if space is None:
        space = _SPACES[n_players] = tuple(action_space(n_players))
    return rng.choices(space, k=k)
