"""Phraya rules: movement, parse round trips, prompts, invariants and AI games."""
from __future__ import annotations

import json
import random

import pytest

from engines.base import BadNotation, IllegalAction
from engines.phraya import ENGINE as E
from engines.phraya.data import board
from engines.phraya.positions import build
from engines.phraya.state import ACT, CARD, OVER
from engines.prompt import Pick, rows, walk


def test_default_layout_counts() -> None:
    b = board.build(board.DEFAULT_LAYOUT)
    kinds = [st.kind for st in b.stalls.values()]
    for k in ("restaurant", "temple", "basket", "scribe", "admin"):
        assert kinds.count(k) == 4
    for g in ("veg", "fruit", "fish", "meat"):
        assert sum(1 for st in b.stalls.values() if st.good == g and st.ownable) == 6
        assert sum(1 for st in b.stalls.values() if st.good == g and not st.ownable) == 1
    assert all(None not in board.SECTION_ENDS[r[:3]] for r in b.restaurants)


def test_every_random_layout_is_valid() -> None:
    import itertools
    for perm in itertools.permutations("ABCD"):
        for sides in itertools.product("ab", repeat=4):
            lay = tuple(zip(("NW", "NE", "SE", "SW"), perm, sides))
            b = board.build(lay)
            for sec in board.SECTIONS:
                svc = [x for x in board.banks(sec) if b.stalls[x].kind != "goods"]
                assert len(svc) <= 1


def test_movement_never_ends_on_a_boat_or_crosses_the_barge() -> None:
    rng = random.Random(1)
    for _ in range(300):
        start = rng.choice(board.SECTIONS)
        barge = rng.choice(board.CROSSINGS)
        occ = frozenset(rng.sample([s for s in board.SECTIONS if s != start], 3))
        steps = rng.randint(1, 4)
        within, exact = board.boat_paths(start, steps, barge, occ)
        assert start not in within and not (occ & set(within)) and set(exact) <= set(within)
        # one step: only sections sharing a non-barge crossing with the start
        one = board.boat_paths(start, 1, barge, frozenset())[0]
        for sec in one:
            shared = set(board.SECTION_ENDS[sec]) & set(board.SECTION_ENDS[start]) - {None}
            assert shared and shared != {barge}


def test_parse_round_trips_and_rejects() -> None:
    rng = random.Random(2)
    for a in E.sample_actions(4, rng, 400):
        assert E.parse(a) == a
        assert E.parse("  " + a.upper().replace(" ", "  ")) == a
    for bad in ("", "move", "move h99", "buy h22s 0", "buy h22s 2 favor 3", "merchant 1",
                "price veg +1 veg -1", "king c7", "scribe b1 coins", "play m26", "end now"):
        with pytest.raises(BadNotation):
            E.parse(bad)


def test_illegal_actions_raise_with_reason() -> None:
    s = build(4, boats={0: "h12"}, fill_boats=True)
    with pytest.raises(IllegalAction) as err:
        E.apply(s, 0, "move h22")
    assert err.value.reason


def _random_game(n: int, seed: int, opts: dict[str, object]) -> None:
    rng = random.Random(seed)
    s = E.setup(seed, n, opts)
    steps = 0
    while E.outcome(s) is None:
        E.invariants(s)
        seat = E.to_move(s)[0]
        legal = E.legal_actions(s, seat)
        assert legal == sorted(set(legal), key=legal.index)
        p = E.prompt(s, seat)
        assert rows(p.controls) <= 4
        for a in p.actions():
            assert a in legal
        for c in walk(p.controls):
            if isinstance(c, Pick):
                assert c.build([c.choices[0].value]) in legal
        if s.step == CARD and s.opts.hidden_hands:
            assert not p.public
        if steps % 7 == 0:
            for v in (None, *range(n)):
                text = json.dumps(E.view(s, v))
                for sec in E.secrets(s, v):
                    assert sec not in text
        s, _ = E.apply(s, seat, rng.choice(legal))
        steps += 1
    assert s.step == OVER
    E.invariants(s)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_games_keep_invariants_and_prompts(n: int) -> None:
    _random_game(n, 11, {"round_limit": 8})
    _random_game(n, 12, {"layout": "random", "starting_boats": True, "hidden_hands": True,
                         "round_limit": 6})


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


def test_act_prompt_groups() -> None:
    s = build(4, boats={0: "h22"}, barge="x21", step=ACT, fill_boats=True,
              players={0: {"coins": 30, "goods": {"veg": 0}}})
    p = E.prompt(s, 0)
    labels = [str(getattr(c, "label", "")) for c in p.controls]
    assert labels[-1] == "End" and any("King" in lab for lab in labels)
    assert rows(p.controls) <= 4
