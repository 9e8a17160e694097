"""Every worked example of the Pralaya rules (docs/rules/pralaya.md#examples), one test each."""

from __future__ import annotations

import dataclasses

import pytest

from engines.base import IllegalAction, play
from engines.events import Event
from engines.outcome import Outcome
from engines.pralaya.apply import end_turn
from engines.pralaya.data import CARD_IDS
from engines.pralaya.positions import rig
from engines.pralaya.scoring import category_points, score_table
from engines.pralaya.state import EMPTY, State
from tests.pralaya.helpers import E, act, fresh, me, result


def cell(state: State, name: str) -> str | None:
    """The card id at cell ``name`` (None if empty), read from the public view."""
    return next(c["card"] for c in E.view(state, None)["island"] if c["cell"] == name)


def finish(state: State, seat: int) -> Outcome:
    """End the game from ``state`` keeping hands, Veda and Dhoni: ``seat`` (escaped) discards the
    only relic left on the island. Returns the outcome."""
    used = {i for h in state.hands for i in h} | set(state.discard)
    spare = next(cid for i, cid in enumerate(CARD_IDS) if i not in used and not cid.startswith("oce"))
    s = rig(state, island={"a1": spare}, active=seat, round=5)
    assert s.step == 1 and s.last  # DISCARD, the last relic
    s, _ = act(s, "discard a1")
    out = result(s)
    assert out is not None and s.end_reason == "last_card"
    return out


# ------------------------------------------------------------------ from the rulebook


def test_r1_turn_example() -> None:
    s = rig(fresh(), island={"b2": "dem1", "c4": "sil1", "a1": "gol1", "a3": "man1"}, round=2, active=0)
    assert s.v_start == 3 and s.step == 0
    s, _ = act(s, "take b2")
    assert s.v_left == 2 and s.step == 0
    s, _ = act(s, "take c4")
    assert s.v_left == 0
    v = E.view(s, 0)
    assert v["step"] == "buy" and v["v_left"] == 0
    assert "done" not in me(v)["legal"] and "pass" in me(v)["legal"]


def test_r2_sets() -> None:
    assert category_points({"man": 5}, False, True)["Manuscripts"] == 10
    assert category_points({"urn": 5}, False, True)["Urns"] == 20
    assert category_points({"gre": 3}, False, True)["Great Statues"] == 9


@pytest.mark.parametrize("pac,points", [(0, 2), (1, -6), (2, 18), (3, -54), (4, 162)])
def test_r3_pacts(pac: int, points: int) -> None:
    assert category_points({"dem": 1, "pac": pac}, False, True)["Demon Statues"] == points


def test_r3_two_demons_two_pacts() -> None:
    assert category_points({"dem": 2, "pac": 2}, False, True)["Demon Statues"] == 36


@pytest.mark.parametrize(
    "n,dhoni,cells,deck",
    [
        (2, ["X", 7], 15, 70),
        (3, ["X", 4, 7], 15, 70),
        (4, ["X", 2, 4, 7], 18, 67),
        (5, ["X", 2, 4, 7, 10], 18, 67),
    ],
)
def test_r4_setup(n: int, dhoni: list[int | str], cells: int, deck: int) -> None:
    v = E.view(E.setup(3, n, {}), None)
    assert [d["price"] for d in v["dhoni"]] == dhoni
    assert len(v["island"]) == cells and v["deck"] == deck
    assert v["veda"]["left"] == n
    assert (v["rows"], v["cols"]) == ((3, 5) if n <= 3 else (3, 6))


