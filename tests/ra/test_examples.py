"""Every worked example of docs/rules/ra.md#worked-examples (R1–R3 Traders, E1–E14), one test
each, as written.

Seats A, B, C, D are 0, 1, 2, 3. Positions are built with ``engines.ra.positions.build``; the
rest goes through the engine's own ``play``."""

from __future__ import annotations

from typing import Any

from engines.outcome import Outcome
from engines.ra.positions import boxed, build, held
from engines.ra.state import AUCTION, DISCARD, IDX, OVER, TURN, State
from tests.ra.helpers import A, B, C, D, E, auction, finished, own, run

CATS = ("Gods", "Gold", "Pharaohs", "Nile & floods", "Civilizations", "Traders", "Monuments", "Suns")


def rows(state: State, epoch: int) -> dict[int, dict[str, int]]:
    """{seat: {category: points}} of the scored ``epoch``."""
    for ep, rws in state.history:
        if ep == epoch:
            return {s: dict(zip(CATS, r[0], strict=True)) for s, r in enumerate(rws)}
    raise AssertionError(f"epoch {epoch} not scored")


def row_tuple(state: State, epoch: int, seat: int) -> tuple[int, ...]:
    r = rows(state, epoch)[seat]
    return tuple(r[c] for c in CATS)


def _r1_position() -> State:
    # A invokes on [trader, trader, gold]; B and C pass; A must bid.
    return build(
        3,
        cur=A,
        up=[(2, 5, 8, 13), (3, 6, 9), (4, 7, 10, 11)],
        down=[(), (1,), ()],
        track=["trader", "trader", "gold"],
        ra_track=7,
        bag_front=["ra"],
        tiles=[{"trader": 1}, {"trader": 3}, {}],
        crates=[0, 2, 0],
    )


def _e1_position() -> State:
    return build(
        3,
        epoch=3,
        cur=A,
        ra_track=7,
        bag_front=["ra"],
        score=[20, 25, 30],
        up=[(13, 6, 5, 1), (12, 9, 8, 2), (11, 10, 4, 3)],
        tiles=[
            {
                "god": 1,
                "gold": 1,
                "pharaoh": 4,
                "nile": 3,
                "astronomy": 2,
                "art": 1,
                "pyramid": 5,
                "sphinx": 1,
            },
            {
                "pharaoh": 4,
                "nile": 2,
                "flood": 1,
                "fortress": 1,
                "obelisk": 1,
                "palace": 1,
                "temple": 1,
                "statue": 1,
                "step-pyramid": 1,
                "sphinx": 1,
            },
            {
                "gold": 2,
                "pharaoh": 1,
                "flood": 2,
                "astronomy": 1,
                "agriculture": 1,
                "writing": 1,
                "religion": 1,
                "art": 1,
                "temple": 3,
                "obelisk": 4,
            },
        ],
    )


def _e2_position(**options: Any) -> State:
    return build(
        2,
        epoch=3,
        cur=A,
        ra_track=5,
        bag_front=["ra"],
        score=[10, 20],
        up=[(1, 3, 5, 6), (2, 4, 8, 9)],
        tiles=[{}, {"pharaoh": 2, "art": 1}],
        options=options,
    )


def _end_epoch1_4p(tiles: Any) -> State:
    s = build(4, cur=A, ra_track=8, bag_front=["ra"], tiles=tiles, down=[(), (), (), ()])
    s, _ = run(s, (A, "draw"))
    return s


def _e13_final(**options: Any) -> Outcome:
    # no tiles: civilizations -5 each, pharaohs all equal, suns A 15 (-5), B 23 (+5)
    s = build(
        2,
        epoch=3,
        cur=A,
        ra_track=5,
        bag_front=["ra"],
        score=[40, 30],
        up=[(1, 3, 5, 6), (2, 4, 8, 9)],
        options=options,
    )
    s, _ = run(s, (A, "draw"))
    assert s.score == (30, 30)
    return finished(s)


def test_r1_two_traders_in_one_lot() -> None:
    s, ev = run(_r1_position(), (A, "invoke"), (B, "pass"), (C, "pass"), (A, "bid 2"))
    assert held(s, A) == {"trader": 3, "gold": 1}
    assert s.crates == (0, 8, 0)  # B: 2 + 2 traders × 3 held; C holds none; A gets none
    assert any(e.kind == "crates" for e in ev)


