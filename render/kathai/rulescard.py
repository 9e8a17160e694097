"""Kathai's rules card (``/rules``), filled from the engine's data (:mod:`engines.kathai.data`)."""

from __future__ import annotations

from engines.kathai import data as k
from engines.kathai.rules import KathaiEngine

from ..rulescard import Card

ACCENT = (150, 60, 40)


def card() -> Card:
    items = sum(k.TOTAL_ITEMS)
    bonus = "/".join(f"+{b}" for b, _ in k.PRICES)
    least = "/".join(str(n) for _, n in k.PRICES)
    return Card(
        title=KathaiEngine.title,
        subtitle=f"{KathaiEngine.min_players}–{KathaiEngine.max_players} players",
        accent=ACCENT,
        components=(
            (str(k.NCARDS), f"goods cards ({items} items)"),
            (str(k.NGOODS), "goods: " + ", ".join(k.NAMES[g].lower() for g in k.GOODS)),
            (str(k.SELLABLE + 1), "places in the price row"),
            (str(k.DEAL), "cards dealt to each"),
            (str(k.HAND_LIMIT), "cards at most after drawing"),
            (str(k.MAX_OFFERS), "trade offers a turn (option)"),
        ),
        turn=(
            f"Draw up to {k.HAND_LIMIT} cards.",
            "Trade: offer cards for cards showing a goods; then swap one with the pile, or not.",
            "Or sell one goods, or bribe two neighbours in the price row, or buy a card with a "
            "profit card, or pass.",
        ),
        scoring=(
            ("A sale", "1 per card sold + its place's bonus"),
            (
                "Bonuses",
                f"places 1–{k.SELLABLE}: {bonus}, for {least}+ items; place {k.SELLABLE + 1} cannot sell",
            ),
            ("After", "the goods sold drops to the last place"),
            ("Profit", "keep one sold card: it buys a card"),
        ),
        end=(
            f"When the pile is empty everyone has {k.FINAL_TURNS} more turns "
            f"({k.FINAL_TURNS_LAST_BUYER} for whoever bought the last card).",
            "Most points win; ties go to the most profit cards.",
        ),
    )
