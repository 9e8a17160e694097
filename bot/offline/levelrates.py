"""``python -m bot.offline.levelrates [games] [jobs]``: measure how often the hard AI wins against
the normal one in each game (:mod:`bot.offline.arena`: seeded pairs of games, seats swapped) and
write the figures, with the date and the number of games, to :data:`OUT`, which the lobby and
``/game addbot`` read (:mod:`bot.surface.levels`). The figures are measured, never typed."""

from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path

from engines import base

from . import arena

OUT = Path(__file__).resolve().parents[1] / "surface" / "levelrates.json"
SEED = 1


def players_of(game: str) -> int:
    """The smallest table of ``game`` (two seats where it allows, so the rate is head to head)."""
    return base.get(game).min_players


def measure(games: int, jobs: int) -> dict[str, object]:
    """Hard against normal in every game: ``games`` games each, on ``jobs`` processes."""
    out: dict[str, object] = {}
    for engine in base.games():
        n = players_of(engine.name)
        s = arena.run(engine.name, n, "hard", "normal", games, SEED, jobs)
        print(arena.report(s), flush=True)
        out[engine.name] = {
            "players": n,
            "games": s.games,
            "hard_win_rate": round(s.win_per_seat["hard"], 3),
            "even_rate": round(1 / n, 3),
            "edge": round(s.edge, 3),
            "low": round(s.low, 3),
            "high": round(s.high, 3),
        }
    return out


def main(argv: list[str]) -> int:
    games = int(argv[0]) if argv else 10
    jobs = int(argv[1]) if len(argv) > 1 else 1
    figures = {
        "measured": datetime.date.today().isoformat(),
        "how": f"python -m bot.offline.levelrates {games} {jobs} (bazaar arena, hard vs normal, seed {SEED})",
        "games": measure(games, jobs),
    }
    OUT.write_text(json.dumps(figures, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
