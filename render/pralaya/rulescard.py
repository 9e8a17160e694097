"""Pralaya's rules card (``/rules``), filled from the engine's data (:mod:`engines.pralaya.data`)."""

from __future__ import annotations

from engines.pralaya import data as p
from engines.pralaya.rules import PralayaEngine

from ..rulescard import Card

ACCENT = (20, 110, 140)


def card() -> Card:
    coins = sum(r.qty for r in p.RELICS if r.currency)
    ocean = p.RELIC_BY_CODE[p.OCEAN]
    kept = [r for r in p.RELICS if not r.currency and r.cost is not None]
    prices = ", ".join(str(d.price) for d in p.DHONI if d.price is not None)
    rows, cols = p.GRID[3]
    return Card(
        title=PralayaEngine.title,
        subtitle=f"{PralayaEngine.min_players}–{PralayaEngine.max_players} players",
        accent=ACCENT,
        components=(
            (str(p.N_RELIC_CARDS), f"island cards ({ocean.qty} oceans)"),
            (
                str(coins),
                "coins: "
                + ", ".join(f"{r.name.split()[0].lower()} {r.currency}" for r in p.RELICS if r.currency),
            ),
            (str(len(kept)), "kinds of relics to collect"),
            (str(len(p.DHONI)), f"Dhonis to escape: X (all coins), {prices}"),
            (str(len(p.VEDA_IDS)), f"Vedas: {p.VEDA_VITALITY} Vitality, price {p.VEDA_PRICE}"),
            (f"{rows}×{cols}", "island (3 players)"),
        ),
        turn=(
            f"Spend your Vitality ({p.BASE_VITALITY}) taking relics one at a time; oceans cannot be taken.",
            "Then you may buy one card with coins: a Veda or the top Dhoni (you escape).",
            "Once escaped, sink one relic of the island each turn.",
        ),
        scoring=(
            ("Coins", "their value, after paying"),
            *((r.name, r.scoring) for r in kept if r.code in ("man", "urn", "gre", "fos")),
            ("Others", "statues, pacts, pundits, Brahmin: see the text"),
        ),
        end=(
            "After a turn that started with one relic on the island, when all have escaped, "
            "or when only oceans are left.",
            "Only players who escaped score; most points win (ties: furthest from the first player).",
        ),
    )
