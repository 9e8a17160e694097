"""Ra rules: set-up, the rulings (docs/rules/ra.md#rulings), every option
(docs/rules/ra.md#options), the action grammar (docs/rules/ra.md#actions), the view
(docs/rules/ra.md#view and the schema of engines/ra/view.py), invariants (docs/rules/ra.md#invariants) and rejections with readable reasons."""
from __future__ import annotations

import dataclasses
import json
import random

import pytest

from engines.base import (BadNotation, BadOption, GameOver, IllegalAction, NotYourTurn, VIEW_KEYS,
                          play, state_fingerprint)
from engines.ra import data
from engines.ra.positions import boxed, build, held
from engines.ra.state import DISCARD, GOD_MORE, IDX, TURN
from ra_helpers import A, B, C, E, reason, run


# --------------------------------------------------------------------------- set-up

@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("traders", [True, False])
def test_setup(n, traders):
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


def test_two_player_setup():
    firsts = set()
    for seed in range(12):
        s = E.setup(seed, 2, {})
        assert sorted(s.up) == [(2, 5, 6, 9), (3, 4, 7, 8)]
        assert 9 in s.up[s.cur]
        firsts.add(s.cur)
        assert E.view(s, None)["ra_limit"] == 6
    assert firsts == {0, 1}  # the sun sets are dealt at random


def test_sun_set_checks():
    for n, sets in data.SUN_SETS.items():
        suns = sorted([1, *[v for st in sets for v in st]])
        assert suns == list(range(1, data.MAX_SUN[n] + 1))
        if n >= 3:  # docs/rules/ra.md#sun-sets: totals unequal for 3-5 players (the two 2-player sets both sum to 22)
            assert len({sum(st) for st in sets}) == len(sets)
        assert 3 * data.RA_LIMIT[n] <= data.TILE_COUNT["ra"]
    assert sorted(sum(st) for st in data.SUN_SETS[2]) == [22, 22]
    assert data.TOTAL_TILES == 180 and data.TOTAL_TILES_TRADERS == 200


def test_setup_deterministic_and_bad_options():
    assert state_fingerprint(E.setup(3, 4, {})) == state_fingerprint(E.setup(3, 4, {}))
    assert state_fingerprint(E.setup(3, 4, {})) != state_fingerprint(E.setup(4, 4, {}))
    with pytest.raises(BadOption):
        E.setup(1, 6, {})
    with pytest.raises(BadOption):
        E.setup(1, 3, {"no_such_option": True})
    with pytest.raises(BadOption):
        E.setup(1, 3, {"traders": "maybe"})


def test_options_and_defaults():
    assert E.default_options() == {
        "traders": True, "god_takes_disaster": False, "score_floor_zero": True,
        "tiebreak_highest_sun": True, "invoke_on_empty_track": True,
        "drought_floods_first": True, "hidden_scores": False, "auto_pass": True}
    s = E.setup(0, 3, {"hidden_scores": "yes"})
    assert E.view(s, None)["options"]["hidden_scores"] is True
    assert "Traders" in E.summary and E.name == "ra" and E.title == "Ra"
    assert E.property_options == ({}, {"traders": False})


# --------------------------------------------------------------------------- rulings

def test_ruling1_god_may_not_take_god_or_disaster():
    s = build(3, cur=A, up=[(2, 5, 8), (3, 6, 9, 12), (4, 7, 10, 11)], down=[(13,), (), ()],
              track=["god", "funeral", "gold"], tiles=[{"god": 1}, {}, {}])
    assert E.legal_actions(s, A) == ["draw", "invoke", "god gold"]
    assert reason(s, A, "god god") == "A god cannot take another god."
    assert reason(s, A, "god funeral") == "A god cannot take a disaster tile."
    assert reason(s, A, "god pharaoh") == "There is no Pharaoh on the auction track."
    s2 = build(3, cur=A, track=["gold"])
    assert reason(s2, A, "god gold") == "You hold no god tile."


