"""Pralaya in words for people: the rules summary, the headline of a position, payments in
words, and why an action is refused (docs/rules/pralaya.md#actions)."""

from __future__ import annotations

from engines.errors import BadNotation
from engines.outcome import Outcome
from engines.pralaya import data
from engines.pralaya.legal import legal
from engines.pralaya.notation import BUY_DHONI, BUY_VEDA, DISCARD_V, DONE, PASS, SPACE, TAKE, parse, quote
from engines.pralaya.state import (
    BUY,
    CELLS_BY_SIZE,
    COLLECT,
    COST_E,
    DHONI_NAME,
    DHONI_PRICE,
    DISCARD,
    EMPTY,
    IS_OCEAN,
    OVER,
    State,
    coins,
    veda_left,
)

SUMMARY = (
    "Pralaya (2–5 players): collect relics from a face-up island, then escape on a Dhoni "
    "before it sinks.\n"
    "Each turn spend Vitality (3, or 4 with a Veda; 1 and 2 for the first two players of round 1) "
    "taking at least one relic, one at a time (`take b4` … `done`); Oceans cannot be taken.\n"
    "Then you may buy one card with coins (gold 6, silver 3, copper 1; no change given): a Veda "
    "(more Vitality) or the top Dhoni (you escape; Dhoni X costs all your coins).\n"
    "Escaped players instead discard one relic from the island each turn.\n"
    "The game ends after a turn that started with only one relic on the island, when all have escaped, "
    "or when only Oceans are left after the refill. Only escaped players score, with what they hold:\n"
    "• Gold, Silver and Copper Coin: 6, 3 and 1, what is left after paying\n"
    "• Demon Statue: 2 each, times −3 for each Demonic Pact you hold (a Pact alone scores nothing)\n"
    "• Ancient Manuscript: 5 per pair · Shattered Urn: 20 per set of 3 · Great Statues: their "
    "number squared\n"
    "• Pundit: each scores 1 per kind of card you hold (relic kinds, Veda, Dhoni)\n"
    "• Brahmin: your Demon Statues score 0; 15 more if you hold a Veda\n"
    "• Fossil: 15 to the one escaped player with the most (a tie scores nothing)\n"
    "Ties go to the player furthest from the first player."
)
"""A few lines of rules for /rules and the terminal."""


def pay_phrase(x: int, y: int, z: int, joiner: str | None = None) -> str:
    """A payment in words: '1 gold, 1 silver and 2 copper' (or the parts joined by ``joiner``);
    'no coins' when empty."""
    parts = [f"{k} {w}" for k, w in ((x, "gold"), (y, "silver"), (z, "copper")) if k]
    if not parts:
        return "no coins"
    if joiner is not None or len(parts) == 1:
        return (joiner or "").join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def headline(s: State, outcome: Outcome | None) -> str:
    """One line: round, whose turn and what step (or the result once over); seats as ``{sN}``."""
    if s.step == OVER:
        if outcome is None or not any(sc is not None for sc in outcome.scores):
            return "Game over · nobody escaped: a draw"
        w = outcome.winners[0]
        pts = outcome.scores[w]
        assert pts is not None, "a winner has escaped, so has a score"
        return f"Game over · {{s{w}}} wins with {pts} point{'' if abs(pts) == 1 else 's'}"
    who = "{s%d}" % s.active
    last = " · last relic" if s.last else ""
    if s.step == COLLECT:
        return f"Round {s.round} · {who} collecting · {s.v_left} Vitality left{last}"
    if s.step == DISCARD:
        return f"Round {s.round} · {who} has escaped and discards a relic{last}"
    return f"Round {s.round} · {who} buying{last}"


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
        return f"{quote(action)} is not written the canonical way: send `{canonical}`."
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


def reason_for_text(s: State, text: str, reason: str | None) -> str | None:
    """``reason`` (the host's refusal of ``text``), except that text which is no Pralaya action
    at all is refused naming the island's own size ("a column 1–5" on a 3 × 5 island)."""
    if reason is not None and s.step != OVER and text.strip():
        try:
            parse(text)
        except BadNotation:
            return why_illegal(s, text)
    return reason
