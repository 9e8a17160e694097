"""Pralaya's texts for people: refusals and their reasons, event texts, the headline, the rules
summary, and the terminal text and hand picture of the escape preview."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

import render
from engines.base import (
    IllegalAction,
    play,
)
from engines.pralaya import data
from engines.pralaya.positions import rig
from engines.pralaya.state import State
from tests.pralaya.helpers import E, act, fresh, result


def cell(state: State, name: str) -> str | None:
    return next(c["card"] for c in E.view(state, None)["island"] if c["cell"] == name)


NAMES = ["You", "AI Bilal", "AI Chen"]


def test_illegal_reasons() -> None:
    s = rig(fresh(), island={"a1": "gol1", "a2": "dem1", "b1": "urn1"}, round=2, active=0)
    s, _ = act(s, "take b1")
    with pytest.raises(IllegalAction) as err:
        play(E, s, 0, "take a1")
    assert err.value.reason == "a1 costs 3 Vitality but you have 1 left."
    with pytest.raises(IllegalAction, match="b1 is empty"):
        play(E, s, 0, "take b1")
    with pytest.raises(IllegalAction, match="Only a player who has escaped"):
        play(E, s, 0, "discard a2")
    with pytest.raises(IllegalAction, match="Finish collecting"):
        play(E, s, 0, "buy dhoni 0g 0s 0c")
    s, _ = act(s, "done")
    with pytest.raises(IllegalAction, match="Collecting is over"):
        play(E, s, 0, "take a2")
    with pytest.raises(IllegalAction, match="offered 1 Gold Coin but hold 0"):
        play(E, s, 0, "buy veda 1g 0s 0c")


def test_events_and_texts() -> None:
    s = rig(
        fresh(),
        hands={0: ["gol1", "cop1"]},
        dhoni={1: "dhx"},
        island={"b4": "gol2", "a1": "dem1"},
        deck_top=["man1"],
        round=2,
        active=0,
    )
    setup_ev = E.events_on_setup(s)
    assert [e.kind for e in setup_ev] == ["turn"] and setup_ev[0].data == {
        "seat": 0,
        "round": 2,
        "vitality": 3,
    }
    s, ev = act(s, "take b4")
    assert ev[0].text == "{s0} takes b4 (Gold Coin)" and ev[0].data == {
        "seat": 0,
        "cell": "b4",
        "card": "gol2",
    }
    s, ev = act(s, "buy dhoni 1g 0s 1c")
    assert ev[0].text == "{s0} buys Dhoni 7 with 1 gold and 1 copper, and escapes"
    assert ev[0].data == {"seat": 0, "card": "dh7", "paid": ["gol1", "cop1"]}
    assert ev[-1].kind == "end" and ev[-1].data == {"reason": "all_escaped"}
    assert all(e.public for e in ev)


def test_headline_says_one_point() -> None:
    s = rig(fresh(), hands={0: ["cop1"]}, dhoni={0: "dhx"}, island={"a1": "dem1"}, round=3, active=0)
    s, _ = act(s, "discard a1")
    assert result(s).scores == (1, None)
    assert E.view(s, None)["headline"] == "Game over · {s0} wins with 1 point"


def test_non_canonical_text_given_to_apply_gets_an_honest_reason() -> None:
    """``apply`` takes canonical text only (``play`` parses first). Given another spelling of a
    legal action it refuses, and the reason must say so rather than invent a rule problem."""
    s = rig(fresh(), island={"a1": "dem1", "b1": "man1"}, round=2, active=0)
    assert "take a1" in E.legal_actions(s, 0)
    with pytest.raises(IllegalAction) as err:
        E.apply(s, 0, "TAKE  A1")
    assert err.value.reason == "`TAKE A1` is not written the canonical way: send `take a1`."
    assert play(E, s, 0, "TAKE  A1").action == "take a1"
    with pytest.raises(IllegalAction) as err:  # an illegal action keeps its own reason
        E.apply(s, 0, "Done")
    assert err.value.reason == "You must take at least one card before `done`."


@pytest.mark.parametrize(
    "hand,action,text",
    [
        (
            ["gol1", "sil1", "cop1"],
            "buy dhoni 1g 1s 1c",
            "{s0} buys Dhoni X with 1 gold, 1 silver and 1 copper, and escapes",
        ),
        (
            ["gol1", "cop1", "cop2"],
            "buy dhoni 1g 0s 2c",
            "{s0} buys Dhoni X with 1 gold and 2 copper, and escapes",
        ),
        ([], "buy dhoni 0g 0s 0c", "{s0} buys Dhoni X with no coins and escapes"),
        (["sil1"], "buy dhoni 0g 1s 0c", "{s0} buys Dhoni X with 1 silver and escapes"),
        (["sil1", "sil2"], "buy veda 0g 2s 0c", "{s0} buys a Veda with 2 silver"),
    ],
)
def test_buy_texts_read_as_a_sentence(hand: list[str], action: str, text: str) -> None:
    """The payment is a plain English list, and 'and escapes' is not read as one more item."""
    s = rig(fresh(), hands={0: hand}, island={"a1": "dem1", "b1": "man1"}, round=2, active=0)
    s, _ = act(s, "take a1", "done")
    s, ev = act(s, action)
    assert ev[0].kind == "buy" and ev[0].text == text


def test_rules_summary_states_the_end_conditions_as_the_rulebook_does() -> None:
    """/rules shows this text: the last-relic end comes after that turn (its player still
    collects and may buy), and the all-Ocean end is checked after the refill."""
    text = " ".join(E.summary.split())
    assert "after a turn that started with only one relic on the island" in text
    assert "only Oceans are left after the refill" in text
    assert "at least one relic" in text


def test_the_text_shows_the_score_after_paying_and_coin_values() -> None:
    s = rig(fresh(3), hands={0: ["gol1", "sil1", "gre1"]}, island={"a1": "dem1"}, round=2, active=0)
    text = render.get("pralaya").text(E.view(s, 0), NAMES, moves=False)
    assert "If escaped now (after paying 9 for Dhoni X): **1**" in text
    assert "gold 6, silver 3, copper 1" in text
    s = rig(fresh(3), hands={0: ["gre1"]}, island={"a1": "dem1"}, round=2, active=0)  # Dhoni X, no coins
    assert "If escaped now: **1**" in render.get("pralaya").text(E.view(s, 0), NAMES, moves=False)


def test_the_hand_image_titles_the_preview_after_paying(monkeypatch: pytest.MonkeyPatch) -> None:
    hand = importlib.import_module("render.pralaya.hand")  # (``render.pralaya.hand`` is also a function)
    titles: list[str] = []
    real = hand.section_title

    def titled(d: Any, y: int, t: str, *a: Any) -> int:
        titles.append(t)
        return int(real(d, y, t, *a))

    monkeypatch.setattr(hand, "section_title", titled)
    s = rig(fresh(3), hands={0: ["gol1", "gre1"]}, island={"a1": "dem1"}, round=2, active=0)
    render.get("pralaya").hand(E.view(s, 0), NAMES)
    assert "If you escaped now (after paying 6)" in titles
    s = rig(fresh(3), hands={0: ["cop1"]}, dhoni={1: "dhx"}, island={"a1": "dem1"}, round=2, active=0)
    render.get("pralaya").hand(E.view(s, 0), NAMES)
    assert "Score so far (3 coins short of Dhoni 4)" in titles


def test_the_rules_explain_every_relic_and_the_coin_values() -> None:
    text = E.summary
    for relic in data.RELICS:
        assert relic.name.replace(" Coin", "") in text, relic.name
    assert "gold 6, silver 3, copper 1" in text
    for said in ("5 per pair", "20 per set of 3", "squared", "−3", "15 more if you hold a Veda"):
        assert said in text


@pytest.mark.parametrize("n, cols", [(2, 5), (3, 5), (4, 6), (5, 6)])
def test_a_bad_cell_names_the_islands_own_size(n: int, cols: int) -> None:
    s = fresh(n)
    for seat in range(n):
        for typed in ("take z9", "take", "discard q"):
            reason = E.is_legal(s, seat, typed)
            assert reason is not None and f"a column 1–{cols}," in reason, reason
    assert E.is_legal(s, s.active, "take c6" if cols == 5 else "take c7") is not None
