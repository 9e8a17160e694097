"""Display data for the Pralaya renderer: card names, costs, currency, colours, scoring hints.

The rules' numbers (names, costs, currency, quantities, score categories, the Veda stand-in) come
from ``engines/pralaya/data.py``; only the colours, short names and one-line hints are the
renderer's own.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.pralaya import data as pdata


@dataclass(frozen=True)
class CardInfo:
    """How one card type is shown: ``cost`` in Vitality (None for Ocean), ``currency`` (0 unless a
    coin), ``qty`` copies in the deck, ``color`` the type's tint, ``hint`` a short scoring rule."""

    code: str
    name: str
    short: str
    qty: int
    cost: int | None
    currency: int
    color: tuple[int, int, int]
    hint: str


# code: short name, colour, scoring hint (short enough for a hand tile)
_LOOK: dict[str, tuple[str, tuple[int, int, int], str]] = {
    "cop": ("Copper", (176, 104, 52), "1 pt each"),
    "sil": ("Silver", (150, 156, 168), "3 pts each"),
    "gol": ("Gold", (214, 164, 30), "6 pts each"),
    "dem": ("Demon", (170, 48, 44), "2 each, Pacts ×(−3)"),
    "man": ("Manuscript", (196, 158, 92), "5 per pair"),
    "urn": ("Urn", (192, 96, 58), "20 per set of 3"),
    "gre": ("Great Statue", (104, 118, 112), "count squared"),
    "pac": ("Pact", (112, 62, 138), "Demons ×(−3)"),
    "pun": ("Pundit", (0, 122, 138), "1 per type held"),
    "bra": ("Brahmin", (222, 112, 24), "+15 with a Veda"),
    "fos": ("Fossil", (140, 112, 82), "15 if most"),
    "oce": ("Ocean", (74, 134, 196), "cannot be taken"),
}

CATEGORIES: tuple[str, ...] = tuple(pdata.CATEGORIES)
VEDA_COLOR = (58, 72, 150)
DHONI_COLOR = (120, 82, 44)
OCEAN_FILL = (222, 235, 247)
OCEAN_HATCH = (180, 208, 234)

CARDS: dict[str, CardInfo] = {
    r.code: CardInfo(
        r.code, r.name, _LOOK[r.code][0], r.qty, r.cost, r.currency, _LOOK[r.code][1], _LOOK[r.code][2]
    )
    for r in pdata.RELICS
}
ORDER: tuple[str, ...] = tuple(r.code for r in pdata.RELICS)


def info(code: str | None) -> CardInfo | None:
    """The display record of ``code`` (e.g. ``"gol"``), or None for an empty cell/unknown code."""
    if code is None:
        return None
    return CARDS.get(code)


def sort_key(code: str) -> int:
    """Data order of a type code (unknown codes last)."""
    return ORDER.index(code) if code in ORDER else len(ORDER)


def set_progress(code: str, count: int) -> str | None:
    """Progress towards scoring sets, for Manuscripts (pairs) and Urns (sets of 3): e.g.
    ``"1/2 to a pair"``, ``"1 pair"``, ``"1 set + 1/3"``. None for other types or no cards."""
    size, word = {"man": (2, "pair"), "urn": (3, "set")}.get(code, (0, ""))
    if not size or count <= 0:
        return None
    sets, rem = divmod(count, size)
    if not sets:
        return f"{rem}/{size} to a {word}"
    done = f"{sets} {word}" + ("s" if sets > 1 else "")
    return done + (f" + {rem}/{size}" if rem else "")