def test_r2_trader_scoring_and_removal() -> None:
    s, _ = run(_r1_position(), (A, "invoke"), (B, "pass"), (C, "pass"), (A, "bid 2"))
    bag_traders = list(s.bag[s.bag_pos :]).count(IDX["trader"])
    assert s.cur == B and s.step == TURN
    s, ev = run(s, (B, "draw"))  # the 8th Ra tile ends epoch 1
    assert s.epoch == 2
    assert [rows(s, 1)[q]["Traders"] for q in (A, B, C)] == [3, 11, 0]
    assert all(s.tiles[q][IDX["trader"]] == 0 for q in (A, B, C))
    assert s.crates == (0, 0, 0)
    assert list(s.bag[s.bag_pos :]).count(IDX["trader"]) == bag_traders
    assert boxed(s)["trader"] == 6  # A's 3 and B's 3 held traders left the game
    assert any(e.kind == "epoch_score" for e in ev)


def test_r3_god_takes_traders() -> None:
    s = build(
        3,
        cur=A,
        up=[(2, 5, 8), (3, 6, 9, 12), (4, 7, 10, 11)],
        down=[(13,), (), ()],
        track=["god", "funeral", "pharaoh", "gold", "trader", "trader"],
        tiles=[{"god": 2}, {"trader": 1}, {"trader": 2}],
    )
    assert E.legal_actions(s, A) == ["draw", "invoke", "god gold", "god pharaoh", "god trader"]
    s, _ = run(s, (A, "god trader"))
    assert s.crates == (0, 1, 2)
    assert E.view(s, A)["step"] == "god_more"
    assert E.legal_actions(s, A) == ["god gold", "god pharaoh", "god trader", "done"]
    s, _ = run(s, (A, "god trader"))
    assert s.crates == (0, 2, 4)
    assert held(s, A) == {"trader": 2} and s.crates[A] == 0
    assert s.step == TURN and s.cur == B
    assert [E.view(s, None)["track"]] == [["god", "funeral", "pharaoh", "gold"]]


def test_e1_final_scoring() -> None:
    s0 = _e1_position()
    assert s0.center == 7
    s, ev = run(s0, (A, "draw"))
    assert s.step == OVER
    assert row_tuple(s, 3, A) == (2, 3, 5, 0, 0, 0, 17, -5)
    assert row_tuple(s, 3, B) == (0, 0, 5, 3, -5, 0, 10, 5)
    assert row_tuple(s, 3, C) == (0, 6, -2, 2, 15, 0, 17, 0)
    assert s.score == (42, 43, 68)
    out = finished(s)
    assert out.winners == (C,) and out.ranks == (3, 2, 1)
    assert ev[-1].kind == "game_over"


def test_e2_floor() -> None:
    s, _ = run(_e2_position(), (A, "draw"))
    assert _e2_position().center == 7
    assert row_tuple(s, 3, A) == (0, 0, -2, 0, -5, 0, 0, -5)
    assert row_tuple(s, 3, B) == (0, 0, 5, 0, 0, 0, 0, 5)
    assert s.score == (0, 30)
    assert s.history[-1][1][A][1] == 2  # the floor lifted A from -2 to 0


def test_e2_floor_off() -> None:
    s, _ = run(_e2_position(score_floor_zero=False), (A, "draw"))
    assert s.score == (-2, 30)


def test_e3_pharaoh_ties() -> None:
    s = _end_epoch1_4p([{"pharaoh": 2}] * 4)
    assert [rows(s, 1)[q]["Pharaohs"] for q in range(4)] == [0, 0, 0, 0]
    s = _end_epoch1_4p([{"pharaoh": 3}, {"pharaoh": 3}, {"pharaoh": 1}, {}])
    assert [rows(s, 1)[q]["Pharaohs"] for q in range(4)] == [5, 5, 0, -2]


