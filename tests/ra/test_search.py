"""Ra's search AI: determinize (consistent with the seat's view at every player count, with and
without Traders), the search's moves (legal, seeded, reading only the view), the playout policy
and evaluation, and the easy heuristic's fix (its best sun is not spent on a poor first lot)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engines import base, search
from engines.ra.ai import heuristic as ai
from engines.ra.ai import playout
from engines.ra.ai.determinize import determinize
from engines.ra.positions import build
from engines.ra.state import IDX, RA
from tests.ra.helpers import E
from tests.search_helpers import check_determinize, check_search, states

A, B, C = 0, 1, 2


OPTION_SETS = [dict(o) for o in E.property_options]


MIXED = {"hidden_scores": True, "god_takes_disaster": True, "drought_floods_first": False, "auto_pass": False}


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("opts", OPTION_SETS, ids=["traders", "base"])
def test_determinize_matches_the_view(n: int, opts: dict[str, Any]) -> None:
    seeds = range(2) if n <= 3 else range(1)
    assert check_determinize(E, n, opts, seeds=seeds, every=9) > 0


@pytest.mark.parametrize("n", [2, 4])
def test_determinize_with_every_other_option_flipped(n: int) -> None:
    assert check_determinize(E, n, MIXED, seeds=range(1), every=9) > 0


def test_determinize_rebuilds_hidden_totals_from_the_public_epoch_totals() -> None:
    found = 0
    for state in states(E, 3, MIXED, seed=4, every=5):
        if not state.history:
            continue
        view = E.view(state, A)
        assert view["players"][B]["score"] is None  # hidden from A
        d = determinize(view, random.Random(1))
        assert d.score == state.score and d.history == state.history
        found += 1
    assert found


def test_determinize_shuffles_only_the_bag() -> None:
    state = states(E, 3, {}, seed=2, every=40)[1]
    view = E.view(state, B)
    left = sorted(state.bag[state.bag_pos :])
    bags = set()
    for k in range(20):
        d = determinize(view, random.Random(k))
        assert sorted(d.bag[d.bag_pos :]) == left
        assert (d.tiles, d.up, d.down, d.track, d.score, d.crates, d.box) == (
            state.tiles,
            state.up,
            state.down,
            state.track,
            state.score,
            state.crates,
            state.box,
        )
        bags.add(d.bag[d.bag_pos :])
    assert len(bags) == 20
    # the first tile drawn is spread as the counts say: Ra tiles about their share of the bag
    firsts = [determinize(view, random.Random(k)).bag[0] for k in range(2000)]
    share = left.count(RA) / len(left)
    assert abs(firsts.count(RA) / 2000 - share) < 0.04


def test_determinize_refuses_a_spectators_view() -> None:
    state = E.setup(1, 3, {})
    with pytest.raises(ValueError, match="own view"):
        determinize(E.view(state, None), random.Random(0))


@pytest.mark.parametrize("n", [2, 3])
def test_search_moves_are_legal_seeded_and_read_only_the_view(n: int) -> None:
    assert check_search(E, n, {}, seeds=range(1), every=17, iterations=16) > 0


def test_search_at_each_level_plays_a_legal_move_with_its_budget() -> None:
    state = states(E, 2, {}, seed=3, every=25)[2]
    seat = base.first_awaited(E, state)
    legal = E.legal_actions(state, seat)
    got = search.choose(E, E.view(state, seat), legal, "normal", seed=9)
    assert got.action in legal
    assert got.iterations == E.search_iterations["normal"] or got.capped or len(legal) == 1
    assert E.search_iterations["hard"] > E.search_iterations["normal"]


def test_playout_policy_plays_legal_moves_to_the_end() -> None:
    rng = random.Random(5)
    for n in (2, 3, 5):
        for opts in OPTION_SETS + [MIXED]:
            s = E.setup(n, n, opts)
            moves = 0
            while E.outcome(s) is None:
                seat = E.to_move(s)[0]
                a = E.playout_action(s, seat, rng)
                assert a in E.legal_actions(s, seat)
                s = E.step(s, seat, a)
                moves += 1
            assert moves <= E.action_bound(n)


def test_evaluate_is_a_reward_in_range_and_favours_the_leader() -> None:
    for state in states(E, 3, {}, seed=6, every=20):
        r = E.evaluate(state)
        assert len(r) == 3 and all(0.0 <= x <= 1.0 for x in r)
    ahead = build(3, epoch=3, score=[40, 10, 10], ra_track=7)
    r = E.evaluate(ahead)
    assert r[A] > 0.9 and max(r[B], r[C]) < 0.2
    even = build(2, score=[10, 10])
    assert E.evaluate(even)[A] == pytest.approx(E.evaluate(even)[B], abs=0.05)


def test_lot_value_counts_disasters_and_new_types() -> None:
    s = build(3, cur=A, tiles=[{"pharaoh": 3}, {}, {}])
    civ_new = playout.lot_value(s, A, (IDX["astronomy"],))
    s2 = build(3, cur=A, tiles=[{"astronomy": 1}, {}, {}])
    assert civ_new > playout.lot_value(s2, A, (IDX["astronomy"],))  # a duplicate is worth less
    assert playout.lot_value(s, A, (IDX["funeral"],)) < 0  # two of A's pharaohs go
    assert playout.lot_value(s, B, (IDX["funeral"],)) == 0  # B has none to lose
    gold = playout.lot_value(s, A, (IDX["gold"],))
    assert gold == pytest.approx(3.0)


def test_policy_bids_on_a_rich_lot_and_passes_on_a_poor_one() -> None:
    rich = build(3, cur=A, track=["gold", "gold", "pharaoh", "astronomy", "writing", "art"])
    s = base.play(E, rich, A, "invoke").state
    assert playout.policy(s, B, E.legal_actions(s, B)) == "bid 3"
    poor = build(3, cur=A, track=["nile"])
    s = base.play(E, poor, A, "invoke").state
    assert playout.policy(s, B, E.legal_actions(s, B)) == "pass"


def test_search_actions_keep_pass_and_the_lowest_and_highest_bids() -> None:
    s = base.play(E, build(3, cur=A, track=["gold"]), A, "invoke").state
    assert E.legal_actions(s, B) == ["bid 3", "bid 6", "bid 9", "bid 12", "pass"]
    assert E.search_actions(s, B) == ["bid 3", "bid 12", "pass"]
    s = base.play(E, base.play(E, s, B, "pass").state, C, "pass").state
    assert E.search_actions(s, A) == ["bid 2"]  # forced, and last: the lowest sun only
    empty = build(3, cur=A)
    assert E.legal_actions(empty, A) == ["draw", "invoke"]
    assert E.search_actions(empty, A) == ["draw"]  # a swap of 2 for the centre 1 gains nothing
    swap = build(3, cur=A, up=[(1, 5, 8, 13), (3, 6, 9, 12), (4, 7, 10, 11)])  # centre 2 for a 1
    assert E.search_actions(swap, A) == ["draw"]
    late = build(3, cur=A, up=[(2, 5, 8), (3, 6, 9, 12), (4, 7, 10, 11)], down=[(1,), (), ()])
    assert late.center == 13 and E.search_actions(late, A) == ["draw", "invoke"]  # 2 for 13


def test_easy_does_not_spend_its_best_sun_on_a_poor_first_lot() -> None:
    # 3p epoch 1: A holds 13 and invokes on a three-tile lot; B bids 9, C bids 10: A's only
    # bid is its best sun, 13
    s = build(3, cur=A, track=["gold", "pharaoh", "astronomy"])
    s = base.play(E, s, A, "invoke").state
    s = base.play(E, s, B, "bid 9").state
    s = base.play(E, s, C, "bid 10").state
    seat = A
    legal = E.legal_actions(s, seat)
    assert legal == ["bid 13", "pass"]
    view = E.view(s, seat)
    assert ai.lot_value(view) >= 1 + 0.25 * 13  # worth the old threshold: the old AI bid 13
    assert E.choose(view, legal) == "pass"


def test_easy_still_spends_its_best_sun_on_a_rich_lot_or_its_last_sun() -> None:
    rich = build(3, cur=A, track=["gold", "gold", "pharaoh", "astronomy", "writing", "art", "god"])
    s = base.play(E, rich, A, "invoke").state
    s = base.play(E, s, B, "bid 12").state  # C, with 11 at most, is passed automatically
    assert E.legal_actions(s, A) == ["bid 13", "pass"]
    assert E.choose(E.view(s, A), E.legal_actions(s, A)) == "bid 13"
    last = build(
        3,
        cur=B,
        up=[(13,), (3, 6, 9, 12), (4, 7, 10, 11)],
        down=[(2, 5, 8), (), ()],
        track=["gold", "pharaoh", "astronomy"],
    )
    s = base.play(E, base.play(E, last, B, "invoke").state, C, "bid 4").state
    assert E.legal_actions(s, A) == ["bid 13", "pass"]
    # A's last sun is no "best of several": it bids as the old heuristic did
    assert E.choose(E.view(s, A), E.legal_actions(s, A)) == "bid 13"


def test_easy_rarely_spends_its_best_sun_on_a_first_small_lot() -> None:
    """Measured over seeded all-easy games: the first lot of each epoch that is won with three
    tiles or fewer, won by a seat paying its highest face-up sun while it held others. Before the
    fix: 8, 11 and 51 of 180 first lots at 2, 3 and 4 players (seeds 0-59, 3 epochs each);
    after it: 1, 0, 0. Here a smaller sample at 3 and 4 players."""
    bad = total = 0
    for n in (3, 4):
        for seed in range(15):
            s = E.setup(seed, n, {})
            seen: set[int] = set()
            while E.outcome(s) is None:
                seat = E.to_move(s)[0]
                prev = s
                s = E.apply(s, seat, E.choose(E.view(s, seat), E.legal_actions(s, seat)))[0]
                if prev.epoch != s.epoch or s.epoch in seen:
                    continue
                won = [q for q in range(n) if len(s.down[q]) > len(prev.down[q])]
                if won:
                    seen.add(s.epoch)
                    w = won[0]
                    total += 1
                    bad += len(prev.up[w]) > 1 and s.center == max(prev.up[w]) and len(prev.track) <= 3
    assert total >= 80 and bad <= 1
