"""Hints and reviews: the hard AI's search turned to teaching, from one seat's view only.

* :func:`hint` is the move the hard AI would play from a seat's ``view`` and its legal moves,
  with what it expects of it and of the next best move (:func:`engines.search.ranked`), under a
  time cap (:data:`HINT_SECONDS`) so that a hint answers within a second;
* :func:`decisions` replays a finished game's log and keeps, for one seat, each of its moves as
  that seat saw it (its view, its legal moves, what it played): what a review is computed from;
* :func:`review` ranks every decision by a fast estimate (a short search from the seat's view,
  :func:`suspicion`), scores the :data:`SUSPECTS` most suspicious by the hard AI (its suggestion
  from the seat's view, and both moves played out from the same samples of that view:
  :func:`engines.guide.chances`) and keeps the :data:`MOMENTS` where the move played lost the
  most.

Neither :func:`hint` nor :func:`review` is given a state: only views and legal lists (the tests
scramble what a view hides and check that the answer stays the same). "Worth" is the search's
reward: mostly the chance to win, partly the place (:data:`engines.search.WIN_WEIGHT`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engines import guide, search
from engines.base import Action, Engine, View, replay_steps
from engines.takeback import in_play

HINT_SECONDS = 0.8
"""The most a hint's search may take (its iteration budget is the hard level's)."""

REVIEW_SAMPLES = 32
"""Samples of the seat's view each decision of a review plays both moves out from."""

MOMENTS = 3
"""The moments a review keeps."""

SUSPECTS = 8
"""The decisions a review gives the hard AI's search and playouts: the ones the first pass found
most costly (a long game has a hundred decisions of a seat, and the hard search takes up to a
second each)."""

SCAN_SHARE = 16
"""The first pass searches each decision with the hard level's iterations divided by this."""


@dataclass(frozen=True)
class Hint:
    """What the hard AI would play, and why."""

    action: Action
    worth: float | None
    """What the search expects of ``action`` (None: the only legal move)."""
    second: Action | None = None
    second_worth: float | None = None
    tip: str = ""
    """What this kind of step is for (the game's guide), if the game has one."""

    def line(self) -> str:
        """One line: the move, what it gains, the chance it expects and the next best move."""
        if self.worth is None:
            return f"`{self.action}` is your only move."
        head = f"`{self.action}`"
        if self.tip:
            head += f": {_first_sentence(self.tip)}"
        chance = f"The hard AI expects {self.worth:.0%} with it"
        if self.second is None or self.second_worth is None:
            return f"{head} {chance} (no other move is worth a look)."
        gain = self.worth - self.second_worth
        return (
            f"{head} {chance}; the next best, `{self.second}`, {self.second_worth:.0%} "
            f"({gain * 100:+.0f} points for `{self.action}`)."
        )


def _first_sentence(text: str) -> str:
    cut = text.find(". ")
    return text if cut < 0 else text[: cut + 1]


def _tip(engine: Engine, action: Action) -> str:
    try:
        found = guide.guide_for(engine.name)
    except KeyError:
        return ""
    return guide.tip(found, action) if guide.kind(found, action) in found.tips else ""


def hint(
    engine: Engine, view: View, legal: Sequence[Action], seed: int, *, seconds: float = HINT_SECONDS
) -> Hint:
    """The hard AI's move for the seat whose ``view`` this is, from ``legal``, within ``seconds``
    (``math.inf``: the full hard budget, the same answer on any machine)."""
    if not legal:
        raise ValueError("a hint needs a legal move")
    if len(legal) == 1:
        return Hint(legal[0], None)
    options = search.ranked(engine, view, legal, engine.search_iterations["hard"], seconds, seed)
    if not options:  # no sample reached the legal list (an engine bug): the easy AI's move
        return Hint(engine.choose(view, list(legal)), None)
    best = options[0]
    second = options[1] if len(options) > 1 else None
    return Hint(
        best.action,
        best.worth,
        second.action if second else None,
        second.worth if second else None,
        _tip(engine, best.action),
    )


@dataclass(frozen=True)
class Decision:
    """One move of a seat, as the seat saw it when it played."""

    version: int
    """The game's version before the move (the move made ``version + 1``)."""
    view: Mapping[str, Any]
    legal: tuple[Action, ...]
    played: Action


