"""The engine and rendering sections of the table (aims 1 and 2 of issue #13).

``engine_speed`` and ``rendering`` give their own rows through ``figures(quick)`` (rows of
name, value, unit, aim, met) where they offer it; until then the rows are made here from the
measuring functions they have: random playouts per engine on one core (legal actions enumerated
at each step) against 100,000 actions/s, and the posted board (drawn and PNG-encoded) per game
against 100 ms and 250 KB.
"""

from __future__ import annotations

import random
import statistics

from .table import Figure, aim_at_least, aim_at_most, from_rows

AIM_ACTIONS = 100_000
AIM_RENDER_MS = 100.0
AIM_PNG_KB = 250.0


def engine_rows(quick: bool) -> list[Figure]:
    from . import engine_speed

    own = getattr(engine_speed, "figures", None)
    if own is not None:
        return from_rows(own(quick))
    from engines import base

    print("\n[engines] random playouts on one core", flush=True)
    out = []
    budget = 0.3 if quick else 2.0
    for engine in base.games():
        n = max(engine.min_players, 3) if engine.max_players >= 3 else engine.min_players
        games, actions, secs = _playouts(engine, n, budget)
        out.append(
            aim_at_least(
                f"engine {engine.name} {n}p: applied actions/s",
                actions / secs,
                AIM_ACTIONS,
                "actions/s",
                note=f"{games} random playouts begun, {actions:,} actions in {secs:.1f} s",
            )
        )
    return out


def _playouts(engine, n: int, budget: float) -> tuple[int, int, float]:
    """Random playouts (legal actions enumerated at each step) for about ``budget`` seconds,
    checked at every action; returns (games begun, actions, seconds)."""
    import time

    from engines import base

    rng = random.Random(0)
    games = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < budget:
        state = engine.setup(games, n, {})
        games += 1
        while engine.outcome(state) is None and time.perf_counter() - start < budget:
            seat = base.first_awaited(engine, state)
            state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
            actions += 1
    return games, actions, time.perf_counter() - start


def render_rows(quick: bool) -> list[Figure]:
    from . import rendering

    own = getattr(rendering, "figures", None)
    if own is not None:
        return from_rows(own(quick))
    import render as render_pkg
    from engines import base

    print("\n[render] boards drawn and PNG-encoded", flush=True)
    out = []
    for engine in base.games():
        n = engine.max_players
        views = rendering._views(engine, n, 3 if quick else 20)
        drawer = render_pkg.get(engine.name)
        drawer.board(views[0])  # warm font caches
        times, sizes = rendering.measure(drawer.board, views)
        out.append(
            aim_at_most(
                f"render {engine.name} {n}p: board median",
                statistics.median(times),
                AIM_RENDER_MS,
                "ms",
                note=f"{len(times)} spectator boards of seeded random games, "
                f"render.{engine.name}.board + to_png; max {max(times):.0f} ms",
            )
        )
        out.append(
            aim_at_most(f"render {engine.name} {n}p: largest PNG", max(sizes) / 1024, AIM_PNG_KB, "KB")
        )
    return out
