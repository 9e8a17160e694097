"""Kathai legal lists against brute force: every well-formed text that names only the seat's
own cards, kept when ``is_legal`` accepts it, sorted, must be exactly ``legal_actions``
(offers built from tables and cached pieces in ``offers.py`` included)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from engines.base import first_awaited
from engines.kathai import ENGINE as E
from engines.kathai.data import ANY, HAND_LIMIT, NGOODS, WANTS
from engines.kathai.notation import PROFIT, Move, format_move
from engines.kathai.state import ALL, REPLY, State

OPTIONS = (
    {},
    {"allow_gifts": True, "max_offers": 3},
    {"free_asking": True, "allow_gifts": True, "bribe_lock": "goods", "first_player": "seat0"},
)


def _subsets(hand: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    for mask in range(1 << len(hand)):
        yield tuple(c for i, c in enumerate(hand) if mask >> i & 1)


def _candidates(s: State, seat: int) -> set[str]:
    """Every well-formed text naming only ``seat``'s cards (a superset of its legal list)."""
    hand = s.hands[seat]
    moves = [Move("pass"), Move("buy"), Move("decline")]
    moves += [Move("swap", ids=(c,)) for c in hand]
    moves += [Move("bribe", pair=(a, b), pay=p) for a in range(NGOODS) for b in range(a + 1, NGOODS)
              for p in (PROFIT, *hand)]
    for sub in _subsets(hand):
        moves.append(Move("accept", ids=sub))
        if sub:
            moves += [Move("sell", ids=sub, goods=g) for g in range(NGOODS)]
        for t in (ALL, *range(s.n)):
            for w in range(len(WANTS)):
                for k in range(HAND_LIMIT + 1):
                    if (k == 0 and w != ANY) or (k == 0 and not sub):
                        continue
                    moves.append(Move("offer", ids=sub, target=t, want=w, k=k))
    return {format_move(m) for m in moves}


def _states(n: int, options: dict[str, object], seed: int) -> list[State]:
    """A few states of a random game: main, trading and reply steps, large hands preferred."""
    rng = random.Random(seed)
    s = E.setup(seed, n, options)
    picked: list[State] = []
    steps = 0
    while E.outcome(s) is None and len(picked) < 4:
        seat = first_awaited(E, s)
        big = len(s.hands[s.active]) >= 6
        if steps % 29 == 7 or (big and steps % 11 == 3 and s.step != REPLY):
            picked.append(s)
        s = E.apply(s, seat, rng.choice(E.legal_actions(s, seat)))[0]
        steps += 1
    return picked


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("oi", range(len(OPTIONS)))
def test_legal_lists_equal_brute_force(n: int, oi: int) -> None:
    states = _states(n, OPTIONS[oi], seed=10 * n + oi)
    assert states
    for s in states:
        for seat in range(s.n):
            legal = E.legal_actions(s, seat)
            if seat not in E.to_move(s):
                assert legal == []
                continue
            want = sorted(a for a in _candidates(s, seat) if E.is_legal(s, seat, a) is None)
            assert legal == want
