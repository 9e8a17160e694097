"""The Pralaya AI (docs/rules/pralaya.md#ai): always legal, deterministic, follows the heuristic,
finishes games."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engines.base import play
from engines.pralaya.ai.heuristic import ESCAPE_RISK, choose, potential, target_price, view_risk
from engines.pralaya.data import CARD_IDS
from engines.pralaya.notation import ACTION_BOUND
from engines.pralaya.positions import rig
from engines.pralaya.state import State
from tests.pralaya.helpers import E, fresh, result


def ai(state: State) -> str:
    seat = state.active
    return E.choose(E.view(state, seat), E.legal_actions(state, seat))


def late(state: State, keep: set[str], **kw: Any) -> State:
    """``rig`` with every relic not in ``keep`` (nor in a hand) put on the discard pile, so that
    few relics remain (R is small)."""
    held = {CARD_IDS[i] for h in state.hands for i in h} | set(keep)
    for cards in (kw.get("hands") or {}).values():
        held |= set(cards)
    for c in (kw.get("island") or {}).values():
        held.add(c)
    pile = [c for c in CARD_IDS if not c.startswith("oce") and c not in held]
    return rig(state, discard=pile, **kw)


def test_potential_partial_credit() -> None:
    assert potential({}, False, None) == 0
    assert potential({"man": 1}, False, None) == 2.5
    assert potential({"urn": 2}, False, None) == 13
    assert potential({"fos": 2}, False, None) == 4
    assert potential({"fos": 2}, False, [1]) == 4 + 15  # majority known and held
    assert potential({"gol": 1}, False, None) == 6


def test_collect_prefers_best_value_per_cost_then_stops() -> None:
    # coins enough for the Dhoni 7 that waits under Dhoni X: coins weigh w = 0.5
    s = rig(
        fresh(),
        hands={0: ["gol2", "sil1"]},
        island={"a1": "gol1", "b1": "urn1", "c1": "dem1"},
        round=2,
        active=0,
    )
    assert ai(s) == "take b1"  # urn 6.5/2 beats gold (6 + 0.5*6)/3 and demon 2/1
    s = play(E, s, 0, "take b1").state
    assert ai(s) == "take c1"
    # after the first take, `done` when nothing is worth it
    s = rig(fresh(), hands={0: ["dem1", "dem2"]}, island={"a1": "man1", "b1": "pac1"}, round=2, active=0)
    assert ai(s) == "take a1"
    s = play(E, s, 0, "take a1").state
    assert E.legal_actions(s, 0) == ["done", "take b1"] and ai(s) == "done"


def test_collect_ties_go_to_the_first_cell() -> None:
    s = rig(fresh(), island={"c5": "dem2", "a2": "dem1"}, round=2, active=0)
    assert ai(s) == "take a2"


def test_target_price_is_the_dhoni_left_after_half_the_others_escape() -> None:
    assert target_price(E.view(fresh(2), 0)) == 7  # X, 7: one other seat may take X
    assert target_price(E.view(fresh(3), 0)) == 4  # X, 4, 7
    assert target_price(E.view(fresh(5), 0)) == 4  # X, 2, 4, 7, 10: two of four others first
    s = rig(fresh(3), dhoni={1: "dhx", 2: "dh4"}, round=3, active=0)
    assert target_price(E.view(s, 0)) == 7  # alone on the island: the last Dhoni


def test_coins_weigh_more_while_short_of_the_target_price() -> None:
    kw: dict[str, Any] = dict(island={"a1": "sil1", "b1": "urn1"}, round=6, active=0)
    rich = rig(fresh(), hands={0: ["gol1", "sil2"]}, **kw)
    assert ai(rich) == "take b1"  # w = 0.5: urn 3.25 > silver 2.25
    poor = rig(fresh(), hands={0: ["cop1"]}, **kw)
    assert ai(poor) == "take a1"  # short of 7: w = 3, silver (3 + 9)/2 = 6 > urn 3.25


def to_buy(state: State) -> State:
    """Play the AI's own collecting moves until it is at its BUY step."""
    while state.step != 2:
        state = play(E, state, state.active, ai(state)).state
    return state


