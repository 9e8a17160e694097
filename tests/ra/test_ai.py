"""The Ra AI (docs/rules/ra.md#easy-ai): complete games for 2–5 players with and without Traders, determinism,
reading only the view, and the individual heuristics."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from engines.base import play, state_fingerprint
from engines.ra.ai import heuristic as ai
from engines.ra.positions import build
from engines.ra.state import State
from tests.ra.helpers import E

A, B, C = 0, 1, 2


def ai_game(n: int, opts: dict[str, Any], seed: int) -> tuple[State, int]:
    s = E.setup(seed, n, opts)
    moves = 0
    while E.outcome(s) is None:
        seat = E.to_move(s)[0]
        legal = E.legal_actions(s, seat)
        action = E.choose(E.view(s, seat), legal)
        assert action in legal
        s = play(E, s, seat, action).state
        E.invariants(s)
        moves += 1
        assert moves <= E.action_bound(n)
    return s, moves


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("traders", [True, False])
def test_ai_games_end(n: int, traders: bool) -> None:
    for seed in range(4):
        s, moves = ai_game(n, {"traders": traders}, seed)
        out = E.outcome(s)
        assert out is not None and len(out.ranks) == n and moves > 0


def test_ai_is_deterministic() -> None:
    a, _ = ai_game(4, {}, 11)
    b, _ = ai_game(4, {}, 11)
    assert state_fingerprint(a) == state_fingerprint(b)


def test_ai_reads_only_a_copy_of_the_view() -> None:
    s = E.setup(3, 3, {})
    v = E.view(s, s.cur)
    frozen = json.dumps(v, sort_keys=True)
    pick = ai.choose(copy.deepcopy(v), E.legal_actions(s, s.cur))
    assert pick in E.legal_actions(s, s.cur)
    assert json.dumps(v, sort_keys=True) == frozen


def test_ai_falls_back_to_first_legal() -> None:
    s = build(3, cur=A, track=["gold"])
    v = E.view(s, A)
    assert ai.choose(v, ["invoke"]) == "invoke"  # would draw, but only invoke is offered
    assert ai.choose({**v, "me": None}, ["draw", "invoke"]) == "draw"  # no own view: first legal
    with pytest.raises(ValueError):
        ai.choose(v, [])


def test_ai_uses_a_god_on_a_valuable_tile() -> None:
    s = build(
        3,
        cur=A,
        up=[(2, 5, 8), (3, 6, 9, 12), (4, 7, 10, 11)],
        down=[(13,), (), ()],
        track=["nile", "gold"],
        tiles=[{"god": 2}, {}, {}],
    )
    legal = E.legal_actions(s, A)
    assert E.choose(E.view(s, A), legal) == "god gold"  # gold is worth 3
    s = play(E, s, A, "god gold").state
    assert E.choose(E.view(s, A), E.legal_actions(s, A)) == "done"  # a nile without flood: 0.5


def test_ai_invokes_on_a_full_track_and_draws_on_a_poor_one() -> None:
    full = build(3, cur=A, track=["nile"] * 8)
    assert E.choose(E.view(full, A), E.legal_actions(full, A)) == "invoke"
    poor = build(3, cur=A, track=["nile"])
    assert E.choose(E.view(poor, A), E.legal_actions(poor, A)) == "draw"
    empty = build(3, cur=A)
    assert E.choose(E.view(empty, A), E.legal_actions(empty, A)) == "draw"
    rich = build(3, cur=A, track=["gold", "pharaoh"])  # V = 5 >= 6 - 1
    assert E.choose(E.view(rich, A), E.legal_actions(rich, A)) == "invoke"


def test_ai_bids() -> None:
    s = build(3, cur=A, track=["gold", "pharaoh"])
    s = play(E, s, A, "invoke").state
    # B: V = 5, lowest sun 3: threshold 1.75 -> bid 3
    assert E.choose(E.view(s, B), E.legal_actions(s, B)) == "bid 3"
    s2 = build(3, cur=A, track=["nile"])
    s2 = play(E, s2, A, "invoke").state
    assert E.choose(E.view(s2, B), E.legal_actions(s2, B)) == "pass"  # V = 0.5
    s2 = play(E, play(E, s2, B, "pass").state, C, "pass").state
    assert E.choose(E.view(s2, A), E.legal_actions(s2, A)) == "bid 2"  # forced: lowest sun


def test_ai_disaster_lowers_the_lot() -> None:
    s = build(
        3,
        cur=A,
        up=[(2, 5, 8, 13), (3, 6, 9), (4, 7, 10, 11)],
        down=[(), (1,), ()],
        track=["gold", "funeral"],
        tiles=[{}, {"pharaoh": 3}, {}],
    )
    s = play(E, s, A, "invoke").state
    v = E.view(s, B)
    assert ai.lot_value(v) == pytest.approx(3 - 4)
    assert E.choose(v, E.legal_actions(s, B)) == "pass"


def test_ai_discards() -> None:
    s = build(
        3,
        cur=A,
        up=[(2, 5, 8, 13), (3, 6, 9), (4, 7, 10, 11)],
        down=[(), (1,), ()],
        track=["unrest", "earthquake"],
        tiles=[{}, {"astronomy": 1, "art": 2, "writing": 1, "temple": 3, "sphinx": 1, "pyramid": 2}, {}],
    )
    s = play(E, s, A, "invoke").state
    s = play(E, play(E, play(E, s, B, "bid 3").state, C, "pass").state, A, "pass").state
    assert E.choose(E.view(s, B), E.legal_actions(s, B)) == "discard art"  # the duplicate
    s = play(E, s, B, "discard art").state
    pick = E.choose(E.view(s, B), E.legal_actions(s, B))
    assert pick == "discard astronomy"  # no duplicate left: the first in list order
    s = play(E, s, B, pick).state
    # monuments: temple 3 is protected; pyramid 2 is the largest loose group
    assert E.choose(E.view(s, B), E.legal_actions(s, B)) == "discard pyramid"