def test_e4_river_and_civilizations() -> None:
    s = _end_epoch1_4p(
        [
            {"nile": 4},
            {"nile": 4, "flood": 1, "astronomy": 4},
            {"flood": 2, "writing": 1, "religion": 1, "art": 1},
            {"astronomy": 1, "agriculture": 1, "writing": 1, "religion": 1},
        ]
    )
    r = rows(s, 1)
    assert [r[q]["Nile & floods"] for q in range(4)] == [0, 5, 2, 0]
    assert [r[q]["Civilizations"] for q in range(4)] == [-5, 0, 5, 10]


def test_e5_drought_takes_floods_first() -> None:
    s = build(
        3,
        cur=A,
        up=[(2, 5, 8, 13), (3, 6, 9), (4, 7, 10, 11)],
        down=[(), (1,), ()],
        track=["drought", "nile"],
        tiles=[{}, {"flood": 1, "nile": 3}, {}],
    )
    s, _ = run(s, (A, "invoke"), (B, "bid 3"), (C, "pass"), (A, "pass"))
    assert held(s, B) == {"nile": 3}
    assert own(E.view(s, B))["preview"]["Nile & floods"] == 0
    assert boxed(s) == {"drought": 1, "flood": 1, "nile": 1}


def test_e6_funeral_hits_the_lot() -> None:
    s = build(3, cur=A, track=["pharaoh", "funeral", "funeral", "gold"])
    s, _ = run(s, (A, "invoke"), (B, "pass"), (C, "pass"), (A, "bid 2"))
    assert held(s, A) == {"gold": 1}
    assert boxed(s) == {"pharaoh": 1, "funeral": 2}


def test_e7_unrest_choice() -> None:
    s = build(
        3,
        cur=A,
        up=[(2, 5, 8, 13), (3, 6, 9), (4, 7, 10, 11)],
        down=[(), (1,), ()],
        track=["unrest", "religion"],
        tiles=[{}, {"astronomy": 2, "art": 1, "writing": 1}, {}],
    )
    s, _ = run(s, (A, "invoke"), (B, "bid 3"), (C, "pass"), (A, "pass"))
    assert s.step == DISCARD and E.to_move(s) == (B,)
    assert E.legal_actions(s, B) == [
        "discard astronomy",
        "discard writing",
        "discard religion",
        "discard art",
    ]
    s, _ = run(s, (B, "discard astronomy"))
    assert s.step == DISCARD
    s, _ = run(s, (B, "discard astronomy"))
    assert s.step == TURN and s.cur == B
    assert held(s, B) == {"writing": 1, "religion": 1, "art": 1}
    assert own(E.view(s, B))["preview"]["Civilizations"] == 5


def test_e7_earthquake_auto() -> None:
    s = build(
        3,
        cur=A,
        up=[(2, 5, 8, 13), (3, 6, 9, 12), (4, 7, 10)],
        down=[(), (), (1,)],
        track=["earthquake"],
        tiles=[{}, {}, {"pyramid": 3}],
    )
    s, ev = run(s, (A, "invoke"), (B, "pass"), (C, "bid 4"), (A, "pass"))
    assert held(s, C) == {"pyramid": 1}
    assert s.step == TURN
    assert not any(e.kind == "discard" and not e.data["auto"] for e in ev)


def test_e8_auction_flow() -> None:
    s = build(3, cur=A, track=["pharaoh", "gold", "nile"])
    assert s.up == ((2, 5, 8, 13), (3, 6, 9, 12), (4, 7, 10, 11)) and s.center == 1
    s, _ = run(s, (A, "invoke"))
    assert s.step == AUCTION and E.to_move(s) == (B,)
    assert E.legal_actions(s, B) == ["bid 3", "bid 6", "bid 9", "bid 12", "pass"]
    s, _ = run(s, (B, "bid 9"))
    assert E.legal_actions(s, C) == ["bid 10", "bid 11", "pass"]
    s, _ = run(s, (C, "pass"))
    assert E.legal_actions(s, A) == ["bid 13", "pass"]
    s, ev = run(s, (A, "pass"))
    assert held(s, B) == {"pharaoh": 1, "gold": 1, "nile": 1}
    assert s.up[B] == (3, 6, 12) and s.down[B] == (1,) and s.center == 9
    assert s.track == () and s.step == TURN and E.to_move(s) == (B,)
    win = next(e for e in ev if e.kind == "win")
    assert win.text == "{s1} wins Pharaoh, Gold, Nile with sun 9 and takes sun 1 face down"


