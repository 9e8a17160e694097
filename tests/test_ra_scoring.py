"""Ra scoring (docs/rules/ra.md#scoring): the tables, most/fewest ties, the floor, the score sheet and the outcome."""
from __future__ import annotations

import random

import pytest

from engines.base import play
from engines.ra import data
from engines.ra.positions import build
from engines.ra.scoring import civ_points, epoch_rows, monument_points, river_points
from ra_helpers import E

A, B, C = 0, 1, 2


def by_cat(row):
    return dict(zip(data.CATEGORIES, row))


def test_tables():
    assert [civ_points([0] * 5)] == [-5]
    assert [civ_points([1] * k + [0] * (5 - k)) for k in range(6)] == [-5, 0, 0, 5, 10, 15]
    assert civ_points([4, 0, 0, 0, 0]) == 0
    assert monument_points([0] * 8) == 0
    assert monument_points([1] * 8) == 15
    assert monument_points([0, 0, 0, 5, 0, 0, 0, 1]) == 17   # E1: 5 pyramids + 1 sphinx
    assert monument_points([0, 4, 0, 0, 3, 0, 0, 0]) == 17   # E1: temple 3, obelisk 4
    assert monument_points([2, 0, 0, 0, 0, 0, 0, 0]) == 1
    assert river_points(4, 0) == 0 and river_points(4, 1) == 5 and river_points(0, 2) == 2


def test_monuments_and_suns_only_in_the_final_epoch():
    tiles = [{"pyramid": 3}, {}, {}]
    s = build(3, epoch=2, tiles=tiles, down=[(), (), ()])
    r = by_cat(epoch_rows(s)[A])
    assert r["Monuments"] == 0 and r["Suns"] == 0
    s3 = build(3, epoch=3, tiles=tiles)
    r3 = [by_cat(x) for x in epoch_rows(s3)]
    assert r3[A]["Monuments"] == 1 + 5
    assert [x["Suns"] for x in r3] == [-5, 0, 5]  # totals 28 / 30 / 32


def test_all_equal_suns_score_nothing():
    # 2 players, centre 5: A 1+2+8+9 = 20, B 3+4+6+7 = 20
    s = build(2, epoch=3, up=[(1, 2, 8, 9), (3, 4, 6, 7)])
    assert s.center == 5
    assert [by_cat(r)["Suns"] for r in epoch_rows(s)] == [0, 0]


def test_two_player_pharaoh_tie_scores_nothing():
    s = build(2, tiles=[{"pharaoh": 3}, {"pharaoh": 3}])
    assert [by_cat(r)["Pharaohs"] for r in epoch_rows(s)] == [0, 0]
    s = build(2, tiles=[{"pharaoh": 3}, {"pharaoh": 1}])
    assert [by_cat(r)["Pharaohs"] for r in epoch_rows(s)] == [5, -2]


def test_pharaoh_zero_counts_as_fewest():
    s = build(3, tiles=[{"pharaoh": 2}, {}, {}])
    assert [by_cat(r)["Pharaohs"] for r in epoch_rows(s)] == [5, -2, -2]


def test_traders_row_only_with_the_module():
    s = build(3, tiles=[{"trader": 2}, {}, {}], crates=[0, 5, 0], down=[(), (), ()])
    assert [by_cat(r)["Traders"] for r in epoch_rows(s)] == [2, 5, 0]
    off = build(3, options={"traders": False}, crates=[0, 5, 0])
    assert [by_cat(r)["Traders"] for r in epoch_rows(off)] == [0, 0, 0]


def test_floor_is_applied_to_the_epoch_net_once():
    # A: gold 3, civilizations -5, pharaohs -2 => -4 from 2 => floored at 0 (floor +2)
    s = build(3, cur=B, ra_track=7, bag_front=["ra"], score=[2, 10, 10],
              tiles=[{"gold": 1}, {"pharaoh": 1}, {"pharaoh": 1}])
    s = play(E, s, B, "draw").state
    points, floor, total, running = s.history[0][1][A]
    assert sum(points) == -4 and floor == 2 and total == -2 and running == 0 and s.score[A] == 0


def _play_random(n, opts, seed):
    rng = random.Random(seed)
    s = E.setup(seed, n, opts)
    while E.outcome(s) is None:
        seat = E.to_move(s)[0]
        s, _ = E.apply(s, seat, rng.choice(E.legal_actions(s, seat)))
    return s


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("opts", [{}, {"traders": False}, {"score_floor_zero": False}])
def test_breakdown_adds_up(n, opts):
    for seed in range(6):
        s = _play_random(n, opts, seed)
        out = E.outcome(s)
        assert len(s.history) == 3 and [h[0] for h in s.history] == [1, 2, 3]
        for q in range(n):
            b = out.breakdown[q]
            assert sum(b.values()) == out.scores[q] == s.score[q]
            assert set(b) <= set(out.categories)
            assert ("Traders" in out.categories) == opts.get("traders", True)
            running = data.START_SCORE
            for _epoch, rows in s.history:
                points, floor, total, run_total = rows[q]
                assert total == sum(points) + floor and run_total == running + total
                running = run_total
            assert running == s.score[q]
            if not opts.get("score_floor_zero", True):
                assert "Floor" not in b
        assert set(out.winners) == {q for q in range(n) if out.ranks[q] == 1}
        assert len(out.winners) == 1  # suns are unique: the tie-break always decides


def test_ranks_share_places_without_tiebreak():
    s = build(3, epoch=3, cur=A, ra_track=7, bag_front=["ra"], score=[40, 40, 20],
              up=[(2, 5, 8, 13), (3, 6, 9, 12), (4, 7, 10, 11)],
              options={"tiebreak_highest_sun": False})
    # suns 28 / 30 / 32 => A -5, C +5; civilizations -5 each; pharaohs all equal
    s = play(E, s, A, "draw").state
    assert s.score == (30, 35, 20)
    out = E.outcome(s)
    assert out.ranks == (2, 1, 3)
    s2 = build(3, epoch=3, cur=A, ra_track=7, bag_front=["ra"], score=[45, 40, 20],
               options={"tiebreak_highest_sun": False})
    out2 = E.outcome(play(E, s2, A, "draw").state)
    assert out2.scores == (35, 35, 20) and out2.ranks == (1, 1, 3) and out2.winners == (A, B)
    s3 = build(3, epoch=3, cur=A, ra_track=7, bag_front=["ra"], score=[45, 40, 20])
    out3 = E.outcome(play(E, s3, A, "draw").state)
    assert out3.scores == (35, 35, 20) and out3.ranks == (1, 2, 3)  # A holds the 13, B the 12
    assert out3.notes[:2] == ("highest sun 13", "highest sun 12")
