"""The Kathai search AI: determinize, the candidate moves, the playout policy, the evaluation,
the fast step, and the search itself (engines.search) on Kathai positions."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from engines import base, search
from engines.kathai import ENGINE as E
from engines.kathai.ai import playout as P
from engines.kathai.ai.determinize import determinize
from engines.kathai.data import NCARDS
from engines.kathai.positions import build
from engines.kathai.rules import KathaiEngine
from engines.kathai.state import REPLY, State
from engines.kathai.view import KathaiView
from tests import search_helpers as sh


def _game_states(seed: int, n: int, options: Mapping[str, Any] | None = None, every: int = 1) -> list[State]:
    """Every ``every``-th state of a seeded game (heuristic and random moves mixed)."""
    return sh.states(E, n, options or {}, seed, every)


# --------------------------------------------------------------------------- determinize


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("options", E.property_options, ids=["short", "variants"])
def test_determinize_matches_the_view_with_every_option_set(n: int, options: Mapping[str, Any]) -> None:
    assert sh.check_determinize(E, n, options, seeds=range(2), every=9, playon=15) > 0


@pytest.mark.parametrize("n", [3, 4, 5])
def test_determinize_matches_the_view_through_full_games(n: int) -> None:
    assert sh.check_determinize(E, n, {}, seeds=range(1), every=37 + n, samples=1, playon=10) > 0


def test_determinize_deals_only_the_cards_the_seat_cannot_see() -> None:
    for s in _game_states(3, 4, every=13):
        seat = base.first_awaited(E, s)
        v = E.view(s, seat)
        seen = set(s.hands[seat]) | {c for x in s.sales for c in x.cards}
        if s.offer is not None and seat in s.offer.addressees:
            seen |= set(s.offer.give)
        rng = random.Random(5)
        for _ in range(5):
            d = determinize(v, rng)
            E.invariants(d)
            assert d.hands[seat] == s.hands[seat]
            for q in range(s.n):
                if q != seat:
                    assert len(d.hands[q]) == len(s.hands[q])
                    assert not (set(d.hands[q]) & seen - (set(s.offer.give) if s.offer else set()))
            assert not set(d.pile) & seen
            assert len(d.pile) == len(s.pile)
            assert sorted(
                d.pile
                + d.discard_down
                + d.discard_up
                + sum(d.hands, ())
                + sum(d.profit, ())
                + ((d.lock.card,) if d.lock else ())
            ) == list(range(1, NCARDS + 1))


def test_determinize_samples_the_hidden_cards_uniformly_enough() -> None:
    """Over many samples each unknown card lands in an opponent's hand about as often as its
    share of the unknown places says (a rough check of uniformity, not of one seed)."""
    s = _game_states(1, 3, every=10)[2]
    seat = base.first_awaited(E, s)
    v = E.view(s, seat)
    rng = random.Random(0)
    opp = [q for q in range(3) if q != seat][0]
    counts: dict[int, int] = {}
    trials = 3000
    for _ in range(trials):
        for c in determinize(v, rng).hands[opp]:
            counts[c] = counts.get(c, 0) + 1
    unknown = len(list(E.secrets(s, seat)))  # the cards this seat may not see
    expect = trials * len(s.hands[opp]) / unknown
    assert len(counts) == unknown
    assert all(0.75 * expect < k < 1.25 * expect for k in counts.values())


def test_determinize_keeps_the_offer_cards_an_addressee_saw() -> None:
    s = build(hands=["t1 t2 t5 t9", "t3 t20 t25", "t6 t7 t8 t10 t11 t12 t19"])
    s = E.apply(s, 0, "offer all t1 t2 for salt 1")[0]
    v = E.view(s, 1)
    for k in range(20):
        d = determinize(v, random.Random(k))
        assert d.offer is not None and d.offer.give == (1, 2) and {1, 2} <= set(d.hands[0])
        assert E.legal_actions(d, 1) == ["accept t3", "decline"]
    # a skipped seat sees only the count: the offered cards are any two of the offerer's hand
    offers = [determinize(E.view(s, 2), random.Random(k)).offer for k in range(30)]
    gives = {o.give for o in offers if o is not None}
    assert len(gives) > 1


def test_determinize_knows_when_its_own_draw_triggered_the_end() -> None:
    s = build(hands=["t1 t2", "t3", "t4"], pile="t5", active=2, turn_no=4)
    s = E.apply(s, 2, "pass")[0]  # s0 draws t5, the last card: this turn is the trigger turn
    assert s.final == (2, 2, 2) and s.final_turn == s.turn_no and s.active == 0
    v = E.view(s, 0)
    assert all(determinize(v, random.Random(k)).final_turn == s.turn_no for k in range(10))
    t = E.apply(s, 0, "pass")[0]  # s1's first final turn: no draw
    assert all(determinize(E.view(t, 1), random.Random(k)).final_turn < t.turn_no for k in range(10))


def test_determinize_refuses_a_spectator_view() -> None:
    with pytest.raises(ValueError):
        determinize(E.view(E.setup(1, 3, {}), None), random.Random(0))


# --------------------------------------------------------------------------- candidates, policy, step


@pytest.mark.parametrize("n", [3, 4, 5])
def test_candidates_and_playout_moves_are_legal_and_few(n: int) -> None:
    rng = random.Random(n)
    for seed in range(2):
        s = E.setup(seed, n, {})
        steps = 0
        while E.outcome(s) is None:
            seat = base.first_awaited(E, s)
            legal = set(E.legal_actions(s, seat))
            cands = P.search_actions(s, seat)
            assert cands and len(set(cands)) == len(cands) <= 16
            assert set(cands) <= legal
            a = P.playout_action(s, seat, rng)
            assert a in legal
            s = E.step(s, seat, a)
            steps += 1
        assert s.reason == "pile" and steps < 400


def test_candidates_hold_the_obvious_moves() -> None:
    s = build(hands=["t1 t2 t3 t9 t20 t21 t40", "t4", "t5"], profit=["t30"])
    cands = P.search_actions(s, 0)
    assert "pass" in cands and "buy" not in cands  # a full hand cannot buy
    assert any(a.startswith("sell ") for a in cands)
    assert any(a.startswith("bribe ") and a.endswith(" profit") for a in cands)
    assert any(a.startswith("offer all ") for a in cands)
    assert any(a.startswith("swap ") for a in cands)


def test_step_is_apply_without_events() -> None:
    rng = random.Random(3)
    for n in (3, 5):
        for options in ({}, *E.property_options):
            s = E.setup(n, n, options)
            while E.outcome(s) is None:
                seat = base.first_awaited(E, s)
                legal = E.legal_actions(s, seat)
                a = rng.choice(legal) if rng.random() < 0.3 else E.choose(E.view(s, seat), legal)
                fast = E.step(s, seat, a)
                slow = E.apply(s, seat, a)[0]
                assert base.state_fingerprint(fast) == base.state_fingerprint(slow)
                s = slow


def test_evaluate_is_a_reward_per_seat_and_favours_the_leader() -> None:
    s = build(n=4, hands=["t1 t2", "t3", "t4", "t5"], scores=[20, 5, 5, 5])
    ev = E.evaluate(s)
    assert len(ev) == 4 and all(0.0 <= x <= 1.0 for x in ev)
    assert ev[0] == max(ev) and ev[0] > 0.5
    for st in _game_states(2, 3, every=17):
        ev = E.evaluate(st)
        assert all(0.0 <= x <= 1.0 for x in ev)


# --------------------------------------------------------------------------- the search


@pytest.mark.parametrize("n", [3, 4])
def test_search_is_legal_deterministic_and_reads_only_the_view(n: int) -> None:
    assert sh.check_search(E, n, {}, seeds=range(1), every=23, iterations=16) > 0


def test_search_answers_for_the_seat_asking_when_several_are_awaited() -> None:
    """An `all` offer awaits every eligible opponent at once; the AI of the second addressee
    must search its own answers (the root's moves are the viewer's, not the first awaited's)."""
    s = build(hands=["t1 t2 t5", "t3 t20 t25", "t4 t13 t14"])
    s = E.apply(s, 0, "offer all t1 t2 for salt 1")[0]
    assert s.step == REPLY and E.to_move(s) == (1, 2)
    asked: list[int] = []
    real = type(E).search_actions

    class Spy(KathaiEngine):
        def search_actions(self, state: State, seat: int) -> Sequence[str]:
            asked.append(seat)
            return real(self, state, seat)

        def determinize(self, view: KathaiView, rng: random.Random) -> State:
            asked.append(-1)  # marks the start of an iteration: the next call is the root's
            return super().determinize(view, rng)

    spy = Spy()
    legal = E.legal_actions(s, 2)
    got = search.search(spy, E.view(s, 2), legal, 30, 60.0, 1)
    assert got.action in legal and got.iterations == 30
    roots = [asked[i + 1] for i, x in enumerate(asked) if x == -1]
    assert roots and all(q == 2 for q in roots)


def test_search_takes_a_big_sale_in_the_last_turn() -> None:
    # the last final turn of s0: selling salt now scores 4 + 2; passing scores nothing
    s = build(hands=["t13 t14 t31 t40 t5", "t1", "t2"], pile="", final=[1, 1, 1], scores=[3, 8, 8])
    v = E.view(s, 0)
    legal = E.legal_actions(s, 0)
    got = search.search(E, v, legal, 60, 60.0, 0)
    assert got.action == "sell salt t13 t14 t31 t40"


# --------------------------------------------------------------------------- the easy level's fixes


def test_easy_passes_in_its_last_turn_when_it_cannot_sell() -> None:
    # s0's last turn, nothing sellable (tea is at position 5); it used to bribe tea up with its
    # profit card (losing the tie-break) or ask for cards it could no longer sell
    s = build(
        hands=["t9 t10 t19", "t1", "t2"],
        pile="",
        final=[1, 2, 2],
        profit=["t30"],
        market="silk salt gold spice tea",
    )
    legal = E.legal_actions(s, 0)
    assert not any(a.startswith("sell ") for a in legal) and "bribe spice tea profit" in legal
    assert E.choose(E.view(s, 0), legal) == "pass"
    # with a turn to come the same hand still bribes tea up to be sold next turn
    t = build(
        hands=["t9 t10 t19", "t1", "t2"],
        pile="",
        final=[2, 2, 2],
        profit=["t30"],
        market="silk salt gold spice tea",
    )
    assert E.choose(E.view(t, 0), E.legal_actions(t, 0)) == "bribe spice tea profit"


def test_easy_declines_every_ask_once_its_turns_are_over() -> None:
    s = build(hands=["t40 t1", "t13 t14 t9", "t20"], pile="", final=[2, 0, 1])
    s = E.apply(s, 0, "offer s1 t40 for tea 1")[0]
    assert E.legal_actions(s, 1) == ["accept t9", "decline"]
    assert E.choose(E.view(s, 1), E.legal_actions(s, 1)) == "decline"
    t = build(hands=["t40 t1", "t13 t14 t9", "t20"], pile="", final=[2, 1, 1])
    t = E.apply(t, 0, "offer s1 t40 for tea 1")[0]
    assert E.choose(E.view(t, 1), E.legal_actions(t, 1)) == "accept t9"
