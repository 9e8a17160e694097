"""Pralaya action text (spec §5): the action space, parsing, reasons for refusals, button labels.

Canonical forms: ``take <cell>``, ``done``, ``buy veda <g>g <s>s <c>c``, ``buy dhoni <g>g <s>s <c>c``,
``pass``, ``discard <cell>``. A payment's counts range over the coins that exist (0–5 gold,
0–6 silver, 0–4 copper); cells over the largest island (a1–c6).
"""

from __future__ import annotations

from typing import Any

from engines.base import BadNotation
from engines.pralaya import data
from engines.pralaya.state import (
    BUY,
    CARD_CUR,
    CARD_NAME,
    CELLS,
    CELLS_BY_SIZE,
    COLLECT,
    COST_E,
    DHONI_NAME,
    DHONI_PRICE,
    DHONI_X,
    DISCARD,
    EMPTY,
    IS_OCEAN,
    OVER,
    State,
    coins,
    legal,
    pay_phrase,
    veda_left,
)

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


def _quote(text: str) -> str:
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
    verb = words[0]
    if verb in ("take", "discard"):
        why = f"`{verb}` needs one cell of the island, a row a–c and a column 1–{cols}, e.g. `{verb} b4`."
    elif verb == "buy":
        if len(words) < 2 or words[1] not in ("veda", "dhoni"):
            why = "Buy a `veda` or a `dhoni` with three coin counts, e.g. `buy veda 0g 1s 1c`."
        else:
            why = (
                f"A payment is three counts in the order gold, silver, copper, e.g. `buy {words[1]} 0g 1s 1c`"
                f" (at most {MAX_COINS['gol']} gold, {MAX_COINS['sil']} silver, {MAX_COINS['cop']} copper)."
            )
    elif verb in ("done", "pass"):
        why = f"`{verb}` takes nothing after it."
    else:
        why = HINT
    raise BadNotation(f"{_quote(str(text))} is not a Pralaya action. {why}")


# ------------------------------------------------------------------ why an action is refused


def _plural(k: int, word: str) -> str:
    return f"{k} {word}" + ("" if k == 1 else "s")


def _cell_problem(s: State, cell: int, what: str) -> str | None:
    names = CELLS_BY_SIZE[len(s.island)]
    card = s.island[cell]
    if card == EMPTY:
        if s.taken >> cell & 1:
            return (
                f"{names[cell]} is empty: its card went this turn, and refills come at the end of the turn."
            )
        return f"{names[cell]} is empty."
    if IS_OCEAN[card]:
        return f"{names[cell]} is an Ocean: Oceans cannot be {what}."
    return None


def _buy_problem(s: State, verb: int, pay: tuple[int, int, int]) -> str:
    seat = s.active
    g, si, c = coins(s.hands[seat])
    x, y, z = pay
    price: int | None  # None: Dhoni X
    if verb == BUY_VEDA:
        if s.veda[seat]:
            return "You already have a Veda (at most one per player)."
        if veda_left(s) == 0:
            return "No Veda is left in the pile."
        price, card = s.veda_price, "the Veda"
    else:
        if not s.dhoni_pile:
            return "No Dhoni is left in the pile."
        top = s.dhoni_pile[0]
        price, card = DHONI_PRICE[top], DHONI_NAME[top]
    for want, have, word in ((x, g, "Gold Coin"), (y, si, "Silver Coin"), (z, c, "Copper Coin")):
        if want > have:
            return f"You offered {_plural(want, word)} but hold {have}."
    if price is None:
        return f"Dhoni X takes all your coins: `buy dhoni {g}g {si}s {c}c`."
    total = 6 * x + 3 * y + z
    if total < price:
        return f"That pays {total} but {card} costs {price}."
    return "That payment is more than needed: drop a coin."


def why_illegal(s: State, action: str) -> str:
    """A sentence saying why ``action`` (any text) is not legal for the active seat now."""
    if s.step == OVER:
        return "The game is over."
    try:
        canonical = parse(action, data.GRID[s.n][1])
    except BadNotation as err:
        return err.reason
    if canonical != action and canonical in legal(s):
        return f"{_quote(action)} is not written the canonical way: send `{canonical}`."
    action = canonical
    dec = SPACE[s.n].get(action)
    if dec is None:  # a cell of a larger island
        names = CELLS_BY_SIZE[len(s.island)]
        return f"There is no cell {action.split()[-1]} on this island: it runs from a1 to {names[-1]}."
    verb, arg = dec
    step = s.step
    if step == DISCARD:
        if verb == DISCARD_V:
            return _cell_problem(s, arg, "discarded") or "You cannot discard that now."
        if verb in (BUY_VEDA, BUY_DHONI):
            return "You have escaped: escaped players never buy. Discard a relic with `discard <cell>`."
        return (
            "You have escaped: instead of collecting you discard a relic from the island (`discard <cell>`)."
        )
    if verb == DISCARD_V:
        return "Only a player who has escaped discards; " + (
            "you collect with `take <cell>`." if step == COLLECT else "now buy or `pass`."
        )
    if step == COLLECT:
        if verb == TAKE:
            problem = _cell_problem(s, arg, "collected")
            if problem:
                return problem
            cost = COST_E[s.island[arg]]
            return f"{CELLS_BY_SIZE[len(s.island)][arg]} costs {cost} Vitality but you have {s.v_left} left."
        if not s.taken:
            if verb == DONE:
                return "You must take at least one card before `done`."
            return "Take at least one card first: buying (or `pass`) comes after collecting."
        if verb == PASS:
            return "You are still collecting: say `done` first, then buy or `pass`."
        return "Finish collecting first: say `done`, then buy."
    if step == BUY:
        if verb == TAKE:
            return "Collecting is over for this turn: buy a Veda or a Dhoni, or `pass`."
        if verb == DONE:
            return "You are already done collecting: buy a Veda or a Dhoni, or `pass`."
        if verb in (BUY_VEDA, BUY_DHONI):
            return _buy_problem(s, verb, arg)
    return "That is not possible now."


# ------------------------------------------------------------------ labels


def label(s: State, action: str) -> str:
    """A short button label for ``action`` (falls back to the text itself)."""
    dec = SPACE[s.n].get(action)
    if dec is None:
        return action[:80]
    verb, arg = dec
    if verb in (TAKE, DISCARD_V):
        names = CELLS_BY_SIZE[len(s.island)]
        card = s.island[arg]
        cell = names[arg]
        if card == EMPTY:
            return f"{'Take' if verb == TAKE else 'Discard'} {cell}"
        if verb == DISCARD_V:
            return f"Discard {cell} · {CARD_NAME[card]}"
        if IS_OCEAN[card]:
            return f"Take {cell} · Ocean (cannot be taken)"
        worth = CARD_CUR[card]
        return f"Take {cell} · {CARD_NAME[card]} ({COST_E[card]} V" + (f", worth {worth})" if worth else ")")
    if verb == DONE:
        return "Done collecting"
    if verb == PASS:
        return "Pass (buy nothing)"
    x, y, z = arg
    pay = pay_phrase(x, y, z, joiner=" + ")
    if verb == BUY_VEDA:
        return f"Buy Veda: {pay}"
    top = s.dhoni_pile[0] if s.dhoni_pile else DHONI_X
    name = DHONI_NAME[top]
    if top == DHONI_X and any(arg):
        return f"Buy {name}: all coins ({pay})"
    return f"Buy {name}: {pay}"
