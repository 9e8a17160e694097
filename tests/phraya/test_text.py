"""Phraya's texts for people: why a move is refused, and what the events say."""

from __future__ import annotations

import random

import pytest

from engines.base import IllegalAction, format_text, replay
from engines.phraya import ENGINE as E
from engines.phraya import notation
from engines.phraya.positions import build
from engines.phraya.state import ACT, BARGE, CARD, MOVE, SETUP_BOAT, SETUP_STALL, State
from tests.phraya.helpers import act

VAGUE = ("wrong stall, already used", "is not allowed now", "is not possible now.")


def why(s: State, seat: int, action: str) -> str:
    reason = E.is_legal(s, seat, action)
    assert reason is not None, f"{action} is legal here"
    with pytest.raises(IllegalAction) as err:
        E.apply(s, seat, action)
    assert err.value.reason == reason
    return format_text(reason)


def test_move_refusals_say_what_stops_the_boat() -> None:
    s = build(3, step=MOVE, boats={0: "h12", 1: "h11"}, fill_boats=True)
    assert "Seat 2" in why(s, 0, "move h11") and "stop" in why(s, 0, "move h11")
    far = why(s, 0, "move h00")
    assert "rower" in far and "2" in far
    assert "already on h12" in why(s, 0, "move h12")
    blocked = build(3, step=MOVE, boats={0: "h11"}, barge="x11", fill_boats=True)
    assert "x11" in why(blocked, 0, "move h12") and "Barge" in why(blocked, 0, "move h12")
    early = build(3, step=CARD, boats={0: "h12"}, fill_boats=True)
    r = why(early, 0, "move h13")
    assert "card" in r and "`play b" in r  # what comes first, and what to type now


def test_buy_refusals_name_the_single_cause() -> None:
    s = act(players={0: {"coins": 3}})
    assert "not on a bank of your section h02" in why(s, 0, "buy v00w 1")
    assert "restaurant" in why(s, 0, "buy h02s 1")
    coins = why(s, 0, "buy h02n 1")  # meat costs 6
    assert "6" in coins and "3" in coins and "coin" in coins
    room = why(act(players={0: {"coins": 50}}), 0, "buy h02n 2")
    assert "room for 1" in room and "basket" in room
    assert "favor" in why(s, 0, "buy h02n 1 favor 1")
    used = act(players={0: {"coins": 50}}, used=("h02n",))
    assert "already used" in why(used, 0, "buy h02n 1") and "h02n" in why(used, 0, "buy h02n 1")
    assert "carry 0 meat" in why(s, 0, "sell h02n 1")


def test_service_refusals() -> None:
    s = act(players={0: {"goods": {"fish": 1}}}, orders_on={"h02s": "r1d"})
    short = why(s, 0, "deliver")
    assert "h02s" in short and "1 meat" in short and "fish+meat" in short
    assert "no Temple beside" in why(s, 0, "temple fish") and "h00" in why(s, 0, "temple fish")
    t = build(
        3,
        step=ACT,
        boats={0: "h00"},
        fill_boats=True,
        players={0: {"goods": {"veg": 1}}},
        temple={"veg": [1]},
    )
    assert "flower" in why(t, 0, "temple veg") and "1" in why(t, 0, "temple veg")
    assert "no veg" not in why(t, 0, "temple veg")
    assert "carry no fish" in why(t, 0, "temple fish")
    king = why(s, 0, "king c1")
    assert "x11" in king and "h02" in king
    k = act(boats={0: "h11"}, king={"c1": 1}, players={0: {"coins": 2}})
    assert "Seat 2" in why(k, 0, "king c1")
    assert "6 coins" in why(k, 0, "king c2")


def test_setup_and_card_step_refusals() -> None:
    s = E.setup(1, 3, {})
    seat = E.to_move(s)[0]
    assert "outer" in why(s, seat, "boat h12")
    s, _ = E.apply(s, seat, E.legal_actions(s, seat)[0])
    taken = why(s, E.to_move(s)[0], f"boat {s.boats[seat]}")
    assert "already on" in taken and "Seat" in taken
    while s.step == SETUP_BOAT:
        q = E.to_move(s)[0]
        s, _ = E.apply(s, q, E.legal_actions(s, q)[0])
    assert s.step == SETUP_STALL
    q = E.to_move(s)[0]
    assert "restaurant" in why(s, q, "stall h02s") and "own" in why(s, q, "stall h02s")
    assert "public" in why(s, q, "stall h10s")
    card = build(3, step=CARD, boats={0: "h12"}, fill_boats=True)
    r = why(card, 0, "play m10")
    assert "m10" in r and "b1" in r  # not held, and the hand


def test_barge_refusal_names_the_distance() -> None:
    s = build(3, step=BARGE, boats={0: "h12"}, fill_boats=True, pending="barge 1-1 1fl", card="b4")
    r = why(s, 0, "barge x22")
    assert "x11" in r and "1" in r and "`barge x" in r
    assert "already at x11" in why(s, 0, "barge x11")


def test_no_refusal_is_vague() -> None:
    """Random well-formed texts in the states of random games: every refusal is specific."""
    rng = random.Random(5)
    seen = 0
    for seed, opts in ((1, {}), (2, {"layout": "random", "starting_boats": True, "open_baskets": True})):
        s = E.setup(seed, 3, opts)
        for _ in range(250):
            if E.outcome(s) is not None:
                break
            seat = E.to_move(s)[0]
            legal = set(E.legal_actions(s, seat))
            for a in notation.sample(rng, 12):
                if a not in legal:
                    reason = E.is_legal(s, seat, a)
                    assert reason and not any(v in reason for v in VAGUE), (a, reason)
                    assert "Now " in reason  # and what the step asks instead
                    seen += 1
            s, _ = E.apply(s, seat, E.playout_action(s, seat, rng))
    assert seen > 2000


def test_old_logs_still_replay() -> None:
    """No action text changed: a log played before these texts replays as it did."""
    rng = random.Random(9)
    s = E.setup(11, 2, {})
    moves: list[tuple[int, str]] = []
    while E.outcome(s) is None and len(moves) < 200:
        seat = E.to_move(s)[0]
        a = E.playout_action(s, seat, rng)
        moves.append((seat, a))
        s, _ = E.apply(s, seat, a)
    assert replay(E, 11, 2, {}, moves) == s


def test_a_purchase_paid_by_a_favor_says_so() -> None:
    s = act(players={0: {"coins": 3, "favors": 1}}, prices={"meat": 6})
    assert "favor" in why(s, 0, "buy h02n 1")  # the way to pay it is named
    _, events = E.apply(s, 0, "buy h02n 1 favor 1")
    text = " ".join(e.text for e in events if e.kind == "buy")
    assert "1 favor" in text and "0 coins" not in text


def test_events_name_what_codes_stand_for() -> None:
    k = act(boats={0: "h11"}, players={0: {"coins": 20}})
    _, events = E.apply(k, 0, "king c2")
    assert "c2 (6 coins)" in " ".join(e.text for e in events)
    from engines.phraya.data import CARDS
    from engines.phraya.state import REFRESH

    r = build(3, step=REFRESH, boats={0: "h11"}, fill_boats=True, card="b2")
    first = r.display[0]
    _, events = E.apply(r, 0, "refresh")
    text = " ".join(e.text for e in events if e.kind == "refresh")
    assert CARDS[first].name in text and CARDS[r.deck[0]].name in text
