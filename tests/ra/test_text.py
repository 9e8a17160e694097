"""Ra in words: the terminal's and the bot's texts, and the reasons a refused move gets."""

from __future__ import annotations

import pytest

import render
from bot.surface import text as surface_text
from engines import base
from engines.base import BadNotation
from engines.ra import data
from engines.ra.positions import build
from engines.ra.state import State
from tests.ra.helpers import A, reason, run

E = base.get("ra")


NAMES = ["You", "AI Bilal", "AI Chen"]


def _auction_text(state: State) -> str:
    lines: list[str] = render.get("ra").text(E.view(state, 0), NAMES).splitlines()
    return next(x for x in lines if x.startswith("Auction:"))


def test_the_rules_explain_tiles_scores_disasters_and_gods() -> None:
    text = E.summary
    for name in ("God", "Gold", "Pharaoh", "Nile and Flood", "Civilization", "Monument", "Suns", "Disasters"):
        assert f"• {name}" in text or f"· {name}" in text, name
    for disaster, hits in (
        ("Funeral", "Pharaohs"),
        ("Drought", "Floods"),
        ("Unrest", "civilizations"),
        ("Earthquake", "monuments"),
    ):
        assert f"{disaster} 2 {hits}" in text
    assert f"God: {data.GOD_PTS}" in text and f"Gold: {data.GOLD_PTS}" in text
    assert f"most +{data.PHARAOH_MOST}, fewest −{-data.PHARAOH_FEWEST}" in text
    assert "take a tile from the track" in text  # what a god does
    assert "none −5" in text and "must bid if all others pass" in text


def test_rules_fit_one_discord_message_with_every_option_named() -> None:
    for engine in base.games():
        shown = surface_text.rules(engine)
        assert len(shown) <= surface_text.LIMIT and not shown.endswith("…")
        assert engine.summary.strip() in shown
        assert all(f"`{o.name}`" in shown for o in engine.options)


def test_the_invoker_must_bid_only_once_everyone_else_passed() -> None:
    s = E.setup(3, 3, None)  # seed 3: AI Chen (seat 2) starts
    s, _ = run(s, (2, "draw"), (0, "invoke"))
    assert "(You must bid if everyone else passes)" in _auction_text(s)
    s, _ = run(s, (1, "pass"), (2, "pass"))
    assert _auction_text(s).startswith("Auction: Ra invoked by You (must bid)")
    s = E.setup(3, 3, None)
    s, _ = run(s, (2, "draw"), (0, "invoke"), (1, "bid 4"))
    assert "must bid" not in _auction_text(s)


def test_suns_face_down_are_said_to_return_next_epoch() -> None:
    s = E.setup(3, 3, None)
    s, _ = run(s, (2, "draw"), (0, "invoke"), (1, "pass"), (2, "pass"), (0, "bid 3"))
    line = next(x for x in render.get("ra").text(E.view(s, 0), NAMES).splitlines() if x.startswith("**You**"))
    assert "face down till next epoch: 1" in line and "used" not in line
    last = dict(E.view(s, 0), epoch=3)  # in the last epoch no sun comes back
    line = next(x for x in render.get("ra").text(last, NAMES).splitlines() if x.startswith("**You**"))
    assert "(face down: 1)" in line


def test_one_pharaoh_is_singular() -> None:
    rows = [
        {
            "seat": s,
            "points": {"Pharaohs": 0},
            "floor": 0,
            "epoch_total": 0,
            "running_total": 10,
            "counts": {"pharaohs": k, "niles": 0, "floods": 0, "civ_kinds": 3, "suns": 20},
        }
        for s, k in ((0, 1), (1, 0), (2, 2))
    ]
    ev = base.Event("epoch_score", "Epoch 1 scores", {"epoch": 1, "rows": rows})
    text = render.get("ra").epoch_text([ev], NAMES)
    assert text is not None and "1 Pharaoh: neither the most nor the fewest" in text
    assert "1 Pharaohs" not in text


def test_god_reason_names_the_missing_tile_when_gods_may_take_disasters() -> None:
    s = build(
        3,
        cur=A,
        up=[(2, 5, 8), (3, 6, 9, 12), (4, 7, 10, 11)],
        down=[(13,), (), ()],
        track=["gold"],
        tiles=[{"god": 1}, {}, {}],
        options={"god_takes_disaster": True},
    )
    assert reason(s, A, "god funeral") == "There is no Funeral on the auction track."
    off = build(
        3,
        cur=A,
        up=[(2, 5, 8), (3, 6, 9, 12), (4, 7, 10, 11)],
        down=[(13,), (), ()],
        track=["gold", "funeral"],
        tiles=[{"god": 1}, {}, {}],
    )
    assert reason(off, A, "god funeral") == "A god cannot take a disaster tile."


def test_full_track_reason_offers_a_god_only_to_a_god_holder() -> None:
    full = ["gold", "pharaoh", "nile", "flood", "art", "temple", "pharaoh", "nile"]
    s = build(3, cur=A, track=full)
    assert reason(s, A, "draw") == "The auction track is full: invoke Ra."
    g = build(
        3,
        cur=A,
        up=[(2, 5, 8), (3, 6, 9, 12), (4, 7, 10, 11)],
        down=[(13,), (), ()],
        track=full,
        tiles=[{"god": 1}, {}, {}],
    )
    assert reason(g, A, "draw") == "The auction track is full: invoke Ra or use a god."
    empty_bag = build(3, cur=A, track=["gold"], rest_to_box=True)
    assert reason(empty_bag, A, "draw") == "The bag is empty: invoke Ra."


def test_trader_reason_without_the_module() -> None:
    s = build(
        3,
        cur=A,
        up=[(2, 5, 8), (3, 6, 9, 12), (4, 7, 10, 11)],
        down=[(13,), (), ()],
        track=["gold"],
        tiles=[{"god": 1}, {}, {}],
        options={"traders": False},
    )
    assert reason(s, A, "god trader") == ("This game is played without Ra: Traders (no trader tiles).")


def test_notation_reason_for_a_real_tile_that_cannot_follow_the_verb() -> None:
    """``discard gold`` and ``god ra`` name real tiles: the reason says why they are no moves
    instead of calling the tile unknown."""
    with pytest.raises(BadNotation) as err:
        E.parse("discard gold")
    assert err.value.reason == (
        "Gold is never discarded by choice: you choose only civilization and monument tiles "
        "(and nile or flood after a drought when floods do not go first)."
    )
    with pytest.raises(BadNotation) as err:
        E.parse("god ra")
    assert err.value.reason == "Ra tiles never reach the auction track, so a god cannot take one."
    with pytest.raises(BadNotation) as err:
        E.parse("discard xyz")
    assert err.value.reason.startswith("Unknown tile `xyz` for discard. Tiles: nile, flood, ")
