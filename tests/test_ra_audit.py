"""Ra: tests added by the independent rules audit.

Each test pins a rule of docs/rules/ra.md (the base game or the Ra: Traders module) that the
earlier tests left open (a mutation of the rule would have passed them), or a bug the audit found.
Seats A, B, C, D are 0, 1, 2, 3.
"""
from __future__ import annotations

import pytest

from engines.base import BadNotation
from engines.ra import data
from engines.ra.positions import boxed, build, held
from engines.ra.state import TURN
from ra_helpers import A, B, C, D, E, reason, run


def epoch_row(state, epoch, seat):
    """{category: points} of ``seat`` in the scored ``epoch``, plus the floor adjustment."""
    for ep, rows in state.history:
        if ep == epoch:
            points, floor, _total, _running = rows[seat]
            return {**dict(zip(data.CATEGORIES, points)), "floor": floor}
    raise AssertionError(f"epoch {epoch} not scored")


# --------------------------------------------------------------------------- grammar

def test_parse_never_crashes_on_a_huge_number():
    """A bid with thousands of digits is text a player can type (Discord allows 6000 characters):
    leading zeros still normalise, and a huge value is refused as notation, not with a crash."""
    assert E.parse("bid " + "0" * 5000 + "13") == "bid 13"
    with pytest.raises(BadNotation) as err:
        E.parse("bid " + "9" * 5000)
    assert len(err.value.reason) < 200 and "suns run from 1 to 16" in err.value.reason


# --------------------------------------------------------------------------- reasons

def test_god_reason_names_the_missing_tile_when_gods_may_take_disasters():
    s = build(3, cur=A, up=[(2, 5, 8), (3, 6, 9, 12), (4, 7, 10, 11)], down=[(13,), (), ()],
              track=["gold"], tiles=[{"god": 1}, {}, {}], options={"god_takes_disaster": True})
    assert reason(s, A, "god funeral") == "There is no Funeral on the auction track."
    off = build(3, cur=A, up=[(2, 5, 8), (3, 6, 9, 12), (4, 7, 10, 11)], down=[(13,), (), ()],
                track=["gold", "funeral"], tiles=[{"god": 1}, {}, {}])
    assert reason(off, A, "god funeral") == "A god cannot take a disaster tile."


# --------------------------------------------------------------------------- disasters

def test_two_disasters_of_one_kind_cost_four_tiles():
    """docs/rules/ra.md#disaster-cost: each disaster tile costs two tiles, so two funerals take four pharaohs and
    two unrests leave four civilization tiles owed."""
    s = build(3, cur=A, track=["funeral", "funeral"], tiles=[{"pharaoh": 5}, {}, {}])
    s, _ = run(s, (A, "invoke"), (B, "pass"), (C, "pass"), (A, "bid 2"))
    assert held(s, A) == {"pharaoh": 1}
    assert boxed(s) == {"pharaoh": 4, "funeral": 2}
    s = build(3, cur=A, up=[(2, 5, 8), (3, 6, 9, 12), (4, 7, 10, 11)], down=[(13,), (), ()],
              track=["unrest", "unrest"], tiles=[{"astronomy": 3, "art": 3}, {}, {}])
    s, _ = run(s, (A, "invoke"), (B, "pass"), (C, "pass"), (A, "bid 2"))
    assert E.view(s, None)["pending"] == {"seat": A, "civ": 4, "monument": 0, "river": 0}
    s, _ = run(s, (A, "discard art"), (A, "discard art"), (A, "discard art"))
    assert s.step == TURN and held(s, A) == {"astronomy": 2}  # the fourth went automatically


# --------------------------------------------------------------------------- scoring

def _final(n, up, **kw):
    s = build(n, epoch=3, cur=A, ra_track=data.RA_LIMIT[n] - 1, bag_front=["ra"], up=up, **kw)
    s, _ = run(s, (A, "draw"))
    return s