def test_god_takes_disaster_option():
    s = build(3, cur=A, up=[(2, 5, 8), (3, 6, 9, 12), (4, 7, 10, 11)], down=[(13,), (), ()],
              track=["funeral", "unrest", "gold"], options={"god_takes_disaster": True},
              tiles=[{"god": 2, "pharaoh": 3, "astronomy": 2, "art": 1, "writing": 1}, {}, {}])
    assert E.legal_actions(s, A) == ["draw", "invoke", "god gold", "god funeral", "god unrest"]
    s, _ = run(s, (A, "god funeral"))  # resolved at once: two pharaohs lost
    assert held(s, A)["pharaoh"] == 1 and s.step == GOD_MORE
    assert boxed(s) == {"god": 1, "funeral": 1, "pharaoh": 2}
    s, _ = run(s, (A, "god unrest"))  # a choice among three civilization types
    assert s.step == DISCARD and E.legal_actions(s, A) == [
        "discard astronomy", "discard writing", "discard art"]
    s, _ = run(s, (A, "discard astronomy"), (A, "discard writing"))
    assert held(s, A) == {"pharaoh": 1, "astronomy": 1, "art": 1}
    assert s.step == TURN and s.cur == B  # no god left: the turn passes on


def test_ruling2_several_gods_and_full_track():
    full = ["gold", "pharaoh", "nile", "flood", "art", "temple", "pharaoh", "nile"]
    s = build(3, cur=A, up=[(2, 5, 8), (3, 6, 9, 12), (4, 7, 10, 11)], down=[(13,), (), ()],
              track=full, tiles=[{"god": 3}, {}, {}])
    assert E.legal_actions(s, A) == ["invoke", "god gold", "god pharaoh", "god nile", "god flood",
                                     "god art", "god temple"]
    s, _ = run(s, (A, "god pharaoh"), (A, "god pharaoh"))
    assert s.step == GOD_MORE and held(s, A) == {"god": 1, "pharaoh": 2}
    s, _ = run(s, (A, "done"))
    assert s.step == TURN and s.cur == B and len(s.track) == 6
    assert reason(s, B, "done").startswith("`done` only ends a turn after using a god")


def test_ruling3_invoke_on_empty_track_is_a_sun_swap():
    s = build(3, cur=A)
    assert E.legal_actions(s, A) == ["draw", "invoke"]
    s, ev = run(s, (A, "invoke"), (B, "pass"), (C, "pass"))
    assert reason(s, A, "pass") == "You must bid: you invoked Ra on this track."
    s, ev = run(s, (A, "bid 13"))
    assert s.up[A] == (2, 5, 8) and s.down[A] == (1,) and s.center == 13 and s.cur == B
    off = build(3, cur=A, options={"invoke_on_empty_track": False})
    assert E.legal_actions(off, A) == ["draw"]
    assert reason(off, A, "invoke") == "The auction track is empty: draw a tile first."


def test_empty_bag():
    s = build(3, cur=A, track=["gold"], rest_to_box=True)
    assert E.legal_actions(s, A) == ["invoke"]
    assert reason(s, A, "draw") == "The bag is empty: invoke Ra."
    empty = build(3, cur=A, options={"invoke_on_empty_track": False}, rest_to_box=True)
    assert E.legal_actions(empty, A) == ["invoke"]  # even with the option off
    E.invariants(empty)
    assert E.view(empty, None)["bag_total"] == 0


def test_ruling4_forced_only_in_voluntary_auctions():
    s = build(3, cur=C, ra_track=2, bag_front=["ra"])
    s, _ = run(s, (C, "draw"), (A, "pass"), (B, "pass"))
    assert "pass" in E.legal_actions(s, C)  # a Ra-tile auction may go unsold
    v = E.view(s, C)
    assert v["auction"]["forced"] is False and v["auction"]["kind"] == "ra_tile"


def test_ruling6_play_resumes_left_of_the_ra_player():
    s = build(3, cur=A, track=["gold"])
    s, _ = run(s, (A, "invoke"), (B, "pass"), (C, "bid 4"), (A, "pass"))
    assert held(s, C) == {"gold": 1} and s.cur == B and s.step == TURN


def test_ruling7_seats_without_suns_are_skipped():
    s = build(3, cur=A, up=[(2, 5, 8, 13), (), (4, 7, 10, 11)], down=[(), (3, 6, 9, 12), ()],
              track=["gold"])
    s, _ = run(s, (A, "invoke"))
    assert s.a_order == (C, A)
    s, _ = run(s, (C, "pass"), (A, "bid 2"))
    assert s.cur == C  # B is skipped


