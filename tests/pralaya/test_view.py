"""What each viewer sees of a Pralaya game (docs/rules/pralaya.md#hidden): the view's schema, the
secrets it never holds, and the score "if escaped now" (docs/rules/pralaya.md#provisional-score)."""

from __future__ import annotations

import json

import render
from engines.pralaya.positions import rig
from engines.pralaya.state import IS_OCEAN
from engines.pralaya.view import ProvisionalView
from tests.pralaya.helpers import E, act, final, fresh, me, random_game

NAMES = ["You", "AI Bilal", "AI Chen"]


def _preview(hand: list[str], dhoni: dict[int, str] | None = None) -> ProvisionalView:
    """The provisional score of seat 0 (3 players, round 2) holding ``hand``; ``dhoni`` gives
    Dhoni to other seats, which changes the top of the pile."""
    s = rig(fresh(3), hands={0: hand}, dhoni=dhoni, island={"a1": "dem1", "b1": "man1"}, round=2, active=0)
    return me(E.view(s, 0))["provisional"]


def test_ruling_18_hands_hidden_unless_open() -> None:
    # docs/rules/pralaya.md#hidden-hands
    s = rig(fresh(), hands={0: ["gol1"], 1: ["fos1"]})
    v1 = E.view(s, 1)
    assert v1["players"][0]["hand"] is None and v1["players"][0]["hand_size"] == 1
    assert v1["players"][1]["hand"] == {"fos": 1}
    assert '"gol1"' not in json.dumps(v1) and '"gol1"' not in json.dumps(E.view(s, None))
    so = rig(fresh(open_hands=True), hands={0: ["gol1"], 1: ["fos1"]})
    assert E.view(so, 1)["players"][0]["hand_ids"] == ["gol1"]
    assert E.view(so, None)["players"][1]["hand"] == {"fos": 1}


def test_options_in_view() -> None:
    v = E.view(fresh(3, first=2, open_hands=True, veda_price=5, fossil_all_players=True), None)
    assert v["options"] == {"open_hands": True, "veda_price": 5, "first_seat": 2, "fossil_all_players": True}
    assert v["first"] == 2


def test_view_schema() -> None:
    s = rig(fresh(4, first=1), hands={1: ["gol1", "man1"]}, veda=[1], round=2, active=1)
    v = E.view(s, 1)
    assert set(v) == {
        "game",
        "viewer",
        "n_players",
        "to_move",
        "over",
        "headline",
        "options",
        "round",
        "first",
        "active",
        "step",
        "vitality",
        "v_left",
        "rows",
        "cols",
        "island",
        "deck",
        "unrevealed",
        "discard",
        "veda",
        "dhoni",
        "players",
        "me",
        "outcome",
    }
    assert v["headline"] == "Round 2 · {s1} collecting · 4 Vitality left"
    assert v["vitality"] == 4 and v["to_move"] == [1] and v["outcome"] is None
    assert len(v["island"]) == 18 and v["island"][0]["cell"] == "a1" and v["island"][17]["cell"] == "c6"
    assert set(v["island"][0]) == {"cell", "card", "code", "name", "cost", "currency", "taken", "new"}
    assert v["unrevealed"] == sum(1 for c in s.deck if not IS_OCEAN[c])
    assert v["dhoni"][0] == {"id": "dhx", "price": "X"} and v["veda"] == {
        "left": 3,
        "price": 4,
        "stand_in": True,
    }
    mine = me(v)
    assert (
        mine["hand"] == {"gol": 1, "man": 1}
        and mine["currency"] == 6
        and mine["legal"] == E.legal_actions(s, 1)
    )
    assert mine["provisional"]["fossil_known"] is False
    # escaping now on Dhoni X (the top) would pay the gold: no coins, and one Manuscript scores nothing
    assert mine["provisional"]["breakdown"]["Coins"] == 0 and mine["provisional"]["paid"] == 6
    assert mine["provisional"]["total"] == 0 and mine["provisional"]["dhoni"] == "Dhoni X"
    assert E.view(s, None)["me"] is None and me(E.view(s, 0))["legal"] == []
    json.dumps(v)