def test_sun_ties_share_the_bonus_and_the_penalty():
    """docs/rules/ra.md#ties: every seat tied for the highest sun total gets +5, every seat tied for
    the lowest −5, seats in between 0."""
    s = _final(3, [(2, 5, 10, 13), (1, 8, 9, 12), (4, 6, 7, 11)])  # 30 / 30 / 28, centre 3
    assert [epoch_row(s, 3, q)["Suns"] for q in (A, B, C)] == [5, 5, -5]
    s = _final(3, [(1, 6, 9, 12), (2, 7, 8, 11), (4, 5, 10, 13)])  # 28 / 28 / 32, centre 3
    assert [epoch_row(s, 3, q)["Suns"] for q in (A, B, C)] == [-5, -5, 5]
    s = _final(4, [(5, 12, 13), (9, 10, 11), (4, 7, 8), (2, 3, 6)])  # 30 / 30 / 19 / 11
    assert [epoch_row(s, 3, q)["Suns"] for q in (A, B, C, D)] == [5, 5, 0, -5]


def _end_epoch(n=3, epoch=1, **kw):
    s = build(n, epoch=epoch, cur=A, ra_track=data.RA_LIMIT[n] - 1, bag_front=["ra"], **kw)
    s, _ = run(s, (A, "draw"))
    return s


def test_floor_clamps_the_epoch_net_not_each_category():
    """docs/rules/ra.md#score-floor: the floor applies once to the epoch's net change. A from 1: pharaohs −2,
    civilizations (3 types) +5 → 4; clamping after each row would give 0 then 5."""
    s = _end_epoch(score=[1, 10, 10], tiles=[
        {"astronomy": 1, "writing": 1, "art": 1}, {"pharaoh": 1}, {"pharaoh": 1}])
    row = epoch_row(s, 1, A)
    assert row["Pharaohs"] == -2 and row["Civilizations"] == 5 and row["floor"] == 0
    assert s.score[A] == 4


def test_traders_count_before_the_floor():
    """docs/rules/ra.md#traders: the Traders row is part of the epoch's net before the floor. A from 0:
    traders 2 + crates 1 = +3, civilizations −5 → −2 → 0 (floor +2),
    not max(0, −5) + 3 = 3.
    """
    s = _end_epoch(score=[0, 10, 10], tiles=[{"trader": 2}, {"astronomy": 1}, {"astronomy": 1}],
                   crates=[1, 0, 0])
    row = epoch_row(s, 1, A)
    assert row["Traders"] == 3 and row["Civilizations"] == -5 and row["floor"] == 2
    assert s.score[A] == 0


@pytest.mark.parametrize("epoch", [2, 3])
def test_traders_score_in_every_epoch(epoch):
    """Traders sheet, "Scoring in the First, Second & Third Epochs": 1 per trader and 1 per crate
    at the end of every epoch, the last one included."""
    s = _end_epoch(epoch=epoch, tiles=[{"trader": 2}, {"trader": 1}, {}], crates=[0, 4, 0])
    assert [epoch_row(s, epoch, q)["Traders"] for q in (A, B, C)] == [2, 5, 0]
    if epoch == 3:
        assert [E.outcome(s).breakdown[q]["Traders"] for q in (A, B, C)] == [2, 5, 0]


def test_epoch_end_keeps_pharaohs_niles_and_monuments_only():
    """docs/rules/ra.md#epoch-end: at the end of epochs 1 and 2, gods, gold, floods, civilizations and traders
    leave the game; pharaohs, niles and monuments stay; crates go back to the supply; every sun
    turns face up."""
    s = _end_epoch(up=[(2, 5, 8), (3, 6, 9, 12), (4, 7, 10, 11)], down=[(13,), (), ()],
                   tiles=[{"god": 1, "gold": 1, "pharaoh": 2, "nile": 3, "flood": 1,
                           "astronomy": 1, "trader": 1, "pyramid": 2, "sphinx": 1}, {}, {}],
                   crates=[0, 0, 0])
    assert s.epoch == 2 and s.step == TURN
    assert held(s, A) == {"pharaoh": 2, "nile": 3, "pyramid": 2, "sphinx": 1}
    assert boxed(s) == {"god": 1, "gold": 1, "flood": 1, "astronomy": 1, "trader": 1, "ra": 8}
    assert s.up[A] == (2, 5, 8, 13) and s.down == ((), (), ())
    s = _end_epoch(tiles=[{}, {"trader": 1}, {"trader": 1}], crates=[3, 2, 0])
    assert s.crates == (0, 0, 0)