def test_ruling8_epoch_ends_when_suns_run_out():
    s = build(3, cur=A, up=[(13,), (), ()], down=[(2, 5, 8), (3, 6, 9, 12), (4, 7, 10, 11)],
              track=["gold", "pharaoh"], tiles=[{}, {"pharaoh": 1}, {}])
    s, ev = run(s, (A, "invoke"), (A, "bid 13"))
    assert s.epoch == 2 and s.step == TURN and s.center == 13
    assert held(s, A) == {"pharaoh": 1}  # the gold was discarded at the epoch end
    assert s.cur == B and all(s.down[q] == () for q in range(3))
    assert [e.kind for e in ev].count("epoch_score") == 1


def test_ruling9_unrest_before_earthquake():
    s = build(3, cur=A, up=[(2, 5, 8, 13), (3, 6, 9), (4, 7, 10, 11)], down=[(), (1,), ()],
              track=["earthquake", "unrest"],
              tiles=[{}, {"astronomy": 2, "art": 2, "temple": 2, "sphinx": 2}, {}])
    s, _ = run(s, (A, "invoke"), (B, "bid 3"), (C, "pass"), (A, "pass"))
    assert s.step == DISCARD and E.legal_actions(s, B) == ["discard astronomy", "discard art"]
    v = E.view(s, None)
    assert v["pending"] == {"seat": B, "civ": 2, "monument": 2, "river": 0}
    assert reason(s, B, "discard temple") == "You must discard civilization tiles now."
    s, _ = run(s, (B, "discard art"), (B, "discard art"))
    assert E.legal_actions(s, B) == ["discard temple", "discard sphinx"]
    s, _ = run(s, (B, "discard sphinx"), (B, "discard temple"))
    assert held(s, B) == {"astronomy": 2, "temple": 1, "sphinx": 1} and s.cur == B


def test_disaster_with_fewer_tiles_discards_all():
    s = build(3, cur=A, track=["unrest", "unrest", "art", "earthquake"])
    s, ev = run(s, (A, "invoke"), (B, "pass"), (C, "pass"), (A, "bid 2"))
    assert held(s, A) == {} and boxed(s) == {"unrest": 2, "art": 1, "earthquake": 1}
    assert s.step == TURN


def test_ruling10_drought_choice_option():
    s = build(3, cur=A, up=[(2, 5, 8, 13), (3, 6, 9), (4, 7, 10, 11)], down=[(), (1,), ()],
              track=["drought"], options={"drought_floods_first": False},
              tiles=[{}, {"flood": 2, "nile": 3}, {}])
    s, _ = run(s, (A, "invoke"), (B, "bid 3"), (C, "pass"), (A, "pass"))
    assert s.step == DISCARD and E.legal_actions(s, B) == ["discard nile", "discard flood"]
    s, _ = run(s, (B, "discard nile"), (B, "discard nile"))
    assert held(s, B) == {"flood": 2, "nile": 1} and s.step == TURN


def test_ruling15_traders_immune_to_disasters_and_count_nowhere_else():
    s = build(3, cur=A, track=["trader", "funeral", "drought", "unrest", "earthquake"])
    s, _ = run(s, (A, "invoke"), (B, "pass"), (C, "pass"), (A, "bid 2"))
    assert held(s, A) == {"trader": 1}
    prev = E.view(s, A)["me"]["preview"]
    assert prev["Traders"] == 1
    assert prev["Civilizations"] == -5 and prev["Gods"] == prev["Gold"] == 0


def test_ruling16_unsold_traders_leave_bag_traders_stay():
    s = build(3, cur=A, ra_track=7, bag_front=["ra"], track=["trader", "trader"],
              tiles=[{}, {"trader": 1}, {}], down=[(), (1,), ()],
              up=[(2, 5, 8, 13), (3, 6, 9), (4, 7, 10, 11)])
    in_bag = list(s.bag).count(IDX["trader"])
    s, _ = run(s, (A, "draw"))
    assert s.epoch == 2 and boxed(s)["trader"] == 3
    assert list(s.bag[s.bag_pos:]).count(IDX["trader"]) == in_bag
    assert dict(zip(data.CATEGORIES, s.history[0][1][B][0]))["Traders"] == 1


def test_ruling17_auto_pass():
    pos = dict(cur=A, up=[(2, 5, 8, 13), (3, 6, 9, 12), (4, 7, 10, 11)], track=["gold"])
    s, ev = run(build(3, **pos), (A, "invoke"), (B, "bid 12"))
    assert E.to_move(s) == (A,)  # C held nothing above 12: passed by the engine
    assert any(e.kind == "pass" and e.data["auto"] for e in ev)
    s, _ = run(build(3, **pos, options={"auto_pass": False}), (A, "invoke"), (B, "bid 12"))
    assert E.to_move(s) == (C,) and E.legal_actions(s, C) == ["pass"]


