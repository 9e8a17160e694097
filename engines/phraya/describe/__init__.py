"""Texts for people: the game in a few lines, card effects and chart costs in words."""

from __future__ import annotations

from engines.base import Event
from engines.phraya import data
from engines.phraya.state import State

SUMMARY = (
    "Phraya (Alberto Millán), 2–4 players: a floating market on a 4×4 grid of islands. "
    "Each turn play a card (Merchant prices, Royal Barge blessings, coins, flowers…), move "
    "your boat 1 to rowers sections along the channels (never ending on a boat, never "
    "through the Barge's crossing, never back the way you came), then use the stalls on "
    "both banks once each: buy or sell goods, deliver restaurant orders, make Temple "
    "offerings, buy cards, baskets, rowers or new stalls, and make an offering to the King "
    "if the Barge is on an adjacent crossing. The game ends at once when two of: a full "
    "King row, a disk in the Temple's last section, a player with no stall pieces left."
)

_GOOD_WORD = {"veg": "vegetable", "fruit": "fruit", "fish": "fish", "meat": "meat"}


def effect_words(e: str) -> str:
    """One card effect code in words."""
    head, _, rest = e.partition(" ")
    if head == "mer":
        rng, mods = rest.split()
        lo, hi = rng.split("-")
        dist = lo if lo == hi else f"{lo}–{hi}"
        return f"Move the Merchant {dist} space(s), then change prices {' and '.join(mods.split('/'))}"
    if head == "barge":
        rng, bless = rest.split()
        lo, hi = rng.split("-")
        dist = lo if lo == hi else f"{lo}–{hi}"
        gift = {"1fl": "1 flower", "2fl": "2 flowers", "2c": "2 coins"}[bless]
        return f"Move the Royal Barge {dist} crossing(s); blessing {gift} per adjacent owned stall"
    if head == "coins":
        return f"Gain {rest} coins"
    if head == "flower":
        return "Gain 1 flower"
    if e == "boat2":
        return "Move your boat 2 sections before your movement"
    if e == "g2f":
        return "Discard goods for 1 flower each"
    if e == "f2c":
        return "Discard flowers for 3 coins each"
    if e == "retrieve":
        return "Take back your discards (+1 coin each, this card too); no movement or actions"
    if e.startswith("cheap:"):
        return f"Buy {_GOOD_WORD[e[6:]]} at the lowest price this turn"
    if e.startswith("ignore:"):
        return f"An order needs one {_GOOD_WORD[e[7:]]} less this turn"
    if e == "temple-2":
        return "Temple offerings cost 2 flowers less this turn"
    if e == "stall5":
        return "A stall at the Administration costs 5 coins this turn"
    if e.startswith("as:"):
        return f"Counts as a {_GOOD_WORD[e[3:]]} stall at the end"
    if e.startswith("3/"):
        return f"3 VP per {_GOOD_WORD[e[2:].split('-')[0]]} stall"
    return {
        "2/order": "2 VP per fulfilled order",
        "2/king": "2 VP per King disk",
        "2/temple": "2 VP per Temple disk",
        "2/stall": "2 VP per stall",
        "1/flower": "1 VP per flower left",
        "4/favor": "4 VP per favor left",
        "1/5coins": "1 VP per 5 coins",
    }.get(e, e)


def king_cost(space: str) -> str:
    """The cost of a King's Chart space in words."""
    row, k = space[0], int(space[1:]) - 1
    if row == "c":
        return f"{data.KING_COINS[k]} coins"
    if row == "f":
        return f"{data.KING_FLOWERS[k]} flowers"
    a, b = data.KING_GOODS[k]
    return f"{a} + {b}"


def setup_events(state: State) -> list[Event]:
    """Who starts, with what coins, and the layout."""
    coins = ", ".join(f"{{s{q}}} {p.coins}" for q, p in enumerate(state.players))
    return [
        Event(
            "setup",
            f"Phraya: {{s{state.first}}} is the first player. Coins: {coins}. "
            "Place boats on outer channels in turn order.",
            {"first": state.first},
        )
    ]
