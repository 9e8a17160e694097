"""Golden playthroughs: a whole seeded game written out step by step as text.

For each step: who acts, the public view as the terminal shows it (``render.<game>.text`` of
``view(state, None)``: whole at the start, then the lines each step changed), each awaited
seat's legal list (or its size and first entries when it is long), the action taken and the
public events it produced. The actions are the easy AI's choices mixed with random ones drawn
with a ``random.Random(seed)`` (:data:`RANDOM_SHARE`), so a playthrough is a pure function of the
rules: a change of rules, of the legal lists or of the public view shows as a diff of these
files.

``python -m bot.offline.playthrough --write DIR`` (``make playthroughs``) writes every golden
file; ``tests/test_playthroughs.py`` checks them.
"""

from __future__ import annotations

import argparse
import difflib
import random
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

import render
from engines import base

GOLDEN: tuple[tuple[str, int, int], ...] = (
    ("kathai", 1, 3),
    ("kathai", 2, 5),
    ("phraya", 1, 2),
    ("phraya", 2, 4),
    ("pralaya", 1, 3),
    ("pralaya", 2, 5),
    ("ra", 1, 3),
    ("ra", 2, 5),
)
"""(game, seed, players) of each golden playthrough."""

MAX_STEPS = 3000
"""A bound no seeded game here reaches; a game that did would be cut with a last line saying so."""

RANDOM_SHARE = 0.25
"""The share of actions drawn at random from the legal list; the others are the easy AI's choice
from the acting seat's own view (:meth:`Engine.choose`), so that games look like games and end
in a few hundred steps rather than thousands of random trade offers."""

LIST_IN_FULL = 30
"""Legal lists up to this length are written out; longer ones as their size and first entries."""


def filename(game: str, seed: int, players: int) -> str:
    return f"{game}-seed{seed}-{players}p.txt"


def _legal_line(seat: int, legal: Sequence[str]) -> str:
    if len(legal) <= LIST_IN_FULL:
        return f"legal s{seat} ({len(legal)}): " + " | ".join(legal)
    head = " | ".join(legal[:10])
    return f"legal s{seat} ({len(legal)}): {head} | … and {len(legal) - 10} more"


def _view_lines(before: list[str], now: list[str]) -> Iterator[str]:
    """The public view's text: whole at the first step, then the lines that changed ("- " the
    line that went, "+ " the line that came), which is the whole view again when read in order."""
    if not before:
        yield from (f"  {line}" for line in now)
        return
    for line in difflib.unified_diff(before, now, n=0, lineterm=""):
        if line.startswith(("---", "+++", "@@")):
            continue
        yield f"{line[0]} {line[1:]}"


def lines(game: str, seed: int, players: int) -> Iterator[str]:
    """The playthrough of ``game`` with ``seed`` and ``players``, line by line."""
    engine = base.get(game)
    drawer = render.get(game)
    rng = random.Random(seed)
    state = engine.setup(seed, players)
    shown: list[str] = []
    yield (
        f"# {engine.title}, seed {seed}, {players} players, default options; "
        "a quarter of the actions at random, the rest the easy AI's"
    )
    for step in range(MAX_STEPS):
        awaited = engine.to_move(state)
        view = engine.view(state, None)
        yield f"== step {step}: awaiting {', '.join(f's{s}' for s in awaited) or 'nobody'}"
        now = drawer.text(view).rstrip().split("\n")
        yield from _view_lines(shown, now)
        shown = now
        if not awaited:
            outcome = engine.outcome(state)
            ranks, scores = (list(outcome.ranks), list(outcome.scores)) if outcome else (None, None)
            yield f"== end: ranks {ranks}, scores {scores}"
            return
        for seat in awaited:
            yield _legal_line(seat, engine.legal_actions(state, seat))
        seat = min(awaited)
        legal = engine.legal_actions(state, seat)
        action = legal[rng.randrange(len(legal))] if rng.random() < RANDOM_SHARE else None
        if action is None:
            action = engine.choose(engine.view(state, seat), legal)
        state, events = engine.apply(state, seat, action)
        yield f"action s{seat}: {action}"
        for e in base.events_for(events, None):
            yield f"  event: {e.text}"
    yield f"== cut after {MAX_STEPS} steps"


def text(game: str, seed: int, players: int) -> str:
    return "\n".join(lines(game, seed, players)) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.offline.playthrough", description=__doc__)
    parser.add_argument("--write", metavar="DIR", help="write every golden playthrough into DIR")
    args = parser.parse_args(argv)
    if not args.write:
        parser.print_help()
        return 2
    out = Path(args.write)
    out.mkdir(parents=True, exist_ok=True)
    for game, seed, players in GOLDEN:
        path = out / filename(game, seed, players)
        path.write_text(text(game, seed, players), encoding="utf-8")
        print(f"wrote {path} ({path.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
