"""The guided first game: one runner shared by every game's guide (``engines/<game>/guide.py``).

A game's guide is data (:class:`Guide`): a fixed seed, player count and options, the learner's
seat, the script (the whole move log of one game, every seat's moves, found by
``python -m bot.offline.guidefind``), and per kind of action one or two sentences on what the
step is for and what a good choice looks like. This module reads it:

* :func:`scripted` gives an AI seat its scripted move while the game follows the script;
* :func:`advise` tells the learner, before each of their steps, what the step is for and which
  move it suggests: the script's move while the game follows the script, else the search AI's
  (or the heuristic's) move from the learner's own view. A guide, not a rail: once the learner
  plays something else the script is left for good, AI seats play as the normal AI, and the
  explanations go on by the kind of action;
* :func:`why_better` says, when the learner picks another move, why the suggestion is better:
  its kind's sentence and both moves' chances, played out from samples of the learner's view.

What reaches the learner is computed from ``view(state, learner)``, the learner's legal moves
and how far the game is (:class:`Position`: the number of moves played and the learner's own
moves), never from the state itself; and the script's moves for the learner were chosen by the
finder from the learner's view only, so a suggestion never profits from the deal's secrets.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engines import search
from engines.base import Action, Engine, View

TARGET = (15, 40)
"""The learner's steps a guided game takes (about 10 minutes of play)."""

SAMPLES = 64
"""Samples of the learner's view :func:`why_better` plays out per move."""


CLOSE = 0.02
"""Two moves whose worth differs by less than this are called about as good (the samples'
noise is of that size)."""


@dataclass(frozen=True)
class Guide:
    """One game's guided first game, as data."""

    game: str
    players: int
    seat: int
    """The learner's seat."""
    seed: int
    options: Mapping[str, Any]
    script: str
    """The move log, one ``<seat> <action>`` a line (blank lines ignored)."""
    intro: str
    """What the game is about, said once at the start."""
    tips: Mapping[str, str]
    """Action prefix (``bid``, ``buy dhoni``, ``play m#``: see :func:`matches`) -> what that
    step is for and what a good choice looks like."""
    covers: tuple[str, ...]
    """The action prefixes the learner's scripted moves reach (the tests check them)."""
    notes: Mapping[int, str] = field(default_factory=dict)
    """Learner step (1-based, counting every move of the learner) -> a sentence on this step of
    the script in particular, said after the kind's sentences while the game follows the script."""
    defer: Mapping[str, str] = field(default_factory=dict)
    """For the script finder: a prefix the learner avoids while another is not reached yet."""
    start: int = 0
    """The script's first moves played before the learner's first step, every seat's (a prepared
    position: the learner starts from there, and their steps count from there)."""
    start_note: str = ""
    """What happened in those moves, said once at the start."""
    stop: int | None = None
    """The guided game ends after this many of the script's moves (None: at the game's end)."""
    stop_note: str = ""
    """What the scoring seen last was, and how the game would go on, said when it stops."""

    def moves(self) -> list[tuple[int, Action]]:
        """The script as ``(seat, action)`` pairs."""
        out = []
        for line in self.script.strip().splitlines():
            if line.strip():
                seat, action = line.strip().split(" ", 1)
                out.append((int(seat), action))
        return out

    def own_moves(self, count: int | None = None) -> list[Action]:
        """The learner's scripted moves among the first ``count`` moves (all by default)."""
        return [a for s, a in self.moves()[:count] if s == self.seat]

    def prologue(self) -> list[tuple[int, Action]]:
        """The moves of the prepared position (:attr:`start`)."""
        return self.moves()[: self.start]

    def step(self, pos: Position) -> int:
        """The learner's step at ``pos`` (1 for their first after the prepared position)."""
        return len(pos.own) + 1 - len(self.own_moves(self.start))

    def taught(self) -> list[tuple[int, Action]]:
        """The moves the learner plays along: from :attr:`start` to :attr:`stop`."""
        return self.moves()[self.start : self.stop]


def stopped(guide: Guide, log: Sequence[tuple[int, Action]]) -> bool:
    """The guided game is over by the guide's :attr:`~Guide.stop`: the game played the script
    up to it."""
    return guide.stop is not None and len(log) >= guide.stop and on_script(guide, log[: guide.stop])


@dataclass(frozen=True)
class Position:
    """How far the game is, as the learner knows it: moves played, and their own among them."""

    played: int
    own: tuple[Action, ...]

    @classmethod
    def of(cls, log: Sequence[tuple[int, Action]], seat: int) -> Position:
        """The position of ``seat`` after the move log ``log`` (a host keeps the log)."""
        return cls(len(log), tuple(a for s, a in log if s == seat))


@dataclass(frozen=True)
class Advice:
    """What the guide says before one of the learner's steps."""

    action: Action
    """The suggested move."""
    text: str
    """What the step is for and what a good choice looks like."""
    scripted: bool
    """The suggestion is the script's (the game still follows it)."""


