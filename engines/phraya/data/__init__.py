"""Phraya component data and constants (docs/rules/phraya.md#components): tables only, no rules.

The rulebook's own numbers come first; then the stand-in values this project chose because the box
prints no board, charts or card list (docs/rules/phraya.md#stand-in-values); then the card, order
and basket tables derived from them for fast lookups.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Final

GOODS: Final = ("veg", "fruit", "fish", "meat")


GOODS_SUPPLY: Final = 9


FLOWERS: Final = 28


FAVORS: Final = 16


ROWER_TILES: Final = 8  # coins are unlimited


STALLS_PER_PLAYER: Final = {2: 7, 3: 6, 4: 5}


DISKS_PER_PLAYER: Final = 15


START_COINS: Final = 8  # +1 per seat after the first player


ROWERS_START: Final = 2


ROWER_BENCHES_EXTRA: Final = 2


BASKETS_PRINTED: Final = 2


BASKET_SPACES_EXTRA: Final = 4


ADMIN_PRICE: Final = 10


ADMIN_PRICE_DISCOUNT: Final = 5


RETRIEVE_COIN_PER_CARD: Final = 1


TEMPLE_OFFERING_VP: Final = {"meat": 5, "fish": 4, "fruit": 3, "veg": 2}


TEMPLE_SECTION_VP: Final = (10, 7, 4)


TEMPLE_SECTION_PENALTY: Final = (-7, -4, -2)


KING_MAJORITY: Final = (12, 6)


KING_SET_VP: Final = 8


STALL_MAJORITY: Final = {"veg": (14, 7), "fruit": (12, 6), "fish": (10, 5), "meat": (8, 4)}


PRICE_START_INDEX: Final = 2  # the third (shadowed) box


PLAYER_COLORS: Final = ("purple", "orange", "white", "black")  # by seat


SERVICES: Final = ("restaurant", "temple", "basket", "scribe", "admin")


TILE_SLOTS: Final[dict[str, str | int]] = {
    "C.S": "temple",
    "L.N": 0,
    "C.E": 1,
    "T.W": "basket",
    "T.S": 2,
    "I.N": "restaurant",
    "L.E": "scribe",
    "I.W": 3,
    "T.E": 4,
    "L.S": "admin",
    "I.E": 5,
    "I.S": 6,
}
"""Slot ``island.side`` of a board part in NW orientation -> service or index into TILE_GOODS."""


PUBLIC_SLOT: Final = "T.E"  # the goods stall of this slot is public (never ownable)


TILE_GOODS: Final = {
    "A": ("veg", "fruit", "fish", "fruit", "veg", "fish", "meat"),
    "B": ("fruit", "fish", "meat", "fish", "fruit", "meat", "veg"),
    "C": ("fish", "meat", "veg", "meat", "fish", "veg", "fruit"),
    "D": ("meat", "veg", "fruit", "veg", "meat", "fruit", "fish"),
}


SIDE_B_SWAPS: Final = (("C.S", "C.E"), ("L.N", "T.W"), ("T.S", "L.E"), ("I.N", "I.W"), ("I.E", "I.S"))


TILE_ISLANDS: Final = {"C": (0, 0), "T": (0, 1), "L": (1, 0), "I": (1, 1)}


POSITIONS: Final = {"NW": 0, "NE": 1, "SE": 2, "SW": 3}  # clockwise quarter turns


POSITION_ORDER: Final = ("NW", "NE", "SE", "SW")


DEFAULT_LAYOUT: Final = {"NW": ("A", "a"), "NE": ("B", "b"), "SE": ("C", "a"), "SW": ("D", "b")}


BARGE_START: Final = "x11"


PRICE_ROWS: Final = {
    "veg": (1, 2, 3, 4, 5, 6, 7),
    "fruit": (2, 3, 4, 5, 6, 7, 8),
    "fish": (3, 4, 5, 6, 7, 8, 9),
    "meat": (4, 5, 6, 7, 8, 9, 10),
}


MERCHANT_ROUTE: Final = (
    ("veg", "fruit"),
    ("fish", "meat"),
    ("veg", "fish"),
    ("fruit", "meat"),
    ("veg", "meat"),
    ("fruit", "fish"),
    ("fish", "meat"),
    ("veg", "fruit"),
    ("fruit", "meat"),
    ("veg", "fish"),
    ("fruit", "fish"),
    ("veg", "meat"),
)
"""A closed loop; ``+`` is the next index ("right")."""


MERCHANT_START: Final = 0  # the asterisk space


# Effect codes (docs/rules/phraya.md#cards). Immediate: "mer a-b m1/m2", "barge a-b B", "coins n",
# "flower 1", "boat2", "g2f", "f2c", "retrieve". Passive: "cheap:G", "ignore:G", "temple-2",
# "stall5". Endgame: "as:G", "2/order", "2/king", "2/temple", "3/G-stall", "2/stall", "1/flower",
# "4/favor", "1/5coins".
BASIC_CARDS: Final = (
    ("b1", "Return to Pier", 0, 0, ("retrieve",), (), ()),
    ("b2", "Haggle", 0, 0, ("mer 1-1 +1/-1",), (), ()),
    ("b3", "Rumour", 0, 0, ("mer 2-2 +2/-1",), (), ()),
    ("b4", "Procession", 0, 0, ("barge 1-1 1fl",), (), ()),
    ("b5", "Grand Procession", 0, 0, ("barge 1-2 1fl",), (), ()),
)


MARKET_CARDS: Final = (
    # id, name, coins, flowers, immediate, passive, endgame
    ("m01", "Spice Broker", 7, 3, ("mer 1-2 +2/-2", "coins 2"), (), ("2/king",)),
    ("m02", "Vegetable Guild", 6, 2, ("mer 1-1 +3/-1",), (), ("as:veg",)),
    ("m03", "Fruit Guild", 6, 2, ("mer 0-2 +2/-1",), (), ("as:fruit",)),
    ("m04", "Fish Guild", 6, 2, ("mer 1-3 +1/-3",), (), ("as:fish",)),
    ("m05", "Meat Guild", 6, 2, ("mer 2-2 +2/-2",), (), ("as:meat",)),
    ("m06", "Vegetable Contract", 4, 2, ("mer 1-2 +1/-1", "flower 1"), ("cheap:veg",), ()),
    ("m07", "Fruit Contract", 4, 2, ("mer 0-1 +2",), ("cheap:fruit",), ()),
    ("m08", "Fish Contract", 5, 2, ("mer 1-2 -2",), ("cheap:fish",), ()),
    ("m09", "Meat Contract", 5, 2, ("mer 2-3 +1/-2",), ("cheap:meat",), ()),
    ("m10", "Garden Patron", 7, 3, ("barge 1-2 2c",), (), ("3/veg-stall",)),
    ("m11", "Orchard Patron", 7, 3, ("barge 1-3 1fl",), (), ("3/fruit-stall",)),
    ("m12", "Fishers' Patron", 7, 3, ("barge 2-2 2fl",), (), ("3/fish-stall",)),
    ("m13", "Butchers' Patron", 7, 3, ("barge 1-1 1fl", "coins 2"), (), ("3/meat-stall",)),
    ("m14", "Royal Decree", 8, 3, ("barge 1-2 1fl",), (), ("2/stall",)),
    ("m15", "Swift Cook", 5, 2, ("boat2", "flower 1"), ("ignore:fish",), ()),
    ("m16", "Caterer", 6, 2, ("boat2",), (), ("2/order",)),
    ("m17", "Monk's Blessing", 4, 1, ("coins 2",), ("temple-2",), ()),
    ("m18", "Devotee", 6, 2, ("flower 1",), (), ("2/temple",)),
    ("m19", "Market Clerk", 5, 2, ("coins 2",), ("stall5",), ()),
    ("m20", "Garland Maker", 5, 2, ("g2f",), (), ("1/flower",)),
    ("m21", "Flower Seller", 6, 2, ("f2c",), (), ("4/favor",)),
    ("m22", "Money Lender", 6, 2, ("coins 2",), (), ("1/5coins",)),
    ("m23", "Rich Patron", 5, 2, ("coins 5",), (), ()),
    ("m24", "Speculator", 6, 2, ("mer 1-3 +2/-2", "boat2"), (), ()),
    ("m25", "King's Favourite", 6, 2, ("barge 1-3 2c", "flower 1"), (), ()),
)


DISPLAY_SLOTS: Final = 4


BLESSINGS: Final = {"1fl": ("flowers", 1), "2fl": ("flowers", 2), "2c": ("coins", 2)}


KING_COINS: Final = (5, 6, 8, 10, 12, 15)  # coins; spaces c1..c6


KING_FLOWERS: Final = (2, 3, 3, 4, 5)  # flowers; f1..f5


KING_GOODS: Final = (
    ("veg", "veg"),
    ("veg", "fruit"),
    ("fruit", "fish"),
    ("fish", "meat"),
    ("meat", "meat"),
)  # goods; g1..g5 (16 spaces = FAVORS)


KING_CHART: Final[dict[str, tuple[object, ...]]] = {"c": KING_COINS, "f": KING_FLOWERS, "g": KING_GOODS}


KING_ROWS: Final = ("c", "f", "g")


TEMPLE_ROWS: Final = ("meat", "fish", "fruit", "veg")


TEMPLE_COLUMNS: Final = 8


TEMPLE_FLOWER_COST: Final = (0, 1, 1, 2, 2, 3, 3, 4)  # per column, all rows


TEMPLE_SECTIONS: Final = ((0, 1, 2), (3, 4, 5), (6, 7))  # the last section = the last 2 columns


RESTAURANT_TILES: Final = (  # id, type, goods, coins, VP (coins = goods at start prices + 1)
    ("r1a", 1, "veg veg", 7, 2),
    ("r1b", 1, "veg fruit", 8, 2),
    ("r1c", 1, "fruit fish", 10, 2),
    ("r1d", 1, "fish meat", 12, 2),
    ("r1e", 1, "veg meat", 10, 2),
    ("r2a", 2, "veg veg meat", 13, 3),
    ("r2b", 2, "fruit fruit fish", 14, 3),
    ("r2c", 2, "veg fish fish", 14, 3),
    ("r2d", 2, "fruit meat meat", 17, 3),
    ("r2e", 2, "veg fruit fish", 13, 3),
    ("r3a", 3, "veg veg fruit fruit", 15, 5),
    ("r3b", 3, "fruit fruit fish meat", 20, 5),
    ("r3c", 3, "veg fish fish meat", 20, 5),
    ("r3d", 3, "veg fruit meat meat", 20, 5),
    ("r3e", 3, "veg veg fish fish", 17, 5),
    ("r4a", 4, "veg fruit fish meat meat", 25, 7),
    ("r4b", 4, "veg veg fruit fish meat", 22, 7),
    ("r4c", 4, "fruit fruit fish fish meat", 25, 7),
    ("r4d", 4, "veg veg veg fruit fruit", 18, 7),
    ("r4e", 4, "veg fish fish meat meat", 26, 7),
)


BASKET_TILES: Final = (  # k01..k18 in this order: (good, good, price)
    ("veg", "fruit", 2),
    ("veg", "fruit", 3),
    ("veg", "fruit", 4),
    ("veg", "fish", 3),
    ("veg", "fish", 4),
    ("veg", "fish", 5),
    ("veg", "meat", 3),
    ("veg", "meat", 4),
    ("veg", "meat", 5),
    ("fruit", "fish", 3),
    ("fruit", "fish", 4),
    ("fruit", "fish", 5),
    ("fruit", "meat", 3),
    ("fruit", "meat", 4),
    ("fruit", "meat", 5),
    ("fish", "meat", 4),
    ("fish", "meat", 5),
    ("fish", "meat", 6),
)


BASKET_IDS: Final = tuple(f"k{i + 1:02d}" for i in range(len(BASKET_TILES)))


BOAT_PRINTED_BASKETS: Final = (("veg", "fruit"), ("fish", "meat"))


PRINTED_BASKET_IDS: Final = ("p1", "p2")


CATEGORIES: Final = (
    "coins",
    "temple_offerings",
    "temple_majority",
    "orders",
    "cards",
    "king_majority",
    "king_sets",
    "stalls",
)


GI = {g: i for i, g in enumerate(GOODS)}


TEMPLE_ROW = {g: i for i, g in enumerate(TEMPLE_ROWS)}


KING_SPACES: tuple[str, ...] = tuple(f"{r}{k + 1}" for r in KING_ROWS for k in range(len(KING_CHART[r])))


KING_INDEX = {sp: i for i, sp in enumerate(KING_SPACES)}


ORDER_IDS: tuple[str, ...] = tuple(t[0] for t in RESTAURANT_TILES)


ORDER = {t[0]: t for t in RESTAURANT_TILES}


BASKET = {k: BASKET_TILES[i] for i, k in enumerate(BASKET_IDS)}


@dataclass(frozen=True)
class Card:
    """A card's data: ``immediate``/``passive``/``endgame`` are effect codes (docs/rules/phraya.md#cards)."""

    id: str
    name: str
    coins: int
    flowers: int
    immediate: tuple[str, ...]
    passive: tuple[str, ...]
    endgame: tuple[str, ...]


CARDS: dict[str, Card] = {c[0]: Card(*c) for c in (*BASIC_CARDS, *MARKET_CARDS)}


BASIC_IDS: tuple[str, ...] = tuple(c[0] for c in BASIC_CARDS)


MARKET_IDS: tuple[str, ...] = tuple(c[0] for c in MARKET_CARDS)


@cache
def parse_range(effect: str) -> tuple[int, int]:
    """``(lo, hi)`` of a ``mer a-b …`` or ``barge a-b …`` effect text."""
    lo, hi = effect.split()[1].split("-")
    return int(lo), int(hi)


@cache
def merchant_mods(effect: str) -> tuple[int, ...]:
    """The price modifications of a ``mer`` effect, in card order (one or two ints)."""
    return tuple(int(m) for m in effect.split()[2].split("/"))
