"""A short arena: each game's normal level against easy at 2 players, a few paired games each.

Too few games to prove anything (``bazaar arena`` with ``--games 40`` or more does that); it shows
the levels play and how long a searched move takes. Figures only: nothing is asserted.
"""

from __future__ import annotations

from typing import Any

from engines import base

from .table import Figure, aim_at_most


def rows(games: int = 4, jobs: int = 2) -> list[dict[str, Any]]:
    """One row per game: the edge of normal over easy, and normal's ms per move."""
    from bot.offline import arena

    out = []
    for engine in base.games():
        n = max(2, engine.min_players)
        s = arena.run(engine.name, n, "normal", "easy", games, 1, jobs)
        median, p99, moves = s.ms.get("normal", (float("nan"), float("nan"), 0))
        out.append(
            {
                "game": engine.name,
                "players": n,
                "games": s.games,
                "edge": s.edge,
                "low": s.low,
                "high": s.high,
                "median_ms": median,
                "p99_ms": p99,
                "moves": moves,
                "capped": s.capped.get("normal", 0),
            }
        )
    return out


def main(games: int = 4, jobs: int = 2) -> None:
    print(f"\n[arena] normal vs easy, {games} paired games per game at 2 players (or the minimum)")
    print(f"  {'game':<9}{'players':>8}{'edge':>8}{'95% CI':>18}{'ms median':>11}{'ms p99':>9}{'capped':>8}")
    for r in rows(games, jobs):
        print(
            f"  {r['game']:<9}{r['players']:>8}{r['edge']:>+8.2f}   {r['low']:>+6.2f} … {r['high']:>+6.2f}"
            f"{r['median_ms']:>11.1f}{r['p99_ms']:>9.1f}{r['capped']:>8}"
        )


def figures(quick: bool) -> list[Figure]:
    """The short arena as rows of the bench table: normal's edge over easy per game (its aim, an
    interval above 0, needs ``bazaar arena --games 40``: a few games rarely show it) and normal's
    99th percentile per move against its 1 s cap."""
    out: list[Figure] = []
    for r in rows(2 if quick else 4, 2):
        out.append(
            Figure(
                f"arena: {r['game']} {r['players']}p normal vs easy, edge in wins",
                f"{r['edge']:+.2f} ({r['low']:+.2f} … {r['high']:+.2f}, {r['games']} games)",
                "> 0 at 95%",
                r["low"] > 0,
            )
        )
        out.append(aim_at_most(f"arena: {r['game']} normal move p99", r["p99_ms"], 1000, "ms", "{:.0f}"))
    return out
