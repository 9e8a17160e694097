"""The worked examples of docs/rules/kathai.md#worked-examples, one test each, with their numbers."""

from __future__ import annotations

import pytest

from engines.base import play
from engines.kathai import ENGINE as E
from engines.kathai.data import GOODS
from engines.kathai.positions import build, ids
from engines.kathai.scoring import ranks
from engines.kathai.state import OVER, REPLY, TRADING, State
from tests.kathai.helpers import go, hand, illegal, market

FULL = ["t42 t43 t44 t45 t46 t47 t48", "t49 t50 t51 t52 t53 t54 t55"]


def _turns_until_over(s: State) -> tuple[list[int], State]:
    seq = []
    while s.step != OVER:
        seq.append(s.active)
        s = go(s, s.active, "pass")
    return seq, s


def test_case1_rulebook_salt_sale() -> None:
    s = build(hands=["t5 t13 t31 t40 t41", *FULL], lock=("gold", "tea", "t8", 1))
    E.invariants(s)
    s = go(s, 0, "sell salt t13 t31 t40 t41")
    assert s.scores[0] == 6
    assert market(s) == "silk gold tea spice salt"
    assert s.profit[0] == ids("t13")
    assert s.discard_up[-3:] == ids("t31 t40 t41")
    assert ids("t8")[0] in s.discard_down and s.lock is None
    assert hand(s, 0) == "t5"
    assert s.active == 1 and E.to_move(s) == (1,)
    sale = s.sales[-1]
    assert (sale.items, sale.pos + 1, sale.points) == (7, 2, 6)


def test_case2_diagram1() -> None:
    s = build(hands=["t15 t16 t23 t24", *FULL])
    illegal(s, 0, "sell spice t24")
    illegal(s, 0, "sell silk t15 t23")
    s = go(s, 0, "sell silk t15 t16 t23")
    assert s.scores[0] == 7


def test_case3_caption_card_t40() -> None:
    s = build(hands=["t1 t2 t40", *FULL])
    illegal(s, 0, "sell gold t1 t40")
    s = go(s, 0, "sell gold t1 t2 t40")
    assert s.scores[0] == 4


def test_case4_rulebook_trade() -> None:
    s = build(hands=["t1 t2 t5 t9", "t3 t20 t25", "t6 t7 t8 t10 t11 t12 t19"])
    s = go(s, 0, "offer all t1 t2 for salt 1")
    assert s.step == REPLY and s.offer is not None and s.offer.skipped == (2,) and s.offer.addressees == (1,)
    assert E.to_move(s) == (1,)
    assert E.legal_actions(s, 1) == ["accept t3", "decline"]
    assert E.legal_actions(s, 2) == []
    s = go(s, 1, "accept t3")
    assert hand(s, 0) == "t3 t5 t9" and hand(s, 1) == "t1 t2 t20 t25"
    assert s.step == TRADING and s.traded
    illegal(s, 0, "swap t5")
    illegal(s, 0, "sell salt t3")
    assert "pass" in E.legal_actions(s, 0)


def test_case5_rulebook_end() -> None:
    s = build(hands=["t1", "t2 t3 t4 t5", "t6"], pile="t7")
    s = go(s, 0, "pass")
    assert s.active == 1 and hand(s, 1) == "t2 t3 t4 t5 t7"
    assert s.final == (2, 2, 2) and not s.pile
    s = go(s, 1, "pass")
    seq, end = _turns_until_over(s)
    assert seq == [2, 0, 1, 2, 0, 1]
    assert end.reason == "pile"


def test_case5_variant_last_card_bought() -> None:
    s = build(hands=["t1", "t2 t3 t4 t5 t6", "t8"], pile="t9 t10", profit=["", "t11"])
    s = go(s, 0, "pass")
    assert s.active == 1 and len(s.hands[1]) == 6 and len(s.pile) == 1
    s = go(s, 1, "buy")
    assert s.final == (2, 1, 2) and s.active == 2
    seq, end = _turns_until_over(s)
    assert seq == [2, 0, 1, 2, 0]


def test_case5_variant_final_counter_after_buy() -> None:
    s = build(hands=["t1", "t2 t3 t4 t5 t6", "t8"], pile="t9 t10", profit=["", "t11"])
    s = go(go(s, 0, "pass"), 1, "buy")
    assert s.final == (2, 1, 2)


def test_case6_seven_card_hand() -> None:
    s = build(hands=["t1", "t2", "t3 t4 t5 t6 t7 t8 t9"], profit=["", "", "t10"], pile="t20 t21")
    s0 = go(s, 0, "pass")
    s = go(s0, 1, "pass")
    assert s.active == 2 and len(s.hands[2]) == 7 and s.pile == s0.pile == ids("t21")
    assert "buy" not in E.legal_actions(s, 2)
    illegal(s, 2, "buy")


