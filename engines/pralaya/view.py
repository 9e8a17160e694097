"""What one viewer may see of a Pralaya state (docs/rules/pralaya.md#hidden), and the secrets the view
must not hold."""

from __future__ import annotations

from typing import Literal, TypedDict

from engines.outcome import Outcome
from engines.pralaya import data
from engines.pralaya.describe import headline
from engines.pralaya.legal import legal
from engines.pralaya.scoring import category_points, fossil_leader
from engines.pralaya.state import (
    CARD_CODE,
    CARD_CUR,
    CARD_NAME,
    CELLS_BY_SIZE,
    COST_E,
    DHONI_IDS,
    DHONI_NAME,
    DHONI_PRICE,
    EMPTY,
    IS_OCEAN,
    NEVER,
    OVER,
    STEP_NAMES,
    State,
    coins,
    hand_counts,
    veda_left,
)

# ------------------------------------------------------------------ the view's shape
# The schema is documented on :meth:`engines.pralaya.rules.PralayaEngine.view`; the renderers in
# ``render/pralaya`` take these types, so the type checker holds them to what the engine returns.


class CellView(TypedDict):
    """One island cell; every card field is None for an empty cell."""

    cell: str
    card: str | None
    code: str | None
    name: str | None
    cost: int | None  # None: an Ocean (never taken)
    currency: int
    taken: bool  # emptied this turn
    new: bool  # refilled at the end of the last turn


class PlayerView(TypedDict):
    """One seat as this viewer sees it (``hand``/``hand_ids`` None when hidden)."""

    seat: int
    hand_size: int
    hand: dict[str, int] | None
    hand_ids: list[str] | None
    veda: bool
    dhoni: str | None
    dhoni_price: int | str | None  # "X" for Dhoni X
    escaped: bool


class ProvisionalView(TypedDict):
    """The viewer's score if escaped now: after paying for the top Dhoni (the cheapest payment;
    Dhoni X takes every coin). ``dhoni``: that Dhoni's name (None once escaped, or none left);
    ``paid``: the coin value it costs; ``short``: how much the coins fall short of its price
    (0 when it can be bought now; the breakdown then keeps the coins)."""

    categories: list[str]
    breakdown: dict[str, int]
    total: int
    fossil_known: bool
    dhoni: str | None
    paid: int
    short: int


class MeView(TypedDict):
    """The viewer's own part (seat views only)."""

    seat: int
    hand: dict[str, int]
    hand_ids: list[str]
    currency: int
    provisional: ProvisionalView
    legal: list[str]


class OptionsView(TypedDict):
    open_hands: bool
    veda_price: int
    first_seat: int
    fossil_all_players: bool


class VedaView(TypedDict):
    left: int
    price: int
    stand_in: bool


class DhoniView(TypedDict):
    id: str
    price: int | str  # "X" for Dhoni X


class OutcomeView(TypedDict):
    """The result once the game is over (:meth:`engines.outcome.Outcome.as_dict`): only escaped
    seats have a score and a breakdown."""

    ranks: list[int]
    scores: list[int | None]
    categories: list[str]
    breakdown: list[dict[str, int] | None]
    winners: list[int]
    notes: list[str]


class PralayaView(TypedDict):
    """What :func:`make_view` returns (and ``PralayaEngine.view``)."""

    game: Literal["pralaya"]
    viewer: int | None
    n_players: int
    to_move: list[int]
    over: bool
    headline: str
    options: OptionsView
    round: int
    first: int
    active: int
    step: str
    vitality: int
    v_left: int
    rows: int
    cols: int
    island: list[CellView]
    deck: int
    unrevealed: int
    discard: list[str]
    veda: VedaView
    dhoni: list[DhoniView]
    players: list[PlayerView]
    me: MeView | None
    outcome: OutcomeView | None


def _price(d: int) -> int | str:
    p = DHONI_PRICE[d]
    return "X" if p is None else p


def _island(s: State) -> list[CellView]:
    names = CELLS_BY_SIZE[len(s.island)]
    out = []
    for i, card in enumerate(s.island):
        taken, new = bool(s.taken >> i & 1), bool(s.new >> i & 1)
        if card == EMPTY:
            cell: CellView = {
                "cell": names[i],
                "card": None,
                "code": None,
                "name": None,
                "cost": None,
                "currency": 0,
                "taken": taken,
                "new": new,
            }
        else:
            cell = {
                "cell": names[i],
                "card": data.CARD_IDS[card],
                "code": CARD_CODE[card],
                "name": CARD_NAME[card],
                "cost": None if COST_E[card] == NEVER else COST_E[card],
                "currency": CARD_CUR[card],
                "taken": taken,
                "new": new,
            }
        out.append(cell)
    return out


def hands_public(s: State) -> bool:
    """True when every hand is visible to everyone (``open_hands`` or game over)."""
    return s.open_hands or s.step == OVER


