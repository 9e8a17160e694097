"""The Kathai view: what one viewer (a seat, or None for spectators) may see
(docs/rules/kathai.md#hidden-information).

Public: the market, the lock pair and who placed it (not its card), pile size, every sold card
(including the one kept as a profit card: docs/rules/kathai.md#sold-cards-public), the
``discard_down`` count, hand sizes, profit counts, scores, the sale log, final-turn counters,
the step and offers used. Private to the viewer: its own hand (ids and contents), per-goods
totals and what selling each goods now would score, its own lock card, and the cards of an open
offer it is a party to (the offerer and its addressees; skipped seats and spectators see only
the count, the goods and k).

The schema is :class:`KathaiView` (agreed with ``render/kathai``; fields are only ever added).
"""

from __future__ import annotations

from typing import Literal, TypedDict

from engines.kathai import legal as lg
from engines.kathai.data import ANY, CARD_TEXT, GOODS, ITEMS, NCARDS, PRICES, SELLABLE, SHOWS, WANTS, describe
from engines.kathai.describe import headline, offer_words, skip_reason
from engines.kathai.notation import seat_text
from engines.kathai.scoring import SheetRow, outcome, sheet
from engines.kathai.state import REPLY, Sale, State, refused

StepName = Literal["main", "reply", "trading", "over"]
_STEPS: tuple[StepName, ...] = ("main", "reply", "trading", "over")


class PriceSlot(TypedDict):
    pos: int  # 1..5, left to right
    goods: str  # goods code under this price card
    bonus: int | None  # None at pos 5 (unsellable)
    min: int | None  # minimum items of the goods; None at pos 5
    sellable: bool


class LockView(TypedDict):
    pair: list[str]  # the two goods, left one first (position order now)
    positions: list[int]  # their positions (p, p + 1), 1-based
    by: int  # seat that placed the bribe card (ring colour)
    card: str | None  # the face-down card id: only for the seat that placed it


class CardView(TypedDict):
    id: str  # "t40"
    items: dict[str, int]  # goods -> items shown (1..3 in all)
    text: str  # "2 salt + 1 gold"


class SaleView(TypedDict):
    seat: int
    turn: int
    goods: str
    pos: int  # 1..4
    cards: list[str]  # every card sold, sorted by id (the kept one included)
    kept: str  # the card kept as the profit card (lowest id)
    items: int  # items of the goods on the cards
    count: int  # cards sold
    bonus: int
    points: int  # count + bonus


class PlayerView(TypedDict):
    seat: int
    hand_size: int
    profit: int  # profit card count (ids never shown)
    score: int
    sales: int  # number of sales made
    final_left: int | None  # final turns left (None before the end is triggered)
    active: bool
    awaited: bool


class OfferView(TypedDict):
    by: int  # the offering (active) seat
    to: str  # "all" or "s<seat>"
    addressees: list[int]  # seats that must answer
    skipped: list[int]  # opponents of an `all` offer who were not eligible
    skip_reasons: list[str]  # why, per skipped seat ("7 cards in hand, 8 after the trade, …")
    awaiting: list[int]  # addressees still to answer
    declined: list[int]
    give_count: int
    give: list[CardView] | None  # the offered cards: only for the offerer and addressees
    want: str  # goods code or "any"
    k: int
    text: str  # "{s0} → all: 2 cards for 1 salt"


class RefusedAsk(TypedDict):
    seat: int  # the addressee that declined this ask this turn (and has not traded since)
    give: list[str]  # the offered card ids
    want: str  # goods code or "any"
    k: int


class SellNow(TypedDict):
    goods: str
    pos: int  # 1..5
    min: int | None
    items: int  # items of the goods in the hand
    cards: int  # hand cards showing the goods
    can_sell: bool  # selling every matching card now is legal
    points: int  # what selling every matching card scores now (0 if not legal)


class MeView(TypedDict):
    seat: int
    hand: list[CardView]  # sorted by id
    totals: dict[str, int]  # goods -> items in hand (every goods, 0 included)
    sell_now: list[SellNow]  # one per goods, in market order
    profit: int
    received: list[str]  # cards that arrived in the last draw/trade/swap (outline)
    lock_card: str | None  # own bribe card if the lock is this seat's
    offer_for_me: bool  # an open offer awaits this seat's answer
    eligible: list[str]  # own cards that may be given in reply (reply step)
    legal_count: int  # size of the legal list (offers make it long)


class OptionsView(TypedDict):
    first_player: str  # "random" | "seat0"
    free_asking: bool
    allow_gifts: bool
    bribe_lock: str  # "pair" | "goods"
    max_offers: int
    turn_limit: int


