"""The tags the Phraya board puts on what the last moves changed."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

import pytest
from PIL import Image, ImageChops

from engines import base
from engines.phraya.view.types import PhrayaView
from render import phraya
from render.common import MARK
from render.phraya.marks import labels

# (players, seed): whole games (no round limit)
GAMES = [(2, 1), (3, 2), (4, 3)]


PRICE_KINDS = {"price"}


def _moves(n: int, seed: int, burst: int) -> Iterator[tuple[PhrayaView, PhrayaView, list[base.Event]]]:
    """(previous public view, public view, public events between) for a seeded whole game,
    a board every ``burst`` moves."""
    engine = base.get("phraya")
    rng = random.Random(seed)
    state = engine.setup(seed, n, {})
    prev = engine.view(state, None)
    events: list[base.Event] = []
    k = 0
    while engine.outcome(state) is None and k < 2000:
        seat = engine.to_move(state)[0]
        legal = engine.legal_actions(state, seat)
        action = engine.choose(engine.view(state, seat), legal) if rng.random() < 0.6 else rng.choice(legal)
        state, evs = engine.apply(state, seat, action)
        events += list(base.events_for(evs, None))
        k += 1
        if k % burst == 0 or engine.outcome(state) is not None:
            view = engine.view(state, None)
            yield prev, view, events
            prev, events = view, []
    assert engine.outcome(state) is not None, "the game did not end"


def expected(prev: PhrayaView, view: PhrayaView, events: Sequence[base.Event]) -> set[tuple[str, str]]:
    """The tags the events call for, where their effect still shows on the new board."""
    out: set[tuple[str, str]] = set()
    boats = list(view["boats"])
    for ev in events:
        d = ev.data
        if ev.kind in ("move", "premove", "boat"):
            sec = str(d.get("to") or d.get("section"))
            if sec in boats and sec != prev["boats"][int(d["seat"])]:
                out.add((sec, "placed" if ev.kind == "boat" else "moved"))
        elif ev.kind == "barge" and d.get("crossing") == view["barge"] != prev["barge"]:
            out.add((view["barge"], "barge moved"))
        elif ev.kind == "stall":
            out.add((d["stall"], "placed"))
        elif ev.kind == "king":
            out.add((d["space"], "taken"))
        elif ev.kind == "temple":
            out.add((f"temple:{d['good']}:{int(d['column']) - 1}", "offered"))
    return out


def _order_ids(view: PhrayaView) -> dict[str, str]:
    return {st["id"]: o["id"] for st in view["board"]["stalls"] if (o := st["order"]) is not None}


def check(prev: PhrayaView, view: PhrayaView, events: Sequence[base.Event]) -> None:
    got = set(labels(prev, view))
    kinds = {ev.kind for ev in events}
    want = expected(prev, view, events)
    plain = {t for t in got if not t[0].startswith(("market:", "price:")) and t[1] != "new order"}
    assert plain == want, f"tags {sorted(plain)} but the log says {sorted(want)}: {[e.text for e in events]}"
    # a new order only where an order was delivered (the restaurant refills from its stack)
    new_orders = {t for t, lab in got if lab == "new order"}
    if new_orders:
        assert "deliver" in kinds or "round" in kinds, (new_orders, [e.text for e in events])
    old, new = _order_ids(prev), _order_ids(view)
    assert new_orders == {s for s, o in new.items() if old.get(s) != o}
    # a new card in the market only after a purchase or a refresh
    cards = {t for t, lab in got if lab == "new card"}
    if cards:
        assert kinds & {"scribe", "refresh", "auto", "round"}, (cards, [e.text for e in events])
    # a price tag only after a price change, and with its direction and size right
    for thing, lab in got:
        if thing.startswith("price:"):
            g = thing.split(":")[1]
            assert kinds & PRICE_KINDS, (thing, [e.text for e in events])
            step = view["prices"][g]["index"] - prev["prices"][g]["index"]
            assert lab == (f"up {step}" if step > 0 else f"down {-step}")
    for ev in events:
        if ev.kind == "price":
            for g in view["prices"]:
                if view["prices"][g]["index"] != prev["prices"][g]["index"]:
                    assert any(t == f"price:{g}" for t, _ in got)


def _exactly(img: Image.Image, colour: tuple[int, int, int]) -> int:
    """How many pixels of ``img`` are exactly ``colour``."""
    diff = ImageChops.difference(img, Image.new("RGB", img.size, colour))
    r, g, b = diff.split()
    return ImageChops.lighter(ImageChops.lighter(r, g), b).histogram()[0]


@pytest.mark.parametrize("n,seed", GAMES, ids=[f"{n}p" for n, _ in GAMES])
@pytest.mark.parametrize("burst", [1, 3])
def test_every_tag_matches_the_move_log(n: int, seed: int, burst: int) -> None:
    seen: set[str] = set()
    for prev, view, events in _moves(n, seed, burst):
        check(prev, view, events)
        seen |= {lab.split()[0] for _, lab in labels(prev, view)}
    assert {"moved", "placed", "barge", "new"} <= seen, seen


def test_no_tags_without_a_previous_board() -> None:
    engine = base.get("phraya")
    view = engine.view(engine.setup(1, 3, {}), None)
    assert labels(None, view) == [] and labels(view, view) == []


def test_the_tags_are_drawn() -> None:
    """A board whose moves tagged something shows the mark colour; the same board without the
    previous view shows none of it."""
    for prev, view, _events in _moves(3, 5, 1):
        tags = labels(prev, view)
        if any(lab == "moved" for _, lab in tags):
            break
    names = ["Asha", "Bilal", "Chen"]
    marked, plain = phraya.board(view, names, previous=prev), phraya.board(view, names)
    assert ImageChops.difference(marked, plain).getbbox() is not None
    assert _exactly(marked, MARK) > _exactly(plain, MARK) + 200  # (the legend shows the colour too)
    del _events
