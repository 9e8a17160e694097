"""A review's first pass (:func:`engines.coaching.suspicion`): every decision is ranked by a short
search from the seat's view, and only the most suspicious go on to the hard AI's search and
playouts, so that a long game's review takes seconds."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bot.offline.demo import ai_game
from engines import base, coaching, search

GAME = "ra"


def _decisions() -> tuple[base.Engine, list[coaching.Decision]]:
    engine = base.get(GAME)
    n = engine.min_players
    _, moves = ai_game(engine, 1, n, {})
    return engine, coaching.decisions(engine, 1, n, {}, moves, 0)


def test_a_blunder_is_among_the_suspects(monkeypatch: pytest.MonkeyPatch) -> None:
    """A decision whose move played is the worst by a long search gets a high suspicion and is
    one of the few searched in full; the others are left out."""
    engine, found = _decisions()
    assert len(found) > 20
    # the decision (of twenty) whose worst move gives away the most, by a long search
    ranked = [
        (d, search.ranked(engine, d.view, d.legal, 800, float("inf"), 7))
        for d in found[10:30]
        if len(d.legal) >= 3
    ]
    pick, options = max(ranked, key=lambda r: r[1][0].worth - min(o.worth for o in r[1]))
    worst = min(options, key=lambda o: o.worth)
    assert options[0].worth - worst.worth > 0.1, "the position has no clear blunder to plant"
    planted = [dataclasses.replace(d, played=worst.action) if d is pick else d for d in found]
    scan = engine.search_iterations["hard"] // coaching.SCAN_SHARE
    assert coaching.suspicion(engine, dataclasses.replace(pick, played=worst.action), 3, scan) > 0.05
    calls: list[int] = []
    real = search.search

    def spy(engine: base.Engine, view: Any, legal: Any, *args: Any, **kwargs: Any) -> search.Result:
        calls.append(next(i for i, d in enumerate(planted) if d.view is view))
        return real(engine, view, legal, *args, **kwargs)

    monkeypatch.setattr(search, "search", spy)
    moments = coaching.review(engine, planted, 1, iterations=200, samples=16, suspects=3)
    assert len(calls) == 3 and found.index(pick) in calls
    assert {m.version for m in moments} <= {planted[i].version for i in calls}


def test_the_search_agreeing_is_no_suspicion() -> None:
    """The move the short search ranks first, played, is suspected of nothing."""
    engine, found = _decisions()
    d = next(d for d in found if len(d.legal) >= 3)
    options = search.ranked(engine, d.view, d.legal, 50, float("inf"), 11)
    assert coaching.suspicion(engine, dataclasses.replace(d, played=options[0].action), 11, 50) == 0.0
    assert coaching.suspicion(engine, dataclasses.replace(d, played=options[-1].action), 11, 50) >= 0.0


def test_few_decisions_are_all_searched(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no more decisions than suspects there is no first pass: each is searched."""
    engine, found = _decisions()
    calls: list[object] = []
    real = search.search

    def spy(*args: Any, **kwargs: Any) -> search.Result:
        calls.append(args[1])
        return real(*args, **kwargs)

    monkeypatch.setattr(search, "search", spy)
    coaching.review(engine, found[:5], 1, iterations=40, samples=4, suspects=8)
    assert len(calls) == 5
