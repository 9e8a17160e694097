"""The types of the Phraya view (docs/rules/phraya.md#hidden-information): one ``TypedDict`` per part,
so that a renderer reading a field the view lacks is a type error. Field names are stable: only
add fields."""

from __future__ import annotations

from typing import TypedDict


class IslandView(TypedDict):
    id: str  # "i12": row 1, column 2
    row: int
    col: int
    x: float  # centre, in island units (the board is 4×4; x east, y south)
    y: float
    stalls: list[str]  # stall ids on its sides


class CrossingView(TypedDict):
    id: str  # "x11"
    row: int
    col: int
    x: float
    y: float
    sections: list[str]  # the 4 sections touching it


class SectionView(TypedDict):
    id: str  # "h12" / "v03"
    orient: str  # "h" (runs east-west) or "v" (runs north-south)
    ends: list[str | None]  # crossing ids; None = dead end to the outside
    interior: bool
    banks: list[str]  # the two stall ids (north/west first)
    x: float
    y: float


class OrderView(TypedDict):
    id: str
    type: int
    goods: list[str]
    coins: int
    vp: int


class BasketView(TypedDict):
    price: int
    goods: list[str] | None  # None while hidden (a basket lying on a stall)


class StallView(TypedDict):
    id: str  # section + bank, "h22s"
    section: str
    bank: str  # n/s/w/e
    island: str
    side: str  # the island side it sits on: N/E/S/W
    x: float
    y: float
    kind: str  # "goods" | "restaurant" | "temple" | "basket" | "scribe" | "admin"
    good: str | None
    ownable: bool
    owner: int | None
    order: OrderView | None  # restaurants
    basket: BasketView | None  # basket stalls


class BoardView(TypedDict):
    size: int  # 4 islands a side
    islands: list[IslandView]
    crossings: list[CrossingView]
    sections: list[SectionView]
    stalls: list[StallView]
    layout: list[list[str]]  # [position, tile, side]


class CardView(TypedDict):
    id: str
    name: str
    coins: int  # scribe cost in coins (0 for basic cards)
    flowers: int  # scribe cost in flowers
    immediate: list[str]  # effect codes (docs/rules/phraya.md#cards)
    passive: list[str]
    endgame: list[str]
    text: str  # the effects in words


class PriceView(TypedDict):
    index: int
    price: int
    row: list[int]


class KingSpaceView(TypedDict):
    space: str  # "c3"
    row: str  # "c" | "f" | "g"
    cost: str  # in words: "8 coins", "3 flowers", "fish + meat"
    seat: int | None


class TempleView(TypedDict):
    rows: dict[str, list[int]]  # good -> seats, left to right (no gaps)
    row_order: list[str]
    columns: int
    flower_cost: list[int]
    sections: list[list[int]]
    section_vp: list[int]
    section_penalty: list[int]
    offering_vp: dict[str, int]


class PlayerView(TypedDict):
    seat: int
    color: str
    coins: int
    flowers: int
    favors: int
    goods: dict[str, int]
    capacity: dict[str, int]
    baskets: list[list[str]]  # each basket's two goods
    basket_spaces: int  # extra basket spaces free (of 4)
    rowers: int
    stalls_left: int
    disks_left: int
    stalls_owned: list[str]
    hand: list[CardView] | None  # None when hidden from this viewer
    hand_count: int
    discard: list[str]
    market_cards: list[str]  # owned market cards (hand + discard) when hand is visible
    orders: list[OrderView]
    orders_vp: int
    boat: str | None


class TurnView(TypedDict):
    card: str | None
    pending: str | None  # the effect being resolved
    effects_left: list[str]
    passives: list[str]
    used: list[str]  # stall ids (and "barge") already used this turn
    blocked: bool


class MeView(TypedDict):
    seat: int
    legal: list[str]
    prompt: str
    hand: list[CardView]
    playable: list[str]
    capacity: dict[str, int]
    free: dict[str, int]
    passives: list[str]
    preview: dict[str, int]  # the score sheet if the game ended now


class PhrayaView(TypedDict):
    game: str
    viewer: int | None
    n_players: int
    to_move: list[int]
    over: bool
    headline: str
    options: dict[str, object]
    step: str
    current: int
    first: int
    round: int
    round_limit: int
    board: BoardView
    boats: list[str | None]  # section per seat
    barge: str
    reachable: list[str]  # MOVE / PREMOVE: destination sections; [] otherwise
    barge_targets: list[str]  # BARGE: destination crossings; [] otherwise
    last_move: list[str]  # [from, to] of the last boat move (empty before any)
    prices: dict[str, PriceView]
    merchant: int
    merchant_route: list[list[str]]
    merchant_start: int
    king: list[KingSpaceView]
    temple: TempleView
    display: list[CardView | None]
    deck: int
    bag: int
    stacks: list[int]  # order tiles left per type 1..4
    removed: int
    supply: dict[str, int]  # veg fruit fish meat flowers favors rowers
    players: list[PlayerView]
    turn: TurnView
    conditions: dict[str, bool]  # tithe, buddha, supremacy
    end_reason: str
    final_sale: list[int]
    categories: list[str]
    scores: list[dict[str, int]] | None  # final breakdown per seat, once over
    totals: list[int] | None
    ranks: list[int] | None
    me: MeView | None