class OutcomeView(TypedDict):
    """``Outcome.as_dict()`` plus how the game ended."""

    ranks: list[int]
    scores: list[int | None]  # as Outcome (Kathai's are never None)
    categories: list[str]
    breakdown: list[dict[str, int] | None]
    winners: list[int]
    notes: list[str]
    reason: str  # "pile" | "turn_limit"


class KathaiView(TypedDict):
    # base.VIEW_KEYS
    game: str
    viewer: int | None
    n_players: int
    to_move: list[int]
    over: bool
    headline: str
    # the rest
    options: OptionsView
    step: StepName
    active: int
    turn_no: int
    turn_limit: int
    market: list[PriceSlot]  # pos 1..5
    lock: LockView | None
    pile: int
    pile_low: bool  # pile <= n (drawn red)
    discard_up: list[str]  # sold cards in order of sale (the kept ones excluded)
    discard_down: int  # face-down cards out of play
    last_sale: SaleView | None
    sales: list[SaleView]  # every sale in order (final sheet)
    players: list[PlayerView]
    final: list[int] | None  # final turns left per seat, once triggered
    offers_used: int
    max_offers: int
    traded: bool
    offer: OfferView | None
    refused: list[RefusedAsk]  # the viewer's own asks declined this turn (only the active seat's)
    last: str  # the last public event line ({sN} tokens)
    me: MeView | None
    outcome: OutcomeView | None
    sheet: list[SheetRow] | None  # per seat score sheet rows once over (scoring.sheet)


# --------------------------------------------------------------------------- building a view


def _options(s: State) -> OptionsView:
    o = s.opts
    return {
        "first_player": o.first_player,
        "free_asking": o.free_asking,
        "allow_gifts": o.allow_gifts,
        "bribe_lock": o.bribe_lock,
        "max_offers": o.max_offers,
        "turn_limit": o.turn_limit,
    }


def _card(c: int) -> CardView:
    return {"id": CARD_TEXT[c], "items": {GOODS[g]: ITEMS[c][g] for g in SHOWS[c]}, "text": describe(c)}


def _sale(x: Sale) -> SaleView:
    return {
        "seat": x.seat,
        "turn": x.turn,
        "goods": GOODS[x.goods],
        "pos": x.pos + 1,
        "cards": [CARD_TEXT[c] for c in x.cards],
        "kept": CARD_TEXT[x.cards[0]],
        "items": x.items,
        "count": len(x.cards),
        "bonus": x.bonus,
        "points": x.points,
    }


def _market(s: State) -> list[PriceSlot]:
    return [
        {
            "pos": i + 1,
            "goods": GOODS[g],
            "bonus": PRICES[i][0] if i < SELLABLE else None,
            "min": PRICES[i][1] if i < SELLABLE else None,
            "sellable": i < SELLABLE,
        }
        for i, g in enumerate(s.market)
    ]


def _lock(s: State, viewer: int | None) -> LockView | None:
    if s.lock is None:
        return None
    pa, pb = sorted(s.market.index(g) for g in s.lock.pair)
    return {
        "pair": [GOODS[s.market[pa]], GOODS[s.market[pb]]],
        "positions": [pa + 1, pb + 1],
        "by": s.lock.by,
        "card": CARD_TEXT[s.lock.card] if viewer == s.lock.by else None,
    }


def _offer(s: State, viewer: int | None) -> OfferView | None:
    """The open offer; its cards only for its parties (docs/rules/kathai.md#skipped-seats)."""
    o = s.offer
    if o is None:
        return None
    party = viewer is not None and (viewer == o.by or viewer in o.addressees)
    return {
        "by": o.by,
        "to": seat_text(o.target),
        "addressees": list(o.addressees),
        "skipped": list(o.skipped),
        "skip_reasons": [skip_reason(len(s.hands[x]), len(o.give), o.k) for x in o.skipped],
        "awaiting": [x for x in o.addressees if x not in o.declined],
        "declined": list(o.declined),
        "give_count": len(o.give),
        "give": [_card(c) for c in o.give] if party else None,
        "want": WANTS[o.want],
        "k": o.k,
        "text": offer_words(o),
    }


def _players(s: State, awaited: list[int]) -> list[PlayerView]:
    return [
        {
            "seat": q,
            "hand_size": len(s.hands[q]),
            "profit": len(s.profit[q]),
            "score": s.scores[q],
            "sales": sum(1 for x in s.sales if x.seat == q),
            "final_left": s.final[q] if s.final is not None else None,
            "active": q == s.active,
            "awaited": q in awaited,
        }
        for q in range(s.n)
    ]


