"""The shortcuts that make the Pralaya engine fast give what the plain computations give."""

import random

from engines.fastcopy import replace as evolve
from engines.pralaya.legal import DISCARD_TEXT, TAKE_TEXT, buy_actions, can_buy, legal
from engines.pralaya.positions import rig
from engines.pralaya.state import (
    BUY,
    CELLS,
    COLLECT,
    DISCARD,
    NEVER,
    island_avail,
    island_costs,
    shuffle_deck,
)
from pralaya_helpers import fresh


def test_the_inline_shuffle_draws_as_random_shuffle():
    for seed in range(500):
        a, b = random.Random(seed), random.Random(seed)
        x, y = list(range(85)), list(range(85))
        a.shuffle(x)
        shuffle_deck(b, y)
        assert x == y
        assert a.getstate() == b.getstate()


def _plain_legal(s):
    costs = island_costs(s.island)
    if s.step == COLLECT:
        names = TAKE_TEXT[len(costs)]
        return (["done"] if s.taken else []) + [names[i] for i, c in enumerate(costs) if c <= s.v_left]
    if s.step == DISCARD:
        return [DISCARD_TEXT[len(costs)][i] for i, c in enumerate(costs) if c != NEVER]
    return [*buy_actions(s), "pass"]


def test_legal_lists_from_the_masks_match_the_costs():
    rng = random.Random(3)
    for n in (2, 3, 4, 5):
        s = fresh(n)
        for _ in range(300):
            island = tuple(rng.choice((-1, -1, *range(85))) for _ in CELLS[n])
            for step in (COLLECT, DISCARD):
                for v in range(5):
                    t = evolve(s, island=island, avail=island_avail(island), step=step, v_left=v,
                               taken=rng.choice((0, 1)))
                    assert legal(t) == _plain_legal(t) == sorted(_plain_legal(t))


def test_can_buy_is_whether_a_buy_is_listed():
    s = fresh(3)
    coins = ["gol1", "gol2", "sil1", "sil2", "sil3", "cop1", "cop2", "cop3"]
    rng = random.Random(5)
    seen = set()
    for _ in range(400):
        hand = rng.sample(coins, rng.randrange(len(coins) + 1)) + rng.sample(["dem1", "fos1"], rng.randrange(3))
        veda = rng.choice(([], [0], [1]))
        dhoni = rng.choice((None, {1: "dhx"}, {1: "dhx", 2: "dh4"}, {0: "dhx"}))
        t = rig(s, hands={0: hand}, veda=veda, dhoni=dhoni, round=2, active=0)
        for price in (1, 4, 9, 10):
            u = evolve(t, veda_price=price, step=BUY)
            got = can_buy(u)
            assert got == bool(buy_actions(u))
            seen.add(got)
    assert seen == {True, False}
