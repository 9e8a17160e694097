"""Engine speed: random playouts (legal-action enumeration included) and AI playouts."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from engines import base

BUDGET_S = 2.0  # seconds of playouts per engine and player count

Chooser = Callable[[base.Engine, object, int, Sequence[str]], str]


def random_choice(rng: random.Random) -> Chooser:
    return lambda engine, state, seat, legal: rng.choice(legal)


def ai_choice(engine: base.Engine, state: object, seat: int, legal: Sequence[str]) -> str:
    """The engine's AI, reading the seat's own view (the view is part of the measured cost)."""
    return engine.choose(engine.view(state, seat), legal)


def playouts(
    engine: base.Engine, n: int, choose: Chooser, budget: float = BUDGET_S
) -> tuple[int, int, float]:
    """Play whole games for about ``budget`` seconds; returns (games, actions, seconds). Each step
    enumerates the actor's legal actions and applies the chosen one through ``engine.apply``."""
    games = actions = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < budget:
        state = engine.setup(seed, n, {})
        seed += 1
        while engine.outcome(state) is None:
            seat = base.first_awaited(engine, state)
            legal = engine.legal_actions(state, seat)
            state, _ = engine.apply(state, seat, choose(engine, state, seat, legal))
            actions += 1
        games += 1
    return games, actions, time.perf_counter() - start


def main() -> None:
    print("\n[engines] playouts on one core (legal actions enumerated at every step)")
    print(
        f"  {'game':<9}{'players':>8}{'games/s':>10}{'actions/s':>12}{'µs/action':>11}"
        f"{'actions/game':>14}{'AI games/s':>12}"
    )
    for engine in base.games():
        for n in range(engine.min_players, engine.max_players + 1):
            g, a, t = playouts(engine, n, random_choice(random.Random(0)))
            ga, _, ta = playouts(engine, n, ai_choice, BUDGET_S / 2)
            print(
                f"  {engine.name:<9}{n:>8}{g / t:>10.1f}{a / t:>12,.0f}{1e6 * t / a:>11.1f}"
                f"{a / g:>14.1f}{ga / ta:>12.1f}"
            )