def escape_cost(s: State, seat: int) -> tuple[str | None, int, int]:
    """(the top Dhoni's name, the coin value escaping on it now costs, how much the coins fall
    short of its price); (None, 0, 0) for an escaped seat or an empty pile. The cost is the
    cheapest payment from the seat's coins (no change is given); Dhoni X costs all of them."""
    if s.dhoni[seat] >= 0 or not s.dhoni_pile:
        return None, 0, 0
    top = s.dhoni_pile[0]
    g, si, c = coins(s.hands[seat])
    have = 6 * g + 3 * si + c
    price = DHONI_PRICE[top]
    if price is None:
        return DHONI_NAME[top], have, 0
    if have < price:
        return DHONI_NAME[top], 0, price - have
    paid = min(
        t
        for x in range(g + 1)
        for y in range(si + 1)
        for z in range(c + 1)
        if (t := 6 * x + 3 * y + z) >= price
    )
    return DHONI_NAME[top], paid, 0


def provisional(s: State, seat: int) -> ProvisionalView:
    """The seat's score "if escaped now", after paying for the top Dhoni (see
    :func:`escape_cost`); the Fossil majority only when all hands are known
    (docs/rules/pralaya.md#provisional-score)."""
    counts = hand_counts(s.hands[seat])
    known = hands_public(s)
    wins_fossils = False
    if known:
        fossils = [sum(1 for i in h if CARD_CODE[i] == "fos") for h in s.hands]
        compared = range(s.n) if s.fossil_all else [t for t in range(s.n) if t == seat or s.dhoni[t] >= 0]
        wins_fossils = fossil_leader(fossils, compared) == seat
    b = category_points(counts, bool(s.veda[seat]), True, fossil_majority=wins_fossils)
    dhoni, paid, short = escape_cost(s, seat)
    b["Coins"] -= paid
    return {
        "categories": list(data.CATEGORIES),
        "breakdown": b,
        "total": sum(b.values()),
        "fossil_known": known,
        "dhoni": dhoni,
        "paid": paid,
        "short": short,
    }


def _outcome(outcome: Outcome) -> OutcomeView:
    return {
        "ranks": list(outcome.ranks),
        "scores": list(outcome.scores),
        "categories": list(outcome.categories),
        "breakdown": [dict(b) if b is not None else None for b in outcome.breakdown],
        "winners": list(outcome.winners),
        "notes": list(outcome.notes),
    }


def _players(s: State, viewer: int | None) -> list[PlayerView]:
    """Every seat as ``viewer`` sees it (hands only where visible to it)."""
    public = hands_public(s)
    players: list[PlayerView] = []
    for t in range(s.n):
        show = public or t == viewer
        hand = s.hands[t]
        d = s.dhoni[t]
        players.append(
            {
                "seat": t,
                "hand_size": len(hand),
                "hand": hand_counts(hand) if show else None,
                "hand_ids": [data.CARD_IDS[i] for i in hand] if show else None,
                "veda": bool(s.veda[t]),
                "dhoni": DHONI_IDS[d] if d >= 0 else None,
                "dhoni_price": _price(d) if d >= 0 else None,
                "escaped": d >= 0,
            }
        )
    return players


def _me(s: State, viewer: int) -> MeView:
    """The viewer's own part: hand, coins, the score if escaped now, its legal actions."""
    hand = s.hands[viewer]
    g, si, c = coins(hand)
    return {
        "seat": viewer,
        "hand": hand_counts(hand),
        "hand_ids": [data.CARD_IDS[i] for i in hand],
        "currency": 6 * g + 3 * si + c,
        "provisional": provisional(s, viewer),
        "legal": legal(s) if (viewer == s.active and s.step != OVER) else [],
    }


def make_view(s: State, viewer: int | None, outcome: Outcome | None) -> PralayaView:
    """What ``viewer`` (a seat, or None for a spectator) sees of ``s`` (see :class:`PralayaView`)."""
    over = s.step == OVER
    rows, cols = data.GRID[s.n]
    players = _players(s, viewer)
    me = _me(s, viewer) if viewer is not None else None
    return {
        "game": "pralaya",
        "viewer": viewer,
        "n_players": s.n,
        "to_move": [] if over else [s.active],
        "over": over,
        "headline": headline(s, outcome),
        "options": {
            "open_hands": s.open_hands,
            "veda_price": s.veda_price,
            "first_seat": s.first_seat,
            "fossil_all_players": s.fossil_all,
        },
        "round": s.round,
        "first": s.first,
        "active": s.active,
        "step": STEP_NAMES[s.step],
        "vitality": s.v_start,
        "v_left": s.v_left,
        "rows": rows,
        "cols": cols,
        "island": _island(s),
        "deck": len(s.deck),
        "unrevealed": sum(1 for i in s.deck if not IS_OCEAN[i]),  # = 63 - non-Ocean cards seen
        "discard": [data.CARD_IDS[i] for i in s.discard],
        "veda": {"left": veda_left(s), "price": s.veda_price, "stand_in": True},
        "dhoni": [{"id": DHONI_IDS[d], "price": _price(d)} for d in s.dhoni_pile],
        "players": players,
        "me": me,
        "outcome": _outcome(outcome) if outcome is not None else None,
    }


def secrets(s: State, viewer: int | None) -> list[str]:
    """Card ids (quoted as JSON strings) the view must not contain: the deck, and other seats'
    hands unless hands are public."""
    out = ['"%s"' % data.CARD_IDS[i] for i in s.deck]
    if not hands_public(s):
        for t in range(s.n):
            if t != viewer:
                out += ['"%s"' % data.CARD_IDS[i] for i in s.hands[t]]
    return out
