"""The search AI shared by every game: single-observer information-set Monte Carlo tree search.

SO-ISMCTS (Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG
2012). The searching seat knows only its own view. Each iteration samples one full state
consistent with that view (``engine.determinize(view, rng)``: other seats' hands, the order of the
deck or bag), walks one tree shared by all the samples (its nodes are action histories, so what
is learnt in one sample is reused in the others), chooses among the actions available *in this
sample* by UCB1 with availability counts (a child's exploration term counts the iterations it was
available, not its parent's visits), expands one action, plays out to the end with the game's
playout policy (or to ``playout_depth`` actions and then ``evaluate``), and backs the result up:
each node holds the reward of the seat whose action led to it, so every seat maximises its own
reward. Chance (a tile drawn, a card dealt) needs no node of its own: each sample fixes it.

Why this rather than perfect-information Monte Carlo (one search per sample, votes summed): a
single tree spends the budget once instead of splitting it, and it never plays a move that is
only good if it could see the hidden cards (strategy fusion still affects the other seats'
choices in the tree, who are assumed to see the sample; the usual price of SO-ISMCTS, and small in
these games, where most hidden information is a deck's order that nobody knows).

Rewards are in [0, 1]: mostly the win (shared between tied winners), partly the rank, so the search
prefers second place to last when it cannot win.

Deterministic: the only randomness is ``random.Random(seed)``, and a budget is a number of
iterations, so the same view, legal list, level and seed give the same move on any machine. The
time cap is a guard for a slow or loaded machine; when it stops a search early the move may differ
from a replay's, and :class:`Result` says so (``capped``). Each game supplies only its own parts
(see :class:`engines.base.Engine`: ``determinize``, ``search_actions``, ``playout_action``,
``evaluate``, ``playout_depth``, ``search_iterations``; and, optionally, ``search_rewards``:
see :func:`outcome_rewards`).
"""

from __future__ import annotations

import hashlib
import math
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engines.base import Action, Engine, Outcome, View

LEVELS = ("easy", "normal", "hard")
"""easy: the game's heuristic (``Engine.choose``); normal and hard: this search."""

DEFAULT_LEVEL = "normal"

TIME_CAPS = {"normal": 1.0, "hard": 3.0}
"""Seconds a search may take at most on one core, whatever its iteration budget."""

EXPLORATION = 0.7
"""UCB1's exploration constant for rewards in [0, 1]."""

WIN_WEIGHT = 0.75
"""How much of the reward is the win (the rest is the rank)."""


@dataclass(frozen=True)
class Result:
    """The move chosen and how it was found."""

    action: Action
    level: str
    iterations: int = 0
    seconds: float = 0.0
    capped: bool = False
    """The time cap stopped the search before its iteration budget (the move may then differ in
    a replay)."""


class _Node:
    __slots__ = ("children", "visits", "total", "avail", "seat")

    def __init__(self, seat: int) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 1
        self.seat = seat  # whose action led here; ``total`` is from this seat's point of view


def rewards(outcome: Outcome) -> list[float]:
    """Each seat's reward in [0, 1] for a finished game."""
    n = len(outcome.ranks)
    share = 1.0 / max(1, len(outcome.winners))
    out = []
    for seat, rank in enumerate(outcome.ranks):
        win = share if seat in outcome.winners else 0.0
        place = (n - rank) / (n - 1) if n > 1 else 1.0
        out.append(WIN_WEIGHT * win + (1.0 - WIN_WEIGHT) * place)
    return out


def outcome_rewards(engine: Engine, outcome: Outcome) -> list[float]:
    """Each seat's reward in [0, 1] for a finished game: the engine's own ``search_rewards`` if
    it defines one (a game may value more than the win and the rank: Pralaya pays for escaping),
    else :func:`rewards`."""
    own = getattr(engine, "search_rewards", None)
    return rewards(outcome) if own is None else list(own(outcome))