def test_e9_forced_bid() -> None:
    s = build(3, cur=A, track=["flood"])
    s, _ = run(s, (A, "invoke"), (B, "pass"), (C, "pass"))
    assert E.to_move(s) == (A,)
    assert E.legal_actions(s, A) == ["bid 2", "bid 5", "bid 8", "bid 13"]
    assert E.view(s, None)["headline"] == "Epoch 1 · Auction (voluntary) · everyone passed: {s0} must bid"


def test_e10_unsold_lots() -> None:
    s = build(3, cur=C, ra_track=3, track=["gold", "god"], bag_front=["ra"])
    s, _ = run(s, (C, "draw"))
    assert s.ra_track == 4 and s.step == AUCTION
    assert auction(E.view(s, None))["kind"] == "ra_tile"
    assert E.view(s, None)["headline"].endswith("Auction (Ra tile) · {s0} to bid · no bid yet")
    assert s.a_order == (A, B, C)
    s, ev = run(s, (A, "pass"), (B, "pass"), (C, "pass"))
    assert E.view(s, None)["track"] == ["gold", "god"] and s.cur == A and s.step == TURN
    assert any(e.kind == "unsold" for e in ev)
    # a full track, B to act without a god
    full = ["gold", "pharaoh", "nile", "flood", "art", "temple", "pharaoh", "nile"]
    s = build(3, cur=B, track=full)
    assert E.legal_actions(s, B) == ["invoke"]
    s, _ = run(s, (B, "invoke"), (C, "pass"), (A, "pass"), (B, "pass"))
    assert s.track == () and s.cur == C and s.step == TURN
    assert boxed(s) == {"gold": 1, "pharaoh": 2, "nile": 2, "flood": 1, "art": 1, "temple": 1}


def test_e11_last_ra_ends_the_epoch() -> None:
    s = build(4, cur=D, ra_track=8, bag_front=["ra"], track=["gold", "nile", "pharaoh", "art", "god"])
    s, ev = run(s, (D, "draw"))
    assert not any(e.kind == "auction" for e in ev)
    assert s.epoch == 2 and s.step == TURN and s.track == () and s.ra_track == 0
    assert boxed(s) == {"gold": 1, "nile": 1, "pharaoh": 1, "art": 1, "god": 1, "ra": 9}


def test_e12_highest_sun_starts_next_epoch() -> None:
    s = build(
        3,
        cur=A,
        up=[(2, 5, 8), (3, 6, 9, 12), (4, 7, 10, 11)],
        down=[(1,), (), ()],
        ra_track=7,
        bag_front=["ra"],
    )
    assert s.center == 13
    s, ev = run(s, (A, "draw"))
    assert s.epoch == 2 and s.cur == B and s.center == 13
    assert s.up[A] == (1, 2, 5, 8)  # the centre sun is nobody's
    assert ev[-1].kind == "epoch_start"


def test_e13_tiebreak_highest_sun() -> None:
    out = _e13_final()
    assert out.ranks == (2, 1) and out.winners == (B,)
    assert out.notes == ("highest sun 6", "highest sun 9")


def test_e13_tiebreak_off_shares_first_place() -> None:
    out = _e13_final(tiebreak_highest_sun=False)
    assert out.ranks == (1, 1) and out.winners == (A, B)


def test_e14_lone_seat() -> None:
    s = build(
        3,
        cur=A,
        up=[(2, 5, 8, 13), (), ()],
        down=[(), (3, 6, 9, 12), (4, 7, 10, 11)],
        track=["pharaoh"],
        bag_front=["gold", "nile"],
    )
    s, _ = run(s, (A, "draw"))
    assert E.to_move(s) == (A,)
    s, _ = run(s, (A, "draw"))
    assert E.to_move(s) == (A,)
    s, _ = run(s, (A, "invoke"))
    assert s.a_order == (A,)
    assert E.legal_actions(s, A) == ["bid 2", "bid 5", "bid 8", "bid 13"]
    s, _ = run(s, (A, "bid 8"))
    assert s.step == TURN and s.cur == A and s.up[A] == (2, 5, 13)
