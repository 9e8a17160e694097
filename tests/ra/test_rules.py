"""Ra rules: set-up, the rulings (docs/rules/ra.md#rulings), every option
(docs/rules/ra.md#options), the action grammar (docs/rules/ra.md#actions), scoring
(docs/rules/ra.md#scoring), invariants (docs/rules/ra.md#invariants), rejections, and the speed
devices that must keep the outward results (the written-out shuffle, set-up, apply)."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from engines import base
from engines.base import (
    BadNotation,
    BadOption,
    Event,
    GameOver,
    IllegalAction,
    NotYourTurn,
    play,
    state_fingerprint,
)
from engines.ra import data
from engines.ra import state as ra_rng
from engines.ra.positions import boxed, build, held
from engines.ra.rules import RaEngine
from engines.ra.scoring import civ_points, epoch_rows, monument_points, river_points
from engines.ra.state import DISCARD, GOD_MORE, IDX, TURN, State, new_state
from tests.ra.helpers import A, B, C, D, E, auction, breakdown, finished, own, reason, run


def _random_states(n: int, opts: dict[str, Any], seeds: int = 3) -> Iterator[State]:
    for seed in range(seeds):
        rng = random.Random(seed)
        s = E.setup(seed, n, opts)
        while True:
            yield s
            if E.outcome(s):
                break
            seat = E.to_move(s)[0]
            s, _ = E.apply(s, seat, rng.choice(E.legal_actions(s, seat)))


def epoch_row(state: State, epoch: int, seat: int) -> dict[str, int]:
    """{category: points} of ``seat`` in the scored ``epoch``, plus the floor adjustment."""
    for ep, rows in state.history:
        if ep == epoch:
            points, floor, _total, _running = rows[seat]
            return {**dict(zip(data.CATEGORIES, points, strict=True)), "floor": floor}
    raise AssertionError(f"epoch {epoch} not scored")


def _final(n: int, up: Sequence[Sequence[int]], **kw: Any) -> State:
    s = build(n, epoch=3, cur=A, ra_track=data.RA_LIMIT[n] - 1, bag_front=["ra"], up=up, **kw)
    s, _ = run(s, (A, "draw"))
    return s


def _end_epoch(n: int = 3, epoch: int = 1, **kw: Any) -> State:
    s = build(n, epoch=epoch, cur=A, ra_track=data.RA_LIMIT[n] - 1, bag_front=["ra"], **kw)
    s, _ = run(s, (A, "draw"))
    return s


def by_cat(row: Sequence[int]) -> dict[str, int]:
    return dict(zip(data.CATEGORIES, row, strict=True))


def _play_random(n: int, opts: dict[str, Any], seed: int) -> State:
    rng = random.Random(seed)
    s = E.setup(seed, n, opts)
    while E.outcome(s) is None:
        seat = E.to_move(s)[0]
        s, _ = E.apply(s, seat, rng.choice(E.legal_actions(s, seat)))
    return s


ENGINE = RaEngine()


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("traders", [True, False])
def test_setup(n: int, traders: bool) -> None:
    for seed in range(20):
        s = E.setup(seed, n, {"traders": traders})
        E.invariants(s)
        assert len(s.bag) == (200 if traders else 180) and s.bag_pos == 0
        assert sorted(s.up) == sorted(tuple(sorted(x)) for x in data.SUN_SETS[n])
        assert s.center == 1 and s.down == ((),) * n
        assert s.score == (10,) * n and s.crates == (0,) * n and s.ra_track == 0 and s.track == ()
        assert s.up[s.cur][-1] == data.MAX_SUN[n]  # the holder of the highest sun starts
        assert s.epoch == 1 and s.step == TURN
        v = E.view(s, None)
        assert v["ra_limit"] == data.RA_LIMIT[n] and v["bag_total"] == len(s.bag)
        assert v["bag"].get("trader", 0) == (20 if traders else 0)


def test_two_player_setup() -> None:
    firsts = set()
    for seed in range(12):
        s = E.setup(seed, 2, {})
        assert sorted(s.up) == [(2, 5, 6, 9), (3, 4, 7, 8)]
        assert 9 in s.up[s.cur]
        firsts.add(s.cur)
        assert E.view(s, None)["ra_limit"] == 6
    assert firsts == {0, 1}  # the sun sets are dealt at random


def test_sun_set_checks() -> None:
    for n, sets in data.SUN_SETS.items():
        suns = sorted([1, *[v for st in sets for v in st]])
        assert suns == list(range(1, data.MAX_SUN[n] + 1))
        if (
            n >= 3
        ):  # docs/rules/ra.md#sun-sets: totals unequal for 3-5 players (the two 2-player sets both sum to 22)
            assert len({sum(st) for st in sets}) == len(sets)
        assert 3 * data.RA_LIMIT[n] <= data.TILE_COUNT["ra"]
    assert sorted(sum(st) for st in data.SUN_SETS[2]) == [22, 22]
    assert data.TOTAL_TILES == 180 and data.TOTAL_TILES_TRADERS == 200


def test_setup_deterministic_and_bad_options() -> None:
    assert state_fingerprint(E.setup(3, 4, {})) == state_fingerprint(E.setup(3, 4, {}))
    assert state_fingerprint(E.setup(3, 4, {})) != state_fingerprint(E.setup(4, 4, {}))
    with pytest.raises(BadOption):
        E.setup(1, 6, {})
    with pytest.raises(BadOption):
        E.setup(1, 3, {"no_such_option": True})
    with pytest.raises(BadOption):
        E.setup(1, 3, {"traders": "maybe"})


def test_options_and_defaults() -> None:
    assert E.default_options() == {
        "traders": True,
        "god_takes_disaster": False,
        "score_floor_zero": True,
        "tiebreak_highest_sun": True,
        "invoke_on_empty_track": True,
        "drought_floods_first": True,
        "hidden_scores": False,
        "auto_pass": True,
    }
    s = E.setup(0, 3, {"hidden_scores": "yes"})
    assert E.view(s, None)["options"]["hidden_scores"] is True
    assert "Traders" in E.summary and E.name == "ra" and E.title == "Ra"
    assert E.property_options == ({}, {"traders": False})


def test_ruling1_god_may_not_take_god_or_disaster() -> None:
    s = build(
        3,
        cur=A,
        up=[(2, 5, 8), (3, 6, 9, 12), (4, 7, 10, 11)],
        down=[(13,), (), ()],
        track=["god", "funeral", "gold"],
        tiles=[{"god": 1}, {}, {}],
    )
    assert E.legal_actions(s, A) == ["draw", "invoke", "god gold"]
    assert reason(s, A, "god god") == "A god cannot take another god."
    assert reason(s, A, "god funeral") == "A god cannot take a disaster tile."
    assert reason(s, A, "god pharaoh") == "There is no Pharaoh on the auction track."
    s2 = build(3, cur=A, track=["gold"])
    assert reason(s2, A, "god gold") == "You hold no god tile."


def test_god_takes_disaster_option() -> None:
    s = build(
        3,
        cur=A,
        up=[(2, 5, 8), (3, 6, 9, 12), (4, 7, 10, 11)],
        down=[(13,), (), ()],
        track=["funeral", "unrest", "gold"],
        options={"god_takes_disaster": True},
        tiles=[{"god": 2, "pharaoh": 3, "astronomy": 2, "art": 1, "writing": 1}, {}, {}],
    )
    assert E.legal_actions(s, A) == ["draw", "invoke", "god gold", "god funeral", "god unrest"]
    s, _ = run(s, (A, "god funeral"))  # resolved at once: two pharaohs lost
    assert held(s, A)["pharaoh"] == 1 and s.step == GOD_MORE
    assert boxed(s) == {"god": 1, "funeral": 1, "pharaoh": 2}
    s, _ = run(s, (A, "god unrest"))  # a choice among three civilization types
    assert s.step == DISCARD and E.legal_actions(s, A) == [
        "discard astronomy",
        "discard writing",
        "discard art",
    ]
    s, _ = run(s, (A, "discard astronomy"), (A, "discard writing"))
    assert held(s, A) == {"pharaoh": 1, "astronomy": 1, "art": 1}
    assert s.step == TURN and s.cur == B  # no god left: the turn passes on


def test_ruling2_several_gods_and_full_track() -> None:
    full = ["gold", "pharaoh", "nile", "flood", "art", "temple", "pharaoh", "nile"]
    s = build(
        3,
        cur=A,
        up=[(2, 5, 8), (3, 6, 9, 12), (4, 7, 10, 11)],
        down=[(13,), (), ()],
        track=full,
        tiles=[{"god": 3}, {}, {}],
    )
    assert E.legal_actions(s, A) == [
        "invoke",
        "god gold",
        "god pharaoh",
        "god nile",
        "god flood",
        "god art",
        "god temple",
    ]
    s, _ = run(s, (A, "god pharaoh"), (A, "god pharaoh"))
    assert s.step == GOD_MORE and held(s, A) == {"god": 1, "pharaoh": 2}
    s, _ = run(s, (A, "done"))
    assert s.step == TURN and s.cur == B and len(s.track) == 6
    assert reason(s, B, "done").startswith("`done` only ends a turn after using a god")


def test_ruling3_invoke_on_empty_track_is_a_sun_swap() -> None:
    s = build(3, cur=A)
    assert E.legal_actions(s, A) == ["draw", "invoke"]
    s, ev = run(s, (A, "invoke"), (B, "pass"), (C, "pass"))
    assert reason(s, A, "pass") == "You must bid: you invoked Ra on this track."
    s, ev = run(s, (A, "bid 13"))
    assert s.up[A] == (2, 5, 8) and s.down[A] == (1,) and s.center == 13 and s.cur == B
    off = build(3, cur=A, options={"invoke_on_empty_track": False})
    assert E.legal_actions(off, A) == ["draw"]
    assert reason(off, A, "invoke") == "The auction track is empty: draw a tile first."


def test_empty_bag() -> None:
    s = build(3, cur=A, track=["gold"], rest_to_box=True)
    assert E.legal_actions(s, A) == ["invoke"]
    assert reason(s, A, "draw") == "The bag is empty: invoke Ra."
    empty = build(3, cur=A, options={"invoke_on_empty_track": False}, rest_to_box=True)
    assert E.legal_actions(empty, A) == ["invoke"]  # even with the option off
    E.invariants(empty)
    assert E.view(empty, None)["bag_total"] == 0


def test_ruling4_forced_only_in_voluntary_auctions() -> None:
    s = build(3, cur=C, ra_track=2, bag_front=["ra"])
    s, _ = run(s, (C, "draw"), (A, "pass"), (B, "pass"))
    assert "pass" in E.legal_actions(s, C)  # a Ra-tile auction may go unsold
    v = E.view(s, C)
    assert auction(v)["forced"] is False and auction(v)["kind"] == "ra_tile"


def test_ruling6_play_resumes_left_of_the_ra_player() -> None:
    s = build(3, cur=A, track=["gold"])
    s, _ = run(s, (A, "invoke"), (B, "pass"), (C, "bid 4"), (A, "pass"))
    assert held(s, C) == {"gold": 1} and s.cur == B and s.step == TURN


def test_ruling7_seats_without_suns_are_skipped() -> None:
    s = build(3, cur=A, up=[(2, 5, 8, 13), (), (4, 7, 10, 11)], down=[(), (3, 6, 9, 12), ()], track=["gold"])
    s, _ = run(s, (A, "invoke"))
    assert s.a_order == (C, A)
    s, _ = run(s, (C, "pass"), (A, "bid 2"))
    assert s.cur == C  # B is skipped


def test_ruling8_epoch_ends_when_suns_run_out() -> None:
    s = build(
        3,
        cur=A,
        up=[(13,), (), ()],
        down=[(2, 5, 8), (3, 6, 9, 12), (4, 7, 10, 11)],
        track=["gold", "pharaoh"],
        tiles=[{}, {"pharaoh": 1}, {}],
    )
    s, ev = run(s, (A, "invoke"), (A, "bid 13"))
    assert s.epoch == 2 and s.step == TURN and s.center == 13
    assert held(s, A) == {"pharaoh": 1}  # the gold was discarded at the epoch end
    assert s.cur == B and all(s.down[q] == () for q in range(3))
    assert [e.kind for e in ev].count("epoch_score") == 1


def test_ruling9_unrest_before_earthquake() -> None:
    s = build(
        3,
        cur=A,
        up=[(2, 5, 8, 13), (3, 6, 9), (4, 7, 10, 11)],
        down=[(), (1,), ()],
        track=["earthquake", "unrest"],
        tiles=[{}, {"astronomy": 2, "art": 2, "temple": 2, "sphinx": 2}, {}],
    )
    s, _ = run(s, (A, "invoke"), (B, "bid 3"), (C, "pass"), (A, "pass"))
    assert s.step == DISCARD and E.legal_actions(s, B) == ["discard astronomy", "discard art"]
    v = E.view(s, None)
    assert v["pending"] == {"seat": B, "civ": 2, "monument": 2, "river": 0}
    assert reason(s, B, "discard temple") == "You must discard civilization tiles now."
    s, _ = run(s, (B, "discard art"), (B, "discard art"))
    assert E.legal_actions(s, B) == ["discard temple", "discard sphinx"]
    s, _ = run(s, (B, "discard sphinx"), (B, "discard temple"))
    assert held(s, B) == {"astronomy": 2, "temple": 1, "sphinx": 1} and s.cur == B


def test_disaster_with_fewer_tiles_discards_all() -> None:
    s = build(3, cur=A, track=["unrest", "unrest", "art", "earthquake"])
    s, ev = run(s, (A, "invoke"), (B, "pass"), (C, "pass"), (A, "bid 2"))
    assert held(s, A) == {} and boxed(s) == {"unrest": 2, "art": 1, "earthquake": 1}
    assert s.step == TURN


def test_ruling10_drought_choice_option() -> None:
    s = build(
        3,
        cur=A,
        up=[(2, 5, 8, 13), (3, 6, 9), (4, 7, 10, 11)],
        down=[(), (1,), ()],
        track=["drought"],
        options={"drought_floods_first": False},
        tiles=[{}, {"flood": 2, "nile": 3}, {}],
    )
    s, _ = run(s, (A, "invoke"), (B, "bid 3"), (C, "pass"), (A, "pass"))
    assert s.step == DISCARD and E.legal_actions(s, B) == ["discard nile", "discard flood"]
    s, _ = run(s, (B, "discard nile"), (B, "discard nile"))
    assert held(s, B) == {"flood": 2, "nile": 1} and s.step == TURN


def test_ruling15_traders_immune_to_disasters_and_count_nowhere_else() -> None:
    s = build(3, cur=A, track=["trader", "funeral", "drought", "unrest", "earthquake"])
    s, _ = run(s, (A, "invoke"), (B, "pass"), (C, "pass"), (A, "bid 2"))
    assert held(s, A) == {"trader": 1}
    prev = own(E.view(s, A))["preview"]
    assert prev["Traders"] == 1
    assert prev["Civilizations"] == -5 and prev["Gods"] == prev["Gold"] == 0


def test_ruling16_unsold_traders_leave_bag_traders_stay() -> None:
    s = build(
        3,
        cur=A,
        ra_track=7,
        bag_front=["ra"],
        track=["trader", "trader"],
        tiles=[{}, {"trader": 1}, {}],
        down=[(), (1,), ()],
        up=[(2, 5, 8, 13), (3, 6, 9), (4, 7, 10, 11)],
    )
    in_bag = list(s.bag).count(IDX["trader"])
    s, _ = run(s, (A, "draw"))
    assert s.epoch == 2 and boxed(s)["trader"] == 3
    assert list(s.bag[s.bag_pos :]).count(IDX["trader"]) == in_bag
    assert dict(zip(data.CATEGORIES, s.history[0][1][B][0], strict=True))["Traders"] == 1


def test_ruling17_auto_pass() -> None:
    def position(options: dict[str, bool] | None = None) -> State:
        up = [(2, 5, 8, 13), (3, 6, 9, 12), (4, 7, 10, 11)]
        return build(3, cur=A, up=up, track=["gold"], options=options)

    s, ev = run(position(), (A, "invoke"), (B, "bid 12"))
    assert E.to_move(s) == (A,)  # C held nothing above 12: passed by the engine
    assert any(e.kind == "pass" and e.data["auto"] for e in ev)
    s, _ = run(position({"auto_pass": False}), (A, "invoke"), (B, "bid 12"))
    assert E.to_move(s) == (C,) and E.legal_actions(s, C) == ["pass"]


def test_parse() -> None:
    assert E.parse("BID  013") == "bid 13"
    assert E.parse("  God   Step-Pyramid ") == "god step-pyramid"
    assert E.parse("discard ART") == "discard art"
    for bad in [
        "bid 99",
        "bid 0",
        "bid -1",
        "bid x",
        "god ra",
        "god",
        "discard gold",
        "fly",
        "",
        "draw 1",
        "bid 1 2",
    ]:
        with pytest.raises(BadNotation) as err:
            E.parse(bad)
        assert err.value.reason
    with pytest.raises(BadNotation) as err:
        E.parse("xyzzy")
    assert "`bid <sun>`" in err.value.reason


def test_action_space_round_trips() -> None:
    union = set()
    for n in range(2, 6):
        space = list(E.action_space(n))
        assert len(space) == len(set(space))
        for a in space:
            assert E.parse(a) == a and E.parse(a.upper()) == a
        union |= set(space)
    assert "bid 16" in union and "bid 1" in union and "bid 17" not in union
    assert (
        max(
            len(E.legal_actions(E.setup(s, n, {}), E.setup(s, n, {}).cur))
            for s in range(3)
            for n in range(2, 6)
        )
        <= 25
    )


def test_action_bound() -> None:
    assert [E.action_bound(n) for n in range(2, 6)] == [431, 554, 641, 782]


def test_rejections_change_nothing() -> None:
    s = build(3, cur=A, track=["pharaoh"] * 8)
    before = state_fingerprint(s)
    assert reason(s, A, "draw") == "The auction track is full: invoke Ra."
    with pytest.raises(NotYourTurn):
        play(E, s, B, "invoke")
    with pytest.raises(NotYourTurn):
        E.apply(s, B, "invoke")
    s2, _ = run(s, (A, "invoke"), (B, "bid 9"))
    assert reason(s2, C, "bid 7") == "You can only bid higher than 9."
    assert reason(s2, C, "bid 12").startswith("You do not hold sun 12 face up")
    assert reason(s2, C, "draw").startswith("You cannot draw now")
    assert state_fingerprint(s) == before


def test_apply_rejects_text_that_is_not_canonical() -> None:
    s = build(3, cur=A, track=["gold"])
    for text in ["god xyz", "BID 2", "bid", "discard ra", "fly away"]:
        with pytest.raises(IllegalAction) as err:
            E.apply(s, A, text)
        assert "is not a Ra move" in err.value.reason


def test_game_over_rejects() -> None:
    s = build(2, epoch=3, cur=A, ra_track=5, bag_front=["ra"])
    s, _ = run(s, (A, "draw"))
    assert E.to_move(s) == () and E.legal_actions(s, A) == []
    with pytest.raises(GameOver):
        play(E, s, A, "draw")
    with pytest.raises(GameOver):
        E.apply(s, A, "draw")


def test_apply_returns_a_new_value() -> None:
    s = E.setup(5, 4, {})
    before = state_fingerprint(s)
    new, events = E.apply(s, s.cur, "draw")
    assert new is not s and state_fingerprint(s) == before and events


def test_invariants_catch_broken_states() -> None:
    s = E.setup(1, 3, {})
    E.invariants(s)
    broken = [
        dataclasses.replace(s, center=2),  # a sun twice
        dataclasses.replace(s, bag_pos=1),  # a tile vanished
        dataclasses.replace(s, ra_track=8),  # Ra track past its limit
        dataclasses.replace(s, score=(-1, 10, 10)),  # below the floor
        dataclasses.replace(s, crates=(0, -1, 0)),
    ]
    for b in broken:
        with pytest.raises(AssertionError):
            E.invariants(b)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_epoch_starts_are_clean(n: int) -> None:
    for s in _random_states(n, {}, seeds=4):
        E.invariants(s)
        if s.step == TURN and not any(s.down) and s.epoch > 1:
            for q in range(n):
                assert set(held(s, q)) <= {"pharaoh", "nile", *data.MONUMENTS}
                assert s.crates[q] == 0 and s.tiles[q][IDX["trader"]] == 0
                assert len(s.up[q]) == len(data.SUN_SETS[n][0])


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_games_with_every_option_flipped(n: int) -> None:
    """The property suite plays the defaults and traders off; here every option is flipped."""
    flipped = {o.name: not o.default for o in E.options}
    for s in _random_states(n, flipped, seeds=8):
        E.invariants(s)
        if E.outcome(s) is None:
            seat = E.to_move(s)[0]
            legal = E.legal_actions(s, seat)
            assert legal and all(E.parse(a) == a for a in legal)
            assert all(E.legal_actions(s, q) == [] for q in range(n) if q != seat)
        for viewer in (None, 0):
            v = E.view(s, viewer)
            json.dumps(v)
            if not v["over"]:
                assert [p["score"] for p in v["players"]][1] is None  # hidden_scores


def test_parse_never_crashes_on_a_huge_number() -> None:
    """A bid with thousands of digits is text a player can type (Discord allows 6000 characters):
    leading zeros still normalise, and a huge value is refused as notation, not with a crash."""
    assert E.parse("bid " + "0" * 5000 + "13") == "bid 13"
    with pytest.raises(BadNotation) as err:
        E.parse("bid " + "9" * 5000)
    assert len(err.value.reason) < 200 and "suns run from 1 to 16" in err.value.reason


def test_two_disasters_of_one_kind_cost_four_tiles() -> None:
    """docs/rules/ra.md#disaster-cost: each disaster tile costs two tiles, so two funerals take
    four pharaohs and two unrests leave four civilization tiles owed."""
    s = build(3, cur=A, track=["funeral", "funeral"], tiles=[{"pharaoh": 5}, {}, {}])
    s, _ = run(s, (A, "invoke"), (B, "pass"), (C, "pass"), (A, "bid 2"))
    assert held(s, A) == {"pharaoh": 1}
    assert boxed(s) == {"pharaoh": 4, "funeral": 2}
    s = build(
        3,
        cur=A,
        up=[(2, 5, 8), (3, 6, 9, 12), (4, 7, 10, 11)],
        down=[(13,), (), ()],
        track=["unrest", "unrest"],
        tiles=[{"astronomy": 3, "art": 3}, {}, {}],
    )
    s, _ = run(s, (A, "invoke"), (B, "pass"), (C, "pass"), (A, "bid 2"))
    assert E.view(s, None)["pending"] == {"seat": A, "civ": 4, "monument": 0, "river": 0}
    s, _ = run(s, (A, "discard art"), (A, "discard art"), (A, "discard art"))
    assert s.step == TURN and held(s, A) == {"astronomy": 2}  # the fourth went automatically


def test_sun_ties_share_the_bonus_and_the_penalty() -> None:
    """docs/rules/ra.md#ties: every seat tied for the highest sun total gets +5, every seat tied for
    the lowest −5, seats in between 0."""
    s = _final(3, [(2, 5, 10, 13), (1, 8, 9, 12), (4, 6, 7, 11)])  # 30 / 30 / 28, centre 3
    assert [epoch_row(s, 3, q)["Suns"] for q in (A, B, C)] == [5, 5, -5]
    s = _final(3, [(1, 6, 9, 12), (2, 7, 8, 11), (4, 5, 10, 13)])  # 28 / 28 / 32, centre 3
    assert [epoch_row(s, 3, q)["Suns"] for q in (A, B, C)] == [-5, -5, 5]
    s = _final(4, [(5, 12, 13), (9, 10, 11), (4, 7, 8), (2, 3, 6)])  # 30 / 30 / 19 / 11
    assert [epoch_row(s, 3, q)["Suns"] for q in (A, B, C, D)] == [5, 5, 0, -5]


def test_floor_clamps_the_epoch_net_not_each_category() -> None:
    """docs/rules/ra.md#score-floor: the floor applies once to the epoch's net change. A from 1: pharaohs −2,
    civilizations (3 types) +5 → 4; clamping after each row would give 0 then 5."""
    s = _end_epoch(
        score=[1, 10, 10], tiles=[{"astronomy": 1, "writing": 1, "art": 1}, {"pharaoh": 1}, {"pharaoh": 1}]
    )
    row = epoch_row(s, 1, A)
    assert row["Pharaohs"] == -2 and row["Civilizations"] == 5 and row["floor"] == 0
    assert s.score[A] == 4


def test_traders_count_before_the_floor() -> None:
    """docs/rules/ra.md#traders: the Traders row is part of the epoch's net before the floor. A from 0:
    traders 2 + crates 1 = +3, civilizations −5 → −2 → 0 (floor +2),
    not max(0, −5) + 3 = 3.
    """
    s = _end_epoch(
        score=[0, 10, 10], tiles=[{"trader": 2}, {"astronomy": 1}, {"astronomy": 1}], crates=[1, 0, 0]
    )
    row = epoch_row(s, 1, A)
    assert row["Traders"] == 3 and row["Civilizations"] == -5 and row["floor"] == 2
    assert s.score[A] == 0


@pytest.mark.parametrize("epoch", [2, 3])
def test_traders_score_in_every_epoch(epoch: int) -> None:
    """Traders sheet, "Scoring in the First, Second & Third Epochs": 1 per trader and 1 per crate
    at the end of every epoch, the last one included."""
    s = _end_epoch(epoch=epoch, tiles=[{"trader": 2}, {"trader": 1}, {}], crates=[0, 4, 0])
    assert [epoch_row(s, epoch, q)["Traders"] for q in (A, B, C)] == [2, 5, 0]
    if epoch == 3:
        assert [breakdown(finished(s), q)["Traders"] for q in (A, B, C)] == [2, 5, 0]


def test_epoch_end_keeps_pharaohs_niles_and_monuments_only() -> None:
    """docs/rules/ra.md#epoch-end: at the end of epochs 1 and 2, gods, gold, floods, civilizations and traders
    leave the game; pharaohs, niles and monuments stay; crates go back to the supply; every sun
    turns face up."""
    s = _end_epoch(
        up=[(2, 5, 8), (3, 6, 9, 12), (4, 7, 10, 11)],
        down=[(13,), (), ()],
        tiles=[
            {
                "god": 1,
                "gold": 1,
                "pharaoh": 2,
                "nile": 3,
                "flood": 1,
                "astronomy": 1,
                "trader": 1,
                "pyramid": 2,
                "sphinx": 1,
            },
            {},
            {},
        ],
        crates=[0, 0, 0],
    )
    assert s.epoch == 2 and s.step == TURN
    assert held(s, A) == {"pharaoh": 2, "nile": 3, "pyramid": 2, "sphinx": 1}
    assert boxed(s) == {"god": 1, "gold": 1, "flood": 1, "astronomy": 1, "trader": 1, "ra": 8}
    assert s.up[A] == (2, 5, 8, 13) and s.down == ((), (), ())
    s = _end_epoch(tiles=[{}, {"trader": 1}, {"trader": 1}], crates=[3, 2, 0])
    assert s.crates == (0, 0, 0)


def test_ra_tile_auction_on_an_empty_track_sells_the_centre_sun() -> None:
    """A Ra tile drawn on an empty track still opens an auction; a bid wins only the centre sun
    (docs/rules/ra.md#auction: every track tile → winner, centre → winner's face-down suns)."""
    s = build(3, cur=A, bag_front=["ra"])
    s, ev = run(s, (A, "draw"))
    assert s.a_order == (B, C, A) and E.legal_actions(s, B)[-1] == "pass"
    s, ev = run(s, (B, "bid 3"), (C, "pass"), (A, "pass"))
    assert s.down[B] == (1,) and s.center == 3 and held(s, B) == {} and s.cur == B
    assert next(e for e in ev if e.kind == "win").data["tiles"] == []


def test_tables() -> None:
    assert [civ_points([0] * 5)] == [-5]
    assert [civ_points([1] * k + [0] * (5 - k)) for k in range(6)] == [-5, 0, 0, 5, 10, 15]
    assert civ_points([4, 0, 0, 0, 0]) == 0
    assert monument_points([0] * 8) == 0
    assert monument_points([1] * 8) == 15
    assert monument_points([0, 0, 0, 5, 0, 0, 0, 1]) == 17  # E1: 5 pyramids + 1 sphinx
    assert monument_points([0, 4, 0, 0, 3, 0, 0, 0]) == 17  # E1: temple 3, obelisk 4
    assert monument_points([2, 0, 0, 0, 0, 0, 0, 0]) == 1
    assert river_points(4, 0) == 0 and river_points(4, 1) == 5 and river_points(0, 2) == 2


def test_monuments_and_suns_only_in_the_final_epoch() -> None:
    tiles = [{"pyramid": 3}, {}, {}]
    s = build(3, epoch=2, tiles=tiles, down=[(), (), ()])
    r = by_cat(epoch_rows(s)[A])
    assert r["Monuments"] == 0 and r["Suns"] == 0
    s3 = build(3, epoch=3, tiles=tiles)
    r3 = [by_cat(x) for x in epoch_rows(s3)]
    assert r3[A]["Monuments"] == 1 + 5
    assert [x["Suns"] for x in r3] == [-5, 0, 5]  # totals 28 / 30 / 32


def test_all_equal_suns_score_nothing() -> None:
    # 2 players, centre 5: A 1+2+8+9 = 20, B 3+4+6+7 = 20
    s = build(2, epoch=3, up=[(1, 2, 8, 9), (3, 4, 6, 7)])
    assert s.center == 5
    assert [by_cat(r)["Suns"] for r in epoch_rows(s)] == [0, 0]


def test_two_player_pharaoh_tie_scores_nothing() -> None:
    s = build(2, tiles=[{"pharaoh": 3}, {"pharaoh": 3}])
    assert [by_cat(r)["Pharaohs"] for r in epoch_rows(s)] == [0, 0]
    s = build(2, tiles=[{"pharaoh": 3}, {"pharaoh": 1}])
    assert [by_cat(r)["Pharaohs"] for r in epoch_rows(s)] == [5, -2]


def test_pharaoh_zero_counts_as_fewest() -> None:
    s = build(3, tiles=[{"pharaoh": 2}, {}, {}])
    assert [by_cat(r)["Pharaohs"] for r in epoch_rows(s)] == [5, -2, -2]


def test_traders_row_only_with_the_module() -> None:
    s = build(3, tiles=[{"trader": 2}, {}, {}], crates=[0, 5, 0], down=[(), (), ()])
    assert [by_cat(r)["Traders"] for r in epoch_rows(s)] == [2, 5, 0]
    off = build(3, options={"traders": False}, crates=[0, 5, 0])
    assert [by_cat(r)["Traders"] for r in epoch_rows(off)] == [0, 0, 0]


def test_floor_is_applied_to_the_epoch_net_once() -> None:
    # A: gold 3, civilizations -5, pharaohs -2 => -4 from 2 => floored at 0 (floor +2)
    s = build(
        3,
        cur=B,
        ra_track=7,
        bag_front=["ra"],
        score=[2, 10, 10],
        tiles=[{"gold": 1}, {"pharaoh": 1}, {"pharaoh": 1}],
    )
    s = play(E, s, B, "draw").state
    points, floor, total, running = s.history[0][1][A]
    assert sum(points) == -4 and floor == 2 and total == -2 and running == 0 and s.score[A] == 0


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("opts", [{}, {"traders": False}, {"score_floor_zero": False}])
def test_breakdown_adds_up(n: int, opts: dict[str, Any]) -> None:
    for seed in range(6):
        s = _play_random(n, opts, seed)
        out = finished(s)
        assert len(s.history) == 3 and [h[0] for h in s.history] == [1, 2, 3]
        for q in range(n):
            b = breakdown(out, q)
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


def test_ranks_share_places_without_tiebreak() -> None:
    s = build(
        3,
        epoch=3,
        cur=A,
        ra_track=7,
        bag_front=["ra"],
        score=[40, 40, 20],
        up=[(2, 5, 8, 13), (3, 6, 9, 12), (4, 7, 10, 11)],
        options={"tiebreak_highest_sun": False},
    )
    # suns 28 / 30 / 32 => A -5, C +5; civilizations -5 each; pharaohs all equal
    s = play(E, s, A, "draw").state
    assert s.score == (30, 35, 20)
    out = finished(s)
    assert out.ranks == (2, 1, 3)
    s2 = build(
        3,
        epoch=3,
        cur=A,
        ra_track=7,
        bag_front=["ra"],
        score=[45, 40, 20],
        options={"tiebreak_highest_sun": False},
    )
    out2 = finished(play(E, s2, A, "draw").state)
    assert out2.scores == (35, 35, 20) and out2.ranks == (1, 1, 3) and out2.winners == (A, B)
    s3 = build(3, epoch=3, cur=A, ra_track=7, bag_front=["ra"], score=[45, 40, 20])
    out3 = finished(play(E, s3, A, "draw").state)
    assert out3.scores == (35, 35, 20) and out3.ranks == (1, 2, 3)  # A holds the 13, B the 12
    assert out3.notes[:2] == ("highest sun 13", "highest sun 12")


@pytest.mark.parametrize("length", [0, 1, 2, 3, 5, 17, 180, 200, 257])
def test_shuffle_draws_what_random_shuffle_draws(length: int) -> None:
    for seed in range(40):
        a, b = list(range(length)), list(range(length))
        ra, rb = random.Random(seed), random.Random(seed)
        ra.shuffle(a)
        ra_rng.shuffle(rb, b)
        assert a == b
        assert ra.getstate() == rb.getstate()


def test_setup_equals_the_constructor_and_consumes_the_rng_as_shuffle_does() -> None:
    for n in range(2, 6):
        for traders in (True, False):
            for seed in range(10):
                s = ENGINE.setup(seed, n, {"traders": traders})
                assert type(s) is State
                assert s == State(**{f.name: getattr(s, f.name) for f in dataclasses.fields(State)})
                rng = random.Random(seed)
                sets = list(data.SUN_SETS[n])
                rng.shuffle(sets)
                bag = sorted(s.bag)
                rng.shuffle(bag)
                assert tuple(bag) == s.bag
                assert s.up == tuple(tuple(sorted(x)) for x in sets)


def test_new_state_refuses_missing_or_unknown_fields() -> None:
    s = ENGINE.setup(1, 3, {})
    values = {f.name: getattr(s, f.name) for f in dataclasses.fields(State)}
    assert new_state(**values) == s
    del values["bag"]
    with pytest.raises(TypeError):
        new_state(**values)
    with pytest.raises(TypeError):
        new_state(**{**dataclasses.asdict(s), "colour": 1})


def test_apply_returns_real_states_and_events_and_leaves_the_old_state_alone() -> None:
    for n in (2, 3, 5):
        rng = random.Random(n)
        s = ENGINE.setup(n, n, {})
        while ENGINE.outcome(s) is None:
            seat = base.first_awaited(ENGINE, s)
            before = dataclasses.asdict(s)
            s2, events = ENGINE.apply(s, seat, rng.choice(ENGINE.legal_actions(s, seat)))
            assert dataclasses.asdict(s) == before
            assert type(s2) is State and type(events) is list
            with pytest.raises(dataclasses.FrozenInstanceError):
                s2.step = 0  # type: ignore[misc]
            for e in events:
                assert type(e) is Event
                assert e == Event(e.kind, e.text, dict(e.data))
                assert list(vars(e)) == ["kind", "text", "data", "private_to", "twin"]
            s = s2
