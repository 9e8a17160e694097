"""Pralaya's texts for a newcomer (issue 22): the escape preview after paying for the Dhoni, coin
values, every relic explained in the rules, the island's own size in a refusal."""
from __future__ import annotations

import importlib

import pytest

import render
from engines.pralaya import data
from engines.pralaya.positions import rig
from tests.pralaya_helpers import E, fresh

NAMES = ["You", "AI Bilal", "AI Chen"]


def _preview(hand: list[str], dhoni: dict[int, str] | None = None) -> dict:
    """The provisional score of seat 0 (3 players, round 2) holding ``hand``; ``dhoni`` gives
    Dhoni to other seats, which changes the top of the pile."""
    s = rig(fresh(3), hands={0: hand}, dhoni=dhoni, island={"a1": "dem1", "b1": "man1"}, round=2, active=0)
    return E.view(s, 0)["me"]["provisional"]


def test_the_preview_pays_dhoni_x_with_every_coin():
    p = _preview(["gol1", "sil1", "gre1", "gre2"])  # Dhoni X on top
    assert p["dhoni"] == "Dhoni X" and p["paid"] == 9 and p["short"] == 0
    assert p["breakdown"]["Coins"] == 0 and p["total"] == 4  # two Great Statues: 2²


def test_the_preview_pays_a_priced_dhoni_the_cheapest_way():
    p = _preview(["gol1", "sil1", "cop1", "gre1"], dhoni={1: "dhx"})  # Dhoni 4 on top
    assert p["dhoni"] == "Dhoni 4" and p["paid"] == 4  # silver + copper, not the gold
    assert p["breakdown"]["Coins"] == 6 and p["total"] == 7
    p = _preview(["gol1", "sil1"], dhoni={1: "dhx"})  # no exact change: the gold pays 6 for 4
    assert p["paid"] == 6 and p["breakdown"]["Coins"] == 3


def test_the_preview_says_when_the_coins_fall_short():
    p = _preview(["cop1", "gre1"], dhoni={1: "dhx"})
    assert p["short"] == 3 and p["paid"] == 0 and p["breakdown"]["Coins"] == 1
    s = rig(fresh(3), hands={0: ["cop1", "gre1"]}, dhoni={1: "dhx"}, island={"a1": "dem1"}, round=2, active=0)
    text = render.get("pralaya").text(E.view(s, 0), NAMES, moves=False)
    assert "Cannot escape yet (Dhoni 4: 3 more in coins needed)" in text


def test_the_text_shows_the_score_after_paying_and_coin_values():
    s = rig(fresh(3), hands={0: ["gol1", "sil1", "gre1"]}, island={"a1": "dem1"}, round=2, active=0)
    text = render.get("pralaya").text(E.view(s, 0), NAMES, moves=False)
    assert "If escaped now (after paying 9 for Dhoni X): **1**" in text
    assert "gold 6, silver 3, copper 1" in text
    s = rig(fresh(3), hands={0: ["gre1"]}, island={"a1": "dem1"}, round=2, active=0)  # Dhoni X, no coins
    assert "If escaped now: **1**" in render.get("pralaya").text(E.view(s, 0), NAMES, moves=False)


def test_the_hand_image_titles_the_preview_after_paying(monkeypatch):
    hand = importlib.import_module("render.pralaya.hand")  # (``render.pralaya.hand`` is also a function)
    titles: list[str] = []
    real = hand.section_title
    monkeypatch.setattr(hand, "section_title", lambda d, y, t, *a: titles.append(t) or real(d, y, t, *a))
    s = rig(fresh(3), hands={0: ["gol1", "gre1"]}, island={"a1": "dem1"}, round=2, active=0)
    render.get("pralaya").hand(E.view(s, 0), NAMES)
    assert "If you escaped now (after paying 6)" in titles
    s = rig(fresh(3), hands={0: ["cop1"]}, dhoni={1: "dhx"}, island={"a1": "dem1"}, round=2, active=0)
    render.get("pralaya").hand(E.view(s, 0), NAMES)
    assert "Score so far (3 coins short of Dhoni 4)" in titles


def test_escaping_scores_what_the_preview_said():
    """The preview equals the score the seat has right after buying the Dhoni the cheapest way."""
    s = rig(fresh(3), hands={0: ["gol1", "sil1", "cop1", "man1", "man2"]}, dhoni={1: "dhx"},
            island={"a1": "dem1", "b1": "gre1"}, round=2, active=0)
    s = E.apply(s, 0, "take b1")[0]
    s = E.apply(s, 0, "done")[0]
    before = E.view(s, 0)["me"]["provisional"]["total"]
    s = E.apply(s, 0, "buy dhoni 0g 1s 1c")[0]
    assert E.view(s, 0)["me"]["provisional"]["total"] == before == 6 + 5 + 1


def test_take_labels_give_what_a_coin_is_worth():
    s = rig(fresh(3), island={"a1": "gol1", "a2": "sil1", "a3": "cop1", "b1": "man1"}, round=2, active=0)
    assert E.action_label(s, 0, "take a1") == "Take a1 · Gold Coin (3 V, worth 6)"
    assert E.action_label(s, 0, "take a2").endswith("worth 3)")
    assert E.action_label(s, 0, "take a3").endswith("worth 1)")
    assert "worth" not in E.action_label(s, 0, "take b1")


def test_the_rules_explain_every_relic_and_the_coin_values():
    text = E.summary
    for relic in data.RELICS:
        assert relic.name.replace(" Coin", "") in text, relic.name
    assert "gold 6, silver 3, copper 1" in text
    for said in ("5 per pair", "20 per set of 3", "squared", "−3", "15 more if you hold a Veda"):
        assert said in text


@pytest.mark.parametrize("n, cols", [(2, 5), (3, 5), (4, 6), (5, 6)])
def test_a_bad_cell_names_the_islands_own_size(n, cols):
    s = fresh(n)
    for seat in range(n):
        for typed in ("take z9", "take", "discard q"):
            reason = E.is_legal(s, seat, typed)
            assert f"a column 1–{cols}," in reason, reason
    assert E.is_legal(s, s.active, "take c6" if cols == 5 else "take c7") is not None