def test_r5_round_one_vitality() -> None:
    # 4 players, first_seat=2: V = 1 (seat 2), 2 (seat 3), 3 (seat 0), 3 (seat 1); round 2: all 3,
    # 4 for the seat that bought a Veda in round 1.
    s = rig(fresh(4, first=2, seed=5), hands={3: ["sil1", "cop1"]})
    seen: dict[tuple[int, int], int] = {}
    events = E.events_on_setup(s)
    while len(seen) < 8:
        for e in events:
            if e.kind == "turn":
                seen[(e.data["round"], e.data["seat"])] = e.data["vitality"]
        legal = E.legal_actions(s, s.active)
        if "buy veda 0g 1s 1c" in legal:
            a = "buy veda 0g 1s 1c"
        else:
            a = next((x for x in legal if x.startswith("take")), None) or (
                "done" if "done" in legal else "pass"
            )
        s, events = E.apply(s, s.active, a)
    assert {k: seen[k] for k in [(1, 2), (1, 3), (1, 0), (1, 1)]} == {
        (1, 2): 1,
        (1, 3): 2,
        (1, 0): 3,
        (1, 1): 3,
    }
    assert {k: seen[k] for k in [(2, 2), (2, 3), (2, 0), (2, 1)]} == {
        (2, 2): 3,
        (2, 3): 4,
        (2, 0): 3,
        (2, 1): 3,
    }


# ------------------------------------------------------------------ added examples

HAND_A = [
    "gol1",
    "sil1",
    "sil2",
    "cop1",
    "dem1",
    "dem2",
    "dem3",
    "pac1",
    "man1",
    "man2",
    "man3",
    "urn1",
    "urn2",
    "urn3",
    "urn4",
    "gre1",
    "gre2",
    "pun1",
    "fos1",
    "fos2",
]


def test_a_full_sheet() -> None:
    counts = {
        "gol": 1,
        "sil": 2,
        "cop": 1,
        "dem": 3,
        "pac": 1,
        "man": 3,
        "urn": 4,
        "gre": 2,
        "pun": 1,
        "fos": 2,
    }
    b = category_points(counts, True, True)
    assert b == {
        "Coins": 13,
        "Demon Statues": -18,
        "Manuscripts": 5,
        "Urns": 20,
        "Great Statues": 4,
        "Pundits": 12,
        "Brahmin": 0,
        "Fossils": 0,
    }
    assert sum(b.values()) == 36
    assert sum(category_points(counts, True, True, fossil_majority=True).values()) == 51
    # The same through a finished game: seat 0 alone escaped with 2 Fossils -> 51;
    s = rig(fresh(), hands={0: HAND_A}, veda=[0], dhoni={0: "dh7"})
    out = finish(s, 0)
    assert (
        out.scores[0] == 51
        and (out.breakdown[0] or {})["Pundits"] == 12
        and out.notes[0] == "escaped via Dhoni 7"
    )
    # with seat 1 escaped too and holding 3 Fossils, seat 0 gets no majority -> 36.
    s = rig(fresh(), hands={0: HAND_A, 1: ["fos3", "fos4", "fos5"]}, veda=[0], dhoni={0: "dh7", 1: "dhx"})
    out = finish(s, 0)
    assert out.scores[0] == 36 and out.scores[1] == 15


def test_b_brahmin() -> None:
    with_v = category_points({"bra": 1, "dem": 4, "pac": 1}, True, True)
    assert with_v["Demon Statues"] == 0 and with_v["Brahmin"] == 15 and sum(with_v.values()) == 15
    assert sum(category_points({"bra": 1, "dem": 4, "pac": 1}, False, True).values()) == 0


def test_c_pundits() -> None:
    b = category_points({"pun": 2, "cop": 1, "sil": 1, "gol": 1}, False, True)
    assert b["Pundits"] == 10 and b["Coins"] == 10 and sum(b.values()) == 20


def test_d_fossils() -> None:
    esc = [True, True, False]
    _, scores, _ = score_table([{"fos": 3}, {"fos": 3}, {"fos": 5}], [False] * 3, esc, 0, False)
    assert scores == (0, 0, None)
    counts = [{"fos": 3}, {"fos": 2}, {"fos": 5}]
    _, scores, _ = score_table(counts, [False] * 3, esc, 0, False)
    assert scores == (15, 0, None)
    _, scores, _ = score_table(counts, [False] * 3, esc, 0, True)
    assert scores == (0, 0, None)


