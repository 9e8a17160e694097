"""Kathai texts for people: the terminal's board text and score text."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from engines import base
from engines.base import play
from engines.kathai import ENGINE as E
from engines.kathai import legal as lg
from engines.kathai.positions import build
from engines.kathai.state import State
from tests.kathai.helpers import check_text, go, kathai_renderer, sample_view

NAMES = ["You", "AI Bilal", "AI Chen"]


def _declined_by_all(s: State, text: str) -> State:
    s = go(s, 0, text)
    for q in lg.awaited(s):
        s = go(s, q, "decline")
    return s


def _engine() -> base.Engine:
    return base.get("kathai")


def _pick(rng: random.Random, legal: list[str]) -> str:
    """A random legal action: first a verb (uniformly), then one of its texts, so sells, bribes
    and buys happen although offers make up most of the list."""
    verbs = sorted({a.split()[0] for a in legal})
    verb = rng.choice(verbs)
    return rng.choice([a for a in legal if a.split()[0] == verb])


def playout(seed: int, n: int, opts: dict[str, Any] | None = None, stop: int | None = None) -> Iterator[Any]:
    """Every state of a seeded random playout, the start included, until the end or ``stop``
    actions."""
    engine = _engine()
    rng = random.Random(1000 + seed)
    state = engine.setup(seed, n, opts or {})
    yield state
    k = 0
    while engine.outcome(state) is None and (stop is None or k < stop):
        seat = engine.to_move(state)[0]
        state, _ = engine.apply(state, seat, _pick(rng, engine.legal_actions(state, seat)))
        k += 1
        yield state


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