def test_view_taken_new_and_over() -> None:
    s = rig(fresh(), island={"a1": "dem1", "a2": "man1", "b1": "gre1"}, deck_top=["cop1"], round=2, active=0)
    s, _ = act(s, "take a2")
    v = E.view(s, None)
    assert v["island"][1]["taken"] and v["island"][1]["card"] is None
    s, _ = act(s, "done", "pass")
    v = E.view(s, None)
    assert v["island"][1]["new"] and v["island"][1]["card"] == "cop1" and not v["island"][1]["taken"]
    # game over: all hands visible, outcome present, nobody awaited
    s = rig(fresh(), hands={1: ["fos1"]}, island={"a1": "dem1"}, round=2, active=0)
    s, _ = act(s, "take a1", "buy dhoni 0g 0s 0c")
    v = E.view(s, None)
    assert v["over"] and v["step"] == "over" and v["to_move"] == []
    assert v["players"][1]["hand_ids"] == ["fos1"] and final(v)["winners"] == [0]
    assert v["headline"] == "Game over · {s0} wins with 2 points"


def test_secrets_never_in_views() -> None:
    for seed in range(10):
        for s in random_game(seed, 2 + seed % 4, check=False)[::5]:
            for viewer in (None, *range(s.n)):
                text = json.dumps(E.view(s, viewer))
                for secret in E.secrets(s, viewer):
                    assert secret not in text


def test_the_preview_pays_dhoni_x_with_every_coin() -> None:
    p = _preview(["gol1", "sil1", "gre1", "gre2"])  # Dhoni X on top
    assert p["dhoni"] == "Dhoni X" and p["paid"] == 9 and p["short"] == 0
    assert p["breakdown"]["Coins"] == 0 and p["total"] == 4  # two Great Statues: 2²


def test_the_preview_pays_a_priced_dhoni_the_cheapest_way() -> None:
    p = _preview(["gol1", "sil1", "cop1", "gre1"], dhoni={1: "dhx"})  # Dhoni 4 on top
    assert p["dhoni"] == "Dhoni 4" and p["paid"] == 4  # silver + copper, not the gold
    assert p["breakdown"]["Coins"] == 6 and p["total"] == 7
    p = _preview(["gol1", "sil1"], dhoni={1: "dhx"})  # no exact change: the gold pays 6 for 4
    assert p["paid"] == 6 and p["breakdown"]["Coins"] == 3


def test_the_preview_says_when_the_coins_fall_short() -> None:
    p = _preview(["cop1", "gre1"], dhoni={1: "dhx"})
    assert p["short"] == 3 and p["paid"] == 0 and p["breakdown"]["Coins"] == 1
    s = rig(fresh(3), hands={0: ["cop1", "gre1"]}, dhoni={1: "dhx"}, island={"a1": "dem1"}, round=2, active=0)
    text = render.get("pralaya").text(E.view(s, 0), NAMES, moves=False)
    assert "Cannot escape yet (Dhoni 4: 3 more in coins needed)" in text


def test_escaping_scores_what_the_preview_said() -> None:
    """The preview equals the score the seat has right after buying the Dhoni the cheapest way."""
    s = rig(
        fresh(3),
        hands={0: ["gol1", "sil1", "cop1", "man1", "man2"]},
        dhoni={1: "dhx"},
        island={"a1": "dem1", "b1": "gre1"},
        round=2,
        active=0,
    )
    s = E.apply(s, 0, "take b1")[0]
    s = E.apply(s, 0, "done")[0]
    before = me(E.view(s, 0))["provisional"]["total"]
    s = E.apply(s, 0, "buy dhoni 0g 1s 1c")[0]
    assert me(E.view(s, 0))["provisional"]["total"] == before == 6 + 5 + 1
