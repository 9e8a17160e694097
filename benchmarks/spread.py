"""``python -m benchmarks.spread [--games G]``: how well Phraya's evaluation predicts who wins.

The search scores a running Phraya game by each seat's estimated final score
(``engines.phraya.playout.estimate``) turned into win chances by logistic comparisons of spread
``SPREAD[0] + SPREAD[1] * time left`` (``playout.rewards_of``). This plays ``G`` seeded games at
each of 2 and 3 players with every seat at ``normal``, notes every seat's estimate at the start of
every turn, and compares the chance each pair's comparison gave with who finished ahead: the log
loss (0.693 is a coin flip) per tenth of the game, at the current ``SPREAD`` and at the best
spread of the form ``a + b * time left`` on a grid. Nothing is asserted; it prints figures.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Sequence

from engines import base, search
from engines.phraya.ai import heuristic as playout
from engines.phraya.state import CARD

Sample = tuple[float, float, int]  # (time left, estimate of q minus estimate of r, 1 if q finished ahead)


def samples(n: int, games: int) -> list[Sample]:
    """The pairwise samples of ``games`` seeded ``normal`` games at ``n`` players."""
    engine = base.get("phraya")
    out: list[Sample] = []
    for g in range(games):
        state = engine.setup(1000 + g, n, {})
        seen: list[tuple[float, list[float]]] = []
        moves = 0
        while engine.outcome(state) is None:
            seat = base.first_awaited(engine, state)
            if state.step == CARD:
                seen.append((1.0 - playout.progress(state), playout.estimate(state)))
            legal = engine.legal_actions(state, seat)
            seed = search.ai_seed(1000 + g, moves, seat)
            action = search.choose(engine, engine.view(state, seat), legal, "normal", seed, cap=False).action
            state = base.play(engine, state, seat, action).state
            moves += 1
        final = _scores(engine.outcome(state))
        for left, est in seen:
            for q in range(n):
                for r in range(q + 1, n):
                    if final[q] != final[r]:
                        out.append((left, est[q] - est[r], int(final[q] > final[r])))
    return out


def _scores(outcome: base.Outcome | None) -> list[int]:
    """Every seat's final score (a finished Phraya game scores every seat)."""
    if outcome is None or None in outcome.scores:
        raise ValueError(f"a finished Phraya game with a score for every seat expected, not {outcome}")
    return [s for s in outcome.scores if s is not None]


def _linear(a: float, b: float) -> Callable[[float], float]:
    """The spread ``a + b * left``."""
    return lambda left: a + b * left


def log_loss(data: Sequence[Sample], spread: Callable[[float], float]) -> float:
    """The mean log loss of the logistic chances ``1 / (1 + exp(-diff / spread(left)))``."""
    total = 0.0
    for left, diff, ahead in data:
        p = 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, diff / spread(left)))))
        p = min(max(p, 1e-9), 1.0 - 1e-9)
        total -= math.log(p) if ahead else math.log(1.0 - p)
    return total / max(1, len(data))


def best_fit(data: Sequence[Sample]) -> tuple[float, float, float]:
    """``(a, b, loss)`` of the grid's best spread ``a + b * left``."""
    grid = [(a, b) for a in (1.5, 2.0, 3.0, 4.0, 5.0) for b in (4.0, 10.0, 15.0, 20.0, 25.0, 30.0, 40.0)]
    fits = ((a, b, log_loss(data, _linear(a, b))) for a, b in grid)
    return min(fits, key=lambda t: t[2])


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.spread", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per player count (default 40)")
    args = parser.parse_args(argv)
    a0, b0 = playout.SPREAD
    data: list[Sample] = []
    for n in (2, 3):
        data += samples(n, args.games)
    a, b, loss = best_fit(data)
    print(f"Phraya, {args.games} normal games at 2 and at 3 players: {len(data):,} pairwise samples")
    print(
        f"log loss at SPREAD {a0:g} + {b0:g} * left: {log_loss(data, lambda t: a0 + b0 * t):.3f}; "
        f"best on the grid, {a:g} + {b:g} * left: {loss:.3f} (a coin flip: 0.693)"
    )
    print("time left   samples   loss at SPREAD   loss at the fit")
    for k in range(10):
        part = [s for s in data if k / 10 <= s[0] < (k + 1) / 10 or (k == 9 and s[0] == 1.0)]
        if part:
            now, fit = log_loss(part, lambda t: a0 + b0 * t), log_loss(part, lambda t: a + b * t)
            print(f"{k / 10:.1f}-{(k + 1) / 10:.1f}   {len(part):7,}   {now:14.3f}   {fit:15.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
