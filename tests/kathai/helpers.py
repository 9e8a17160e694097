"""What the Kathai tests share: the engine, playing a move with the invariants checked, reading
hands and the market, and a schema-exact sample view for the renderers."""

from __future__ import annotations

import random
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

from engines import base
from engines.base import IllegalAction, play
from engines.kathai import ENGINE as E
from engines.kathai.data import CARD_TEXT, GOODS
from engines.kathai.scoring import SheetRow
from engines.kathai.state import OVER, State
from engines.kathai.view import (
    CardView,
    KathaiView,
    LockView,
    MeView,
    OfferView,
    OutcomeView,
    PlayerView,
    PriceSlot,
    SaleView,
    SellNow,
    StepName,
)


def market(s: State) -> str:
    return " ".join(GOODS[g] for g in s.market)


def hand(s: State, q: int) -> str:
    return " ".join(CARD_TEXT[c] for c in s.hands[q])


def go(s: State, seat: int, text: str) -> State:
    s2: State = play(E, s, seat, text).state
    E.invariants(s2)
    return s2


def illegal(s: State, seat: int, text: str) -> None:
    with pytest.raises(IllegalAction):
        play(E, s, seat, text)
    assert E.is_legal(s, seat, text)


PRICES = ((4, 7), (2, 5), (1, 3), (0, 1))
LONG = ["Bartholomew the Magnificent", "Ann", "Chidambaram Subramaniam", "Zoë", "Eve"]


def stand_in_cards() -> dict[str, dict[str, int]]:
    c: list[dict[str, int]] = [{g: n} for n, k in ((1, 2), (2, 2), (3, 1)) for g in GOODS for _ in range(k)]
    c += [{a: 1, b: 1} for i, a in enumerate(GOODS) for b in GOODS[i + 1 :]]
    c += [{a: 2, b: 1} for a in GOODS for b in GOODS if b != a]
    return {f"t{i}": d for i, d in enumerate(c, 1)}


CARDS = stand_in_cards()


def card_key(cid: str) -> int:
    return int(cid[1:])


def card_view(cid: str) -> CardView:
    items = CARDS[cid]
    text = " + ".join(f"{k} {g}" for g, k in sorted(items.items(), key=lambda p: (-p[1], p[0])))
    return {"id": cid, "items": dict(items), "text": text}