def test_case7_shift_from_x() -> None:
    s = build(hands=["t9 t29", *FULL])
    s = go(s, 0, "sell tea t9 t29")
    assert s.scores[0] == 2
    assert market(s) == "silk salt gold spice tea"


def test_case8_only_the_chosen_goods_count() -> None:
    s = build(hands=["t11 t17 t21 t26 t36", *FULL], market="gold silk salt tea spice")
    illegal(s, 0, "sell gold t11 t21 t26")
    illegal(s, 0, "sell gold t11 t17 t21 t36")
    s = go(s, 0, "sell gold t11 t21 t36")
    assert s.scores[0] == 7


def test_case9_lock() -> None:
    s = build(hands=["t7", "t1"], profit=["", "t30"])
    s = go(s, 0, "bribe gold tea t7")
    assert market(s) == "silk salt tea gold spice"
    assert s.lock is not None and s.lock.by == 0 and {GOODS[g] for g in s.lock.pair} == {"gold", "tea"}
    assert s.active == 1
    legal = E.legal_actions(s, 1)
    assert not any(a.startswith(("bribe tea gold", "bribe gold tea")) for a in legal)
    illegal(s, 1, "bribe tea gold profit")
    t = go(s, 1, "bribe gold spice profit")
    assert market(t) == "silk salt tea spice gold"
    assert t.lock is not None and {GOODS[g] for g in t.lock.pair} == {"gold", "spice"} and t.lock.by == 1
    assert ids("t7")[0] in t.discard_down
    g = build(hands=["t7", "t1"], profit=["", "t30"], options={"bribe_lock": "goods"})
    g = go(g, 0, "bribe gold tea t7")
    illegal(g, 1, "bribe gold spice profit")


def test_case10_buy() -> None:
    s = build(
        hands=["t1 t2 t3 t4 t5 t6", FULL[0], FULL[1]],
        profit=["t30"],
        pile="t7 t8 t9 t10 t11 t12 t13 t14 t15 t16",
    )
    assert "buy" in E.legal_actions(s, 0)
    s = go(s, 0, "buy")
    assert len(s.hands[0]) == 7 and len(s.profit[0]) == 0 and len(s.pile) == 9
    full = build(hands=["t1 t2 t3 t4 t5 t6 t7", *FULL], profit=["t30"])
    illegal(full, 0, "buy")
    empty = build(hands=["t1 t2 t3 t4 t5 t6", *FULL], profit=["t30"], pile="")
    illegal(empty, 0, "buy")
    none = build(hands=["t1 t2 t3 t4 t5 t6", *FULL], pile="t7 t8")
    illegal(none, 0, "buy")


def test_case11_swap() -> None:
    s = build(hands=["t3", "t40 t41 t42 t43 t44 t45 t46", "t20 t21 t22 t23 t24 t25 t26"], pile="t50")
    s = go(s, 0, "swap t3")
    assert ids("t50")[0] in s.hands[0] and s.pile == ids("t3") and s.final is None


def test_case11_swap_variant_next_seat_draws_and_triggers() -> None:
    s = build(hands=["t3", "t1", "t2"], pile="t50")
    s = go(s, 0, "swap t3")
    assert hand(s, 0) == "t50"
    assert s.active == 1 and hand(s, 1) == "t1 t3" and not s.pile
    assert s.final == (2, 2, 2)


def test_case12_ties() -> None:
    assert ranks([14, 14, 9], [1, 2, 0]) == (2, 1, 3)
    assert ranks([14, 14, 9], [2, 2, 0]) == (1, 1, 3)
    s = build(hands=["t1", "t2", "t3"], profit=["t4 t5", "t6 t7", ""], scores=[14, 14, 9])
    s = s.__class__(**{**s.__dict__, "step": OVER, "reason": "pile"})
    out = E.outcome(s)
    assert out is not None and out.ranks == (1, 1, 3) and out.winners == (0, 1)


def test_case13_parser() -> None:
    assert E.parse(" ACCEPT  T17 t3 ") == "accept t3 t17"
    assert E.parse("bribe tea gold t7") == "bribe gold tea t7"
    from engines.base import BadNotation

    with pytest.raises(BadNotation):
        E.parse("sell salt t03")
    # the bribe is accepted whichever order it is typed in, and stored one way
    s = build(hands=["t7"])
    assert E.is_legal(s, 0, "bribe tea gold t7") is None
    assert play(E, s, 0, "bribe tea gold t7").action == "bribe gold tea t7"
