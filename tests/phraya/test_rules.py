"""Phraya's rules: the board and its layouts, movement, the action text, refusals, whole random games
keeping the invariants, and the legal list and end count kept on a state."""

from __future__ import annotations

import json
import random

import pytest

from engines import base
from engines.base import BadNotation, IllegalAction
from engines.phraya import ENGINE as E
from engines.phraya import legal as flow
from engines.phraya.data import board
from engines.phraya.positions import build
from engines.phraya.state import ACT, CARD, HELD, LEGAL, MOVE, OVER, State, conditions, put, put_player
from engines.prompt import Pick, rows, walk


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


def _walk(n: int, seed: int, opts: dict[str, object]) -> tuple[int, int]:
    """Play one random game checking every step; returns how many states came out of ``apply``
    with a legal list and with a count already kept."""
    rng = random.Random(seed)
    s = E.setup(seed, n, opts)
    kept_lists = kept_counts = 0
    while E.outcome(s) is None:
        seat = base.first_awaited(E, s)
        kept = s.__dict__.get(LEGAL)
        if kept is not None:
            kept_lists += 1
            assert kept == (seat, tuple(flow.legal(s, seat))), (seed, n, s.step)
        held = s.__dict__.get(HELD)
        if held is not None:
            kept_counts += 1
            assert held == sum(conditions(s)), (seed, n, s.step)
        legal = E.legal_actions(s, seat)
        assert legal == flow.legal(s, seat)
        for q in range(n):
            if q != seat:
                assert E.legal_actions(s, q) == []
        before = base.state_fingerprint(s)
        same = put(s)
        after, _ = E.apply(s, seat, rng.choice(legal))
        assert after is not s and base.state_fingerprint(s) == before and s == same
        s = after
    assert LEGAL not in s.__dict__  # a finished game keeps no list
    return kept_lists, kept_counts


def _at(step: int, n: int = 3, seed: int = 0) -> State:
    rng = random.Random(seed)
    s = E.setup(seed, n, {})
    while s.step != step:
        seat = base.first_awaited(E, s)
        s, _ = E.apply(s, seat, rng.choice(E.legal_actions(s, seat)))
    assert isinstance(s, State)
    return s


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
            lay = tuple(zip(("NW", "NE", "SE", "SW"), perm, sides, strict=True))
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
    for bad in (
        "",
        "move",
        "move h99",
        "buy h22s 0",
        "buy h22s 2 favor 3",
        "merchant 1",
        "price veg +1 veg -1",
        "king c7",
        "scribe b1 coins",
        "play m26",
        "end now",
    ):
        with pytest.raises(BadNotation):
            E.parse(bad)


def test_illegal_actions_raise_with_reason() -> None:
    s = build(4, boats={0: "h12"}, fill_boats=True)
    with pytest.raises(IllegalAction) as err:
        E.apply(s, 0, "move h22")
    assert err.value.reason


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_games_keep_invariants_and_prompts(n: int) -> None:
    _random_game(n, 11, {"round_limit": 8})
    _random_game(n, 12, {"layout": "random", "starting_boats": True, "hidden_hands": True, "round_limit": 6})


def test_kept_lists_and_counts_equal_fresh_ones() -> None:
    lists = counts = 0
    for n in (2, 3, 4):
        for opts in E.property_options:
            for seed in range(3):
                a, b = _walk(n, seed, dict(opts))
                lists += a
                counts += b
    assert lists > 100 and counts > 1000  # the shortcuts were taken, so the checks above bit


def test_a_copy_never_carries_a_stale_list() -> None:
    s = _at(CARD)
    seat = s.cur
    assert "play b2" in E.legal_actions(s, seat) and s.__dict__[LEGAL][0] == seat
    p = s.players[seat]
    t = put(
        s, players=tuple(put_player(x, hand=("b1",)) if q == seat else x for q, x in enumerate(s.players))
    )
    assert LEGAL not in t.__dict__ and HELD not in t.__dict__
    assert E.legal_actions(t, seat) == ["play b1"]
    assert E.legal_actions(s, seat) == ["play " + c for c in p.hand]
    for step in (MOVE, ACT):
        u = _at(step, seed=1)
        assert LEGAL in u.__dict__  # apply left the list it had worked out
        d = E.determinize(E.view(u, u.cur), random.Random(5))
        assert E.legal_actions(d, d.cur) == flow.legal(d, d.cur)
        if step == MOVE:  # destinations depend on public facts only
            assert E.legal_actions(d, d.cur) == E.legal_actions(u, u.cur)


def test_the_kept_count_follows_a_king_offering() -> None:
    from engines.phraya.positions import build

    s = build(
        4,
        boats={0: "h10"},
        barge="x10",
        step=ACT,
        king={f"c{i}": 1 for i in range(1, 6)},
        players={0: {"coins": 30, "goods": {"meat": 1}}},
    )
    assert HELD not in s.__dict__ and "sell h10s 1" in E.legal_actions(s, 0)
    s, _ = E.apply(s, 0, "sell h10s 1")
    assert s.__dict__[HELD] == 0
    assert "king c6" in E.legal_actions(s, 0)
    s, _ = E.apply(s, 0, "king c6")
    assert s.__dict__[HELD] == 1 == sum(conditions(s))
