"""Phraya's AIs: the easy heuristic, the playout policy and the evaluation the search uses."""

from __future__ import annotations

import random

import pytest

from engines import search
from engines.phraya import ENGINE as E
from engines.phraya import scoring
from engines.phraya.ai import heuristic, playout
from engines.phraya.apply import apply
from engines.phraya.data import board
from engines.phraya.state import CARD
from tests.search_helpers import states


@pytest.mark.parametrize("n", [2, 3, 4])
def test_ai_games_end_within_the_bound(n: int) -> None:
    for seed in range(2):
        s = E.setup(seed, n, {})
        k = 0
        while E.outcome(s) is None:
            seat = E.to_move(s)[0]
            a = E.choose(E.view(s, seat), E.legal_actions(s, seat))
            s, _ = E.apply(s, seat, a)
            k += 1
        assert k <= E.action_bound(n)
        out = E.outcome(s)
        assert out is not None and min(out.ranks) == 1


def test_ai_is_deterministic() -> None:
    s = E.setup(3, 3, {})
    for _ in range(60):
        seat = E.to_move(s)[0]
        v, legal = E.view(s, seat), E.legal_actions(s, seat)
        a = E.choose(v, legal)
        assert a == E.choose(v, legal) and a in legal
        s, _ = E.apply(s, seat, a)


def test_points_are_the_score_sheet_and_the_final_score_at_the_end() -> None:
    for n in (2, 3, 4):
        for s in states(E, n, {"round_limit": 10}, n + 10, 13):
            assert heuristic.points(s) == [sum(r.values()) for r in scoring.sheet(s, final=False)]
    s = E.setup(7, 3, {"round_limit": 4})
    while E.outcome(s) is None:
        seat = E.to_move(s)[0]
        s = E.apply(s, seat, E.choose(E.view(s, seat), E.legal_actions(s, seat)))[0]
    out = E.outcome(s)
    assert out is not None and heuristic.estimate(s) == [float(x or 0) for x in out.scores]


def test_evaluate_gives_rewards_that_favour_the_leader() -> None:
    for s in states(E, 3, {"round_limit": 10}, 2, 17):
        r = E.evaluate(s)
        assert len(r) == 3 and all(0.0 <= x <= 1.0 for x in r)
        assert abs(sum(r) - (search.WIN_WEIGHT + (1 - search.WIN_WEIGHT) * 1.5)) < 1e-6
    r = heuristic.rewards_of([40.0, 20.0], 5.0)
    assert r[0] > 0.95 and r[1] < 0.05


def test_policy_plays_legal_moves_and_beats_random_play() -> None:
    wins = 0
    for seed in range(6):
        s = E.setup(seed, 2, {"round_limit": 20})
        rng = random.Random(seed)
        while E.outcome(s) is None:
            seat = E.to_move(s)[0]
            legal = E.legal_actions(s, seat)
            a = E.playout_action(s, seat, rng) if seat == seed % 2 else rng.choice(legal)
            assert a in legal
            s = E.apply(s, seat, a)[0]
        out = E.outcome(s)
        assert out is not None
        wins += (seed % 2) in out.winners
    assert wins >= 5, wins


def test_evaluate_finishes_the_turn_under_way() -> None:
    s = next(x for x in states(E, 2, {"round_limit": 10}, 5, 1) if x.step == CARD and x.round > 2)
    after = s
    seat = s.cur
    after = apply(after, seat, playout.policy(after, seat, None, 0.0))[0]
    assert after.cur == seat and after.step != CARD  # mid-turn now
    E.evaluate(after)  # runs the rest of the turn with the policy; must not raise


def test_easy_places_its_starting_stall_for_a_majority_not_the_first_id() -> None:
    s = E.setup(3, 2, {})
    while s.step != CARD:
        seat = E.to_move(s)[0]
        s = E.apply(s, seat, E.choose(E.view(s, seat), E.legal_actions(s, seat)))[0]
    owned = [board.STALLS[i] for i, q in enumerate(s.owner) if q >= 0]
    # veg pays the most for a majority (14/7): the first to place takes one; the second would
    # only tie there and takes the best uncontested majority, fruit (12/6) (before, each seat
    # took the first id listed, whatever its good and whoever held that majority)
    assert sorted(str(s.board.stalls[x].good) for x in owned) == ["fruit", "veg"]
