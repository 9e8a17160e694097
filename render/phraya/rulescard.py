"""Phraya's rules card (``/rules``), filled from the engine's data (:mod:`engines.phraya.data`)."""

from __future__ import annotations

from engines.phraya import data as ph
from engines.phraya.rules import PhrayaEngine

from ..rulescard import Card

ACCENT = (120, 60, 150)


def _pair(v: tuple[int, int]) -> str:
    return f"{v[0]}/{v[1]}"


def card() -> Card:
    stalls = ph.STALLS_PER_PLAYER
    offer = ", ".join(f"{g} {ph.TEMPLE_OFFERING_VP[g]}" for g in ph.TEMPLE_ROWS)
    first = ", ".join(f"{g} {_pair(ph.STALL_MAJORITY[g])}" for g in ph.GOODS)
    return Card(
        title=PhrayaEngine.title,
        subtitle=f"{PhrayaEngine.min_players}–{PhrayaEngine.max_players} players",
        accent=ACCENT,
        components=(
            (str(len(ph.BASIC_CARDS)), "basic cards each"),
            (str(len(ph.MARKET_CARDS)), "market cards to buy"),
            (str(len(ph.GOODS)), "goods: " + ", ".join(ph.GOODS)),
            (f"{min(stalls.values())}–{max(stalls.values())}", "stall pieces each"),
            (str(ph.DISKS_PER_PLAYER), "disks each (Temple, King)"),
            (str(ph.START_COINS), "coins to start (+1 per seat after)"),
        ),
        turn=(
            "Play a card: the Merchant moves prices, the Barge gives blessings, and more.",
            f"Move your boat up to your rowers ({ph.ROWERS_START} to start) along the channels.",
            "Use the stalls on both banks: goods, orders, the Temple, cards, stalls; the King "
            "beside the Barge.",
        ),
        scoring=(
            ("Coins", "1 per 5"),
            ("Temple", f"per disk: {offer}"),
            (
                "Sections",
                f"most disks {'/'.join(map(str, ph.TEMPLE_SECTION_VP))}; none "
                f"{'/'.join(str(v).replace('-', '−') for v in ph.TEMPLE_SECTION_PENALTY)}",
            ),
            ("King", f"most {_pair(ph.KING_MAJORITY)}; {ph.KING_SET_VP} per set of 3 rows"),
            ("Stalls", f"most/second: {first}"),
            ("Also", "orders delivered, cards' end effects"),
        ),
        end=(
            "Once two hold: a full King row, a disk in the Temple's last section, a player with "
            "every stall placed. All goods are sold, then scored.",
        ),
    )
