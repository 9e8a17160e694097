"""Rendering cost: milliseconds to render and PNG-encode a snapshot, and PNG bytes."""

from __future__ import annotations

import random
import statistics
import time

import render as render_pkg
from engines import base
from render.common import to_png

SNAPSHOTS = 50


def _views(engine: base.Engine, n: int, count: int) -> list[dict]:
    """``count`` spectator views spread over seeded random games."""
    rng = random.Random(1)
    out: list[dict] = []
    seed = 0
    while len(out) < count:
        state = engine.setup(seed, n, {})
        seed += 1
        step = 0
        while engine.outcome(state) is None and len(out) < count:
            seat = base.first_awaited(engine, state)
            state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
            step += 1
            if step % 7 == 0:
                out.append(engine.view(state, None))
    return out


def measure(fn, views: list[dict]) -> tuple[list[float], list[int]]:
    times, sizes = [], []
    for v in views:
        t = time.perf_counter()
        png = to_png(fn(v))
        times.append(1000 * (time.perf_counter() - t))
        sizes.append(len(png))
    return times, sizes


def main() -> None:
    print(f"\n[render] board snapshot, render + PNG encode, {SNAPSHOTS} snapshots per row")
    print(
        f"  {'game':<9}{'players':>8}{'median ms':>11}{'p95 ms':>9}{'max ms':>9}"
        f"{'median KB':>11}{'max KB':>9}"
    )
    for engine in base.games():
        drawer = render_pkg.get(engine.name)
        for n in sorted({engine.min_players, engine.max_players}):
            views = _views(engine, n, SNAPSHOTS)
            drawer.board(views[0])  # warm font caches
            times, sizes = measure(drawer.board, views)
            times.sort()
            print(
                f"  {engine.name:<9}{n:>8}{statistics.median(times):>11.1f}"
                f"{times[int(0.95 * (len(times) - 1))]:>9.1f}{times[-1]:>9.1f}"
                f"{statistics.median(sizes) / 1024:>11.1f}{max(sizes) / 1024:>9.1f}"
            )
