"""Phraya and the search AI: determinization, ``step``, and the search's moves."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from engines import base, search
from engines.phraya import ENGINE as E
from engines.phraya.ai import determinize as D
from engines.phraya.data import BASKET
from engines.phraya.positions import build
from engines.phraya.state import ACT
from tests.search_helpers import check_determinize, check_search, states

HIDDEN = {"hidden_hands": True, "starting_boats": True, "round_limit": 12}


def _assignments(free: tuple[str, ...], need: tuple[int, ...], prices: tuple[int, ...]) -> int:
    """Brute force: the ways to give the boats' slots (``need`` per goods pair) and the stalls'
    slots (``prices``) distinct tiles of ``free`` that fit."""
    slots: list[tuple[str, object]] = [
        ("pair", p) for p, m in zip(D._PAIRS, need, strict=True) for _ in range(m)
    ]
    slots += [("price", x) for x in prices]
    count = 0
    for tiles in itertools.permutations(free, len(slots)):
        ok = True
        for (kind, want), k in zip(slots, tiles, strict=True):
            t = BASKET[k]
            if (kind == "pair" and (t[0], t[1]) != want) or (kind == "price" and int(t[2]) != want):
                ok = False
                break
        count += ok
    return count


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("k", range(len(E.property_options)))
def test_determinize_matches_the_view(n: int, k: int) -> None:
    differed = check_determinize(E, n, E.property_options[k], seeds=range(2), every=9, playon=12)
    assert differed > 0


@pytest.mark.parametrize("n", [2, 4])
def test_determinize_with_hidden_hands_and_dealt_baskets(n: int) -> None:
    assert check_determinize(E, n, HIDDEN, seeds=range(1), every=17, playon=4) > 0


def test_determinize_draws_the_hidden_hands_and_the_deck_from_the_unseen_cards() -> None:
    s = states(E, 3, HIDDEN, 4, 60)[-1]
    view = E.view(s, 0)
    seen = {c for p in s.players for c in p.discard} | set(s.display) | set(s.players[0].hand)
    unseen = sorted({c for q in (1, 2) for c in s.players[q].hand if c[0] == "m"} | set(s.deck))
    assert unseen, "the game should have hidden cards by then"
    hands: Counter[tuple[str, ...]] = Counter()
    for k in range(200):
        d = E.determinize(view, random.Random(k))
        assert not seen & set(d.deck)
        pool = sorted({c for q in (1, 2) for c in d.players[q].hand if c[0] == "m"} | set(d.deck))
        assert pool == unseen
        for q in (1, 2):
            assert len(d.players[q].hand) == len(s.players[q].hand)
            hands.update(c for c in d.players[q].hand if c[0] == "m")
    held = sum(1 for q in (1, 2) for c in s.players[q].hand if c[0] == "m")
    if held:  # every unseen card lands in a hidden hand about held/len(unseen) of the time
        for c in unseen:
            assert 0.3 * held / len(unseen) * 200 < hands[c] < 2.5 * held / len(unseen) * 200 + 10


def test_basket_plan_weights_count_every_assignment() -> None:
    free = ("k01", "k02", "k03", "k04", "k05", "k07", "k10")  # veg/fruit 2 3 4, veg/fish 3 4, ...
    vf, vs = ("veg", "fruit"), ("veg", "fish")
    for pairs, prices in [({vf: 2}, (3,)), ({vf: 1, vs: 1}, (3, 4)), ({}, (3, 3)), ({vs: 2}, (2, 3))]:
        need = tuple(pairs.get(p, 0) for p in D._PAIRS)
        combos, cum, _ = D._basket_plan(free, need, prices)
        fact = 1
        for m in need:
            for j in range(1, m + 1):
                fact *= j
        # each choice's weight times the orderings of the boats' tiles = the brute-force count
        assert round(cum[-1]) * fact == _assignments(free, need, prices)


def test_basket_tiles_are_drawn_uniformly() -> None:
    # a boat holds a veg/fruit tile (k01, k02 or k03) and the one stall shows price 3: the
    # full assignments with k02 on the boat are fewer (one price-3 tile less for the stall)
    free = tuple(BASKET)
    need = tuple(int(p == ("veg", "fruit")) for p in D._PAIRS)
    combos, cum, _ = D._basket_plan(free, need, (3,))
    weights = [b - a for a, b in zip((0.0, *cum), cum, strict=False)]
    by_tile = {c[D._PAIRS.index(("veg", "fruit"))][0]: w for c, w in zip(combos, weights, strict=True)}
    # price-3 tiles: k02 k04 k07 k10 k13 -> 5; with k02 on the boat 4 remain
    assert by_tile == {"k01": 5, "k02": 4, "k03": 5}


def test_step_is_apply_without_events() -> None:
    rng = random.Random(3)
    for n in (2, 4):
        s = E.setup(n, n, {"round_limit": 6})
        while E.outcome(s) is None:
            seat = E.to_move(s)[0]
            a = rng.choice(E.legal_actions(s, seat))
            assert base.state_fingerprint(E.step(s, seat, a)) == base.state_fingerprint(
                E.apply(s, seat, a)[0]
            )
            s = E.apply(s, seat, a)[0]


@pytest.mark.parametrize("n", [2, 3])
def test_search_moves_are_legal_reproducible_and_read_only_the_view(n: int) -> None:
    assert check_search(E, n, {"round_limit": 5}, seeds=range(1), every=13, iterations=12) > 0
    assert check_search(E, n, {**HIDDEN, "round_limit": 4}, seeds=range(1), every=17, iterations=8) > 0


def test_search_delivers_an_order_it_can_deliver() -> None:
    s = build(
        2,
        step=ACT,
        boats={0: "h22", 1: "h00"},
        orders_on={"h22n": "r2a"},
        players={0: {"coins": 3, "goods": {"veg": 2, "meat": 1}, "baskets": ("p1", "p2", "k01")}},
    )
    legal = E.legal_actions(s, 0)
    assert "deliver" in legal and len(legal) > 1
    got = search.choose(E, E.view(s, 0), legal, "normal", seed=1)
    assert got.action == "deliver"


def test_levels_and_counts() -> None:
    assert E.search_iterations["hard"] >= 3 * E.search_iterations["normal"]
    assert E.common_players == 3 and E.arena_counts() == [2, 3]
