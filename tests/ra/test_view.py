"""The Ra view (docs/rules/ra.md#view and the schema of engines/ra/view.py): its keys, the bag
order never shown, hidden totals, seats named in events."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from engines.base import (
    VIEW_KEYS,
)
from engines.ra import data
from engines.ra.positions import build
from engines.ra.state import State
from tests.ra.helpers import A, B, C, E, own, run


def _random_states(n: int, opts: dict[str, Any], seeds: int = 3) -> Iterator[State]:
    for seed in range(seeds):
        rng = random.Random(seed)
        s = E.setup(seed, n, opts)
        while True:
            yield s
            if E.outcome(s):
                break
            seat = E.to_move(s)[0]
            s, _ = E.apply(s, seat, rng.choice(E.legal_actions(s, seat)))


def test_view_schema() -> None:
    keys = {
        "game",
        "viewer",
        "n_players",
        "to_move",
        "over",
        "headline",
        "options",
        "epoch",
        "step",
        "current",
        "ra_track",
        "ra_limit",
        "track",
        "center",
        "bag",
        "bag_total",
        "box",
        "auction",
        "pending",
        "players",
        "history",
        "me",
        "outcome",
    }
    seen_steps = set()
    for s in _random_states(3, {"auto_pass": False, "god_takes_disaster": True}):
        for viewer in (None, 0, 1, 2):
            v = E.view(s, viewer)
            assert set(v) == keys and set(VIEW_KEYS) <= keys
            json.dumps(v)
            assert v["bag_total"] == sum(v["bag"].values())
            seen_steps.add(v["step"])
            if v["auction"]:
                a = v["auction"]
                assert a["to_bid"][0] == v["to_move"][0] and len(a["bids"]) == a["idx"]
                assert set(a) == {"ra_player", "kind", "order", "idx", "high", "bids", "to_bid", "forced"}
            if viewer is not None:
                assert own(v)["legal"] == E.legal_actions(s, viewer)
                assert set(own(v)["preview"]) == set(data.CATEGORIES)
                assert own(v)["prompt"]
            else:
                assert v["me"] is None
            for p in v["players"]:
                assert set(p) == {"seat", "up", "down", "tiles", "traders", "crates", "score"}
                assert all(k > 0 for k in p["tiles"].values())
    assert {"turn", "auction", "over"} <= seen_steps


def test_view_never_shows_bag_order() -> None:
    for s in _random_states(4, {}):
        secrets = list(E.secrets(s, None))
        for viewer in (None, 0, 3):
            text = json.dumps(E.view(s, viewer))
            assert all(x not in text for x in secrets)
            assert "bag_pos" not in text
        if len(s.bag) - s.bag_pos >= 9:
            assert secrets  # the check is live whenever nine tiles remain


def test_hidden_scores() -> None:
    s = build(3, cur=A, score=[17, 23, 31], options={"hidden_scores": True})
    v = E.view(s, B)
    assert [p["score"] for p in v["players"]] == [None, 23, None] and own(v)["score"] == 23
    assert [p["score"] for p in E.view(s, None)["players"]] == [None, None, None]
    text = json.dumps(E.view(s, B))
    assert "17" not in text and "31" not in text  # other totals appear nowhere in the view
    # after an epoch, epoch totals are public but running totals stay private
    s = build(
        3, cur=A, ra_track=7, bag_front=["ra"], tiles=[{"gold": 1}, {}, {}], options={"hidden_scores": True}
    )
    s, ev = run(s, (A, "draw"))
    v = E.view(s, C)
    rows = v["history"][0]["rows"]
    assert [r["running_total"] for r in rows] == [None, None, s.score[C]]
    assert [r["epoch_total"] for r in rows] == [-2, -5, -5]  # gold 3, civilizations -5
    epoch_event = next(e for e in ev if e.kind == "epoch_score")
    assert "→" not in epoch_event.text and "running_total" not in epoch_event.data["rows"][0]


def test_hidden_scores_revealed_at_the_end() -> None:
    s = build(2, epoch=3, cur=A, ra_track=5, bag_front=["ra"], options={"hidden_scores": True})
    s, _ = run(s, (A, "draw"))
    v = E.view(s, B)
    assert all(p["score"] is not None for p in v["players"]) and v["outcome"]
    assert all(r["running_total"] is not None for r in v["history"][-1]["rows"])


def test_events_name_seats() -> None:
    s = E.setup(2, 3, {})
    setup_events = E.events_on_setup(s)
    assert setup_events and "{s%d}" % s.cur in setup_events[0].text
    s2, ev = E.apply(s, s.cur, "draw")
    assert ev[0].text.startswith("{s%d} draws" % s.cur) and ev[0].public
