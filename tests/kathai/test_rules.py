"""Kathai rules: set-up, grammar, legality and the legal lists (against brute force), the trade
protocol, events, replay, the invariants, and the fast copies that equal the constructors."""

from __future__ import annotations

import dataclasses
import pickle
import random
from collections.abc import Iterator

import pytest

from engines.base import (
    BadNotation,
    BadOption,
    Event,
    NotYourTurn,
    first_awaited,
    play,
    replay,
    state_fingerprint,
)
from engines.kathai import ENGINE as E
from engines.kathai import apply as flow
from engines.kathai import legal as lg
from engines.kathai.data import ANY, CARD_TEXT, GOODS, HAND_LIMIT, NGOODS, WANTS
from engines.kathai.notation import PROFIT, Move, format_move
from engines.kathai.positions import build, ids
from engines.kathai.state import ALL, MAIN, OVER, REPLY, TRADING, Offer, State, declined_by, upd
from tests.kathai.helpers import go, random_states

# --------------------------------------------------------------------------- legal lists


OPTIONS: tuple[dict[str, object], ...] = (
    {},
    {"allow_gifts": True, "max_offers": 3},
    {"free_asking": True, "allow_gifts": True, "bribe_lock": "goods", "first_player": "seat0"},
)


def _subsets(hand: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    for mask in range(1 << len(hand)):
        yield tuple(c for i, c in enumerate(hand) if mask >> i & 1)


def _candidates(s: State, seat: int) -> set[str]:
    """Every well-formed text naming only ``seat``'s cards (a superset of its legal list)."""
    hand = s.hands[seat]
    moves = [Move("pass"), Move("buy"), Move("decline")]
    moves += [Move("swap", ids=(c,)) for c in hand]
    moves += [
        Move("bribe", pair=(a, b), pay=p)
        for a in range(NGOODS)
        for b in range(a + 1, NGOODS)
        for p in (PROFIT, *hand)
    ]
    for sub in _subsets(hand):
        moves.append(Move("accept", ids=sub))
        if sub:
            moves += [Move("sell", ids=sub, goods=g) for g in range(NGOODS)]
        for t in (ALL, *range(s.n)):
            for w in range(len(WANTS)):
                for k in range(HAND_LIMIT + 1):
                    if (k == 0 and w != ANY) or (k == 0 and not sub):
                        continue
                    moves.append(Move("offer", ids=sub, target=t, want=w, k=k))
    return {format_move(m) for m in moves}


def _states(n: int, options: dict[str, object], seed: int) -> list[State]:
    """A few states of a random game: main, trading and reply steps, large hands preferred."""
    rng = random.Random(seed)
    s = E.setup(seed, n, options)
    picked: list[State] = []
    steps = 0
    while E.outcome(s) is None and len(picked) < 4:
        seat = first_awaited(E, s)
        big = len(s.hands[s.active]) >= 6
        if steps % 29 == 7 or (big and steps % 11 == 3 and s.step != REPLY):
            picked.append(s)
        s = E.apply(s, seat, rng.choice(E.legal_actions(s, seat)))[0]
        steps += 1
    return picked


# --------------------------------------------------------------------------- setup


@pytest.mark.parametrize("n", [3, 4, 5])
def test_setup_follows_spec_section_3(n: int) -> None:
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
        dealt = sorted(int(t[1:]) for t in pile[3 * q : 3 * q + 3])
        extra = [int(pile[3 * n][1:])] if q == first else []
        assert list(s.hands[q]) == sorted(dealt + extra)
    assert [CARD_TEXT[c] for c in s.pile] == pile[3 * n + 1 :]
    assert len(s.pile) + 1 == {3: 46, 4: 43, 5: 40}[n]
    E.invariants(s)


def test_setup_options() -> None:
    assert E.setup(5, 4, {"first_player": "seat0"}).active == 0
    for bad in ({"first_player": "s3"}, {"bribe_lock": "both"}, {"max_offers": 0}, {"players": 3}):
        with pytest.raises(BadOption):
            E.setup(1, 3, bad)
    for n in (2, 6):
        with pytest.raises(BadOption):
            E.setup(1, n, {})


# --------------------------------------------------------------------------- grammar


@pytest.mark.parametrize(
    "text,canon",
    [
        ("sell SALT t41 t13", "sell salt t13 t41"),
        ("  bribe tea   spice profit", "bribe spice tea profit"),
        ("offer S1 t2 t1 for salt 1", "offer s1 t1 t2 for salt 1"),
        ("offer all t11 for ANY 2", "offer all t11 for any 2"),
        ("offer s2 for tea 1", "offer s2 for tea 1"),
        ("offer s2 t5 for any 0", "offer s2 t5 for any 0"),
        ("accept", "accept"),
        ("Decline", "decline"),
        ("swap t5", "swap t5"),
        ("BUY", "buy"),
    ],
)
def test_parse_canonical(text: str, canon: str) -> None:
    assert E.parse(text) == canon
    assert E.parse(canon) == canon


@pytest.mark.parametrize(
    "text",
    [
        "sell salt t03",
        "sell salt t3 t3",
        "sell salt",
        "sell spicy t1",
        "swap",
        "swap t1 t2",
        "swap t56",
        "swap t0",
        "bribe gold gold t1",
        "bribe gold tea",
        "buy now",
        "pass pass",
        "offer s1 t1 for salt 01",
        "offer s1 t1 for salt 0",
        "offer s1 for any 0",
        "offer s1 t1 for salt 8",
        "offer s5 t1 for salt 1",
        "offer s1 t1 salt 1",
        "offer",
        "accept t1 t1",
        "trade",
        "",
    ],
)
def test_parse_rejects(text: str) -> None:
    with pytest.raises(BadNotation):
        E.parse(text)


def test_sample_actions_are_canonical_and_cover_every_verb() -> None:
    rng = random.Random(4)
    got = E.sample_actions(4, rng, 400)
    assert all(E.parse(a) == a for a in got)
    assert {a.split()[0] for a in got} == {
        "accept",
        "bribe",
        "buy",
        "decline",
        "offer",
        "pass",
        "sell",
        "swap",
    }


def test_legal_lists_sorted_unique_and_agree_with_is_legal() -> None:
    rng = random.Random(1)
    for s in random_states():
        for q in E.to_move(s):
            legal = E.legal_actions(s, q)
            assert legal == sorted(legal) and len(set(legal)) == len(legal)
            for a in rng.sample(legal, min(40, len(legal))):
                assert E.is_legal(s, q, a) is None
            legal_set = set(legal)
            for a in E.sample_actions(s.n, rng, 300):
                assert (E.is_legal(s, q, a) is None) == (a in legal_set), a


def test_largest_offer_lists() -> None:  # docs/rules/kathai.md#largest-offer-list
    hands = ["t1 t2 t3 t4 t5 t6 t7", "t8 t9 t10 t11", "t12 t13 t14 t15", "t16 t17 t18 t19", "t20 t21 t22 t23"]
    assert len(lg.offer_actions(build(5, hands=hands))) == 11160
    gifts = ["t1 t2 t3 t4 t5 t6 t7", "t8 t9 t10", "t12 t13 t14 t15", "t16 t17 t18 t19", "t20 t21 t22 t23"]
    assert len(lg.offer_actions(build(5, hands=gifts, options={"allow_gifts": True}))) == 11509


def test_kept_and_spent_profit_cards_are_numerically_lowest() -> None:
    s = build(
        hands=["t9 t10 t19", "t42 t43 t44 t45 t46 t47 t48", "t49 t50 t51 t52 t53 t54 t55"],
    )
    s = go(s, 0, "sell tea t9 t10 t19")
    assert s.profit[0] == ids("t9")
    s2 = build(hands=["t1"], profit=["t9 t10"])
    s2 = go(s2, 0, "buy")
    assert s2.profit[0] == ids("t10") and ids("t9")[0] in s2.discard_down


def test_lock_card_stays_until_next_bribe_or_sale() -> None:
    s = build(hands=["t7", "t1 t2", "t3 t4"])
    s = go(s, 0, "bribe gold tea t7")
    assert s.lock is not None and s.lock.card == 7 and 7 not in s.discard_down
    s = go(s, 1, "bribe salt silk t1")
    assert 7 in s.discard_down and s.lock is not None and s.lock.card == 1


def test_free_asking_keeps_sell_open_until_a_trade() -> None:
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


def test_gifts_only_with_the_option() -> None:
    hands = ["t1 t5", "t9 t10", "t11"]
    for text in ("offer s1 for tea 1", "offer s1 t5 for any 0"):
        assert E.is_legal(build(hands=hands), 0, text)
        assert E.is_legal(build(hands=hands, options={"allow_gifts": True}), 0, text) is None
    s = go(build(hands=hands, options={"allow_gifts": True}), 0, "offer s1 t5 for any 0")
    assert E.legal_actions(s, 1) == ["accept", "decline"]
    s = go(s, 1, "accept")
    assert s.hands[0] == ids("t1") and s.hands[1] == ids("t5 t9 t10")


def test_max_offers_caps_offers_in_main_too() -> None:
    s = build(hands=["t1 t2", "t3", "t4"], options={"max_offers": 1})
    s = go(go(s, 0, "offer s1 t1 for salt 1"), 1, "decline")
    assert not any(a.startswith("offer") for a in E.legal_actions(s, 0))
    assert "1 offer this turn" in (E.is_legal(s, 0, "offer s2 t1 for gold 1") or "")


def test_turn_limit_ends_a_stalled_game() -> None:
    s = E.setup(3, 3, {"turn_limit": 4})
    while s.step != OVER:
        s = go(s, s.active, "pass")
    assert s.turn_no == 4 and s.reason == "turn_limit"
    out = E.outcome(s)
    assert out is not None and "turn limit" in out.notes[0]
    assert E.view(s, None)["outcome"]["reason"] == "turn_limit"


# --------------------------------------------------------------------------- the trade protocol


def test_several_addressees_at_once_and_first_accept_wins() -> None:
    s = build(n=4, hands=["t1 t2", "t3 t4", "t5 t30", "t40 t41 t42 t43 t44 t45 t46"])
    s = go(s, 0, "offer all t1 t2 for silk 1")
    assert E.to_move(s) == (1, 2) and s.offer is not None and s.offer.skipped == (3,)
    with pytest.raises(NotYourTurn):
        play(E, s, 3, "decline")
    t = go(s, 2, "accept t30")
    assert t.step == TRADING and t.hands[0] == ids("t30") and t.hands[2] == ids("t1 t2 t5")
    assert E.to_move(t) == (0,) and E.legal_actions(t, 1) == []
    d = go(s, 1, "decline")
    assert E.to_move(d) == (2,)
    d = go(d, 2, "decline")
    assert d.step == TRADING and d.offer is None and not d.traded


def test_named_target_must_be_eligible() -> None:
    s = build(hands=["t1 t2", "t40 t41 t42 t43 t44 t45 t46", ""])
    assert E.is_legal(s, 0, "offer s1 t1 t2 for any 1")  # 7 - 1 + 2 = 8
    assert E.is_legal(s, 0, "offer s2 t1 for any 1")  # s2 holds nothing
    assert E.is_legal(s, 0, "offer s0 t1 for any 1")
    assert E.is_legal(s, 0, "offer s3 t1 for any 1")
    assert E.is_legal(s, 0, "offer s1 t1 for any 1") is None


def test_trade_events_are_private_to_the_two_traders() -> None:
    s = build(hands=["t1 t2 t5 t9", "t3 t20 t25", "t6 t7 t8 t10 t11 t12 t19"])
    r = play(E, s, 0, "offer all t1 t2 for salt 1")
    (offer,) = [e for e in r.events if e.kind == "offer"]
    assert offer.audience == frozenset({0, 1}) and offer.twin is not None
    assert "t1" in offer.text and "t1" not in offer.twin.text and "2 cards" in offer.twin.text
    assert "skipped" in offer.twin.text
    r2 = play(E, r.state, 1, "accept t3")
    (trade,) = [e for e in r2.events if e.kind == "trade"]
    assert trade.audience == frozenset({0, 1}) and "t3" in trade.text and trade.twin is not None
    assert trade.twin.text == "{s0} and {s1} trade: 2 cards for 1 card (each shows salt)."
    assert trade.seen_by(2) is trade.twin and trade.seen_by(None) is trade.twin


def test_draws_and_swaps_are_private() -> None:
    s = build(hands=["t3", "t1", "t2"], pile="t50 t51")
    r = play(E, s, 0, "swap t3")
    for e in r.events:
        if e.kind in ("swap", "draw"):
            assert e.private_to is not None and e.twin is not None
            assert not any(CARD_TEXT[c] in e.twin.text for c in (3, 50, 51))


def test_replay_reproduces_state() -> None:
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


def test_section_11_invariants_over_random_play() -> None:
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
            assert all(x >= y for x, y in zip(t.scores, s.scores, strict=False))
            per_turn[s.turn_no] = per_turn.get(s.turn_no, 0) + 1
            s = t
        assert max(per_turn.values()) <= s.opts.max_offers * n + 1


def test_setup_events_show_each_hand_only_to_its_owner() -> None:
    s = E.setup(2, 3, {})
    ev = E.events_on_setup(s)
    assert ev[0].public and "{s%d} starts" % s.active in ev[0].text
    for q in range(3):
        (mine,) = [e for e in ev if e.kind == "hand" and e.data["seat"] == q]
        assert mine.audience == frozenset({q}) and CARD_TEXT[s.hands[q][0]] in mine.text
        assert mine.twin is not None
        assert mine.twin.text == "{s%d} holds %d cards." % (q, len(s.hands[q]))


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("oi", range(len(OPTIONS)))
def test_legal_lists_equal_brute_force(n: int, oi: int) -> None:
    states = _states(n, OPTIONS[oi], seed=10 * n + oi)
    assert states
    for s in states:
        for seat in range(s.n):
            legal = E.legal_actions(s, seat)
            if seat not in E.to_move(s):
                assert legal == []
                continue
            want = sorted(a for a in _candidates(s, seat) if E.is_legal(s, seat, a) is None)
            assert legal == want


def test_event_shortcut_equals_event() -> None:
    assert [f.name for f in dataclasses.fields(Event)] == ["kind", "text", "data", "private_to", "twin"]
    twin = Event("trade", "{s0} and {s1} trade.", {"seat": 1})
    want = Event(
        "trade", "{s0} gives t3.", {"seat": 1, "given": ["t3"]}, private_to=frozenset({0, 1}), twin=twin
    )
    got = flow._event(
        "trade",
        "{s0} gives t3.",
        {"seat": 1, "given": ["t3"]},
        frozenset({0, 1}),
        flow._event("trade", "{s0} and {s1} trade.", {"seat": 1}),
    )
    assert got == want and repr(got) == repr(want)
    assert pickle.loads(pickle.dumps(got)) == want
    assert flow._event("pass", "{s2} ends the turn.", {"seat": 2}) == Event(
        "pass", "{s2} ends the turn.", {"seat": 2}
    )


def test_declined_by_and_upd_equal_the_constructors() -> None:
    o = Offer(by=0, target=ALL, give=(3, 5), want=1, k=2, addressees=(1, 2), skipped=(), declined=(1,))
    assert declined_by(o, 2) == dataclasses.replace(o, declined=(1, 2))
    assert o.declined == (1,)
    s = build(3, hands=["t1 t2", "t3", "t4"])
    assert upd(s, active=2, traded=True) == dataclasses.replace(s, active=2, traded=True)
    assert s.active == 0 and not s.traded
