"""``/move`` autocomplete in every game (issue #26, item 7): a choice is a whole legal move, or
the start of one whose label says what comes next (:func:`engines.prompt.going_on`); and a
multi-part action typed in another order than the canonical one (a Kathai bribe's pair, a
Pralaya payment's coins) is the same action."""

from __future__ import annotations

import random

import pytest

from engines import base
from engines import prompt as pr
from engines.play import play


def _states(engine: base.Engine, seed: int, n: int, every: int) -> list[object]:
    """Every ``every``-th state of a random playout."""
    rng = random.Random(seed)
    state = engine.setup(seed, n)
    out = []
    for i in range(engine.action_bound(n)):
        if engine.outcome(state) is not None:
            break
        if i % every == 0:
            out.append(state)
        seat = rng.choice(engine.to_move(state))
        state = play(engine, state, seat, rng.choice(engine.legal_actions(state, seat))).state
    return out


@pytest.mark.parametrize("kind", [e.name for e in base.games()])
def test_each_choice_is_a_whole_move_or_says_what_comes_next(kind: str) -> None:
    engine = base.get(kind)
    n = max(3, engine.min_players)
    rng = random.Random(5)
    checked = 0
    for state in _states(engine, 7, n, 9):
        for seat in engine.to_move(state):
            legal = engine.legal_actions(state, seat)
            a = rng.choice(legal)
            for prefix in ["", a.split(" ")[0], a.split(" ")[0] + " ", a]:
                for value, label in engine.complete(state, seat, prefix):
                    checked += 1
                    if pr.THEN in label:  # the start of a move: not a move yet
                        assert label.startswith(value.split(" ")[0]), (value, label)
                        assert engine.is_legal(state, seat, value) is not None, (value, label)
                    else:
                        assert engine.is_legal(state, seat, value) is None, (value, label)
    assert checked > 20


def test_a_pralaya_payment_in_any_order_is_the_same_action() -> None:
    engine = base.get("pralaya")
    assert engine.parse("buy veda 1s 0g 1c") == engine.parse("BUY VEDA 1C 1S 0G") == "buy veda 0g 1s 1c"
    assert engine.parse("buy dhoni 2c 1g 0s") == "buy dhoni 1g 0s 2c"
    for bad in ("buy veda 1s 1s 1c", "buy veda 1g 1s", "buy veda 9g 1s 1c", "buy veda 1c 1s 0x"):
        with pytest.raises(base.BadNotation, match="three counts"):
            engine.parse(bad)
