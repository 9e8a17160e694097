"""``make profile GAME=ra [PLAYERS=3] [SECONDS=5]``: where an engine spends its time.

Runs the same random playouts as the engine rows of ``make bench`` (legal actions enumerated at
every step, applied through ``engine.apply``) under :mod:`cProfile` for about ``SECONDS`` and
prints the actions/s reached (slower than unprofiled) and the top hot spots by own time and by
cumulative time.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys

from engines import base

from . import engine_speed


def main(argv: list[str]) -> int:
    names = [e.name for e in base.games()]
    parser = argparse.ArgumentParser(prog="make profile", description=__doc__.split("\n")[0])
    parser.add_argument("game", help=f"one of {', '.join(names)}")
    parser.add_argument("--players", type=int, default=0, help="player count (default: the common count)")
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds of playouts (default 5)")
    parser.add_argument("--top", type=int, default=25, help="rows of each listing (default 25)")
    args = parser.parse_args(argv)
    if args.game not in names:
        print(f"make profile: unknown game {args.game!r}; choose GAME= one of {', '.join(names)}")
        return 2
    engine = base.get(args.game)
    n = args.players or engine.common_players
    if not engine.min_players <= n <= engine.max_players:
        print(f"make profile: {engine.name} takes {engine.min_players}-{engine.max_players} players, not {n}")
        return 2
    profiler = cProfile.Profile()
    profiler.enable()
    games, actions, secs = engine_speed.playouts(
        engine, n, engine_speed.random_choice(random.Random(0)), args.seconds
    )
    profiler.disable()
    print(
        f"{engine.name} {n}p: {games} random playouts, {actions:,} actions in {secs:.1f} s under the "
        f"profiler ({actions / secs:,.0f} actions/s; unprofiled runs are faster)\n"
    )
    stats = pstats.Stats(profiler, stream=sys.stdout).strip_dirs()
    print("by own time (tottime):")
    stats.sort_stats("tottime").print_stats(args.top)
    print("by cumulative time:")
    stats.sort_stats("cumulative").print_stats(args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
