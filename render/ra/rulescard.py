"""Ra's rules card (``/rules``), filled from the engine's data (:mod:`engines.ra.data`)."""

from __future__ import annotations

from engines.ra import data as ra
from engines.ra.rules import RaEngine

from ..rulescard import Card

ACCENT = (196, 140, 30)


def _span(values: dict[int, int]) -> str:
    """``{2: 6, 3: 8, …}`` as "6, 8, 9, 10 for 2–5 players"."""
    ns = sorted(values)
    return f"{', '.join(str(values[n]) for n in ns)} for {ns[0]}–{ns[-1]} players"


def card() -> Card:
    count = ra.TILE_COUNT
    suns = {n: len(sets[0]) for n, sets in ra.SUN_SETS.items()}
    civ = ra.CIV_BY_TYPES
    return Card(
        title=RaEngine.title,
        subtitle=f"{RaEngine.min_players}–{RaEngine.max_players} players · {ra.EPOCHS} epochs",
        accent=ACCENT,
        components=(
            (str(ra.TOTAL_TILES_TRADERS), f"tiles in the bag ({count['trader']} traders)"),
            (str(count["ra"]), "Ra tiles: they start auctions"),
            (str(count["god"]), "god tiles"),
            (str(sum(count[k] for k in ra.DISASTERS)), "disasters: each costs 2 tiles"),
            (f"{min(suns.values())}–{max(suns.values())}", "suns each: your bids"),
            (str(ra.EPOCHS), "epochs, each scored"),
        ),
        turn=(
            f"Draw a tile onto the track (up to {ra.AUCTION_SLOTS}); a Ra tile starts an auction.",
            "Or invoke Ra: auction the track now.",
            "Or spend a god: take one tile.",
            "Auction: bid one sun or pass; the best bid takes the lot and the centre sun.",
        ),
        scoring=(
            ("God", f"{ra.GOD_PTS} each"),
            ("Gold", f"{ra.GOLD_PTS} each"),
            ("Pharaohs", f"most {ra.PHARAOH_MOST:+d}, fewest {ra.PHARAOH_FEWEST:+d}".replace("-", "−")),
            ("Nile", "1 per Nile and flood (with a flood)"),
            (
                "Civilizations",
                f"3/4/5 kinds {civ[3]:+d}/{civ[4]:+d}/{civ[5]:+d}, none {civ[0]}".replace("-", "−"),
            ),
            (
                "Monuments",
                f"at the end: 1 per kind (8 kinds {ra.MON_BY_TYPES[-1]}); "
                f"3–5 alike +{ra.MON_BY_SAME[3]}…{ra.MON_BY_SAME[5]}",
            ),
            (
                "Suns",
                f"at the end: highest sum {ra.SUN_MOST:+d}, lowest {ra.SUN_FEWEST:+d}".replace("-", "−"),
            ),
        ),
        end=(
            f"An epoch ends with its last Ra tile ({_span(ra.RA_LIMIT)}) or when nobody has a "
            "sun left; it is scored, and only pharaohs, Niles and monuments stay.",
            f"After epoch {ra.EPOCHS} the most points win.",
        ),
    )
