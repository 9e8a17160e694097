"""Finding a guide's script: ``python -m bot.offline.guidefind <game> [first seed] [seeds]``.

Plays the guide's set-up (players, seat, options) from each seed with the easy AI at every seat,
the learner's seat steered toward the kinds of action the guide must reach (its ``covers``: while
one is not reached and is legal, the learner's move is the heuristic's pick among those, unless
that pick is clearly worse than the heuristic's own choice; a ``defer`` prefix is avoided while
the kind it waits for is not reached). It prints, per seed, the
learner's steps (decisions with more than one move) and what was missed, then the script of the
best seed (every kind reached, steps nearest the guide's target, the learner winning if possible)
to paste into ``engines/<game>/guide.py``. The learner's moves follow the terminal's order: the
learner answers first when several seats are awaited, and an ``auto_answer`` is played as such.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace

from engines import base
from engines.guide import TARGET, Guide, chances, guide_for, matches

SAMPLES = 128
"""Samples per comparison (paired: both moves are played out from the same samples)."""

MARGIN = 0.02
"""How much worse (in the AI's measure, mostly the chance to win) a move may be than the
heuristic's own choice and still be scripted to reach a kind of action."""


@dataclass(frozen=True)
class Found:
    seed: int
    steps: int
    missed: tuple[str, ...]
    won: bool
    script: str


def _learner_move(engine: base.Engine, guide: Guide, state: object, reached: set[str], seed: int) -> str:
    """The heuristic's move, or its pick among the kinds not reached yet when that pick is worth
    about as much (:data:`MARGIN`, by :func:`engines.guide.chances`): a script teaches no move
    that is clearly poor (invoking Ra on an empty track) only to reach a kind."""
    legal = engine.legal_actions(state, guide.seat)
    view = engine.view(state, guide.seat)
    waiting = {p for p, w in guide.defer.items() if w not in reached}
    pool = [a for a in legal if not any(matches(a, p) for p in waiting)] or legal
    want = [a for a in pool if any(matches(a, p) and p not in reached for p in guide.covers)]
    best = engine.choose(view, pool)
    if not want:
        return best
    pick = engine.choose(view, want)
    if pick != best:
        mine, theirs = chances(engine, view, [pick, best], seed, SAMPLES)
        if mine < theirs - MARGIN:
            return best
    return pick


def play(guide: Guide, seed: int) -> Found:
    """One game from ``seed`` with the learner steered toward the guide's kinds."""
    engine = base.get(guide.game)
    state = engine.setup(seed, guide.players, guide.options)
    reached: set[str] = set()
    lines: list[str] = []
    steps = 0
    while engine.outcome(state) is None:
        if guide.seat in engine.to_move(state):
            seat = guide.seat
            auto = engine.auto_answer(state, seat)
            if auto is not None:
                action = auto[0]
            else:
                steps += len(engine.legal_actions(state, seat)) > 1
                action = _learner_move(engine, guide, state, reached, seed + len(lines))
                reached |= {p for p in guide.covers if matches(action, p)}
        else:
            seat = base.first_awaited(engine, state)
            action = engine.choose(engine.view(state, seat), engine.legal_actions(state, seat))
        state = base.play(engine, state, seat, action).state
        lines.append(f"{seat} {action}")
    outcome = engine.outcome(state)
    assert outcome is not None
    missed = tuple(p for p in guide.covers if p not in reached)
    return Found(seed, steps, missed, guide.seat in outcome.winners, "\n".join(lines))


def _rank(found: Found) -> tuple[int, int, int]:
    low, high = TARGET
    off = max(0, low - found.steps, found.steps - high)
    return (len(found.missed), off, 0 if found.won else 1)


def main(argv: list[str]) -> int:
    guide = guide_for(argv[0])
    first = int(argv[1]) if len(argv) > 1 else 1
    count = int(argv[2]) if len(argv) > 2 else 20
    best: Found | None = None
    for seed in range(first, first + count):
        found = play(replace(guide, seed=seed), seed)
        print(f"seed {seed}: {found.steps} steps, won {found.won}, missed {list(found.missed)}", flush=True)
        if best is None or _rank(found) < _rank(best):
            best = found
    assert best is not None
    print(f"# best: seed {best.seed}, {best.steps} steps, won {best.won}, missed {list(best.missed)}")
    print(best.script)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
