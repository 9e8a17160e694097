"""Component data of Ra and the Ra: Traders module (docs/rules/ra.md#components). Data only: no rules here.

Tiles are named by their code (``"pharaoh"``, ``"step-pyramid"``…). ``TILE_ORDER`` fixes the
order used for sorting everywhere (legal lists, views, renderers); the rules code works with the
index of a code in that tuple. The "stand-in" group at the end (display names, labels, colours,
AI weights) can be replaced freely: no rule depends on it.
"""

from __future__ import annotations

# --------------------------------------------------------------------------- tiles

GODS = ("god",)
CIVS = ("astronomy", "agriculture", "writing", "religion", "art")
MONUMENTS = ("fortress", "obelisk", "palace", "pyramid", "temple", "statue", "step-pyramid", "sphinx")
DISASTERS = ("funeral", "drought", "unrest", "earthquake")

TILE_ORDER: tuple[str, ...] = (
    "god",
    "gold",
    "pharaoh",
    "nile",
    "flood",
    *CIVS,
    *MONUMENTS,
    "trader",
    *DISASTERS,
    "ra",
)
"""Every tile code, in the order used for sorting everywhere."""

TILE_COUNT: dict[str, int] = {
    "god": 8,
    "gold": 5,
    "pharaoh": 25,
    "nile": 25,
    "flood": 12,
    **{c: 5 for c in CIVS},
    **{m: 5 for m in MONUMENTS},
    "trader": 20,  # only in the bag when the Traders module is on
    "funeral": 2,
    "drought": 2,
    "unrest": 4,
    "earthquake": 2,
    "ra": 30,
}
"""How many tiles of each code a full game holds (trader: only with ``traders``)."""

TILE_CATEGORY: dict[str, str] = {
    "god": "god",
    "gold": "gold",
    "pharaoh": "pharaoh",
    "nile": "river",
    "flood": "river",
    **{c: "civ" for c in CIVS},
    **{m: "monument" for m in MONUMENTS},
    "trader": "trader",
    **{d: "disaster" for d in DISASTERS},
    "ra": "ra",
}
"""The category of each code: god, gold, pharaoh, river, civ, monument, trader, disaster, ra."""

DISASTER_HITS: dict[str, str] = {
    "funeral": "pharaoh",
    "drought": "river",
    "unrest": "civ",
    "earthquake": "monument",
}
"""The category each disaster tile costs the winner two tiles of."""

KEEP_AT_EPOCH_END: frozenset[str] = frozenset(("pharaoh", "nile", *MONUMENTS))
"""Held codes that stay with their owner into the next epoch; every other held tile (god, gold,
flood, civilizations, traders) leaves the game at the end of an epoch."""

TOTAL_TILES = sum(v for k, v in TILE_COUNT.items() if k != "trader")  # 180
TOTAL_TILES_TRADERS = sum(TILE_COUNT.values())  # 200

# --------------------------------------------------------------------------- suns and limits

SUN_SETS: dict[int, tuple[tuple[int, ...], ...]] = {
    2: ((2, 5, 6, 9), (3, 4, 7, 8)),  # suns 1–9
    3: ((2, 5, 8, 13), (3, 6, 9, 12), (4, 7, 10, 11)),  # suns 1–13
    4: ((2, 6, 13), (3, 7, 12), (4, 8, 11), (5, 9, 10)),  # suns 1–13
    5: ((2, 7, 16), (3, 8, 15), (4, 9, 14), (5, 10, 13), (6, 11, 12)),  # suns 1–16
}
"""The sun sets dealt at set-up, by player count (sun 1 starts in the centre)."""

MAX_SUN: dict[int, int] = {n: max(max(s) for s in sets) for n, sets in SUN_SETS.items()}
"""The highest sun number by player count (9 / 13 / 13 / 16)."""

RA_LIMIT: dict[int, int] = {2: 6, 3: 8, 4: 9, 5: 10}
"""Ra tiles on the Ra track that end an epoch, by player count."""

AUCTION_SLOTS = 8
CENTER_START = 1
START_SCORE = 10
EPOCHS = 3

# --------------------------------------------------------------------------- scoring

GOD_PTS = 2
GOLD_PTS = 3
PHARAOH_MOST = 5
PHARAOH_FEWEST = -2
CIV_BY_TYPES = (-5, 0, 0, 5, 10, 15)  # index = distinct civilization types held
MON_BY_TYPES = (0, 1, 2, 3, 4, 5, 6, 10, 15)  # index = distinct monument types (final only)
MON_BY_SAME = (0, 0, 0, 5, 10, 15)  # per monument type, index = count (final only)
SUN_MOST = 5  # final only
SUN_FEWEST = -5  # final only
TRADER_PTS = 1  # Traders sheet: 1 point per trader tile
CRATE_PTS = 1  # Traders sheet: 1 point per small cargo crate
LARGE_CRATE = 3  # a large crate is worth 3 small ones (display only)