def test_escape_when_the_game_may_end_before_the_next_turn() -> None:
    hand = {0: ["sil1", "sil2", "cop1"]}  # 7: Dhoni X would take it all, the Dhoni 7 too
    few = to_buy(
        rig(fresh(), hands=hand, island={"a1": "dem1", "b1": "dem2", "c1": "gre1"}, round=2, active=0)
    )
    v = E.view(few, 0)
    assert view_risk(v, 1) > ESCAPE_RISK
    assert (
        v["unrevealed"] + 2 > 6 * 2
    )  # the first rule (R ≤ 6·k, docs/rules/pralaya.md#ai-escape-rule) would not fire
    assert ai(few) == "buy dhoni 0g 2s 1c"
    many = to_buy(rig(fresh(), hands=hand, round=2, active=0))  # a fresh island: time enough
    assert view_risk(E.view(many, 0), 1) <= ESCAPE_RISK
    assert "buy dhoni 0g 2s 1c" in E.legal_actions(many, 0) and ai(many) != "buy dhoni 0g 2s 1c"


FULL = dict(
    zip(
        ["a1", "a2", "a3", "a4", "a5", "b1", "b2", "b3", "b4", "b5", "c1", "c2", "c3", "c4"],
        [
            "dem1",
            "man1",
            "gre1",
            "fos1",
            "dem2",
            "man2",
            "gre2",
            "fos2",
            "dem3",
            "man3",
            "gre3",
            "fos3",
            "urn1",
            "urn2",
        ],
        strict=True,
    )
)  # 14 relics and one Ocean: a long game ahead


def test_veda_early_only_when_the_coins_for_a_dhoni_stay() -> None:
    rich = to_buy(rig(fresh(), hands={0: ["gol1", "gol2", "sil1", "cop1"]}, island=FULL, round=2, active=0))
    assert ai(rich) == "buy veda 0g 1s 1c"  # 16 - 4 leaves the 7 for the Dhoni
    poor = to_buy(rig(fresh(), hands={0: ["sil1", "cop1"]}, island=FULL, round=2, active=0))
    assert "buy veda 0g 1s 1c" in E.legal_actions(poor, 0) and ai(poor) != "buy veda 0g 1s 1c"


def test_buy_least_currency_dhoni_and_pass() -> None:
    kw: dict[str, Any] = dict(
        hands={0: ["gol1", "sil1", "sil2", "cop1", "cop2"]}, dhoni={1: "dhx"}, round=3, active=0
    )
    # one relic left after this turn's take and the escaped seat discards it: the game ends
    s = late(fresh(), set(), island={"a1": "dem1", "b1": "dem2"}, **kw)
    s = play(E, play(E, s, 0, "take a1").state, 0, "done").state
    assert ai(s) == "buy dhoni 0g 2s 1c"  # 7 paid, the least of the three Dhoni payments
    # early, with a Veda already and a fresh island: pass
    s = to_buy(rig(fresh(), veda=[0], **kw))
    assert ai(s) == "pass"


def test_buy_dhoni_on_the_last_turn() -> None:
    s = rig(fresh(), island={"c3": "gre1"}, round=2, active=0)
    s = play(E, s, 0, "take c3").state
    assert ai(s) == "buy dhoni 0g 0s 0c"


def test_discard_highest_cost_then_currency() -> None:
    s = rig(
        fresh(),
        dhoni={0: "dhx"},
        island={"a1": "dem1", "b1": "bra1", "c1": "gol1", "c2": "urn1"},
        round=2,
        active=0,
    )
    assert ai(s) == "discard c1"


def test_choose_is_legal_and_deterministic_in_random_positions() -> None:
    rng = random.Random(5)
    for seed in range(40):
        n = 2 + seed % 4
        s = E.setup(seed, n, {"open_hands": seed % 3 == 0})
        while E.outcome(s) is None:
            legal = E.legal_actions(s, s.active)
            view = E.view(s, s.active)
            pick = E.choose(view, legal)
            assert pick in legal and E.choose(view, legal) == pick
            s = play(E, s, s.active, rng.choice(legal) if rng.random() < 0.5 else pick).state


def test_choose_falls_back_to_the_first_legal_action() -> None:
    s = rig(fresh(), island={"a1": "dem1"}, round=2, active=0)
    assert choose(E.view(s, 0), ["pass"]) == "pass"
    assert choose(E.view(s, None), ["take a1"]) == "take a1"


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_ai_games_end(n: int) -> None:
    escaped = 0
    for seed in range(25):
        s = E.setup(seed, n, {})
        moves = 0
        while E.outcome(s) is None:
            s = play(E, s, s.active, ai(s)).state
            moves += 1
            assert moves <= ACTION_BOUND
        out = result(s)
        escaped += sum(1 for x in out.scores if x is not None)
    # Escapes often come late: islands fill with Oceans and games end with
    # relics still in the deck, so about 1 (2p) to 2.5 (5p) seats escape per game. Some must.
    assert escaped >= 10
