"""The Kathai view: what one viewer (a seat, or None for spectators) may see (spec §6, §13).

Public: the market, the lock pair and who placed it (not its card), pile size, every sold card
(including the one kept as a profit card, ruling §14.6), the ``discard_down`` count, hand sizes,
profit counts, scores, the sale log, final-turn counters, the step and offers used. Private to
the viewer: its own hand (ids and contents), per-goods totals and what selling each goods now
would score, its own lock card, and the cards of an open offer it is a party to (the offerer
and its addressees; skipped seats and spectators see only the count, the goods and k).

The schema is :class:`KathaiView` (agreed with ``render/kathai``; fields are only ever added).
"""
from __future__ import annotations

from typing import Any, Literal, TypedDict


class PriceSlot(TypedDict):
    pos: int                 # 1..5, left to right
    goods: str               # goods code under this price card
    bonus: int | None        # None at pos 5 (unsellable)
    min: int | None          # minimum items of the goods; None at pos 5
    sellable: bool


class LockView(TypedDict):
    pair: list[str]          # the two goods, left one first (position order now)
    positions: list[int]     # their positions (p, p + 1), 1-based
    by: int                  # seat that placed the bribe card (ring colour)
    card: str | None         # the face-down card id: only for the seat that placed it


class CardView(TypedDict):
    id: str                  # "t40"
    items: dict[str, int]    # goods -> items shown (1..3 in all)
    text: str                # "2 salt + 1 gold"


class SaleView(TypedDict):
    seat: int
    turn: int
    goods: str
    pos: int                 # 1..4
    cards: list[str]         # every card sold, sorted by id (the kept one included)
    kept: str                # the card kept as the profit card (lowest id)
    items: int               # items of the goods on the cards
    count: int               # cards sold
    bonus: int
    points: int              # count + bonus


class PlayerView(TypedDict):
    seat: int
    hand_size: int
    profit: int              # profit card count (ids never shown)
    score: int
    sales: int               # number of sales made
    final_left: int | None   # final turns left (None before the end is triggered)
    active: bool
    awaited: bool


class OfferView(TypedDict):
    by: int                          # the offering (active) seat
    to: str                          # "all" or "s<seat>"
    addressees: list[int]            # seats that must answer
    skipped: list[int]               # opponents of an `all` offer who were not eligible
    awaiting: list[int]              # addressees still to answer
    declined: list[int]
    give_count: int
    give: list[CardView] | None      # the offered cards: only for the offerer and addressees
    want: str                        # goods code or "any"
    k: int
    text: str                        # "{s0} → all: 2 cards for 1 salt"


class SellNow(TypedDict):
    goods: str
    pos: int                 # 1..5
    min: int | None
    items: int               # items of the goods in the hand
    cards: int               # hand cards showing the goods
    can_sell: bool           # selling every matching card now is legal
    points: int              # what selling every matching card scores now (0 if not legal)


class MeView(TypedDict):
    seat: int
    hand: list[CardView]             # sorted by id
    totals: dict[str, int]           # goods -> items in hand (every goods, 0 included)
    sell_now: list[SellNow]          # one per goods, in market order
    profit: int
    received: list[str]              # cards that arrived in the last draw/trade/swap (outline)
    lock_card: str | None            # own bribe card if the lock is this seat's
    offer_for_me: bool               # an open offer awaits this seat's answer
    eligible: list[str]              # own cards that may be given in reply (reply step)
    legal_count: int                 # size of the legal list (offers make it long)


class KathaiView(TypedDict):
    # base.VIEW_KEYS
    game: str
    viewer: int | None
    n_players: int
    to_move: list[int]
    over: bool
    headline: str
    # the rest
    options: dict[str, Any]
    step: Literal["main", "reply", "trading", "over"]
    active: int
    turn_no: int
    turn_limit: int
    market: list[PriceSlot]          # pos 1..5
    lock: LockView | None
    pile: int
    pile_low: bool                   # pile <= n (drawn red)
    discard_up: list[str]            # sold cards in order of sale (the kept ones excluded)
    discard_down: int                # face-down cards out of play
    last_sale: SaleView | None
    sales: list[SaleView]            # every sale in order (final sheet)
    players: list[PlayerView]
    final: list[int] | None          # final turns left per seat, once triggered
    offers_used: int
    max_offers: int
    traded: bool
    offer: OfferView | None
    last: str                        # the last public event line ({sN} tokens)
    me: MeView | None
    outcome: dict[str, Any] | None   # Outcome.as_dict() plus "reason": "pile" | "turn_limit"
    sheet: list[dict[str, Any]] | None  # per seat score sheet rows once over (scoring.sheet)
