"""What one viewer may see of a Pralaya state (spec §6), and the secrets the view must not hold."""

from __future__ import annotations

from typing import Any

from engines.base import Outcome
from engines.pralaya import data
from engines.pralaya.scoring import category_points, fossil_leader
from engines.pralaya.state import (
    CARD_CODE,
    CARD_CUR,
    CARD_NAME,
    CELLS_BY_SIZE,
    COLLECT,
    COST_E,
    DHONI_IDS,
    DHONI_PRICE,
    DISCARD,
    EMPTY,
    IS_OCEAN,
    NEVER,
    OVER,
    STEP_NAMES,
    State,
    coins,
    hand_counts,
    legal,
    veda_left,
)


def _price(d: int) -> int | str:
    p = DHONI_PRICE[d]
    return "X" if p is None else p


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


def _island(s: State) -> list[dict[str, Any]]:
    names = CELLS_BY_SIZE[len(s.island)]
    out = []
    for i, card in enumerate(s.island):
        cell: dict[str, Any] = {
            "cell": names[i],
            "card": None,
            "code": None,
            "name": None,
            "cost": None,
            "currency": 0,
            "taken": bool(s.taken >> i & 1),
            "new": bool(s.new >> i & 1),
        }
        if card != EMPTY:
            cell.update(
                card=data.CARD_IDS[card],
                code=CARD_CODE[card],
                name=CARD_NAME[card],
                cost=None if COST_E[card] == NEVER else COST_E[card],
                currency=CARD_CUR[card],
            )
        out.append(cell)
    return out


def hands_public(s: State) -> bool:
    """True when every hand is visible to everyone (``open_hands`` or game over)."""
    return s.open_hands or s.step == OVER


def provisional(s: State, seat: int) -> dict[str, Any]:
    """The seat's score "if escaped now"; the Fossil majority only when all hands are known."""
    counts = hand_counts(s.hands[seat])
    known = hands_public(s)
    wins_fossils = False
    if known:
        fossils = [sum(1 for i in h if CARD_CODE[i] == "fos") for h in s.hands]
        compared = range(s.n) if s.fossil_all else [t for t in range(s.n) if t == seat or s.dhoni[t] >= 0]
        wins_fossils = fossil_leader(fossils, compared) == seat
    b = category_points(counts, bool(s.veda[seat]), True, fossil_majority=wins_fossils)
    return {
        "categories": list(data.CATEGORIES),
        "breakdown": b,
        "total": sum(b.values()),
        "fossil_known": known,
    }


def make_view(s: State, viewer: int | None, outcome: Outcome | None) -> dict[str, Any]:
    """The view dict; see :meth:`engines.pralaya.rules.PralayaEngine.view` for the schema."""
    over = s.step == OVER
    rows, cols = data.GRID[s.n]
    public = hands_public(s)
    players = []
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
    me = None
    if viewer is not None:
        hand = s.hands[viewer]
        g, si, c = coins(hand)
        me = {
            "seat": viewer,
            "hand": hand_counts(hand),
            "hand_ids": [data.CARD_IDS[i] for i in hand],
            "currency": 6 * g + 3 * si + c,
            "provisional": provisional(s, viewer),
            "legal": legal(s) if (viewer == s.active and not over) else [],
        }
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
        "outcome": outcome.as_dict() if outcome is not None else None,
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