CATEGORIES: tuple[str, ...] = (
    "Gods",
    "Gold",
    "Pharaohs",
    "Nile & floods",
    "Civilizations",
    "Traders",
    "Monuments",
    "Suns",
)
"""Score categories, in the order of the score sheet."""

FLOOR_CATEGORY = "Floor"
START_CATEGORY = "Start"

# --------------------------------------------------------------------------- stand-in group
# Display names, render labels and colours, and the AI weights. Replace freely.

TILE_NAME: dict[str, str] = {
    "god": "God",
    "gold": "Gold",
    "pharaoh": "Pharaoh",
    "nile": "Nile",
    "flood": "Flood",
    "astronomy": "Astronomy",
    "agriculture": "Agriculture",
    "writing": "Writing",
    "religion": "Religion",
    "art": "Art",
    "fortress": "Fortress",
    "obelisk": "Obelisk",
    "palace": "Palace",
    "pyramid": "Pyramid",
    "temple": "Temple",
    "statue": "Statue",
    "step-pyramid": "Step Pyramid",
    "sphinx": "Sphinx",
    "trader": "Trader",
    "funeral": "Funeral",
    "drought": "Drought",
    "unrest": "Unrest",
    "earthquake": "Earthquake",
    "ra": "Ra",
}

TILE_ABBR: dict[str, str] = {
    "god": "GOD",
    "gold": "AU",
    "pharaoh": "PH",
    "nile": "NIL",
    "flood": "FLD",
    "astronomy": "AST",
    "agriculture": "AGR",
    "writing": "WRI",
    "religion": "REL",
    "art": "ART",
    "fortress": "FOR",
    "obelisk": "OBE",
    "palace": "PAL",
    "pyramid": "PYR",
    "temple": "TEM",
    "statue": "STA",
    "step-pyramid": "STP",
    "sphinx": "SPX",
    "trader": "TRD",
    "funeral": "FUN",
    "drought": "DRO",
    "unrest": "UNR",
    "earthquake": "EQK",
    "ra": "RA",
}

CATEGORY_COLOR: dict[str, tuple[int, int, int]] = {
    # one colour per category; neighbouring groups differ in hue and lightness so that 24 px
    # chips stay distinguishable (pharaoh red vs river blue, trader teal vs Ra orange)
    "god": (124, 82, 163),
    "gold": (196, 146, 18),
    "pharaoh": (178, 62, 48),
    "river": (60, 146, 208),
    "civ": (58, 132, 70),
    "monument": (150, 104, 58),
    "trader": (0, 128, 132),
    "disaster": (52, 40, 40),
    "ra": (214, 72, 28),
}

TILE_COLOR: dict[str, tuple[int, int, int]] = {
    **{code: CATEGORY_COLOR[cat] for code, cat in TILE_CATEGORY.items()},
    "flood": (26, 84, 158),  # a deeper blue than the Nile's
}
"""An RGB colour per code (by category; nile and flood told apart)."""

AI_WEIGHTS: dict[str, float] = {
    "god": 2.0,
    "gold": 3.0,
    "pharaoh": 2.0,
    "flood": 1.0,
    "flood_per_nile": 0.5,
    "nile_with_flood": 1.0,
    "nile_without_flood": 0.5,
    "civ_new": 3.0,
    "civ_dup": 0.5,
    "monument": 1.0,
    "monument_bonus": 1.0,
    "monument_final_factor": 1.5,
    "trader": 1.0,
    "trader_own": 0.5,
    "trader_opp": 0.5,
    "disaster_per_tile": -2.0,
    "god_min": 3.0,  # use a god on a tile worth at least this
    "invoke_base": 6.0,
    "invoke_per_tile": 0.5,  # invoke if V >= base - per_tile * len(track)
    "bid_base": 1.0,
    "bid_per_sun": 0.25,
    "bid_final_extra": 1.0,
    "best_sun_base": 2.0,  # more a lot must be worth to spend the seat's best sun (of several)
    "best_sun_early": 4.0,  # ... plus this times the share of the epoch's Ra tiles still to come
}
"""Stand-in weights of the AI heuristic (docs/rules/ra.md#easy-ai)."""
