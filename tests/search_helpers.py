"""Checks every game's search AI must pass (each game's tests/test_<game>_search.py calls them).

- ``check_determinize``: at sampled steps of seeded games, for every seat, a state drawn by
  ``engine.determinize(view, rng)`` shows that seat exactly the same view, gives the awaited seat
  the same legal list, keeps the game's invariants, plays on to the end, leaves the view it read
  untouched, and (for a game with hidden information) differs from the true state somewhere over
  the game, so the sampling is real.
- ``check_search``: the search's move is legal, the same for the same seed, and depends only on
  the view: two different true states that show the seat the same view give the same move.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Mapping
from typing import Any

from engines import base, search


def _canon(view: Any) -> str:
    return json.dumps(base.to_jsonable(view), sort_keys=True)


def _step(engine: base.Engine, state: Any, rng: random.Random) -> Any:
    seat = base.first_awaited(engine, state)
    legal = engine.legal_actions(state, seat)
    pick = engine.choose(engine.view(state, seat), legal) if rng.random() < 0.6 else rng.choice(legal)
    return engine.apply(state, seat, pick)[0]


def states(engine: base.Engine, n: int, options: Mapping[str, Any], seed: int, every: int) -> list[Any]:
    """Every ``every``-th state of one seeded game (random and heuristic moves mixed)."""
    rng = random.Random(seed)
    state = engine.setup(seed, n, dict(options))
    out = []
    i = 0
    while engine.outcome(state) is None:
        if i % every == 0:
            out.append(state)
        state = _step(engine, state, rng)
        i += 1
    return out


def check_determinize(
    engine: base.Engine,
    n: int,
    options: Mapping[str, Any] | None = None,
    *,
    seeds: range = range(3),
    every: int = 7,
    samples: int = 2,
    playon: int = 40,
) -> int:
    """Run the determinize checks; returns how many samples differed from the true state."""
    opts = dict(options or {})
    differed = 0
    checked = 0
    for seed in seeds:
        for state in states(engine, n, opts, seed, every):
            truth = base.state_fingerprint(state)
            awaited = engine.to_move(state)
            for seat in range(n):
                view = engine.view(state, seat)
                kept = copy.deepcopy(view)
                want = _canon(view)
                for k in range(samples):
                    rng = random.Random(seed * 1000 + k)
                    d = engine.determinize(view, rng)
                    assert _canon(view) == _canon(kept), "determinize changed the view it read"
                    got = _canon(engine.view(d, seat))
                    assert got == want, f"seed {seed} seat {seat}: view of the sample differs\n{got}\n{want}"
                    engine.invariants(d)
                    if seat in awaited:
                        assert engine.legal_actions(d, seat) == engine.legal_actions(state, seat)
                    differed += base.state_fingerprint(d) != truth
                    checked += 1
                    walk = random.Random(k)
                    s = d
                    for _ in range(playon):
                        if engine.outcome(s) is not None:
                            break
                        s = _step(engine, s, walk)
    assert checked, "no state was checked"
    if engine.hidden_hands or engine.name in ("ra", "pralaya", "kathai", "phraya"):
        assert differed, "no sample ever differed from the true state: nothing hidden was sampled"
    return differed


def check_search(
    engine: base.Engine,
    n: int,
    options: Mapping[str, Any] | None = None,
    *,
    seeds: range = range(2),
    every: int = 11,
    iterations: int = 24,
) -> int:
    """Run the search checks with a small budget; returns how many decisions were searched."""
    opts = dict(options or {})
    searched = 0
    for seed in seeds:
        for state in states(engine, n, opts, seed, every):
            seat = base.first_awaited(engine, state)
            legal = engine.legal_actions(state, seat)
            view = engine.view(state, seat)
            got = search.search(engine, view, legal, iterations, 60.0, seed)
            assert got.action in legal
            assert (
                search.search(engine, copy.deepcopy(view), list(legal), iterations, 60.0, seed).action
                == got.action
            )
            # another true state with the same view for this seat: the same move
            other = engine.determinize(view, random.Random(seed + 77))
            assert _canon(engine.view(other, seat)) == _canon(view)
            again = search.search(
                engine, engine.view(other, seat), engine.legal_actions(other, seat), iterations, 60.0, seed
            )
            assert again.action == got.action
            searched += len(legal) > 1
    assert searched, "no decision with a choice was searched"
    return searched
