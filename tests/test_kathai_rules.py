"""Kathai rules beyond the worked examples (docs/rules/kathai.md#worked-examples): setup, grammar, legality, the trade protocol, events,
views and secrets, options, autocomplete, prompts and timeouts."""
from __future__ import annotations

import json
import random

import pytest

from engines import prompt as pr
from engines.base import BadNotation, BadOption, IllegalAction, NotYourTurn, play, replay, state_fingerprint
from engines.kathai import ENGINE as E
from engines.kathai import legal as lg
from engines.kathai.data import CARD_TEXT, GOODS
from engines.kathai.positions import build, ids
from engines.kathai.state import MAIN, OVER, REPLY, TRADING


def go(s, seat, text):
    s2 = play(E, s, seat, text).state
    E.invariants(s2)
    return s2


# --------------------------------------------------------------------------- setup

@pytest.mark.parametrize("n", [3, 4, 5])
def test_setup_follows_spec_section_3(n):
    seed = 11
    rng = random.Random(seed)
    pile = [f"t{i}" for i in range(1, 56)]
    rng.shuffle(pile)
    market = list(GOODS)
    rng.shuffle(market)
    first = rng.randrange(n)
    s = E.setup(seed, n, {})
    assert s.active == first and s.turn_no == 1 and s.step == MAIN
    assert [GOODS[g] for g in s.market] == market
    for q in range(n):
        dealt = sorted(int(t[1:]) for t in pile[3 * q:3 * q + 3])
        extra = [int(pile[3 * n][1:])] if q == first else []
        assert list(s.hands[q]) == sorted(dealt + extra)
    assert [CARD_TEXT[c] for c in s.pile] == pile[3 * n + 1:]
    assert len(s.pile) + 1 == {3: 46, 4: 43, 5: 40}[n]
    E.invariants(s)


def test_setup_options():
    assert E.setup(5, 4, {"first_player": "seat0"}).active == 0
    for bad in ({"first_player": "s3"}, {"bribe_lock": "both"}, {"max_offers": 0}, {"players": 3}):
        with pytest.raises(BadOption):
            E.setup(1, 3, bad)
    for n in (2, 6):
        with pytest.raises(BadOption):
            E.setup(1, n, {})


# --------------------------------------------------------------------------- grammar

@pytest.mark.parametrize("text,canon", [
    ("sell SALT t41 t13", "sell salt t13 t41"),
    ("  bribe tea   spice profit", "bribe spice tea profit"),
    ("offer S1 t2 t1 for salt 1", "offer s1 t1 t2 for salt 1"),
    ("offer all t11 for ANY 2", "offer all t11 for any 2"),
    ("offer s2 for tea 1", "offer s2 for tea 1"),
    ("offer s2 t5 for any 0", "offer s2 t5 for any 0"),
    ("accept", "accept"), ("Decline", "decline"), ("swap t5", "swap t5"), ("BUY", "buy"),
])
def test_parse_canonical(text, canon):
    assert E.parse(text) == canon
    assert E.parse(canon) == canon


@pytest.mark.parametrize("text", [
    "sell salt t03", "sell salt t3 t3", "sell salt", "sell spicy t1", "swap", "swap t1 t2",
    "swap t56", "swap t0", "bribe gold gold t1", "bribe gold tea", "buy now", "pass pass",
    "offer s1 t1 for salt 01", "offer s1 t1 for salt 0", "offer s1 for any 0",
    "offer s1 t1 for salt 8", "offer s5 t1 for salt 1", "offer s1 t1 salt 1", "offer",
    "accept t1 t1", "trade", "",
])
def test_parse_rejects(text):
    with pytest.raises(BadNotation):
        E.parse(text)


def test_sample_actions_are_canonical_and_cover_every_verb():
    rng = random.Random(4)
    got = E.sample_actions(4, rng, 400)
    assert all(E.parse(a) == a for a in got)
    assert {a.split()[0] for a in got} == {"accept", "bribe", "buy", "decline", "offer", "pass",
                                           "sell", "swap"}


# --------------------------------------------------------------------------- legal lists

def _random_states(count=40, seed=0):
    rng = random.Random(seed)
    for i in range(count):
        n = 3 + i % 3
        opts = [{}, {"allow_gifts": True, "free_asking": True}][i % 2]
        s = E.setup(i, n, opts)
        for _ in range(rng.randrange(60)):
            if s.step == OVER:
                break
            q = rng.choice(E.to_move(s))
            s = E.apply(s, q, rng.choice(E.legal_actions(s, q)))[0]
        yield s