def sample_view(
    seed: int = 0,
    n: int = 4,
    viewer: int | None = None,
    *,
    step: StepName = "reply",
    over: bool = False,
    lock: bool = True,
    offer: bool = True,
    final: bool = False,
    sale_cards: int = 4,
    hand_size: int | None = None,
) -> KathaiView:
    """A schema-exact Kathai view with seeded random contents (not a reachable state)."""
    rng = random.Random(seed)
    ids = sorted(CARDS, key=card_key)
    rng.shuffle(ids)
    market = list(GOODS)
    rng.shuffle(market)
    hands = []
    for _ in range(n):
        k = hand_size if hand_size is not None else rng.randint(1, 7)
        hands.append(sorted((ids.pop() for _ in range(k)), key=card_key))
    active = rng.randrange(n)
    slots: list[PriceSlot] = [
        {
            "pos": p + 1,
            "goods": g,
            "bonus": PRICES[p][0] if p < 4 else None,
            "min": PRICES[p][1] if p < 4 else None,
            "sellable": p < 4,
        }
        for p, g in enumerate(market)
    ]
    sales: list[SaleView] = []
    for t in range(2 + n if over else 3):
        pos = rng.randint(1, 4)
        want = min(sale_cards if t == 2 else rng.randint(1, 4), len(ids) - 2)
        if want < 1:
            break
        cards = sorted((ids.pop() for _ in range(want)), key=card_key)
        g = rng.choice(GOODS)
        sales.append(
            {
                "seat": t % n,
                "turn": 3 * t + 1,
                "goods": g,
                "pos": pos,
                "cards": cards,
                "kept": cards[0],
                "items": sum(CARDS[c].get(g, 0) for c in cards),
                "count": len(cards),
                "bonus": PRICES[pos - 1][0],
                "points": len(cards) + PRICES[pos - 1][0],
            }
        )
    scores = [sum(x["points"] for x in sales if x["seat"] == s) for s in range(n)]
    fin = [rng.randint(0, 2) for _ in range(n)] if final or over else None
    if over:
        fin = [0] * n
    lk: LockView | None = None
    if lock:
        p = rng.randrange(4)
        by = (active + 1) % n
        lk = {
            "pair": market[p : p + 2],
            "positions": [p + 1, p + 2],
            "by": by,
            "card": "t7" if viewer == by else None,
        }
    of: OfferView | None = None
    if offer and not over:
        others = [s for s in range(n) if s != active]
        skipped = others[-1:] if n > 3 else []
        addressees = [s for s in others if s not in skipped]
        declined = addressees[:1]
        awaiting = addressees[1:]
        party = viewer is not None and (viewer == active or viewer in addressees)
        give = hands[active][:2]
        of = {
            "by": active,
            "to": "all",
            "addressees": addressees,
            "skipped": skipped,
            "skip_reasons": [],
            "awaiting": awaiting,
            "declined": declined,
            "give_count": len(give),
            "give": [card_view(c) for c in give] if party else None,
            "want": "salt",
            "k": 1,
            "text": f"{{s{active}}} → all: {len(give)} cards for 1 salt",
        }
    if over:
        step = "over"
    elif not offer and step == "reply":
        step = "main"
    to_move = [] if over else (list(of["awaiting"]) if of and step == "reply" else [active])
    players: list[PlayerView] = [
        {
            "seat": s,
            "hand_size": len(hands[s]),
            "profit": rng.randint(0, 3),
            "score": scores[s],
            "sales": sum(1 for x in sales if x["seat"] == s),
            "final_left": None if fin is None else fin[s],
            "active": s == active,
            "awaited": s in to_move,
        }
        for s in range(n)
    ]
    me: MeView | None = None
    if viewer is not None:
        hand = hands[viewer]
        totals = {g: sum(CARDS[c].get(g, 0) for c in hand) for g in GOODS}
        sell_now: list[SellNow] = []
        for slot in slots:
            g = slot["goods"]
            ncards = sum(1 for c in hand if CARDS[c].get(g))
            need, bonus = slot["min"], slot["bonus"]
            can = need is not None and ncards > 0 and totals[g] >= need
            sell_now.append(
                {
                    "goods": g,
                    "pos": slot["pos"],
                    "min": slot["min"],
                    "items": totals[g],
                    "cards": ncards,
                    "can_sell": can,
                    "points": ncards + (bonus or 0) if can else 0,
                }
            )
        me = {
            "seat": viewer,
            "hand": [card_view(c) for c in hand],
            "totals": totals,
            "sell_now": sell_now,
            "profit": players[viewer]["profit"],
            "received": hand[-1:],
            "lock_card": lk["card"] if lk else None,
            "offer_for_me": bool(of and viewer in of["awaiting"]),
            "eligible": [c for c in hand if CARDS[c].get("salt")] if of else [],
            "legal_count": 12,
        }
    outcome: OutcomeView | None = None
    sheet: list[SheetRow] | None = None
    if over:
        order = sorted(range(n), key=lambda s: (-scores[s], -players[s]["profit"]))
        ranks = [0] * n
        for s in range(n):
            ranks[s] = 1 + sum(
                1 for t in range(n) if (scores[t], players[t]["profit"]) > (scores[s], players[s]["profit"])
            )
        outcome = {
            "ranks": ranks,
            "scores": list[int | None](scores),
            "categories": ["Cards sold", "Bonus"],
            "breakdown": [  # the profit counts are the players' (the outcome has none)
                {
                    "Cards sold": sum(x["count"] for x in sales if x["seat"] == s),
                    "Bonus": sum(x["bonus"] for x in sales if x["seat"] == s),
                }
                for s in range(n)
            ],
            "winners": [s for s in range(n) if ranks[s] == 1],
            "notes": [""] * n,
            "reason": "pile",
        }
        del order
    who = "{s%d}" % active
    headline = (
        "Game over" if over else f"Turn 14 · {who} " + ("offered a trade" if step == "reply" else "to play")
    )
    return {
        "game": "kathai",
        "viewer": viewer,
        "n_players": n,
        "to_move": to_move,
        "over": over,
        "headline": headline,
        "options": {
            "first_player": "random",
            "free_asking": False,
            "allow_gifts": False,
            "bribe_lock": "pair",
            "max_offers": 6,
            "turn_limit": 200,
        },
        "step": step,
        "active": active,
        "turn_no": 14,
        "turn_limit": 200,
        "market": slots,
        "lock": lk,
        "pile": 0 if final or over else rng.randint(1, 40),
        "pile_low": bool(final or over),
        "discard_up": [c for x in sales for c in x["cards"][1:]],
        "discard_down": rng.randint(0, 6),
        "last_sale": sales[-1] if sales else None,
        "sales": sales,
        "players": players,
        "final": fin,
        "offers_used": 1 if of else 0,
        "max_offers": 6,
        "traded": False,
        "offer": of,
        "refused": [],
        "last": f"{who} offers a trade" if of else f"{who} sold salt",
        "me": me,
        "outcome": outcome,
        "sheet": sheet,
    }


def random_states(count: int = 40, seed: int = 0) -> Iterator[State]:
    """States part-way through seeded random games (3 to 5 players, with and without gifts and
    free asking)."""
    rng = random.Random(seed)
    for i in range(count):
        n = 3 + i % 3
        opts: list[dict[str, object]] = [{}, {"allow_gifts": True, "free_asking": True}]
        s = E.setup(i, n, opts[i % 2])
        for _ in range(rng.randrange(60)):
            if s.step == OVER:
                break
            q = rng.choice(E.to_move(s))
            s = E.apply(s, q, rng.choice(E.legal_actions(s, q)))[0]
        yield s


def check_text(s: str, names: list[str] | None = None) -> None:
    assert s.strip(), "empty text"
    assert "{s" not in s, "an unreplaced seat token"
    assert len(s) <= 1900, len(s)
    if names:
        assert names[0] in s


def kathai_renderer() -> ModuleType:
    from render import kathai

    return kathai


def kathai_engine() -> base.Engine:
    return base.get("kathai")


def verb_first_pick(rng: random.Random, legal: list[str]) -> str:
    """A random legal action: first a verb (uniformly), then one of its texts, so sells, bribes
    and buys happen although offers make up most of the list."""
    verbs = sorted({a.split()[0] for a in legal})
    verb = rng.choice(verbs)
    return rng.choice([a for a in legal if a.split()[0] == verb])


def playout(seed: int, n: int, opts: dict[str, Any] | None = None, stop: int | None = None) -> Iterator[Any]:
    """Every state of a seeded random playout, the start included, until the end or ``stop``
    actions."""
    engine = kathai_engine()
    rng = random.Random(1000 + seed)
    state = engine.setup(seed, n, opts or {})
    yield state
    k = 0
    while engine.outcome(state) is None and (stop is None or k < stop):
        seat = engine.to_move(state)[0]
        state, _ = engine.apply(state, seat, verb_first_pick(rng, engine.legal_actions(state, seat)))
        k += 1
        yield state
