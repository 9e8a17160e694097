"""Hints and reviews (issue 27, items 2 and 3): how long the hard AI thinks for a hint, and how
long a finished game's review takes, per game.

Positions: seeded AI games (easy seats, the game's fewest players); every position where the
seat to move has a choice is a candidate, and :data:`POSITIONS` of them (``quick``:
:data:`QUICK_POSITIONS`) spread over the games are hinted from the seat's own view with
:func:`engines.coaching.hint` exactly as the bot's lane job calls it (hard budget, time cap
:data:`engines.coaching.HINT_SECONDS`). Wall time per hint, p50 and p99 (aim: p99 ≤ 1 s). A
review is :func:`bot.host.coaching.review_job` on a seeded game for seat 0 (replay, decisions,
first pass, search and playouts of the suspects), wall seconds per game (aim: at most
:data:`REVIEW_AIM`). In-process, at normal priority (the bot runs both in
its long-job lane at niceness 10, so a busy machine makes them slower there).

``python -m benchmarks.hints [--quick]`` prints the figures; ``make bench`` includes them."""

from __future__ import annotations

import statistics
import sys
import time

import engines
from benchmarks.table import Figure, aim_at_most, render_table
from bot.host import coaching as host_coaching
from bot.offline.demo import ai_game
from engines import base, coaching, search

POSITIONS = 60
QUICK_POSITIONS = 12
SEEDS = (1, 2, 3)
HINT_AIM = 1.0  # seconds, p99
REVIEW_AIM = 5.0  # seconds, one seat's review of a game ("posted when ready (seconds)")


def _positions(engine: base.Engine, count: int) -> list[tuple[base.View, list[str], int]]:
    """``count`` seeded positions with a choice: the seat's view, its legal moves and a seed."""
    found: list[tuple[base.View, list[str], int]] = []
    n = engine.min_players
    for seed in SEEDS:
        state = engine.setup(seed, n, {})
        _, moves = ai_game(engine, seed, n, {})
        for version, (seat, action) in enumerate(moves):
            legal = engine.legal_actions(state, seat)
            if len(legal) > 1:
                found.append((engine.view(state, seat), legal, search.ai_seed(seed, version, seat)))
            state = base.play(engine, state, seat, action).state
    step = max(1, len(found) // count)
    return found[::step][:count]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def hint_times(game: str, count: int) -> list[float]:
    """Wall seconds of each hint over ``count`` seeded positions of ``game``."""
    engine = base.get(game)
    out = []
    for view, legal, seed in _positions(engine, count):
        t0 = time.perf_counter()
        coaching.hint(engine, view, legal, seed)
        out.append(time.perf_counter() - t0)
    return out


def review_seconds(game: str, seed: int = 1) -> tuple[float, int]:
    """Wall seconds of seat 0's review of a seeded AI game, and the game's moves."""
    engine = base.get(game)
    n = engine.min_players
    _, moves = ai_game(engine, seed, n, {})
    t0 = time.perf_counter()
    host_coaching.review_job(game, seed, n, {}, moves, 0)
    return time.perf_counter() - t0, len(moves)


def rows(quick: bool) -> list[Figure]:
    """The figures: hint p50 / p99 and review seconds per game."""
    engines.load_all()
    out: list[Figure] = []
    for engine in base.games():
        times = hint_times(engine.name, QUICK_POSITIONS if quick else POSITIONS)
        p50, p99 = statistics.median(times), percentile(times, 0.99)
        print(
            f"  {engine.name}: {len(times)} hints, p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms",
            flush=True,
        )
        out.append(Figure(f"hint p50, {engine.name}", f"{p50 * 1000:.0f} ms"))
        out.append(
            aim_at_most(f"hint p99, {engine.name}", p99, HINT_AIM, "s", "{:.2f}", f"{len(times)} positions")
        )
        seconds, moves = review_seconds(engine.name)
        print(f"  {engine.name}: review of a {moves}-move game {seconds:.1f} s", flush=True)
        out.append(
            aim_at_most(f"review, {engine.name}", seconds, REVIEW_AIM, "s", "{:.1f}", f"{moves} moves")
        )
    return out


if __name__ == "__main__":
    print(render_table(rows("--quick" in sys.argv[1:])))
