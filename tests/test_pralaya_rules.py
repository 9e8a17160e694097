"""Pralaya rules: the rulings (each test names its anchor in docs/rules/pralaya.md), the options
(docs/rules/pralaya.md#options), notation, views, invariants (docs/rules/pralaya.md#invariants)."""
from __future__ import annotations

import dataclasses
import json
import random

import pytest

from engines.base import BadNotation, BadOption, GameOver, IllegalAction, NotYourTurn, play, replay
from engines.base import state_fingerprint
from engines.pralaya import data
from engines.pralaya.positions import rig
from engines.pralaya.legal import buy_texts
from engines.pralaya.notation import ACTION_BOUND
from engines.pralaya.rules import PralayaEngine
from engines.pralaya.scoring import category_points, score_table
from engines.pralaya.state import (DISCARD, IS_OCEAN, N_CARDS, OVER, deal_island,
                                   island_avail)
from pralaya_helpers import E, fresh, act


def cell(state, name):
    return next(c["card"] for c in E.view(state, None)["island"] if c["cell"] == name)


def random_game(seed: int, n: int, opts=None, check=True):
    """A random playout; yields every state (checking the invariants when ``check``)."""
    rng = random.Random(seed)
    s = E.setup(seed, n, opts or {})
    states = [s]
    while E.outcome(s) is None:
        legal = E.legal_actions(s, s.active)
        if check:
            E.invariants(s)
            assert legal == sorted(legal)  # ASCII order, cells row-major (docs/rules/pralaya.md#actions)
        s, _ = E.apply(s, s.active, rng.choice(legal))
        states.append(s)
    if check:
        E.invariants(s)
    return states


# ------------------------------------------------------------------ rulings

