"""Phraya's fast state shape (engines/phraya/state.py docstring): the legal list and the count of
end conditions a state may carry outside its fields always equal a fresh computation, no copy
carries them over stale, and ``apply`` never writes to the state it is given."""
from __future__ import annotations

import random

from engines import base
from engines.phraya import ENGINE as E
from engines.phraya import legal as flow
from engines.phraya.state import ACT, CARD, HELD, LEGAL, MOVE, conditions, put, put_player


def _walk(n: int, seed: int, opts: dict) -> tuple[int, int]:
    """Play one random game checking every step; returns how many states came out of ``apply``
    with a legal list and with a count already kept."""
    rng = random.Random(seed)
    s = E.setup(seed, n, opts)
    kept_lists = kept_counts = 0
    while E.outcome(s) is None:
        seat = base.first_awaited(E, s)
        kept = s.__dict__.get(LEGAL)
        if kept is not None:
            kept_lists += 1
            assert kept == (seat, tuple(flow.legal(s, seat))), (seed, n, s.step)
        held = s.__dict__.get(HELD)
        if held is not None:
            kept_counts += 1
            assert held == sum(conditions(s)), (seed, n, s.step)
        legal = E.legal_actions(s, seat)
        assert legal == flow.legal(s, seat)
        for q in range(n):
            if q != seat:
                assert E.legal_actions(s, q) == []
        before = base.state_fingerprint(s)
        same = put(s)
        after, _ = E.apply(s, seat, rng.choice(legal))
        assert after is not s and base.state_fingerprint(s) == before and s == same
        s = after
    assert LEGAL not in s.__dict__  # a finished game keeps no list
    return kept_lists, kept_counts


def test_kept_lists_and_counts_equal_fresh_ones() -> None:
    lists = counts = 0
    for n in (2, 3, 4):
        for opts in E.property_options:
            for seed in range(3):
                a, b = _walk(n, seed, dict(opts))
                lists += a
                counts += b
    assert lists > 100 and counts > 1000  # the shortcuts were taken, so the checks above bit


def _at(step: int, n: int = 3, seed: int = 0):
    rng = random.Random(seed)
    s = E.setup(seed, n, {})
    while s.step != step:
        seat = base.first_awaited(E, s)
        s, _ = E.apply(s, seat, rng.choice(E.legal_actions(s, seat)))
    return s


def test_a_copy_never_carries_a_stale_list() -> None:
    s = _at(CARD)
    seat = s.cur
    assert "play b2" in E.legal_actions(s, seat) and s.__dict__[LEGAL][0] == seat
    p = s.players[seat]
    t = put(s, players=tuple(put_player(x, hand=("b1",)) if q == seat else x
                             for q, x in enumerate(s.players)))
    assert LEGAL not in t.__dict__ and HELD not in t.__dict__
    assert E.legal_actions(t, seat) == ["play b1"]
    assert E.legal_actions(s, seat) == ["play " + c for c in p.hand]
    for step in (MOVE, ACT):
        u = _at(step, seed=1)
        assert LEGAL in u.__dict__  # apply left the list it had worked out
        d = E.determinize(E.view(u, u.cur), random.Random(5))
        assert E.legal_actions(d, d.cur) == flow.legal(d, d.cur)
        if step == MOVE:  # destinations depend on public facts only
            assert E.legal_actions(d, d.cur) == E.legal_actions(u, u.cur)


def test_the_kept_count_follows_a_king_offering() -> None:
    from engines.phraya.positions import build

    s = build(4, boats={0: "h10"}, barge="x10", step=ACT, king={f"c{i}": 1 for i in range(1, 6)},
              players={0: {"coins": 30, "goods": {"meat": 1}}})
    assert HELD not in s.__dict__ and "sell h10s 1" in E.legal_actions(s, 0)
    s, _ = E.apply(s, 0, "sell h10s 1")
    assert s.__dict__[HELD] == 0
    assert "king c6" in E.legal_actions(s, 0)
    s, _ = E.apply(s, 0, "king c6")
    assert s.__dict__[HELD] == 1 == sum(conditions(s))
