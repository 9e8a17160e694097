"""Engine speed: random playouts (legal-action enumeration included) and AI playouts.

The bench table's engine rows (issue #13, aim 1): for every game and player count, the actions
applied per second on one core in random playouts (each step enumerates the awaited seat's legal
list, picks one uniformly and applies it through ``engine.apply``, events and checks included),
against 200,000 actions/s for Pralaya and Ra and 100,000 for Kathai and Phraya; games per second
in the note. The figure is the median of three runs of ``BUDGET_S / 3`` seconds each (each
plays its last game to the end; ``--quick`` stops mid-game).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from engines import base

BUDGET_S = 2.0  # seconds of playouts per engine and player count
QUICK_BUDGET_S = 0.3
AIMS = {"pralaya": 200_000, "ra": 200_000, "kathai": 100_000, "phraya": 100_000}

Chooser = Callable[[base.Engine, object, int, Sequence[str]], str]


def random_choice(rng: random.Random) -> Chooser:
    return lambda engine, state, seat, legal: rng.choice(legal)


def ai_choice(engine: base.Engine, state: object, seat: int, legal: Sequence[str]) -> str:
    """The engine's AI, reading the seat's own view (the view is part of the measured cost)."""
    return engine.choose(engine.view(state, seat), legal)


def playouts(
    engine: base.Engine, n: int, choose: Chooser, budget: float = BUDGET_S, *, whole: bool = True
) -> tuple[int, int, float]:
    """Play games for about ``budget`` seconds; returns (games finished, actions, seconds). Each
    step enumerates the actor's legal actions and applies the chosen one through
    ``engine.apply``. With ``whole`` the last game is played to its end past the budget; without,
    the run stops mid-game once the budget is spent (a long game, Kathai's, does not overrun it)."""
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
            if not whole and not actions % 64 and time.perf_counter() - start >= budget:
                return games, actions, time.perf_counter() - start
        games += 1
    return games, actions, time.perf_counter() - start


def figures(quick: bool = False) -> list[dict[str, object]]:
    """The bench-table rows: actions/s per game and player count against :data:`AIMS` (the
    median of three runs), with games/s and the actions a game in the note."""
    import statistics

    budget = QUICK_BUDGET_S if quick else BUDGET_S
    print(f"\n[engines] random playouts on one core, {budget:g} s per game and player count", flush=True)
    out: list[dict[str, object]] = []
    for engine in base.games():
        aim = AIMS.get(engine.name, 100_000)
        for n in range(engine.min_players, engine.max_players + 1):
            pick = [random_choice(random.Random(r)) for r in range(3)]
            runs = [playouts(engine, n, p, budget / 3, whole=not quick) for p in pick]
            rates = [a / t for _, a, t in runs]
            games = sum(g for g, _, _ in runs)
            actions = sum(a for _, a, _ in runs)
            secs = sum(t for _, _, t in runs)
            rate = statistics.median(rates)
            each = ", ".join(f"{r:,.0f}" for r in rates)
            per_game = (
                f"{games / secs:,.1f} games/s, {actions / games:,.0f} actions a game"
                if games
                else ("no game finished within the budget")
            )
            out.append(
                {
                    "name": f"engine {engine.name} {n}p: actions/s",
                    "value": round(rate),
                    "unit": "",
                    "aim": f">= {aim:,}",
                    "met": rate >= aim,
                    "note": f"{per_game} ({games} games finished, {actions:,} actions in {secs:.1f} s; "
                    f"three runs: {each})",
                }
            )
    return out


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
