"""Kathai (Cathay) component data: goods, the price row, the 55 trade cards
(docs/rules/kathai.md#price-row, docs/rules/kathai.md#stand-in-values, docs/rules/kathai.md#stand-in-deck).

Cards are numbered 1..55 inside the engine (``t1``..``t55`` in texts). ``ITEMS[c][g]`` is how
many items of goods ``g`` (index into :data:`GOODS`) card ``c`` shows (``ITEMS[0]`` is unused).
"""

from __future__ import annotations

from typing import Final

GOODS: Final = ("gold", "salt", "silk", "spice", "tea")
"""Goods codes in goods order (also the alphabetical order of the codes)."""
NAMES: Final = {"gold": "Gold", "salt": "Salt", "silk": "Silk", "spice": "Spices", "tea": "Tea"}
COLOURS: Final = {
    "gold": "#E2B93B",
    "salt": "#CFD6DE",
    "silk": "#A83F7A",
    "spice": "#C4622D",
    "tea": "#4E8F3A",
}
LETTERS: Final = {"gold": "G", "salt": "A", "silk": "K", "spice": "P", "tea": "T"}
"""One letter per goods for colour-blind-safe card faces (S is shared by three goods)."""
NGOODS: Final = 5
ANY: Final = 5
"""Want index meaning ``any`` goods in an offer."""
WANTS: Final = (*GOODS, "any")

# --------------------------------------------------------------------------- rulebook values
HAND_LIMIT: Final = 7
DEAL: Final = 3
FINAL_TURNS: Final = 2
FINAL_TURNS_LAST_BUYER: Final = 1
NCARDS: Final = 55
SELLABLE: Final = 4
"""Positions 1..4 may be sold; position 5 is "unsellable"."""

# --------------------------------------------------------------------------- STANDIN block
# Values the rulebook does not print (docs/rules/kathai.md#stand-in-values), kept together.
MAX_OFFERS: Final = 6
TURN_LIMIT: Final = 200
MIN_POS3: Final = 3
MIN_POS4: Final = 1
MAX_OFFERS_CAP: Final = 12
"""The highest ``max_offers`` a table may choose."""
TURN_LIMIT_CAP: Final = 1000
"""The highest ``turn_limit`` a table may choose."""


def _build_cards() -> dict[str, dict[str, int]]:
    """The stand-in deck, in its fixed order (docs/rules/kathai.md#stand-in-deck)."""
    c: list[dict[str, int]] = [{g: n} for n, k in ((1, 2), (2, 2), (3, 1)) for g in GOODS for _ in range(k)]
    c += [{a: 1, b: 1} for i, a in enumerate(GOODS) for b in GOODS[i + 1 :]]
    c += [{a: 2, b: 1} for a in GOODS for b in GOODS if b != a]
    return {f"t{i}": d for i, d in enumerate(c, 1)}


CARDS: Final = _build_cards()
# --------------------------------------------------------------------------- end of STANDIN

PRICES: Final = ((4, 7), (2, 5), (1, MIN_POS3), (0, MIN_POS4))
"""(bonus, minimum items) of positions 1..4 (index 0..3); position 5 is unsellable."""

ITEMS: Final = ((0,) * NGOODS,) + tuple(
    tuple(CARDS[f"t{i}"].get(g, 0) for g in GOODS) for i in range(1, NCARDS + 1)
)
"""``ITEMS[card][goods]``: items of each goods on each card (index 0 unused)."""

TOTAL_ITEMS: Final = tuple(sum(row) for row in ITEMS)
"""Items on each card, all goods together."""

SHOWS: Final = tuple(tuple(g for g in range(NGOODS) if ITEMS[c][g]) for c in range(NCARDS + 1))
"""The goods each card shows."""

CARD_TEXT: Final = tuple(f"t{i}" for i in range(NCARDS + 1))
"""``CARD_TEXT[c]`` is ``"t<c>"`` (index 0 unused)."""


def _describe(card: int) -> str:
    parts = sorted(((ITEMS[card][g], g) for g in SHOWS[card]), key=lambda p: (-p[0], p[1]))
    return " + ".join(f"{k} {GOODS[g]}" for k, g in parts)


DESCRIPTIONS: Final = tuple(_describe(c) for c in range(NCARDS + 1))
"""``DESCRIPTIONS[card]``: :func:`describe` of each card (index 0 unused)."""


def describe(card: int) -> str:
    """A card's contents in words, e.g. ``"2 salt + 1 gold"`` (larger count first)."""
    return DESCRIPTIONS[card]


assert len(CARDS) == NCARDS
assert all(sum(ITEMS[c][g] for c in range(1, NCARDS + 1)) == 25 for g in range(NGOODS))
assert all(sum(1 for c in range(1, NCARDS + 1) if ITEMS[c][g]) == 17 for g in range(NGOODS))
assert CARDS["t40"] == {"salt": 2, "gold": 1}
