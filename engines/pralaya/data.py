"""Pralaya component data (docs/rules/pralaya.md#components): relics, Veda and Dhoni cards, the island
grid, vitality; the stand-in values (docs/rules/pralaya.md#stand-ins).

Data only, no rules. The renderer may import this module for names, costs, currencies and the
score-sheet categories.

Card ids: a relic id is its code plus a copy number 1..qty (``gol3``, ``oce22``); "data order" is
the order of :data:`RELICS`, then copy number. Veda ids are ``ve1``..``ve5``; Dhoni ids are
``dhx``, ``dh2``, ``dh4``, ``dh7``, ``dh10``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict


@dataclass(frozen=True)
class Relic:
    """One relic type: ``cost`` in Vitality (None: cannot be taken), ``currency`` (0 if not a coin)."""

    code: str
    name: str
    qty: int
    cost: int | None
    currency: int
    scoring: str


RELICS: tuple[Relic, ...] = (
    Relic("cop", "Copper Coin", 4, 1, 1, "1 each"),
    Relic("sil", "Silver Coin", 6, 2, 3, "3 each"),
    Relic("gol", "Gold Coin", 5, 3, 6, "6 each"),
    Relic("dem", "Demon Statue", 8, 1, 0, "2 each × (−3) per Pact; 0 with the Brahmin"),
    Relic("man", "Ancient Manuscript", 8, 1, 0, "5 per pair"),
    Relic("urn", "Shattered Urn", 9, 2, 0, "20 per full set of 3"),
    Relic("gre", "Great Statue", 8, 1, 0, "n²"),
    Relic("pac", "Demonic Pact", 4, 2, 0, "Demon Statues × (−3) each"),
    Relic("pun", "Pundit", 3, 2, 0, "each: number of card types held"),
    Relic("bra", "Brahmin", 1, 3, 0, "Demon Statues score 0; 15 with a Veda"),
    Relic("fos", "Fossil", 7, 1, 0, "15 to the sole leader"),
    Relic("oce", "Ocean", 22, None, 0, "cannot be taken"),
)

RELIC_BY_CODE: dict[str, Relic] = {r.code: r for r in RELICS}
CODES: tuple[str, ...] = tuple(r.code for r in RELICS)
OCEAN = "oce"
COIN_CODES: tuple[str, ...] = ("gol", "sil", "cop")  # payment token order: gold, silver, copper
COIN_VALUE: dict[str, int] = {"cop": 1, "sil": 3, "gol": 6}
SCORING_TYPES: tuple[str, ...] = CODES[:-1]  # the 11 relic types a hand can hold

CARD_IDS: tuple[str, ...] = tuple(f"{r.code}{k}" for r in RELICS for k in range(1, r.qty + 1))
"""All 85 relic ids in data order."""
N_RELIC_CARDS = len(CARD_IDS)  # 85
N_NON_OCEAN = N_RELIC_CARDS - RELIC_BY_CODE[OCEAN].qty  # 63

# ------------------------------------------------------------------ purchasable cards (not relics)

VEDA_NAME = "Veda"
VEDA_IDS: tuple[str, ...] = tuple(f"ve{k}" for k in range(1, 6))


@dataclass(frozen=True)
class Dhoni:
    """One Dhoni card: ``price`` None means X (all coins held); ``players`` = player counts using it."""

    id: str
    name: str
    price: int | None
    players: tuple[int, ...]


DHONI: tuple[Dhoni, ...] = (
    Dhoni("dhx", "Dhoni X", None, (2, 3, 4, 5)),
    Dhoni("dh2", "Dhoni 2", 2, (4, 5)),
    Dhoni("dh4", "Dhoni 4", 4, (3, 4, 5)),
    Dhoni("dh7", "Dhoni 7", 7, (2, 3, 4, 5)),
    Dhoni("dh10", "Dhoni 10", 10, (5,)),
)
DHONI_BY_ID: dict[str, Dhoni] = {d.id: d for d in DHONI}

DHONI_PILES: dict[int, tuple[str, ...]] = {
    n: tuple(d.id for d in DHONI if n in d.players) for n in (2, 3, 4, 5)
}
"""Dhoni pile per player count, top first: X, then ascending price."""

# ------------------------------------------------------------------ board and vitality

GRID: dict[int, tuple[int, int]] = {2: (3, 5), 3: (3, 5), 4: (3, 6), 5: (3, 6)}
"""(rows, columns) of the island per player count."""
ROW_LETTERS = "abc"

BASE_VITALITY = 3
VEDA_VITALITY = 4
ROUND1_VITALITY: tuple[int, int] = (1, 2)  # first and second seat of round 1

# ------------------------------------------------------------------ score sheet

CATEGORIES: tuple[str, ...] = (
    "Coins",
    "Demon Statues",
    "Manuscripts",
    "Urns",
    "Great Statues",
    "Pundits",
    "Brahmin",
    "Fossils",
)
FOSSIL_MAJORITY = 15
BRAHMIN_BONUS = 15

# ---------------------------------------------------- STAND-INS (docs/rules/pralaya.md#stand-ins)


class StandIns(TypedDict):
    VEDA_PRICE: int
    DHONI_BACK: dict[str, str]


STAND_IN: StandIns = {
    # The printed Veda price is unknown; Silver + Copper pays 4 exactly (between Dhoni 2 and 7).
    "VEDA_PRICE": 4,
    # Dhoni back captions, for the renderer only. dh4's caption is quoted by the rulebook
    # ("3 OR MORE PLAYERS"); those of dh2 and dh10 follow the same wording by analogy.
    "DHONI_BACK": {"dh4": "3 OR MORE PLAYERS", "dh2": "4 OR MORE PLAYERS", "dh10": "5 PLAYERS"},
}
VEDA_PRICE: int = STAND_IN["VEDA_PRICE"]
DHONI_BACK: dict[str, str] = STAND_IN["DHONI_BACK"]