@pytest.mark.parametrize("fossil_all,expect", [(False, 15), (True, 0)])
def test_d_fossils_in_a_game(fossil_all: bool, expect: int) -> None:
    # Only 7 Fossils exist, so the game version scales D down: A 2 (E), B 1 (E), C 3 (not E).
    s = rig(
        fresh(3, fossil_all_players=fossil_all),
        hands={0: ["fos1", "fos2"], 1: ["fos3"], 2: ["fos4", "fos5", "fos6"]},
        dhoni={0: "dhx", 1: "dh7"},
    )
    out = finish(s, 0)
    assert (out.breakdown[0] or {})["Fossils"] == expect and (out.breakdown[1] or {})["Fossils"] == 0
    assert out.scores[2] is None


def test_e_ranking_ties() -> None:
    counts = [{"gol": 5}, {"gre": 1}, {"dem": 1, "pac": 1, "cop": 2}, {"urn": 3, "man": 4}]
    ranks, scores, _ = score_table(counts, [False] * 4, [True, False, True, True], 2, False)
    assert scores == (30, None, -4, 30)
    assert ranks == (1, 4, 3, 2)
    s = rig(
        fresh(4, first=2),
        hands={
            0: ["gol1", "gol2", "gol3", "gol4", "gol5"],
            1: ["gre1"],
            2: ["dem1", "pac1", "cop1", "cop2"],
            3: ["urn1", "urn2", "urn3", "man1", "man2", "man3", "man4"],
        },
        dhoni={0: "dhx", 2: "dh2", 3: "dh4"},
    )
    out = finish(s, 0)
    assert out.scores == (30, None, -4, 30)
    assert out.ranks == (1, 4, 3, 2) and out.winners == (0,)
    assert out.notes[1] == "did not escape"


def test_f_nothing_affordable_round_one() -> None:
    s = rig(fresh(first=0), island={"a1": "sil1", "b2": "urn1", "c3": "gol1", "c5": "pac1"})
    v = E.view(s, 0)
    assert v["step"] == "buy" and v["vitality"] == 1 and s.turn_cards == ()
    assert E.legal_actions(s, 0) == ["buy dhoni 0g 0s 0c", "pass"]
    s, events = act(s, "buy dhoni 0g 0s 0c")
    assert any(e.kind == "buy" and e.data["card"] == "dhx" and e.data["paid"] == [] for e in events)
    assert s.dhoni[0] >= 0 and s.hands[0] == ()
    out = finish(s, 0)
    assert out.scores[0] == 0


G_LIST = [
    "buy dhoni 0g 2s 1c",
    "buy dhoni 1g 0s 1c",
    "buy dhoni 1g 1s 0c",
    "buy veda 0g 1s 1c",
    "buy veda 0g 2s 0c",
    "buy veda 1g 0s 0c",
    "pass",
]


def test_g_payments() -> None:
    s = rig(
        fresh(),
        hands={0: ["gol1", "sil1", "sil2", "cop1", "cop2"]},
        dhoni={1: "dhx"},
        island={"a1": "dem1", "b1": "man1"},
        round=2,
        active=0,
    )
    s, _ = act(s, "take a1", "done")
    assert E.legal_actions(s, 0) == G_LIST
    with pytest.raises(IllegalAction) as err:
        play(E, s, 0, "buy veda 0g 1s 2c")
    assert "more than needed" in err.value.reason
    assert E.parse("BUY VEDA  0G 1S 1C") == "buy veda 0g 1s 1c"