def test_legal_lists_sorted_unique_and_agree_with_is_legal():
    rng = random.Random(1)
    for s in _random_states():
        for q in E.to_move(s):
            legal = E.legal_actions(s, q)
            assert legal == sorted(legal) and len(set(legal)) == len(legal)
            for a in rng.sample(legal, min(40, len(legal))):
                assert E.is_legal(s, q, a) is None
            legal_set = set(legal)
            for a in E.sample_actions(s.n, rng, 300):
                assert (E.is_legal(s, q, a) is None) == (a in legal_set), a


def test_largest_offer_lists():  # docs/rules/kathai.md#largest-offer-list
    hands = ["t1 t2 t3 t4 t5 t6 t7", "t8 t9 t10 t11", "t12 t13 t14 t15", "t16 t17 t18 t19",
             "t20 t21 t22 t23"]
    assert len(lg.offer_actions(build(5, hands=hands))) == 11160
    gifts = ["t1 t2 t3 t4 t5 t6 t7", "t8 t9 t10", "t12 t13 t14 t15", "t16 t17 t18 t19",
             "t20 t21 t22 t23"]
    assert len(lg.offer_actions(build(5, hands=gifts, options={"allow_gifts": True}))) == 11509


def test_kept_and_spent_profit_cards_are_numerically_lowest():
    s = build(hands=["t9 t10 t19", "t42 t43 t44 t45 t46 t47 t48", "t49 t50 t51 t52 t53 t54 t55"],
              )
    s = go(s, 0, "sell tea t9 t10 t19")
    assert s.profit[0] == ids("t9")
    s2 = build(hands=["t1"], profit=["t9 t10"])
    s2 = go(s2, 0, "buy")
    assert s2.profit[0] == ids("t10") and ids("t9")[0] in s2.discard_down


def test_lock_card_stays_until_next_bribe_or_sale():
    s = build(hands=["t7", "t1 t2", "t3 t4"])
    s = go(s, 0, "bribe gold tea t7")
    assert s.lock.card == 7 and 7 not in s.discard_down
    s = go(s, 1, "bribe salt silk t1")
    assert 7 in s.discard_down and s.lock.card == 1


def test_free_asking_keeps_sell_open_until_a_trade():
    hands = ["t1 t2 t40", "t3 t4", "t5 t6"]
    plain = go(build(hands=hands), 0, "offer s1 t40 for tea 1")
    plain = go(plain, 1, "decline")
    assert plain.step == TRADING and E.is_legal(plain, 0, "sell gold t1 t2 t40")
    free = go(build(hands=hands, options={"free_asking": True}), 0, "offer s1 t40 for tea 1")
    free = go(free, 1, "decline")
    assert E.is_legal(free, 0, "sell gold t1 t2 t40") is None
    traded = go(build(hands=hands, options={"free_asking": True}), 0, "offer s1 t40 for salt 1")
    traded = go(traded, 1, "accept t3")
    assert E.is_legal(traded, 0, "sell gold t1 t2")


def test_gifts_only_with_the_option():
    hands = ["t1 t5", "t9 t10", "t11"]
    for text in ("offer s1 for tea 1", "offer s1 t5 for any 0"):
        assert E.is_legal(build(hands=hands), 0, text)
        assert E.is_legal(build(hands=hands, options={"allow_gifts": True}), 0, text) is None
    s = go(build(hands=hands, options={"allow_gifts": True}), 0, "offer s1 t5 for any 0")
    assert E.legal_actions(s, 1) == ["accept", "decline"]
    s = go(s, 1, "accept")
    assert s.hands[0] == ids("t1") and s.hands[1] == ids("t5 t9 t10")


def test_max_offers_caps_offers_in_main_too():
    s = build(hands=["t1 t2", "t3", "t4"], options={"max_offers": 1})
    s = go(go(s, 0, "offer s1 t1 for salt 1"), 1, "decline")
    assert not any(a.startswith("offer") for a in E.legal_actions(s, 0))
    assert "1 offer this turn" in E.is_legal(s, 0, "offer s2 t1 for gold 1")


def test_turn_limit_ends_a_stalled_game():
    s = E.setup(3, 3, {"turn_limit": 4})
    while s.step != OVER:
        s = go(s, s.active, "pass")
    assert s.turn_no == 4 and s.reason == "turn_limit"
    out = E.outcome(s)
    assert out is not None and "turn limit" in out.notes[0]
    assert E.view(s, None)["outcome"]["reason"] == "turn_limit"


# --------------------------------------------------------------------------- the trade protocol

def test_several_addressees_at_once_and_first_accept_wins():
    s = build(n=4, hands=["t1 t2", "t3 t4", "t5 t30", "t40 t41 t42 t43 t44 t45 t46"])
    s = go(s, 0, "offer all t1 t2 for silk 1")
    assert E.to_move(s) == (1, 2) and s.offer.skipped == (3,)
    with pytest.raises(NotYourTurn):
        play(E, s, 3, "decline")
    t = go(s, 2, "accept t30")
    assert t.step == TRADING and t.hands[0] == ids("t30") and t.hands[2] == ids("t1 t2 t5")
    assert E.to_move(t) == (0,) and E.legal_actions(t, 1) == []
    d = go(s, 1, "decline")
    assert E.to_move(d) == (2,)
    d = go(d, 2, "decline")
    assert d.step == TRADING and d.offer is None and not d.traded


