"""Helpers the Phraya tests share."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from engines import base
from engines.phraya.positions import build
from engines.phraya.state import ACT, State


def act(**kw: Any) -> State:
    kw.setdefault("boats", {0: "h02"})
    return build(3, step=ACT, fill_boats=True, **kw)


def random_playout(
    seed: int, n: int, opts: dict[str, object] | None = None, stop: int | None = None
) -> Iterator[Any]:
    """Every state of a game played with seeded random legal actions (the start included),
    until the end or ``stop`` actions."""
    engine = base.get("phraya")
    rng = random.Random(1000 + seed)
    state = engine.setup(seed, n, opts or {})
    yield state
    k = 0
    while engine.outcome(state) is None and (stop is None or k < stop):
        seat = engine.to_move(state)[0]
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        k += 1
        yield state