# --------------------------------------------------------------------------- grammar

def test_parse():
    assert E.parse("BID  013") == "bid 13"
    assert E.parse("  God   Step-Pyramid ") == "god step-pyramid"
    assert E.parse("discard ART") == "discard art"
    for bad in ["bid 99", "bid 0", "bid -1", "bid x", "god ra", "god", "discard gold", "fly",
                "", "draw 1", "bid 1 2"]:
        with pytest.raises(BadNotation) as err:
            E.parse(bad)
        assert err.value.reason
    with pytest.raises(BadNotation) as err:
        E.parse("xyzzy")
    assert "`bid <sun>`" in err.value.reason


def test_action_space_round_trips():
    union = set()
    for n in range(2, 6):
        space = list(E.action_space(n))
        assert len(space) == len(set(space))
        for a in space:
            assert E.parse(a) == a and E.parse(a.upper()) == a
        union |= set(space)
    assert "bid 16" in union and "bid 1" in union and "bid 17" not in union
    assert max(len(E.legal_actions(E.setup(s, n, {}), E.setup(s, n, {}).cur))
               for s in range(3) for n in range(2, 6)) <= 25


def test_action_labels():
    s = build(3, cur=A)
    labels = {a: E.action_label(s, A, a) for a in
              ["draw", "invoke", "bid 13", "pass", "god pharaoh", "discard astronomy", "done"]}
    assert labels == {"draw": "Draw a tile", "invoke": "Invoke Ra", "bid 13": "Bid 13",
                      "pass": "Pass", "god pharaoh": "God → Pharaoh",
                      "discard astronomy": "Discard Astronomy", "done": "Done"}


def test_action_bound():
    assert [E.action_bound(n) for n in range(2, 6)] == [431, 554, 641, 782]


# --------------------------------------------------------------------------- rejections

def test_rejections_change_nothing():
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


def test_apply_rejects_text_that_is_not_canonical():
    s = build(3, cur=A, track=["gold"])
    for text in ["god xyz", "BID 2", "bid", "discard ra", "fly away"]:
        with pytest.raises(IllegalAction) as err:
            E.apply(s, A, text)
        assert "is not a Ra move" in err.value.reason


def test_game_over_rejects():
    s = build(2, epoch=3, cur=A, ra_track=5, bag_front=["ra"])
    s, _ = run(s, (A, "draw"))
    assert E.to_move(s) == () and E.legal_actions(s, A) == []
    with pytest.raises(GameOver):
        play(E, s, A, "draw")
    with pytest.raises(GameOver):
        E.apply(s, A, "draw")


def test_apply_returns_a_new_value():
    s = E.setup(5, 4, {})
    before = state_fingerprint(s)
    new, events = E.apply(s, s.cur, "draw")
    assert new is not s and state_fingerprint(s) == before and events


# --------------------------------------------------------------------------- views

def _random_states(n, opts, seeds=3):
    for seed in range(seeds):
        rng = random.Random(seed)
        s = E.setup(seed, n, opts)
        while True:
            yield s
            if E.outcome(s):
                break
            seat = E.to_move(s)[0]
            s, _ = E.apply(s, seat, rng.choice(E.legal_actions(s, seat)))


def test_view_schema():
    keys = {"game", "viewer", "n_players", "to_move", "over", "headline", "options", "epoch",
            "step", "current", "ra_track", "ra_limit", "track", "center", "bag", "bag_total",
            "box", "auction", "pending", "players", "history", "me", "outcome"}
    seen_steps = set()
    for s in _random_states(3, {"auto_pass": False, "god_takes_disaster": True}):
        for viewer in (None, 0, 1, 2):
            v = E.view(s, viewer)
            assert set(v) == keys and set(VIEW_KEYS) <= keys
            json.dumps(v)
            assert v["bag_total"] == sum(v["bag"].values())
            seen_steps.add(v["step"])
            if v["auction"]:
                a = v["auction"]
                assert a["to_bid"][0] == v["to_move"][0] and len(a["bids"]) == a["idx"]
                assert set(a) == {"ra_player", "kind", "order", "idx", "high", "bids", "to_bid",
                                  "forced"}
            if viewer is not None:
                assert v["me"]["legal"] == E.legal_actions(s, viewer)
                assert set(v["me"]["preview"]) == set(data.CATEGORIES)
                assert v["me"]["prompt"]
            else:
                assert v["me"] is None
            for p in v["players"]:
                assert set(p) == {"seat", "up", "down", "tiles", "traders", "crates", "score"}
                assert all(k > 0 for k in p["tiles"].values())
    assert {"turn", "auction", "over"} <= seen_steps