def test_named_target_must_be_eligible():
    s = build(hands=["t1 t2", "t40 t41 t42 t43 t44 t45 t46", ""])
    assert E.is_legal(s, 0, "offer s1 t1 t2 for any 1")            # 7 - 1 + 2 = 8
    assert E.is_legal(s, 0, "offer s2 t1 for any 1")               # s2 holds nothing
    assert E.is_legal(s, 0, "offer s0 t1 for any 1")
    assert E.is_legal(s, 0, "offer s3 t1 for any 1")
    assert E.is_legal(s, 0, "offer s1 t1 for any 1") is None


def test_trade_events_are_private_to_the_two_traders():
    s = build(hands=["t1 t2 t5 t9", "t3 t20 t25", "t6 t7 t8 t10 t11 t12 t19"])
    r = play(E, s, 0, "offer all t1 t2 for salt 1")
    (offer,) = [e for e in r.events if e.kind == "offer"]
    assert offer.audience == frozenset({0, 1})
    assert "t1" in offer.text and "t1" not in offer.twin.text and "2 cards" in offer.twin.text
    assert "skipped" in offer.twin.text
    r2 = play(E, r.state, 1, "accept t3")
    (trade,) = [e for e in r2.events if e.kind == "trade"]
    assert trade.audience == frozenset({0, 1}) and "t3" in trade.text
    assert trade.twin.text == "{s0} and {s1} trade: 2 cards for 1 card (each shows salt)."
    assert trade.seen_by(2) is trade.twin and trade.seen_by(None) is trade.twin


def test_draws_and_swaps_are_private():
    s = build(hands=["t3", "t1", "t2"], pile="t50 t51")
    r = play(E, s, 0, "swap t3")
    for e in r.events:
        if e.kind in ("swap", "draw"):
            assert e.private_to is not None and not any(
                CARD_TEXT[c] in e.twin.text for c in (3, 50, 51))


# --------------------------------------------------------------------------- views

def test_views_hide_hands_pile_and_foreign_offers():
    s = build(n=4, hands=["t1 t2", "t3 t4", "t5 t30", "t40 t41 t42 t43 t44 t45 t46"])
    s = go(s, 0, "offer all t1 t2 for silk 1")
    for viewer in (None, 0, 1, 2, 3):
        text = json.dumps(E.view(s, viewer))
        for secret in E.secrets(s, viewer):
            assert secret not in text
    assert E.view(s, 1)["offer"]["give"][0]["id"] == "t1"
    assert E.view(s, 3)["offer"]["give"] is None and E.view(s, None)["offer"]["give"] is None
    assert E.view(s, None)["me"] is None
    v = E.view(s, 2)
    assert v["me"]["offer_for_me"] and v["me"]["eligible"] == ["t5", "t30"]
    assert v["offer"]["awaiting"] == [1, 2] and v["offer"]["skipped"] == [3]


def test_view_sell_now_and_lock_card_for_its_owner():
    s = build(hands=["t5 t13 t31 t40 t41", "t7"], lock=("gold", "tea", "t8", 0))
    me = E.view(s, 0)["me"]
    salt = next(x for x in me["sell_now"] if x["goods"] == "salt")
    assert salt == {"goods": "salt", "pos": 2, "min": 5, "items": 7, "cards": 4,
                    "can_sell": True, "points": 6}
    assert me["lock_card"] == "t8" and E.view(s, 1)["lock"]["card"] is None
    assert E.view(s, None)["lock"]["pair"] == ["gold", "tea"]


# --------------------------------------------------------------------------- host helpers

def test_timeout_actions_never_trade():
    s = build(hands=["t1 t2", "t3 t4", "t5 t30"])
    assert E.timeout_action(s, 0) == "pass"
    s = go(s, 0, "offer all t1 for silk 1")
    assert E.timeout_action(s, 2) == "decline" and E.timeout_action(s, 1) == "decline"


