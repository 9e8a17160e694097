"""The Kathai AI: full games at 3–5 players without stalling, determinism, and its trading."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from engines import search
from engines.base import play
from engines.kathai import ENGINE as E
from engines.kathai.positions import build
from engines.kathai.state import OVER, REPLY, State


def ai_game(seed: int, n: int, options: Mapping[str, Any] | None = None) -> tuple[State, list[str], int]:
    s = E.setup(seed, n, options or {})
    moves: list[str] = []
    turns_seen = 0
    while s.step != OVER:
        q = E.to_move(s)[0]
        legal = E.legal_actions(s, q)
        a = E.choose(E.view(s, q), legal)
        assert a in legal
        moves.append(a)
        s = play(E, s, q, a).state
        E.invariants(s)
        turns_seen = s.turn_no
        assert len(moves) <= E.action_bound(n)
    return s, moves, turns_seen


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("seed", range(4))
def test_ai_plays_full_games(n: int, seed: int) -> None:
    s, moves, turns = ai_game(seed, n)
    assert s.reason == "pile" and turns < 120
    assert len(s.sales) >= n
    out = E.outcome(s)
    assert out is not None and min(out.ranks) == 1


def test_ai_with_every_option() -> None:
    opts = {
        "free_asking": True,
        "allow_gifts": True,
        "bribe_lock": "goods",
        "max_offers": 3,
        "first_player": "seat0",
    }
    s, _, _ = ai_game(2, 4, opts)
    assert s.reason == "pile"


def test_ai_is_deterministic() -> None:
    assert ai_game(7, 4)[1] == ai_game(7, 4)[1]


def test_ai_accepts_an_offer_that_helps_its_goods() -> None:
    s = build(hands=["t40 t1", "t13 t14 t9", "t20"])  # s1 collects salt, holds tea t9
    s = play(E, s, 0, "offer s1 t40 for tea 1").state
    assert E.choose(E.view(s, 1), E.legal_actions(s, 1)) == "accept t9"


def test_ai_refuses_to_help_a_leader() -> None:
    s = build(hands=["t40 t1", "t13 t14 t9", "t20"], scores=[12, 2, 3])
    s = play(E, s, 0, "offer s1 t40 for tea 1").state
    assert E.choose(E.view(s, 1), E.legal_actions(s, 1)) == "decline"


def test_ai_refuses_to_give_away_its_goods() -> None:
    s = build(hands=["t9 t1", "t13 t14 t40", "t20"])  # asked for salt, offered tea
    s = play(E, s, 0, "offer s1 t9 for salt 1").state
    assert E.choose(E.view(s, 1), E.legal_actions(s, 1)) == "decline"


def test_ai_asks_for_the_card_that_completes_a_sale() -> None:
    # salt at position 2 needs 5: the hand shows 4 salt; t20 (tea) is the least useful card
    s = build(hands=["t13 t14 t20", "t3", "t4"])
    assert E.choose(E.view(s, 0), E.legal_actions(s, 0)) == "offer all t20 for salt 1"


def test_ai_sells_a_full_hand_and_swaps_after_a_decline() -> None:
    s = build(hands=["t1 t2 t3 t9 t20 t21 t40", "t4", "t5"])
    assert E.choose(E.view(s, 0), E.legal_actions(s, 0)).startswith("sell ")
    t = build(hands=["t13 t14 t20", "t3", "t4"])
    t = play(E, t, 0, "offer all t20 for salt 1").state
    for q in E.to_move(t):
        t = play(E, t, q, "decline").state
    assert E.choose(E.view(t, 0), E.legal_actions(t, 0)) == "swap t20"


def test_ai_seats_never_repeat_an_ask_everyone_declined() -> None:
    """A person who declines everything, against the search AI: an AI seat may ask again only
    once someone it asked has traded since (here: never)."""
    for seed in (1, 2, 3):
        s = E.setup(seed, 3, {})
        sent: set[tuple[int, str]] = set()
        repeats = []
        for _ in range(250):
            if E.outcome(s) is not None:
                break
            seat = min(E.to_move(s))
            if seat == 0:
                text = "decline" if s.step == REPLY else "pass"
            else:
                legal = E.legal_actions(s, seat)
                text = search.choose(
                    E, E.view(s, seat), legal, "normal", seed * 1000 + s.turn_no, cap=False
                ).action
            if text.startswith("offer "):
                key = (s.turn_no, text)
                if key in sent and not s.traded:
                    repeats.append(key)
                sent.add(key)
            s = play(E, s, seat, text).state
        assert not repeats, f"seed {seed}: asks sent again after everyone declined: {repeats}"