def _sell_now(s: State, hand: tuple[int, ...], totals: dict[str, int]) -> list[SellNow]:
    """Per position: what selling every card of its goods in ``hand`` would score now."""
    out: list[SellNow] = []
    for pos, g in enumerate(s.market):
        cards = [c for c in hand if ITEMS[c][g]]
        need = PRICES[pos][1] if pos < SELLABLE else None
        ok = need is not None and bool(cards) and totals[GOODS[g]] >= need
        out.append(
            {
                "goods": GOODS[g],
                "pos": pos + 1,
                "min": need,
                "items": totals[GOODS[g]],
                "cards": len(cards),
                "can_sell": ok,
                "points": len(cards) + PRICES[pos][0] if ok else 0,
            }
        )
    return out


def _me(s: State, viewer: int, awaited: list[int], lock: LockView | None) -> MeView:
    """What only ``viewer`` sees: its hand and what it can do with it."""
    hand = s.hands[viewer]
    totals = {GOODS[g]: sum(ITEMS[c][g] for c in hand) for g in range(len(GOODS))}
    o = s.offer
    for_me = s.step == REPLY and viewer in awaited
    elig = [CARD_TEXT[c] for c in hand if for_me and o is not None and (o.want == ANY or ITEMS[c][o.want])]
    return {
        "seat": viewer,
        "hand": [_card(c) for c in hand],
        "totals": totals,
        "sell_now": _sell_now(s, hand, totals),
        "profit": len(s.profit[viewer]),
        "received": [CARD_TEXT[c] for c in s.fresh[viewer] if c in hand],
        "lock_card": lock["card"] if lock is not None else None,
        "offer_for_me": for_me,
        "eligible": elig,
        "legal_count": len(lg.legal(s, viewer)),
    }


def _outcome(s: State) -> OutcomeView | None:
    out = outcome(s)
    if out is None:
        return None
    breakdown: list[dict[str, int] | None] = [dict(b) if b is not None else None for b in out.breakdown]
    return {
        "ranks": list(out.ranks),
        "scores": list(out.scores),
        "categories": list(out.categories),
        "breakdown": breakdown,
        "winners": list(out.winners),
        "notes": list(out.notes),
        "reason": s.reason,
    }


def _refused(s: State, viewer: int | None) -> list[RefusedAsk]:
    """The active seat's asks refused this turn that it can still make (its own cards)."""
    return [
        {"seat": x, "give": [CARD_TEXT[c] for c in give], "want": WANTS[want], "k": k}
        for x, give, want, k in (refused(s) if viewer == s.active else ())
        if set(give) <= set(s.hands[s.active])
    ]


def build(state: State, viewer: int | None) -> KathaiView:
    """The view of ``state`` for ``viewer`` (schema :class:`KathaiView`)."""
    s = state
    awaited = list(lg.awaited(s))
    lock = _lock(s, viewer)
    sales = [_sale(x) for x in s.sales]
    out = _outcome(s)
    return {
        "game": "kathai",
        "viewer": viewer,
        "n_players": s.n,
        "to_move": awaited,
        "over": out is not None,
        "headline": headline(s),
        "options": _options(s),
        "step": _STEPS[s.step],
        "active": s.active,
        "turn_no": s.turn_no,
        "turn_limit": s.opts.turn_limit,
        "market": _market(s),
        "lock": lock,
        "pile": len(s.pile),
        "pile_low": len(s.pile) <= s.n,
        "discard_up": [CARD_TEXT[c] for c in s.discard_up],
        "discard_down": len(s.discard_down),
        "last_sale": sales[-1] if sales else None,
        "sales": sales,
        "players": _players(s, awaited),
        "final": list(s.final) if s.final is not None else None,
        "offers_used": s.offers_used,
        "max_offers": s.opts.max_offers,
        "traded": s.traded,
        "offer": _offer(s, viewer),
        "refused": _refused(s, viewer),
        "last": s.last,
        "me": _me(s, viewer, awaited, lock) if viewer is not None else None,
        "outcome": out,
        "sheet": sheet(s) if out is not None else None,
    }


def secrets(s: State, viewer: int | None) -> list[str]:
    """Quoted ids (``"t5"``, as they appear in JSON) the viewer may not see: other hands,
    the pile, face-down cards — all but its hand, sold cards, its own lock card and the
    cards of an open offer it is a party to."""
    seen: set[int] = {c for x in s.sales for c in x.cards}
    if viewer is not None:
        seen.update(s.hands[viewer])
        o = s.offer
        if o is not None and (viewer == o.by or viewer in o.addressees):
            seen.update(o.give)
        if s.lock is not None and s.lock.by == viewer:
            seen.add(s.lock.card)
    return [f'"{CARD_TEXT[c]}"' for c in range(1, NCARDS + 1) if c not in seen]
