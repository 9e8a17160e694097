"""``random.Random.shuffle`` written out for set-up, drawing exactly the same numbers.

Stored games replay from their seed, so set-up must consume the generator exactly as
``rng.shuffle(x)`` does. CPython's ``shuffle`` swaps ``x[i]`` with ``x[_randbelow(i + 1)]`` for
``i`` from ``len(x) - 1`` down to 1, and ``_randbelow(n)`` draws ``getrandbits(n.bit_length())``
until the value is below ``n``. :func:`shuffle` does the same with the bit lengths worked out
once per length (the bag's 200 swaps were a third of set-up). ``tests/test_ra_speed.py`` checks
it against ``random.Random.shuffle``.
"""

from __future__ import annotations

import random
from typing import Any

_STEPS: dict[int, tuple[tuple[int, int, int], ...]] = {}


def _steps(length: int) -> tuple[tuple[int, int, int], ...]:
    """``(i, i + 1, (i + 1).bit_length())`` for ``i`` from ``length - 1`` down to 1."""
    steps = _STEPS.get(length)
    if steps is None:
        steps = _STEPS[length] = tuple((i, i + 1, (i + 1).bit_length()) for i in reversed(range(1, length)))
    return steps


def shuffle(rng: random.Random, x: list[Any]) -> None:
    """``rng.shuffle(x)``: the same permutation, the same numbers drawn from ``rng``."""
    getrandbits = rng.getrandbits
    for i, n, k in _steps(len(x)):
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]