def test_h_dhoni_x_takes_all() -> None:
    s = rig(
        fresh(), hands={0: ["gol1", "cop1", "cop2"]}, island={"a1": "dem1", "a2": "man1"}, round=2, active=0
    )
    s, _ = act(s, "take a1", "done")
    dh = [a for a in E.legal_actions(s, 0) if a.startswith("buy dhoni")]
    assert dh == ["buy dhoni 1g 0s 2c"]
    before = len(s.discard)
    s, _ = act(s, "buy dhoni 1g 0s 2c")
    paid = E.view(s, None)["discard"][before:]
    assert sorted(paid) == ["cop1", "cop2", "gol1"]
    assert sum({"gol": 6, "sil": 3, "cop": 1}[p[:3]] for p in paid) == 8
    out = finish(s, 0)
    assert (out.breakdown[0] or {})["Coins"] == 0


def test_i_last_relic() -> None:
    s = rig(fresh(), island={"c3": "gre1"}, round=2, active=1)
    assert s.last
    deck = len(s.deck)
    s, _ = act(s, "take c3")
    assert E.view(s, 1)["step"] == "buy"
    s, events = act(s, "pass")
    assert (
        s.end_reason == "last_card" and events[-1].kind == "end" and events[-1].data["reason"] == "last_card"
    )
    assert cell(s, "c3") is None and len(s.deck) == deck
    assert not any(e.kind == "refill" for e in events)


def test_j_escaped_discards() -> None:
    s = rig(
        fresh(),
        dhoni={0: "dhx"},
        island={"a2": "man1", "b3": "gre1", "c5": "fos1"},
        deck_top=["cop1"],
        round=2,
        active=0,
    )
    assert E.legal_actions(s, 0) == ["discard a2", "discard b3", "discard c5"]
    s, events = act(s, "discard a2")
    assert [e.kind for e in events] == ["discard", "refill", "turn"]
    assert cell(s, "a2") == "cop1" and s.active == 1
    assert "man1" in E.view(s, None)["discard"]


def test_k_refill_row_major() -> None:
    island = {"c1": "dem1", "a4": "man1", "b2": "gre1"}
    s = rig(fresh(), island=island, deck_top=["oce5", "gol3"], round=2, active=0)
    s, events = act(s, "take c1", "take a4", "done", "pass")
    assert cell(s, "a4") == "oce5" and cell(s, "c1") == "gol3"
    assert [e.data["cell"] for e in events if e.kind == "refill"] == ["a4", "c1"]
    # with an empty deck both cells stay empty (a constructed state: with 22 Oceans and at most 18
    # cells a real deck never runs out)
    s = rig(fresh(), island=island, round=2, active=0)
    s, _ = act(s, "take c1", "take a4", "done")
    ev: list[Event] = []
    empty = end_turn(dataclasses.replace(s, deck=()), ev)
    assert [e.data for e in ev if e.kind == "refill"] == [
        {"cell": "a4", "card": None},
        {"cell": "c1", "card": None},
    ]
    assert empty.island[3] == EMPTY and empty.island[10] == EMPTY and empty.step == 0
    # if no non-Ocean remains after the refill: island_empty
    s = rig(fresh(), island={"c1": "dem1", "a4": "man1"}, deck_top=["oce5", "oce6"], round=2, active=0)
    s, events = act(s, "take c1", "take a4", "pass")  # nothing left to take: BUY came by itself
    assert s.end_reason == "island_empty" and events[-1].data == {"reason": "island_empty"}


def test_l_costs_limit_the_list() -> None:
    s = rig(
        fresh(),
        island={"b1": "urn1", "a3": "gol1", "a1": "dem1", "c2": "man1", "b4": "sil1"},
        round=2,
        active=0,
    )
    s, _ = act(s, "take b1")
    assert s.v_left == 1
    assert E.legal_actions(s, 0) == ["done", "take a1", "take c2"]
    with pytest.raises(IllegalAction) as err:
        play(E, s, 0, "take a3")
    assert err.value.reason == "a3 costs 3 Vitality but you have 1 left."