def ai_seed(game_seed: int, version: int, seat: int) -> int:
    """The seed of one AI decision, derived from the seed stored with the game, the game's version
    and the seat, so that a replay of the game reproduces the AI's choices."""
    digest = hashlib.blake2b(f"{game_seed}:{version}:{seat}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def depth_of(engine: Engine, level: str) -> int | None:
    """The playout depth ``engine`` gives searches at ``level`` (None: to the end)."""
    depth = engine.playout_depth
    if isinstance(depth, Mapping):
        return depth.get(level)
    return depth


def playout(engine: Engine, state: Any, rng: random.Random, depth: int | None = None) -> list[float]:
    """Play ``state`` out with the game's playout policy, to the end or for ``depth`` actions and
    then ``engine.evaluate``; each seat's reward."""
    steps = 0
    outcome = engine.outcome(state)
    while outcome is None:
        if depth is not None and steps >= depth:
            return list(engine.evaluate(state))
        seat = engine.to_move(state)[0]
        state = engine.step(state, seat, engine.playout_action(state, seat, rng))
        steps += 1
        outcome = engine.outcome(state)
    return outcome_rewards(engine, outcome)


def _iterate(
    engine: Engine,
    root: _Node,
    state: Any,
    rng: random.Random,
    searcher: int | None = None,
    depth: int | None = None,
) -> None:
    node = root
    path = [root]
    while True:
        outcome = engine.outcome(state)
        if outcome is not None:
            result = outcome_rewards(engine, outcome)
            break
        awaited = engine.to_move(state)
        # the root's moves are the searching seat's, also when other seats are awaited with it
        # (a Kathai offer's addressees): the lowest awaited seat may not be the one asking
        seat = searcher if searcher is not None and node is root and searcher in awaited else awaited[0]
        actions = engine.search_actions(state, seat)
        children = node.children
        untried = []
        for a in actions:
            child = children.get(a)
            if child is None:
                untried.append(a)
            else:
                child.avail += 1
        if untried:
            action = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
            child = _Node(seat)
            children[action] = child
            path.append(child)
            result = playout(engine, engine.step(state, seat, action), rng, depth)
            break
        best: Action | None = None
        best_score = -1.0
        for a in actions:
            ch = children[a]
            score = ch.total / ch.visits + EXPLORATION * math.sqrt(math.log(ch.avail) / ch.visits)
            if score > best_score:
                best, best_score = a, score
        assert best is not None, "search_actions returned no action for an awaited seat"
        node = children[best]
        path.append(node)
        state = engine.step(state, seat, best)
    for n in path[1:]:
        n.visits += 1
        n.total += result[n.seat]
    root.visits += 1


@dataclass(frozen=True)
class Option:
    """One of the searching seat's moves as the search's root saw it."""

    action: Action
    visits: int
    worth: float
    """The mean reward the searching seat got after it, in [0, 1] (mostly its win chance, partly
    its rank: see :data:`WIN_WEIGHT`)."""


def _grow(
    engine: Engine,
    view: View,
    legal: Sequence[Action],
    iterations: int,
    seconds: float,
    seed: int,
    level: str,
) -> tuple[_Node, int, bool]:
    """The root of a search from ``view`` after at most ``iterations`` samples or ``seconds``;
    the samples done and whether the time cap stopped it."""
    start = time.perf_counter()
    rng = random.Random(seed)
    viewer = view.get("viewer")
    root = _Node(-1)
    depth = depth_of(engine, level)
    deadline = start + seconds
    done = 0
    capped = False
    while done < iterations:
        if done & 7 == 0 and done and time.perf_counter() > deadline:
            capped = True
            break
        _iterate(engine, root, engine.determinize(view, rng), rng, viewer, depth)
        done += 1
    return root, done, capped


def ranked(
    engine: Engine,
    view: View,
    legal: Sequence[Action],
    iterations: int,
    seconds: float,
    seed: int,
    *,
    level: str = "hard",
) -> list[Option]:
    """The moves of ``legal`` the search tried from ``view``, best first (most visited, then the
    higher worth), each with what the search expects of it. Empty when there is no choice."""
    if len(legal) < 2:
        return []
    root, _, _ = _grow(engine, view, legal, iterations, seconds, seed, level)
    out = []
    for i, a in enumerate(legal):
        child = root.children.get(a)
        if child is not None and child.visits:
            out.append(
                (
                    child.visits,
                    child.total / child.visits,
                    -i,
                    Option(a, child.visits, child.total / child.visits),
                )
            )
    return [o[3] for o in sorted(out, key=lambda o: o[:3], reverse=True)]


def search(
    engine: Engine,
    view: View,
    legal: Sequence[Action],
    iterations: int,
    seconds: float,
    seed: int,
    *,
    level: str = "search",
) -> Result:
    """The move ISMCTS picks from ``legal`` for the seat whose ``view`` this is, after at most
    ``iterations`` samples or ``seconds``, whichever ends first."""
    start = time.perf_counter()
    if len(legal) == 1:
        return Result(legal[0], level)
    viewer = view.get("viewer")
    if isinstance(viewer, int):
        first = engine.determinize(view, random.Random(seed))
        considered = set(engine.search_actions(first, viewer)) & set(legal)
        if len(considered) == 1:  # the game's candidates leave one move (a forced last bid): no search
            return Result(considered.pop(), level, 0, time.perf_counter() - start)
    root, done, capped = _grow(engine, view, legal, iterations, seconds, seed, level)
    scored = [
        (root.children[a].visits, root.children[a].total, -i, a)
        for i, a in enumerate(legal)
        if a in root.children
    ]
    # no scored move: every sample's actions missed the real list (an engine bug), never an illegal move
    action = max(scored)[3] if scored else engine.choose(view, legal)
    return Result(action, level, done, time.perf_counter() - start, capped)


def choose(
    engine: Engine, view: View, legal: Sequence[Action], level: str, seed: int, *, cap: bool = True
) -> Result:
    """The AI's move at ``level`` (one of :data:`LEVELS`) from its own ``view`` and ``legal``.
    Without ``cap`` the search plays its iterations in full however long they take (the arena
    does, so that its results do not depend on how busy the machine is)."""
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}; the levels are {', '.join(LEVELS)}")
    if level == "easy":
        start = time.perf_counter()
        return Result(engine.choose(view, legal), level, 0, time.perf_counter() - start)
    seconds = TIME_CAPS[level] if cap else math.inf
    return search(engine, view, legal, engine.search_iterations[level], seconds, seed, level=level)
