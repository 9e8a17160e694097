"""Ra's texts for a newcomer (issue 22): the rules explain disasters, tile kinds, their scores
and the gods; the invoker "must bid" only when it is so; counts agree with their nouns; suns face
down are said to come back next epoch; /rules fits one Discord message."""
from __future__ import annotations

import render
from bot.surface import text as surface_text
from engines import base
from engines.ra import data
from tests.ra_helpers import run

E = base.get("ra")
NAMES = ["You", "AI Bilal", "AI Chen"]


def test_the_rules_explain_tiles_scores_disasters_and_gods():
    text = E.summary
    for name in ("God", "Gold", "Pharaoh", "Nile and Flood", "Civilization", "Monument", "Suns", "Disasters"):
        assert f"• {name}" in text or f"· {name}" in text, name
    for disaster, hits in (("Funeral", "Pharaohs"), ("Drought", "Floods"), ("Unrest", "civilizations"),
                           ("Earthquake", "monuments")):
        assert f"{disaster} 2 {hits}" in text
    assert f"God: {data.GOD_PTS}" in text and f"Gold: {data.GOLD_PTS}" in text
    assert f"most +{data.PHARAOH_MOST}, fewest −{-data.PHARAOH_FEWEST}" in text
    assert "take a tile from the track" in text  # what a god does
    assert "none −5" in text and "must bid if all others pass" in text


def test_rules_fit_one_discord_message_with_every_option_named():
    for engine in base.games():
        shown = surface_text.rules(engine)
        assert len(shown) <= surface_text.LIMIT and not shown.endswith("…")
        assert engine.summary.strip() in shown
        assert all(f"`{o.name}`" in shown for o in engine.options)


def _auction_text(state) -> str:
    lines = render.get("ra").text(E.view(state, 0), NAMES).splitlines()
    return next(x for x in lines if x.startswith("Auction:"))


def test_the_invoker_must_bid_only_once_everyone_else_passed():
    s = E.setup(3, 3, None)  # seed 3: AI Chen (seat 2) starts
    s, _ = run(s, (2, "draw"), (0, "invoke"))
    assert "(You must bid if everyone else passes)" in _auction_text(s)
    s, _ = run(s, (1, "pass"), (2, "pass"))
    assert _auction_text(s).startswith("Auction: Ra invoked by You (must bid)")
    s = E.setup(3, 3, None)
    s, _ = run(s, (2, "draw"), (0, "invoke"), (1, "bid 4"))
    assert "must bid" not in _auction_text(s)


def test_suns_face_down_are_said_to_return_next_epoch():
    s = E.setup(3, 3, None)
    s, _ = run(s, (2, "draw"), (0, "invoke"), (1, "pass"), (2, "pass"), (0, "bid 3"))
    line = next(x for x in render.get("ra").text(E.view(s, 0), NAMES).splitlines() if x.startswith("**You**"))
    assert "face down till next epoch: 1" in line and "used" not in line
    last = dict(E.view(s, 0), epoch=3)  # in the last epoch no sun comes back
    line = next(x for x in render.get("ra").text(last, NAMES).splitlines() if x.startswith("**You**"))
    assert "(face down: 1)" in line


def test_one_pharaoh_is_singular():
    rows = [{"seat": s, "points": {"Pharaohs": 0}, "floor": 0, "epoch_total": 0, "running_total": 10,
             "counts": {"pharaohs": k, "niles": 0, "floods": 0, "civ_kinds": 3, "suns": 20}}
            for s, k in ((0, 1), (1, 0), (2, 2))]
    ev = base.Event("epoch_score", "Epoch 1 scores", {"epoch": 1, "rows": rows})
    text = render.get("ra").epoch_text([ev], NAMES)
    assert text is not None and "1 Pharaoh: neither the most nor the fewest" in text
    assert "1 Pharaohs" not in text