def test_autocomplete_gives_next_tokens():
    s = build(hands=["t1 t2 t40", "t3 t4", "t5 t30"])
    legal = E.legal_actions(s, 0)
    # the moves a person chooses between first (issue #22): each sale whole with its points,
    # then sell, pass, swap, offer, bribe; an offer's targets carry the player's name token
    got = E.complete(s, 0, "")
    assert [v for v, _ in got] == ["sell gold t1 t2 t40", "sell", "pass", "swap", "offer", "bribe"]
    assert "4 points" in got[0][1]
    assert E.complete(s, 0, "offer ") == [("offer all", "offer all"), ("offer s1", "{s1}"), ("offer s2", "{s2}")]
    assert [v for v, _ in E.complete(s, 0, "offer all t1 t2 for sa")] == ["offer all t1 t2 for salt"]
    assert [v for v, _ in E.complete(s, 0, "sell gold t1 t2 t4")] == ["sell gold t1 t2 t40"]
    for st in _random_states(30, seed=3):
        for q in E.to_move(st):
            legal = E.legal_actions(st, q)
            for prefix in ["", "o", "offer ", "offer all ", legal[-1][:8], legal[len(legal) // 2]]:
                got = E.complete(st, q, prefix)
                assert len(got) <= 25
                for value, _ in got:
                    assert any(a == value or a.startswith(value + " ") for a in legal), value
                want = pr.next_tokens(legal, prefix, limit=10_000)
                words = {v for v, _ in got if prefix or " " not in v}  # "" also offers whole sales
                assert words == {v for v, _ in want} or len(want) > 25


def test_prompts_fit_and_build_legal_texts():
    for st in _random_states(40, seed=5):
        for q in E.to_move(st):
            p = E.prompt(st, q)
            assert pr.rows(p.controls) <= 5 and not p.public  # private: a DM to itself
            legal = set(E.legal_actions(st, q))
            assert set(p.actions()) <= legal
            form = p.find("move")
            if isinstance(form, pr.Form):
                assert form.build({"do": ["pass"]}) == "pass"
    s = build(hands=["t5 t13 t31 t40 t41", "t3", "t4"])
    form = E.prompt(s, 0).find("move")
    assert form.build({"do": ["sell salt"], "cards": ["t13", "t31", "t40", "t41"]}) in E.legal_actions(s, 0)
    assert form.build({"do": ["offer all"], "cards": ["t5"], "want": ["for salt"], "count": ["1"]}) == \
        "offer all t5 for salt 1"
    big = form.build({"do": ["offer all"], "cards": ["t5"], "want": ["for any"], "count": ["7"]})
    assert big == "offer all t5 for any 7"  # every ask up to the hand limit, without typing
    s = go(s, 0, "offer all t5 for salt 1")
    p = E.prompt(s, 1)
    pick = p.find("accept")
    assert pick.min == pick.max == 1 and pick.build(["t3"]) == "accept t3"
    assert "decline" in p.actions()
    assert E.prompt(s, 2).actions() == ["decline"]          # t4 shows no salt


def test_replay_reproduces_state():
    rng = random.Random(9)
    s = E.setup(9, 4, {})
    moves = []
    for _ in range(150):
        q = rng.choice(E.to_move(s))
        a = rng.choice(E.legal_actions(s, q))
        moves.append((q, a))
        s = play(E, s, q, a).state
        if s.step == OVER:
            break
    assert state_fingerprint(replay(E, 9, 4, {}, moves)) == state_fingerprint(s)


def test_section_11_invariants_over_random_play():
    """Pile never grows, scores never fall, actions per turn ≤ max_offers·n + 1, and the
    engine's own invariants hold."""
    rng = random.Random(12)
    for seed in range(12):
        n = 3 + seed % 3
        opts = {"free_asking": True, "max_offers": 3} if seed % 2 else {"max_offers": 2}
        s = E.setup(seed, n, opts)
        per_turn: dict[int, int] = {}
        while s.step != OVER and s.turn_no < 40:
            q = rng.choice(E.to_move(s))
            legal = E.legal_actions(s, q)
            small = [a for a in legal if not a.startswith("offer")]
            a = rng.choice(small if small and rng.random() < 0.5 else legal)
            t = play(E, s, q, a).state
            E.invariants(t)
            assert len(t.pile) <= len(s.pile)
            assert all(x >= y for x, y in zip(t.scores, s.scores))
            per_turn[s.turn_no] = per_turn.get(s.turn_no, 0) + 1
            s = t
        assert max(per_turn.values()) <= s.opts.max_offers * n + 1


def test_setup_events_show_each_hand_only_to_its_owner():
    s = E.setup(2, 3, {})
    ev = E.events_on_setup(s)
    assert ev[0].public and "{s%d} starts" % s.active in ev[0].text
    for q in range(3):
        (mine,) = [e for e in ev if e.kind == "hand" and e.data["seat"] == q]
        assert mine.audience == frozenset({q}) and CARD_TEXT[s.hands[q][0]] in mine.text
        assert mine.twin.text == "{s%d} holds %d cards." % (q, len(s.hands[q]))


def test_main_prompt_text_summarises_the_hand():
    s = build(hands=["t5 t13 t31 t40 t41", "t3", "t4"])
    text = E.prompt(s, 0).text
    assert "salt 7 (sell now: 6 pts)" in text and "profit cards 0" in text