def decisions(
    engine: Engine,
    seed: int,
    n_players: int,
    options: Mapping[str, Any] | None,
    moves: Sequence[tuple[int, Action]],
    seat: int,
) -> list[Decision]:
    """``seat``'s moves in the game of ``moves`` where it had a choice, each with the seat's own
    view and legal moves at that point (the only part of the state passed on). Only the moves
    still in play count: neither an undo entry nor a move it took back
    (:func:`engines.takeback.in_play`) is a decision of the game."""
    out = []
    kept = {version for version, _, _ in in_play(moves)}  # versions from 1: the move made it
    steps = replay_steps(engine, seed, n_players, options, moves)
    state, _ = next(steps)
    for version, (who, action) in enumerate(moves):
        if who == seat and version + 1 in kept:
            legal = engine.legal_actions(state, seat)
            if len(legal) > 1:
                out.append(Decision(version, engine.view(state, seat), tuple(legal), action))
        state, _ = next(steps)
    return out


@dataclass(frozen=True)
class Moment:
    """A move the review points out: what was played, what the AI suggests, and their worths."""

    version: int
    view: Mapping[str, Any]
    played: Action
    suggested: Action
    played_worth: float
    suggested_worth: float

    @property
    def loss(self) -> float:
        """How much worth the move played gave away (in [0, 1])."""
        return self.suggested_worth - self.played_worth

    def line(self) -> str:
        """One line on this moment."""
        return (
            f"Move {self.version + 1}: you played `{self.played}` ({self.played_worth:.0%}); "
            f"the hard AI suggests `{self.suggested}` ({self.suggested_worth:.0%}), "
            f"{self.loss * 100:.0f} points more."
        )


def suspicion(engine: Engine, d: Decision, seed: int, iterations: int) -> float:
    """A fast estimate of the worth ``d``'s move gave away: a short search (``iterations``) from
    the seat's view; the worth of the move it ranks first less the move played's (a move played
    that the short search never tried counts as its worst). 0 when the search agrees."""
    options = search.ranked(engine, d.view, d.legal, iterations, math.inf, seed)
    if not options or options[0].action == d.played:
        return 0.0
    played = [o.worth for o in options if o.action == d.played]
    return options[0].worth - (played[0] if played else min(o.worth for o in options))


def _decision_seed(seed: int, d: Decision) -> int:
    return search.ai_seed(seed, d.version, int(d.view.get("viewer") or 0))


def review(
    engine: Engine,
    found: Sequence[Decision],
    seed: int,
    *,
    iterations: int | None = None,
    seconds: float = math.inf,
    samples: int = REVIEW_SAMPLES,
    suspects: int = SUSPECTS,
) -> list[Moment]:
    """The :data:`MOMENTS` decisions of ``found`` where the move played lost the most worth by
    the hard AI's estimate (those that lost any), worst first. When there are more than
    ``suspects`` decisions, a first pass ranks them all by :func:`suspicion` (a sixteenth of the
    budget each) and only the ``suspects`` worst go on. Each of those is searched from its view
    (``iterations``, by default the hard level's, and ``seconds`` at most per decision), and the
    suggestion and the move played are played out from the same ``samples`` of that view."""
    budget = iterations or engine.search_iterations["hard"]
    chosen = list(found)
    if len(chosen) > suspects:
        scan = max(1, budget // SCAN_SHARE)
        scores = {d.version: suspicion(engine, d, _decision_seed(seed, d), scan) for d in chosen}
        chosen.sort(key=lambda d: (-scores[d.version], d.version))
        chosen = sorted(chosen[:suspects], key=lambda d: d.version)
    out = []
    for d in chosen:
        decision_seed = _decision_seed(seed, d)
        suggested = search.search(
            engine, d.view, d.legal, budget, seconds, decision_seed, level="hard"
        ).action
        if suggested == d.played:
            continue
        ours, theirs = guide.chances(engine, d.view, [suggested, d.played], decision_seed, samples)
        if ours > theirs:
            out.append(Moment(d.version, d.view, d.played, suggested, theirs, ours))
    out.sort(key=lambda m: (-m.loss, m.version))
    return out[:MOMENTS]
