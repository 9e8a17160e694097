"""Ra's change labels proved against the move log: seeded whole games at every player count,
a board posted after every batch of one to three moves, and each board's labels
(``render.ra.labels``: "drawn", "just won", "discarded", "used a God", "bid N", "passed",
"score") checked against the public events of the moves since the previous board."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from PIL import Image

from engines import base
from engines.base import Event
from engines.ra.rules import RaEngine
from engines.ra.view import RaView
from render import ra
from render.common import MARK
from render.ra.marks import SEAT_TAGS

SEEDS = (1, 2, 3)


CLEARS = ("win", "unsold", "epoch_end")  # events that empty the auction track


STARTS = ("auction", "ra")  # events that open an auction (a Ra tile drawn, Ra invoked)


def _batches(seed: int, n: int) -> Iterator[tuple[RaView, RaView, list[Event]]]:
    """(previous public view, public view, public events between them) of a seeded game played
    by random legal moves, a board every one to three moves."""
    engine = base.get("ra")
    assert isinstance(engine, RaEngine)
    rng = random.Random(seed)
    state = engine.setup(seed, n, {})
    before = engine.view(state, None)
    while engine.outcome(state) is None:
        events: list[Event] = []
        for _ in range(rng.randint(1, 3)):
            if engine.outcome(state) is not None:
                break
            seat = engine.to_move(state)[0]
            state, evs = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
            events += list(base.events_for(evs, None))
        after = engine.view(state, None)
        yield before, after, events
        before = after


def _check(before: RaView, after: RaView, events: list[Event]) -> set[str]:
    """Assert every label of the board ``after`` against ``events``; the kinds of labels seen."""
    got = ra.labels(before, after)
    seen = {label.split()[0] for _, label in got}
    kinds = [e.kind for e in events]
    by_seat: dict[int, set[str]] = {}
    for thing, label in got:
        if thing.startswith("seat:"):
            by_seat.setdefault(int(thing.split(":")[1]), set()).add(label)
    if before["epoch"] != after["epoch"]:  # a new epoch clears the board: scores and new draws
        assert all(label in ("score", "drawn") for _, label in got), got
        drawn = [thing.split(":")[2] for thing, label in got if thing.startswith("track:")]
        start = max(i for i, k in enumerate(kinds) if k == "epoch_end")
        assert drawn == [e.data["tile"] for e in events[start + 1 :] if e.kind == "draw"], (drawn, kinds)
        return seen
    # tiles drawn onto the auction track: exactly the draws after the track was last emptied
    drawn = [thing.split(":")[2] for thing, label in got if thing.startswith("track:")]
    last_clear = max((i for i, k in enumerate(kinds) if k in CLEARS), default=-1)
    draws = [e.data["tile"] for e in events[last_clear + 1 :] if e.kind == "draw"]
    if last_clear < 0:
        assert drawn == draws, (drawn, draws, kinds)
    else:
        assert set(drawn) <= set(draws), (drawn, draws, kinds)
    assert all(label == "drawn" for thing, label in got if thing.startswith(("track:", "ra_track:")))
    ra_drawn = any(thing.startswith("ra_track:") for thing, _ in got)
    assert ra_drawn == ("ra" in kinds), (got, kinds)
    for s in range(int(after["n_players"])):
        labels = by_seat.get(s, set())
        mine = [e for e in events if e.data.get("seat") == s]
        won = any(e.kind == "win" for e in mine)
        discarded = any(e.kind == "discard" and e.data.get("count", 1) for e in mine)
        god = any(e.kind == "god" for e in mine)
        tags = labels & set(SEAT_TAGS)
        want = "just won" if won else "discarded" if discarded else "used a God" if god else None
        assert tags == ({want} if want else set()), (s, labels, [e.kind for e in mine])
        # bids and passes of the auction still running
        start = max((i for i, e in enumerate(events) if e.kind in STARTS), default=-1)
        running = after.get("auction") is not None
        acts = {
            f"bid {e.data['sun']}" if e.kind == "bid" else "passed"
            for e in events[start + 1 :]
            if e.kind in ("bid", "pass") and e.data.get("seat") == s
        }
        shown = {x for x in labels if x == "passed" or x.startswith("bid ")}
        if running:
            assert shown == acts, (s, shown, acts)
        else:
            assert not shown, (s, shown)
        if "score" in labels:
            assert "epoch_score" in kinds or "game_over" in kinds, (s, kinds)
    return seen


def _marks(img: Image.Image) -> int:
    """How many pixels of ``img`` are exactly the change-mark colour."""
    colours = img.getcolors(1 << 24)
    assert colours is not None  # None only past the limit of 1 << 24 colours
    return sum(k for k, c in colours if c == MARK)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_labels_match_the_move_log(n: int) -> None:
    seen: set[str] = set()
    for seed in SEEDS:
        for before, after, events in _batches(seed, n):
            seen |= _check(before, after, events)
    assert {"drawn", "just", "bid", "passed", "score"} <= seen, seen


def test_the_board_draws_the_labels() -> None:
    """A board whose labels are not empty shows the change mark beyond the legend's swatch."""
    checked = 0
    for before, after, _events in _batches(4, 4):
        got = ra.labels(before, after)
        if not got or checked >= 6:
            continue
        marked = _marks(ra.board(after, None, previous=before))
        bare = _marks(ra.board(after, None))
        assert marked > bare + 100, got  # the bare board has the mark only in its legend
        checked += 1
    assert checked == 6