# --------------------------------------------------------------------------- auctions

def test_ra_tile_auction_on_an_empty_track_sells_the_centre_sun():
    """A Ra tile drawn on an empty track still opens an auction; a bid wins only the centre sun
    (docs/rules/ra.md#auction: every track tile → winner, centre → winner's face-down suns)."""
    s = build(3, cur=A, bag_front=["ra"])
    s, ev = run(s, (A, "draw"))
    assert s.a_order == (B, C, A) and E.legal_actions(s, B)[-1] == "pass"
    s, ev = run(s, (B, "bid 3"), (C, "pass"), (A, "pass"))
    assert s.down[B] == (1,) and s.center == 3 and held(s, B) == {} and s.cur == B
    assert next(e for e in ev if e.kind == "win").data["tiles"] == []


# --------------------------------------------------------------------------- texts

def test_full_track_reason_offers_a_god_only_to_a_god_holder():
    full = ["gold", "pharaoh", "nile", "flood", "art", "temple", "pharaoh", "nile"]
    s = build(3, cur=A, track=full)
    assert reason(s, A, "draw") == "The auction track is full: invoke Ra."
    g = build(3, cur=A, up=[(2, 5, 8), (3, 6, 9, 12), (4, 7, 10, 11)], down=[(13,), (), ()],
              track=full, tiles=[{"god": 1}, {}, {}])
    assert reason(g, A, "draw") == "The auction track is full: invoke Ra or use a god."
    empty_bag = build(3, cur=A, track=["gold"], rest_to_box=True)
    assert reason(empty_bag, A, "draw") == "The bag is empty: invoke Ra."


def test_trader_reason_without_the_module():
    s = build(3, cur=A, up=[(2, 5, 8), (3, 6, 9, 12), (4, 7, 10, 11)], down=[(13,), (), ()],
              track=["gold"], tiles=[{"god": 1}, {}, {}], options={"traders": False})
    assert reason(s, A, "god trader") == (
        "This game is played without Ra: Traders (no trader tiles).")


def test_discard_prompt_for_a_single_tile():
    s = build(3, cur=A, up=[(2, 5, 8), (3, 6, 9, 12), (4, 7, 10, 11)], down=[(13,), (), ()],
              track=["unrest"], tiles=[{"astronomy": 1, "art": 1, "writing": 1}, {}, {}])
    s, _ = run(s, (A, "invoke"), (B, "pass"), (C, "pass"), (A, "bid 2"))
    assert E.view(s, A)["me"]["prompt"] == "Discard 2 civilization tiles, one at a time."
    s, _ = run(s, (A, "discard art"))
    assert E.view(s, A)["me"]["prompt"] == "Discard 1 civilization tile."


def test_lone_seat_headline_does_not_claim_others_passed():
    s = build(3, cur=A, up=[(2, 5, 8, 13), (), ()], down=[(), (3, 6, 9, 12), (4, 7, 10, 11)],
              track=["pharaoh"])
    s, _ = run(s, (A, "invoke"))
    assert E.view(s, None)["headline"] == (
        "Epoch 1 · Auction (voluntary) · {s0} must bid: nobody else has a sun to bid")


def test_notation_reason_for_a_real_tile_that_cannot_follow_the_verb():
    """``discard gold`` and ``god ra`` name real tiles: the reason says why they are no moves
    instead of calling the tile unknown."""
    with pytest.raises(BadNotation) as err:
        E.parse("discard gold")
    assert err.value.reason == (
        "Gold is never discarded by choice: you choose only civilization and monument tiles "
        "(and nile or flood after a drought when floods do not go first).")
    with pytest.raises(BadNotation) as err:
        E.parse("god ra")
    assert err.value.reason == "Ra tiles never reach the auction track, so a god cannot take one."
    with pytest.raises(BadNotation) as err:
        E.parse("discard xyz")
    assert err.value.reason.startswith("Unknown tile `xyz` for discard. Tiles: nile, flood, ")