def test_ruling_1_oceans_are_dealt_never_taken_discarded_or_refilled():
    # docs/rules/pralaya.md#oceans
    s = fresh()
    assert sum(IS_OCEAN[c] for c in s.deck + s.island if c >= 0) == 22
    ocean_cell = next(i for i, c in enumerate(s.island) if IS_OCEAN[c])
    name = data.ROW_LETTERS[ocean_cell // 5] + str(ocean_cell % 5 + 1)
    if s.step == 0:
        with pytest.raises(IllegalAction, match="Ocean"):
            play(E, s, s.active, f"take {name}")
    esc = rig(s, dhoni={0: "dhx"}, round=2, active=0)
    with pytest.raises(IllegalAction, match="Ocean"):
        play(E, esc, 0, f"discard {name}")
    # an Ocean cell never changes, whatever happens
    for seed in range(30):
        states = random_game(seed, 2 + seed % 4, check=False)
        for a, b in zip(states, states[1:]):
            for x, y in zip(a.island, b.island):
                if x >= 0 and IS_OCEAN[x]:
                    assert y == x


def test_ruling_2_at_least_one_relic_unless_none_affordable():
    # docs/rules/pralaya.md#at-least-one-relic
    s = rig(fresh(), island={"a1": "dem1", "b2": "gol1"}, round=2, active=0)
    with pytest.raises(IllegalAction) as err:
        play(E, s, 0, "done")
    assert err.value.reason == "You must take at least one card before `done`."
    with pytest.raises(IllegalAction, match="Take at least one card first"):
        play(E, s, 0, "pass")
    # second seat of round 1 (V 2) and only 3-cost relics: nothing is taken, BUY follows
    s = rig(fresh(first=1), island={"a1": "gol1", "b2": "bra1"}, active=0)
    assert s.v_start == 2 and s.step == 2 and s.turn_cards == ()


def simple(s):
    """A plain policy: take the first card, then `done`; never buy; discard the first cell."""
    legal = E.legal_actions(s, s.active)
    if s.step == 0:
        return "done" if "done" in legal else legal[0]
    return "pass" if s.step == 2 else legal[0]


def advance_to(s, seat):
    """Play ``simple`` moves (at least one) until ``seat`` starts a turn."""
    s, _ = act(s, simple(s))
    while s.active != seat:
        s, _ = act(s, simple(s))
    return s


def test_ruling_3_one_card_at_a_time_leftover_lost():
    # docs/rules/pralaya.md#one-relic-at-a-time
    s = rig(fresh(), island={"a1": "dem1", "a2": "man1", "c5": "gre1"}, round=2, active=0)
    s, ev = act(s, "take a1")
    assert [e.kind for e in ev] == ["take"] and s.v_left == 2 and s.step == 0
    s, _ = act(s, "done", "pass")
    s = advance_to(s, 0)
    assert s.v_start == 3 and s.v_left == 3


def test_ruling_4_round_one_vitality_two_players_and_veda_next_turn():
    # docs/rules/pralaya.md#round-one-vitality
    s = rig(fresh(first=1), hands={0: ["gol1"]}, island={"a1": "dem1", "a2": "man1", "b1": "gre1", "c1": "fos1"})
    assert s.active == 1 and s.v_start == 1
    s, _ = act(s, "take a1")  # V 1 spent: BUY comes by itself
    assert s.step == 2
    s, _ = act(s, "pass")
    assert s.active == 0 and s.v_start == 2 and s.round == 1
    s, _ = act(s, "take a2", "take b1")
    s, ev = act(s, "buy veda 1g 0s 0c")
    assert any(e.kind == "buy" and e.data["card"] == "ve1" for e in ev)
    assert s.round == 2 and s.active == 1 and s.v_start == 3
    s = advance_to(s, 0)
    assert s.v_start == 4


def test_ruling_5_buy_with_coins_just_taken_and_once_per_turn():
    # docs/rules/pralaya.md#one-buy-a-turn
    s = rig(fresh(), island={"a1": "gol1", "b1": "dem1"}, round=2, active=0)
    s, _ = act(s, "take a1")
    assert s.step == 2 and "buy veda 1g 0s 0c" in E.legal_actions(s, 0)
    s, _ = act(s, "buy veda 1g 0s 0c")
    assert s.active == 1 and s.veda[0] == 1
    # a seat with a Veda is offered no Veda, and may buy a Dhoni later
    s = rig(fresh(), hands={0: ["sil1", "sil2", "sil3"]}, veda=[0], dhoni={1: "dhx"},
            island={"a1": "dem1", "b1": "man1"}, round=3, active=0)
    s, _ = act(s, "take a1", "done")
    legal = E.legal_actions(s, 0)
    assert not any(a.startswith("buy veda") for a in legal) and "buy dhoni 0g 3s 0c" in legal
    with pytest.raises(IllegalAction, match="already have a Veda"):
        play(E, s, 0, "buy veda 0g 2s 0c")
    s, _ = act(s, "buy dhoni 0g 3s 0c")
    assert s.dhoni[0] >= 0 and s.veda[0] == 1


def test_ruling_6_irreducible_payments_and_no_change():
    # docs/rules/pralaya.md#irreducible-payments
    for g in range(6):
        for si in range(7):
            for c in range(5):
                for price in (2, 4, 7, 10):
                    for a in buy_texts(g, si, c, price, 0):
                        x, y, z = (int(t[:-1]) for t in a.split()[2:])
                        total = 6 * x + 3 * y + z
                        smallest = 1 if z else 3 if y else 6
                        assert total >= price and total - smallest < price
    s = rig(fresh(), hands={0: ["gol1", "cop1"]}, island={"a1": "dem1", "b1": "man1"}, round=2, active=0)
    s, _ = act(s, "take a1", "done")
    with pytest.raises(IllegalAction, match="more than needed"):
        play(E, s, 0, "buy veda 1g 0s 1c")
    s, _ = act(s, "buy veda 1g 0s 0c")
    assert "gol1" in E.view(s, None)["discard"] and E.view(s, 0)["me"]["hand"] == {"cop": 1, "dem": 1}


def test_ruling_7_dhoni_x_always_buyable_even_with_no_coins():
    # docs/rules/pralaya.md#dhoni-x
    s = rig(fresh(), island={"a1": "dem1", "b1": "man1"}, round=2, active=0)
    s, _ = act(s, "take a1", "done")
    assert "buy dhoni 0g 0s 0c" in E.legal_actions(s, 0)
    s2 = rig(fresh(), hands={0: ["sil1", "cop1"]}, island={"a1": "dem1", "b1": "man1"}, round=2, active=0)
    s2, _ = act(s2, "take a1", "done")
    with pytest.raises(IllegalAction, match="Dhoni X takes all your coins"):
        play(E, s2, 0, "buy dhoni 0g 1s 0c")


def test_ruling_8_escaped_seats_discard_and_keep_coin_points():
    # docs/rules/pralaya.md#escaped-discard
    s = rig(fresh(), hands={0: ["sil1", "sil2", "sil3"]}, dhoni={0: "dhx"},
            island={"a1": "dem1", "b1": "man1"}, round=2, active=0)
    assert s.step == DISCARD
    legal = E.legal_actions(s, 0)
    assert legal == ["discard a1", "discard b1"]
    for bad, match in (("take a1", "escaped"), ("buy dhoni 0g 1s 0c", "never buy"), ("pass", "escaped"),
                       ("done", "escaped")):
        with pytest.raises(IllegalAction, match=match):
            play(E, s, 0, bad)
    s, ev = act(s, "discard a1")
    assert not any(e.kind == "buy" for e in ev) and s.active == 1
    _, scores, _ = score_table([{"sil": 3}, {}], [False, False], [True, False], 0, False)
    assert scores[0] == 9


def test_ruling_9_refill_row_major_and_empty_cells_are_not_relics():
    # docs/rules/pralaya.md#refill-row-major
    s = rig(fresh(), island={"c5": "dem1", "a1": "man1", "b3": "gre1"}, deck_top=["cop1", "cop2", "cop3"],
            round=2, active=0)
    s, ev = act(s, "take c5", "take a1", "take b3")
    s, ev = act(s, "pass")
    assert [(e.data["cell"], e.data["card"]) for e in ev if e.kind == "refill"] == \
        [("a1", "cop1"), ("b3", "cop2"), ("c5", "cop3")]
    # two relics, one taken: at the next START exactly one relic is left -> last
    s = rig(fresh(), island={"a1": "dem1", "a2": "man1"}, deck_top=["oce5"], round=2, active=0)
    s, _ = act(s, "take a1", "done", "pass")
    assert s.last and s.active == 1


def test_ruling_10_last_turn_may_buy_and_ends_without_refill():
    # docs/rules/pralaya.md#last-turn
    s = rig(fresh(first=0), island={"b2": "urn1"})
    assert s.v_start == 1 and s.last and s.step == 2  # the only relic costs 2: nothing taken
    deck = s.deck
    s, ev = act(s, "buy dhoni 0g 0s 0c")
    assert s.step == OVER and s.end_reason == "last_card" and s.deck == deck
    assert cell(s, "b2") == "urn1"
    assert E.outcome(s).scores == (0, None)


def test_ruling_11_all_escaped_checked_before_refill():
    # docs/rules/pralaya.md#all-escaped-before-refill
    s = rig(fresh(), hands={0: ["sil1", "sil2", "cop1"]}, dhoni={1: "dhx"},
            island={"a1": "dem1", "b1": "man1", "c1": "gre1"}, round=3, active=0)
    s, ev = act(s, "take a1", "done", "buy dhoni 0g 2s 1c")
    assert s.end_reason == "all_escaped" and cell(s, "a1") is None
    assert not any(e.kind == "refill" for e in ev)
    out = E.outcome(s)
    assert out.scores == (2, 0) and out.ranks == (1, 2)
    # the same scoring as any other end; a tie goes to the seat further from the first player
    assert score_table([{}, {}], [False, False], [True, True], 0, False)[0] == (2, 1)


def test_ruling_12_pundit_types_max_13():
    # docs/rules/pralaya.md#pundit-types
    everything = {code: 1 for code in data.SCORING_TYPES}
    assert category_points(everything, True, True)["Pundits"] == 13
    assert category_points({"pun": 1, "cop": 1, "sil": 1, "gol": 1}, False, False)["Pundits"] == 4


def test_ruling_13_brahmin():
    # docs/rules/pralaya.md#brahmin
    for pac in range(5):
        assert category_points({"bra": 1, "dem": 3, "pac": pac}, False, True)["Demon Statues"] == 0
    assert category_points({"bra": 1}, True, True)["Brahmin"] == 15
    assert category_points({"bra": 1}, False, True)["Brahmin"] == 0


def test_ruling_14_fossil_majority_among_escaped_only():
    # docs/rules/pralaya.md#fossil-majority
    counts = [{"fos": 2}, {"fos": 1}, {"fos": 4}]
    assert score_table(counts, [False] * 3, [True, True, False], 0, False)[1][0] == 15
    assert score_table(counts, [False] * 3, [True, True, False], 0, True)[1][0] == 0
    assert score_table([{"fos": 0}, {"fos": 0}], [False] * 2, [True, True], 0, False)[1] == (0, 0)


def test_ruling_15_negative_totals_rank_above_non_escaped():
    # docs/rules/pralaya.md#negative-totals
    ranks, scores, _ = score_table([{"dem": 1, "pac": 1}, {"gol": 3}], [False] * 2, [True, False], 0, False)
    assert scores == (-6, None) and ranks == (1, 2)


def test_ruling_16_seeded_first_player_and_option():
    # docs/rules/pralaya.md#first-player
    firsts = {E.setup(seed, 4, {}).first for seed in range(60)}
    assert firsts == {0, 1, 2, 3}
    assert E.setup(9, 4, {}).first == E.setup(9, 4, {}).first
    assert all(E.setup(seed, 3, {"first_seat": 2}).first == 2 for seed in range(5))
    with pytest.raises(BadOption):
        E.setup(1, 3, {"first_seat": 3})


def test_ruling_17_setup_redeals_an_all_ocean_island():
    # docs/rules/pralaya.md#setup-redeal
    rng = random.Random(4)
    oceans = [i for i in range(N_CARDS) if IS_OCEAN[i]]
    deck = oceans[:15] + [i for i in range(N_CARDS) if i not in oceans[:15]]
    island, rest = deal_island(rng, list(deck), 15)
    assert any(not IS_OCEAN[c] for c in island)
    assert sorted(island + rest) == list(range(N_CARDS))
    island2, _ = deal_island(random.Random(4), list(deck), 15)
    assert island2 == island  # reproducible


def test_ruling_18_hands_hidden_unless_open():
    # docs/rules/pralaya.md#hidden-hands
    s = rig(fresh(), hands={0: ["gol1"], 1: ["fos1"]})
    v1 = E.view(s, 1)
    assert v1["players"][0]["hand"] is None and v1["players"][0]["hand_size"] == 1
    assert v1["players"][1]["hand"] == {"fos": 1}
    assert '"gol1"' not in json.dumps(v1) and '"gol1"' not in json.dumps(E.view(s, None))
    so = rig(fresh(open_hands=True), hands={0: ["gol1"], 1: ["fos1"]})
    assert E.view(so, 1)["players"][0]["hand_ids"] == ["gol1"]
    assert E.view(so, None)["players"][1]["hand"] == {"fos": 1}


def test_ruling_19_piles_hold_n():
    # docs/rules/pralaya.md#piles-hold-n
    for n in range(2, 6):
        s = E.setup(2, n, {})
        assert E.view(s, None)["veda"]["left"] == n and len(s.dhoni_pile) == n


# ------------------------------------------------------------------ options (docs/rules/pralaya.md#options)

def test_option_veda_price():
    for price, expect in ((1, ["buy veda 0g 0s 1c", "buy veda 0g 1s 0c", "buy veda 1g 0s 0c"]), (10, ["buy veda 1g 1s 1c", "buy veda 1g 2s 0c"])):
        s = rig(fresh(veda_price=price), hands={0: ["gol1", "sil1", "sil2", "cop1"]}, dhoni={1: "dhx"},
                island={"a1": "dem1", "b1": "man1"}, round=2, active=0)
        s, _ = act(s, "take a1", "done")
        assert [a for a in E.legal_actions(s, 0) if a.startswith("buy veda")] == expect
        assert E.view(s, 0)["veda"]["price"] == price
    for bad in (0, 11, "x"):
        with pytest.raises(BadOption):
            E.setup(1, 2, {"veda_price": bad})
    with pytest.raises(BadOption):
        E.setup(1, 2, {"no_such": 1})
    with pytest.raises(BadOption):
        E.setup(1, 6, {})


def test_options_in_view():
    v = E.view(fresh(3, first=2, open_hands=True, veda_price=5, fossil_all_players=True), None)
    assert v["options"] == {"open_hands": True, "veda_price": 5, "first_seat": 2, "fossil_all_players": True}
    assert v["first"] == 2


# ------------------------------------------------------------------ notation and errors

def test_parse_and_action_space():
    assert E.parse("  Take   B4 ") == "take b4"
    assert E.parse("PASS") == "pass"
    for bad in ("", "take", "take z9", "take b4 b4", "buy veda 1g", "buy veda 6g 0s 0c", "buy boat 0g 0s 0c",
                "discard", "done now", "xyzzy"):
        with pytest.raises(BadNotation) as err:
            E.parse(bad)
        assert err.value.reason
    with pytest.raises(BadNotation, match="Try `take b4`"):
        E.parse("xyzzy")
    sp2, sp5 = set(E.action_space(2)), set(E.action_space(5))
    assert "take c5" in sp2 and "take c6" not in sp2 and "take c6" in sp5
    assert len(sp5) == 2 + 2 * 18 + 2 * 6 * 7 * 5
    for a in sp5 | sp2:
        assert E.parse(a) == a
    # a cell of a larger island parses, and is illegal on a small one
    s = rig(fresh(), island={"a1": "dem1"}, round=2, active=0)
    with pytest.raises(IllegalAction, match="no cell c6"):
        play(E, s, 0, "take c6")


def test_turn_and_game_over_errors():
    s = rig(fresh(), island={"a1": "dem1", "a2": "dem2"}, round=2, active=0)
    with pytest.raises(NotYourTurn):
        play(E, s, 1, "take a1")
    with pytest.raises(NotYourTurn):
        E.apply(s, 1, "take a1")
    assert E.legal_actions(s, 1) == []
    s = rig(fresh(), island={"a1": "dem1"}, round=2, active=0)
    s, _ = act(s, "take a1", "pass")
    assert s.step == OVER and E.to_move(s) == () and E.legal_actions(s, 0) == []
    with pytest.raises(GameOver):
        E.apply(s, 0, "pass")


def test_illegal_reasons():
    s = rig(fresh(), island={"a1": "gol1", "a2": "dem1", "b1": "urn1"}, round=2, active=0)
    s, _ = act(s, "take b1")
    with pytest.raises(IllegalAction) as err:
        play(E, s, 0, "take a1")
    assert err.value.reason == "a1 costs 3 Vitality but you have 1 left."
    with pytest.raises(IllegalAction, match="b1 is empty"):
        play(E, s, 0, "take b1")
    with pytest.raises(IllegalAction, match="Only a player who has escaped"):
        play(E, s, 0, "discard a2")
    with pytest.raises(IllegalAction, match="Finish collecting"):
        play(E, s, 0, "buy dhoni 0g 0s 0c")
    s, _ = act(s, "done")
    with pytest.raises(IllegalAction, match="Collecting is over"):
        play(E, s, 0, "take a2")
    with pytest.raises(IllegalAction, match="offered 1 Gold Coin but hold 0"):
        play(E, s, 0, "buy veda 1g 0s 0c")


def test_labels():
    s = rig(fresh(), island={"b4": "dem1", "a1": "gol1"}, round=2, active=0)
    assert E.action_label(s, 0, "take b4") == "Take b4 · Demon Statue (1 V)"
    assert E.action_label(s, 0, "done") == "Done collecting"
    assert E.action_label(s, 0, "buy veda 0g 1s 1c") == "Buy Veda: 1 silver + 1 copper"
    assert E.action_label(s, 0, "buy dhoni 0g 0s 0c") == "Buy Dhoni X: no coins"
    assert E.action_label(s, 0, "buy dhoni 1g 0s 2c") == "Buy Dhoni X: all coins (1 gold + 2 copper)"
    assert E.action_label(s, 0, "pass") == "Pass (buy nothing)"
    assert E.action_label(s, 0, "discard a1") == "Discard a1 · Gold Coin"


# ------------------------------------------------------------------ events and views

def test_events_and_texts():
    s = rig(fresh(), hands={0: ["gol1", "cop1"]}, dhoni={1: "dhx"},
            island={"b4": "gol2", "a1": "dem1"}, deck_top=["man1"], round=2, active=0)
    setup_ev = E.events_on_setup(s)
    assert [e.kind for e in setup_ev] == ["turn"] and setup_ev[0].data == {"seat": 0, "round": 2, "vitality": 3}
    s, ev = act(s, "take b4")
    assert ev[0].text == "{s0} takes b4 (Gold Coin)" and ev[0].data == {"seat": 0, "cell": "b4", "card": "gol2"}
    s, ev = act(s, "buy dhoni 1g 0s 1c")
    assert ev[0].text == "{s0} buys Dhoni 7 with 1 gold and 1 copper, and escapes"
    assert ev[0].data == {"seat": 0, "card": "dh7", "paid": ["gol1", "cop1"]}
    assert ev[-1].kind == "end" and ev[-1].data == {"reason": "all_escaped"}
    assert all(e.public for e in ev)


def test_view_schema():
    s = rig(fresh(4, first=1), hands={1: ["gol1", "man1"]}, veda=[1], round=2, active=1)
    v = E.view(s, 1)
    assert set(v) == {"game", "viewer", "n_players", "to_move", "over", "headline", "options", "round", "first",
                      "active", "step", "vitality", "v_left", "rows", "cols", "island", "deck", "unrevealed",
                      "discard", "veda", "dhoni", "players", "me", "outcome"}
    assert v["headline"] == "Round 2 · {s1} collecting · 4 Vitality left"
    assert v["vitality"] == 4 and v["to_move"] == [1] and v["outcome"] is None
    assert len(v["island"]) == 18 and v["island"][0]["cell"] == "a1" and v["island"][17]["cell"] == "c6"
    assert set(v["island"][0]) == {"cell", "card", "code", "name", "cost", "currency", "taken", "new"}
    assert v["unrevealed"] == sum(1 for c in s.deck if not IS_OCEAN[c])
    assert v["dhoni"][0] == {"id": "dhx", "price": "X"} and v["veda"] == {"left": 3, "price": 4, "stand_in": True}
    me = v["me"]
    assert me["hand"] == {"gol": 1, "man": 1} and me["currency"] == 6 and me["legal"] == E.legal_actions(s, 1)
    assert me["provisional"]["fossil_known"] is False
    # escaping now on Dhoni X (the top) would pay the gold: no coins, and one Manuscript scores nothing
    assert me["provisional"]["breakdown"]["Coins"] == 0 and me["provisional"]["paid"] == 6
    assert me["provisional"]["total"] == 0 and me["provisional"]["dhoni"] == "Dhoni X"
    assert E.view(s, None)["me"] is None and E.view(s, 0)["me"]["legal"] == []
    json.dumps(v)


def test_view_taken_new_and_over():
    s = rig(fresh(), island={"a1": "dem1", "a2": "man1", "b1": "gre1"}, deck_top=["cop1"], round=2, active=0)
    s, _ = act(s, "take a2")
    v = E.view(s, None)
    assert v["island"][1]["taken"] and v["island"][1]["card"] is None
    s, _ = act(s, "done", "pass")
    v = E.view(s, None)
    assert v["island"][1]["new"] and v["island"][1]["card"] == "cop1" and not v["island"][1]["taken"]
    # game over: all hands visible, outcome present, nobody awaited
    s = rig(fresh(), hands={1: ["fos1"]}, island={"a1": "dem1"}, round=2, active=0)
    s, _ = act(s, "take a1", "buy dhoni 0g 0s 0c")
    v = E.view(s, None)
    assert v["over"] and v["step"] == "over" and v["to_move"] == []
    assert v["players"][1]["hand_ids"] == ["fos1"] and v["outcome"]["winners"] == [0]
    assert v["headline"] == "Game over · {s0} wins with 2 points"


def test_secrets_never_in_views():
    for seed in range(10):
        for s in random_game(seed, 2 + seed % 4, check=False)[::5]:
            for viewer in (None, *range(s.n)):
                text = json.dumps(E.view(s, viewer))
                for secret in E.secrets(s, viewer):
                    assert secret not in text


# ------------------------------------------------------------------ invariants and sizes

def test_invariants_hold_in_random_games_and_bounds():
    for seed in range(40):
        n = 2 + seed % 4
        opts = {"open_hands": bool(seed % 2), "veda_price": 1 + seed % 10}
        states = random_game(seed, n, opts)
        assert len(states) - 1 <= ACTION_BOUND == 193
        assert states[-1].turns <= 65


def test_invariants_detect_broken_states():
    s = fresh()
    with pytest.raises(AssertionError):
        E.invariants(dataclasses.replace(s, deck=s.deck[1:]))
    with pytest.raises(AssertionError):
        E.invariants(dataclasses.replace(s, v_left=9))
    bad = dataclasses.replace(s, island=(s.deck[0],) + s.island[1:], deck=(s.island[0],) + s.deck[1:])
    with pytest.raises(AssertionError):  # avail no longer matches
        E.invariants(bad)
    E.invariants(dataclasses.replace(bad, avail=island_avail(bad.island)))


def test_size_limits_of_the_buy_step():
    for vp in range(1, 11):
        worst = max(len(buy_texts(g, si, c, dp, vp)) + 1
                    for g in range(6) for si in range(7) for c in range(5) for dp in (-2, -1, 2, 4, 7, 10))
        assert worst <= 15
        if vp == 4:
            assert worst <= 12


def test_replay_and_determinism():
    rng = random.Random(3)
    s = E.setup(11, 3, {})
    moves = []
    while E.outcome(s) is None:
        a = rng.choice(E.legal_actions(s, s.active))
        moves.append((s.active, a))
        s = play(E, s, s.active, a).state
    assert state_fingerprint(replay(E, 11, 3, {}, moves)) == state_fingerprint(s)
    assert E.setup(11, 3, {}) == E.setup(11, 3, {}) and E.setup(11, 3, {}) != E.setup(12, 3, {})


def test_apply_never_mutates():
    s = rig(fresh(), island={"a1": "dem1", "a2": "man1"}, round=2, active=0)
    before = state_fingerprint(s)
    E.apply(s, 0, "take a1")
    with pytest.raises(IllegalAction):
        E.apply(s, 0, "done")
    assert state_fingerprint(s) == before


def test_public_actions_collecting_and_discarding_are_derivable_from_the_spectator_view():
    """``public_actions`` lets the bot show a step's moves under the public board. It must be
    True only where the legal list follows from what spectators see: collecting (cells of the
    face-up island within the public Vitality left) and discarding; False when buying with a
    hidden hand (the payments tell which coins it holds), True again with open hands."""
    import random as _random
    engine = PralayaEngine()
    rng = _random.Random(8)
    seen = {"collect": 0, "discard": 0, "buy": 0}
    for seed in range(30):
        opts = {"open_hands": seed % 5 == 0}
        s = engine.setup(seed, 2 + seed % 4, opts)
        while engine.outcome(s) is None:
            seat = engine.to_move(s)[0]
            legal = engine.legal_actions(s, seat)
            v = engine.view(s, None)
            public = engine.public_actions(s, seat)
            seen[v["step"]] += 1
            relics = [c for c in v["island"] if c["code"] not in (None, "oce")]
            if v["step"] == "collect":
                assert public
                takes = [f"take {c['cell']}" for c in relics if c["cost"] <= v["v_left"]]
                done = ["done"] if any(c["taken"] for c in v["island"]) else []
                assert legal == sorted(done + takes)
            elif v["step"] == "discard":
                assert public
                assert legal == sorted(f"discard {c['cell']}" for c in relics)
            else:
                assert public == opts["open_hands"]
            s = engine.apply(s, seat, rng.choice(legal))[0]
    assert all(seen.values()), seen