def test_view_never_shows_bag_order():
    for s in _random_states(4, {}):
        secrets = list(E.secrets(s, None))
        for viewer in (None, 0, 3):
            text = json.dumps(E.view(s, viewer))
            assert all(x not in text for x in secrets)
            assert "bag_pos" not in text
        if len(s.bag) - s.bag_pos >= 9:
            assert secrets  # the check is live whenever nine tiles remain


def test_hidden_scores():
    s = build(3, cur=A, score=[17, 23, 31], options={"hidden_scores": True})
    v = E.view(s, B)
    assert [p["score"] for p in v["players"]] == [None, 23, None] and v["me"]["score"] == 23
    assert [p["score"] for p in E.view(s, None)["players"]] == [None, None, None]
    text = json.dumps(E.view(s, B))
    assert "17" not in text and "31" not in text  # other totals appear nowhere in the view
    # after an epoch, epoch totals are public but running totals stay private
    s = build(3, cur=A, ra_track=7, bag_front=["ra"], tiles=[{"gold": 1}, {}, {}],
              options={"hidden_scores": True})
    s, ev = run(s, (A, "draw"))
    v = E.view(s, C)
    rows = v["history"][0]["rows"]
    assert [r["running_total"] for r in rows] == [None, None, s.score[C]]
    assert [r["epoch_total"] for r in rows] == [-2, -5, -5]  # gold 3, civilizations -5
    epoch_event = next(e for e in ev if e.kind == "epoch_score")
    assert "→" not in epoch_event.text and "running_total" not in epoch_event.data["rows"][0]


def test_hidden_scores_revealed_at_the_end():
    s = build(2, epoch=3, cur=A, ra_track=5, bag_front=["ra"], options={"hidden_scores": True})
    s, _ = run(s, (A, "draw"))
    v = E.view(s, B)
    assert all(p["score"] is not None for p in v["players"]) and v["outcome"]
    assert all(r["running_total"] is not None for r in v["history"][-1]["rows"])


def test_headline_and_prompts():
    s = build(3, cur=A, track=["gold"])
    s, _ = run(s, (A, "invoke"), (B, "bid 9"))
    v = E.view(s, C)
    assert v["headline"] == "Epoch 1 · Auction (voluntary) · {s2} to bid · high 9 by {s1}"
    assert v["me"]["prompt"] == "High bid 9 ({s1}). Bid 10, 11 or pass."
    assert E.view(s, A)["me"]["prompt"] == "Waiting for {s2}."


def test_events_name_seats():
    s = E.setup(2, 3, {})
    setup_events = E.events_on_setup(s)
    assert setup_events and "{s%d}" % s.cur in setup_events[0].text
    s2, ev = E.apply(s, s.cur, "draw")
    assert ev[0].text.startswith("{s%d} draws" % s.cur) and ev[0].public


# --------------------------------------------------------------------------- invariants

def test_invariants_catch_broken_states():
    s = E.setup(1, 3, {})
    E.invariants(s)
    broken = [
        dataclasses.replace(s, center=2),                       # a sun twice
        dataclasses.replace(s, bag_pos=1),                      # a tile vanished
        dataclasses.replace(s, ra_track=8),                     # Ra track past its limit
        dataclasses.replace(s, score=(-1, 10, 10)),             # below the floor
        dataclasses.replace(s, crates=(0, -1, 0)),
    ]
    for b in broken:
        with pytest.raises(AssertionError):
            E.invariants(b)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_epoch_starts_are_clean(n):
    for s in _random_states(n, {}, seeds=4):
        E.invariants(s)
        if s.step == TURN and not any(s.down) and s.epoch > 1:
            for q in range(n):
                assert set(held(s, q)) <= {"pharaoh", "nile", *data.MONUMENTS}
                assert s.crates[q] == 0 and s.tiles[q][IDX["trader"]] == 0
                assert len(s.up[q]) == len(data.SUN_SETS[n][0])


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_games_with_every_option_flipped(n):
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
