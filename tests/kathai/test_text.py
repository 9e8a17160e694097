"""Kathai texts for people: the terminal's board text and score text."""

from __future__ import annotations

from engines.base import play
from engines.kathai import ENGINE as E
from engines.kathai import legal as lg
from engines.kathai.positions import build
from engines.kathai.state import State
from tests.kathai.helpers import (
    check_text,
    go,
    kathai_renderer,
    sample_view,
)

NAMES = ["You", "AI Bilal", "AI Chen"]


def _declined_by_all(s: State, text: str) -> State:
    s = go(s, 0, text)
    for q in lg.awaited(s):
        s = go(s, q, "decline")
    return s


def test_the_board_text_does_not_offer_a_sale_once_selling_is_closed() -> None:
    from render.kathai.text import text as board_text

    s = build(hands=["t13 t14 t22", "t3 t4", "t5 t30"])
    assert "sell now" in board_text(E.view(s, 0), NAMES)
    s = _declined_by_all(s, "offer all t13 for gold 1")
    shown = board_text(E.view(s, 0), NAMES)
    assert "sell now" not in shown and "no selling this turn" in shown


def test_only_the_seat_to_play_is_told_to_sell_now() -> None:
    from render.kathai.text import text as board_text

    s = build(hands=["t1 t2", "t13 t14 t22", "t5 t30"])
    s = go(s, 0, "offer all t1 for salt 1")  # s1, answering, holds 7 salt
    shown = board_text(E.view(s, 1), NAMES)
    assert "sell now" not in shown and "worth" in shown and "no selling this turn" not in shown
    r = play(E, go(s, 1, "decline"), 2, "decline")
    assert any("offer is declined by everyone" in e.text for e in r.events)


def test_text_stays_under_the_discord_limit_in_the_worst_case() -> None:
    kathai = kathai_renderer()
    v = sample_view(1, 5, viewer=2, hand_size=7, sale_cards=7)
    t = kathai.text(v, ["W" * 32] * 5)
    check_text(t)
    over = sample_view(1, 5, over=True, sale_cards=7)
    check_text(kathai.text(over, ["W" * 32] * 5))
