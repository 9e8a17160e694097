"""Typing a Kathai move as the board reads (issue #26, item 7): a bribe's pair typed left goods
first or in goods order parses, completes and plays the same
(docs/rules/kathai.md#bribe-pair-goods-order); ``/move`` autocomplete labels what is not yet a
whole action with what comes next."""

from __future__ import annotations

import random

import pytest

from engines import base
from engines import prompt as pr
from engines.kathai import ENGINE as E
from engines.kathai.positions import build
from tests.kathai.helpers import random_states

# silk left of gold, gold left of tea: the pairs are silk|gold, gold|tea, tea|salt, salt|spice
MARKET = "silk gold tea salt spice"


def _values(got: list[tuple[str, str]]) -> list[str]:
    return [v for v, _ in got]


def test_a_bribe_pair_in_either_order_is_the_same_action() -> None:
    assert E.parse("bribe silk gold t1") == E.parse("bribe gold silk t1") == "bribe gold silk t1"
    assert E.parse("Bribe  SPICES salt profit") == "bribe salt spice profit"
    s = build(hands=["t1 t2", "t3", "t5"], market=MARKET)
    assert E.is_legal(s, 0, "bribe silk gold t1") is None
    board_order = base.play(E, s, 0, "bribe silk gold t1")
    goods_order = base.play(E, s, 0, "bribe gold silk t1")
    assert board_order.action == goods_order.action == "bribe gold silk t1"
    assert board_order.state == goods_order.state
    assert E.is_legal(s, 0, "bribe silk tea t1") is not None  # not neighbours: refused as before


def test_a_bribe_typed_left_goods_first_completes() -> None:
    s = build(hands=["t1 t2", "t3", "t5"], profit=["t11"], market=MARKET)
    # the goods in the order the board shows them, left first
    assert _values(E.complete(s, 0, "bribe ")) == [f"bribe {g}" for g in MARKET.split()]
    assert _values(E.complete(s, 0, "bribe silk ")) == ["bribe silk gold"]
    assert _values(E.complete(s, 0, "bribe gold ")) == ["bribe gold silk", "bribe gold tea"]
    assert _values(E.complete(s, 0, "bribe g")) == ["bribe gold"]
    for typed in ("bribe silk gold ", "bribe gold silk "):  # was: nothing for the left-first order
        got = E.complete(s, 0, typed)
        assert _values(got) == [typed + pay for pay in ("t1", "t2", "profit")]
        assert all(E.is_legal(s, 0, v) is None and label == v for v, label in got)
    assert _values(E.complete(s, 0, "bribe silk gold p")) == ["bribe silk gold profit"]
    assert E.complete(s, 0, "bribe silk tea ") == []  # not neighbours
    assert E.complete(s, 0, "bribe silk gold t9") == []  # not in the hand


def test_a_locked_pair_is_not_offered_in_either_order() -> None:
    s = build(hands=["t1 t2", "t3", "t5"], market=MARKET, lock=("gold", "silk", "t40", 1))
    assert "bribe silk" not in _values(E.complete(s, 0, "bribe "))
    assert _values(E.complete(s, 0, "bribe gold ")) == ["bribe gold tea"]
    assert E.complete(s, 0, "bribe silk gold ") == []


def test_partial_completions_say_what_comes_next() -> None:
    s = build(hands=["t1 t2 t40", "t3 t4", "t5 t30"], market=MARKET)
    got = dict(E.complete(s, 0, ""))
    assert got["swap"] == "swap … then a card of your hand"
    assert got["sell"] == "sell … then the goods to sell"
    assert got["offer"] == "offer … then to whom: all or a player"
    assert got["bribe"] == "bribe … then two goods side by side"
    assert got["pass"] == "pass"  # a whole action, nothing after it
    assert dict(E.complete(s, 0, "offer "))["offer s1"] == "offer {s1} … then the cards you give, or for"
    assert dict(E.complete(s, 0, "offer all t1 for "))["offer all t1 for salt"].endswith(
        "then how many cards"
    )
    assert (
        dict(E.complete(s, 0, "offer all t1 for salt "))["offer all t1 for salt 1"]
        == "offer all t1 for salt 1"
    )
    assert dict(E.complete(s, 0, "swap "))["swap t1"] == "swap t1"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_partial_completion_leads_on_to_a_legal_move(seed: int) -> None:
    rng = random.Random(seed)
    for st in random_states(25, seed=seed):
        for q in E.to_move(st):
            legal = E.legal_actions(st, q)
            a = rng.choice(legal)
            for prefix in ["", "bribe ", a.split(" ")[0] + " ", a[: len(a) // 2], a]:
                for value, label in E.complete(st, q, prefix):
                    if pr.THEN not in label:
                        assert E.is_legal(st, q, value) is None, (value, label)
                        continue
                    assert label.startswith(value.split(" ")[0]) and E.is_legal(st, q, value) is not None
                    on = value  # taking the first completion each time ends in a legal move
                    for _ in range(12):
                        nxt = E.complete(st, q, on + " ")
                        assert nxt, (value, on)
                        on = nxt[0][0]
                        if E.is_legal(st, q, on) is None:
                            break
                    assert E.is_legal(st, q, on) is None, (value, on)
