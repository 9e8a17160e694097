"""``make profile GAME=ra [PLAYERS=3] [SECONDS=5]``: where an engine spends its time.

Runs the same random playouts as the engine rows of ``make bench`` (legal actions enumerated at
every step, applied through ``engine.apply``) under :mod:`cProfile` for about ``SECONDS`` and
prints the actions/s reached (slower than unprofiled) and the top hot spots by own time and by
cumulative time. With ``--calls`` it times each call of that loop apart instead (the outcome,
whose turn, the legal list, the random pick, apply, and apply without its events), in
microseconds an action.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import math
import pstats
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from engines import base

from . import engine_speed


def main(argv: list[str]) -> int:
    names = [e.name for e in base.games()]
    parser = argparse.ArgumentParser(prog="make profile", description=__doc__.split("\n")[0])
    parser.add_argument("game", help=f"one of {', '.join(names)}")
    parser.add_argument("--players", type=int, default=0, help="player count (default: the common count)")
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds of playouts (default 5)")
    parser.add_argument("--top", type=int, default=25, help="rows of each listing (default 25)")
    parser.add_argument("--calls", action="store_true", help="time each engine call apart instead")
    args = parser.parse_args(argv)
    if args.game not in names:
        print(f"make profile: unknown game {args.game!r}; choose GAME= one of {', '.join(names)}")
        return 2
    engine = base.get(args.game)
    n = args.players or engine.common_players
    if not engine.min_players <= n <= engine.max_players:
        print(f"make profile: {engine.name} takes {engine.min_players}-{engine.max_players} players, not {n}")
        return 2
    if args.calls:
        print(calls(engine, n))
        return 0
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


def calls(engine: base.Engine, n: int, games: int = 60) -> str:
    """Microseconds an action of each call the engine rows of ``make bench`` make, timed apart
    over the steps of ``games`` recorded random playouts (the best of 5 passes), and the
    actions/s their sum allows; ``step`` (apply without events) shows what the events cost."""
    rng = random.Random(0)
    steps = []
    for seed in range(games):
        state = engine.setup(seed, n, {})
        while engine.outcome(state) is None:
            seat = base.first_awaited(engine, state)
            legal = engine.legal_actions(state, seat)
            action = rng.choice(legal)
            steps.append((state, seat, legal, action))
            state = engine.apply(state, seat, action)[0]

    def per_action(fn: Callable[[Any, int, Any, str], object]) -> float:
        best = math.inf
        gc.disable()  # the recorded states are many live objects: no collection passes over them
        try:
            for _ in range(5):
                t0 = time.perf_counter()
                for state, seat, legal, action in steps:
                    fn(state, seat, legal, action)
                best = min(best, time.perf_counter() - t0)
        finally:
            gc.enable()
        return best / len(steps) * 1e6

    pick = random.Random(1)
    rows = [
        ("outcome", per_action(lambda s, q, legal, a: engine.outcome(s)), True),
        ("first_awaited", per_action(lambda s, q, legal, a: base.first_awaited(engine, s)), True),
        ("legal_actions", per_action(lambda s, q, legal, a: engine.legal_actions(s, q)), True),
        ("random choice", per_action(lambda s, q, legal, a: pick.choice(legal)), True),
        ("apply", per_action(lambda s, q, legal, a: engine.apply(s, q, a)), True),
        ("step (apply without events)", per_action(lambda s, q, legal, a: engine.step(s, q, a)), False),
    ]
    total = sum(us for _, us, counted in rows if counted)
    lines = [
        f"{engine.name} {n}p: each call timed apart over {len(steps):,} actions of {games} random playouts"
    ]
    lines += [f"  {name:28} {us:6.2f} µs an action" for name, us, _ in rows]
    lines.append(
        f"  sum of the counted calls     {total:6.2f} µs: "
        f"{1e6 / total:,.0f} actions/s if nothing else cost a thing"
    )
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