def matches(action: Action, prefix: str) -> bool:
    """``action`` is ``prefix`` or starts with it as whole words; a prefix ending in ``#`` stands
    for any number there (``play m#`` matches ``play m18``)."""
    if prefix.endswith("#"):
        head = prefix[:-1]
        number = action[len(head) :].split(" ", 1)[0]
        return action.startswith(head) and number.isdigit()
    return action == prefix or action.startswith(prefix + " ")


def kind(guide: Guide, action: Action) -> str:
    """The longest tip prefix ``action`` matches, else its verb."""
    found = [p for p in guide.tips if matches(action, p)]
    return max(found, key=len) if found else action.split(" ", 1)[0]


def tip(guide: Guide, action: Action) -> str:
    """The guide's sentences for ``action``'s kind (a plain line where it has none)."""
    return guide.tips.get(kind(guide, action), f"This step is a `{kind(guide, action)}`.")


def on_script(guide: Guide, log: Sequence[tuple[int, Action]]) -> bool:
    """The game so far is the script's beginning."""
    script = guide.moves()
    return len(log) <= len(script) and list(log) == script[: len(log)]


def scripted(guide: Guide, log: Sequence[tuple[int, Action]], seat: int) -> Action | None:
    """The script's next move when it is ``seat``'s and the game follows the script, else None
    (the seat then plays as the AI)."""
    script = guide.moves()
    if len(log) >= len(script) or not on_script(guide, log):
        return None
    who, action = script[len(log)]
    return action if who == seat else None


def follows(guide: Guide, pos: Position) -> bool:
    """From the learner's side: the script's learner moves so far are theirs."""
    return guide.own_moves(pos.played) == list(pos.own)


def decision_seed(guide: Guide, pos: Position) -> int:
    """The seed of the guide's search at ``pos`` (the same advice on a resume)."""
    return search.ai_seed(guide.seed, pos.played, guide.seat)


def advise(
    engine: Engine,
    guide: Guide,
    view: View,
    legal: Sequence[Action],
    pos: Position,
    level: str = "normal",
) -> Advice:
    """The explanation and the suggestion for the learner's step, from their ``view``, their
    ``legal`` moves and ``pos`` only."""
    script = guide.moves()
    if follows(guide, pos) and pos.played < len(script):
        who, action = script[pos.played]
        if who == guide.seat and action in legal:
            note = guide.notes.get(len(pos.own) + 1)
            return Advice(action, f"{tip(guide, action)} Here: {note}" if note else tip(guide, action), True)
    found = search.choose(engine, view, list(legal), level, decision_seed(guide, pos))
    return Advice(found.action, tip(guide, found.action), False)


def chances(
    engine: Engine,
    view: View,
    actions: Sequence[Action],
    seed: int,
    samples: int = SAMPLES,
) -> list[float]:
    """Each action's mean reward for the viewer (about its win chance, in [0, 1]): the same
    ``samples`` full states drawn from ``view`` (:meth:`determinize`), the action played, and the
    game played out with the game's playout policy (to the normal search's depth, then the game's
    ``evaluate``, as the search scores its leaves)."""
    seat = view["viewer"]
    assert isinstance(seat, int), "chances are estimated for a seat"
    rng = random.Random(seed)
    depth = search.depth_of(engine, "normal")
    totals = [0.0] * len(actions)
    for _ in range(samples):
        sample = engine.determinize(view, rng)
        roll = rng.randrange(2**31)
        for i, action in enumerate(actions):
            after = engine.step(sample, seat, action)
            totals[i] += search.playout(engine, after, random.Random(roll), depth)[seat]
    return [t / samples for t in totals]


def why_better(
    engine: Engine,
    guide: Guide,
    view: View,
    advice: Advice,
    played: Action,
    seed: int,
) -> str:
    """One or two sentences on why ``advice``'s move is better than ``played``, from ``view``."""
    ours, theirs = chances(engine, view, [advice.action, played], seed)
    head = f"The guide suggests `{advice.action}` rather than `{played}`."
    if kind(guide, advice.action) != kind(guide, played):  # a step of another kind: what it is for
        head = f"{head[:-1]}: {tip(guide, advice.action)}"
    if ours >= theirs + CLOSE:
        return (
            f"{head} Played out {SAMPLES} times from what you can see, `{advice.action}` is worth "
            f"{ours:.0%} against {theirs:.0%} for `{played}` (the AI's measure: mostly the chance to win)."
        )
    if theirs >= ours + CLOSE:  # the script teaches a kind of step; the learner's move measures better
        return (
            f"{head} Played out {SAMPLES} times from what you can see, `{played}` does better here "
            f"({theirs:.0%} against {ours:.0%}): the guide's move is there to show this kind of step; "
            f"go on with yours if you like."
        )
    return (
        f"{head} Played out {SAMPLES} times from what you can see, `{played}` does about as well "
        f"here ({theirs:.0%} against {ours:.0%}): go on with either."
    )


def guide_for(game: str) -> Guide:
    """The guide of ``game`` (its ``engines/<game>/guide.py``); KeyError when it has none."""
    try:
        module = importlib.import_module(f"engines.{game}.guide")
    except ModuleNotFoundError:
        raise KeyError(game) from None
    found: Guide = module.GUIDE
    return found
