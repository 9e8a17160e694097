"""``bazaar play``: one person plays in the terminal against AI seats.

The person sees only their own view (as text), the numbered legal actions, and every public event
plus their private ones. Bad input is answered with the engine's reason and changes nothing.
"""
from __future__ import annotations

import random
from typing import Any, Callable, TextIO

import render
from engines import base

from .demo import DEMO_NAMES, describe_outcome

MAX_LISTED = 40  # longer legal lists are not numbered in full
HELP = ("Type an action as listed (e.g. `take b4`) or its number. "
        "Other commands: `help`, `board` (show the board again), `log` (recent moves), `quit`.")


def play_terminal(game: str, n: int, human: int = 0, seed: int | None = None,
                  options: dict[str, Any] | None = None, name: str = "You",
                  read: Callable[[str], str] = input, out: TextIO | None = None) -> int:
    """Run an interactive game; returns 0 when it ends (or the person quits), 2 on bad setup."""
    import sys

    out = out or sys.stdout

    def say(s: str = "") -> None:
        print(s, file=out, flush=True)

    try:
        engine = base.get(game)
        engine.check_players(n)
        options = engine.resolve_options(options)
    except base.RuleError as err:
        say(err.reason)
        return 2
    if not 0 <= human < n:
        say(f"--seat must be between 1 and {n}.")
        return 2
    seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
    names = [f"AI {DEMO_NAMES[s]}" for s in range(n)]
    names[human] = name
    drawer = render.get(game)
    state = engine.setup(seed, n, options)
    history: list[str] = []
    say(f"{engine.title}: {n} players, seed {seed}. You are seat {human + 1}. {HELP}")
    for ev in engine.events_on_setup(state):
        if ev.visible_to(human):
            say("· " + base.format_text(ev.text, names))
    shown = False
    while engine.outcome(state) is None:
        awaited = engine.to_move(state)
        seat = human if human in awaited else base.first_awaited(engine, state)  # people answer first
        if seat != human:
            legal = engine.legal_actions(state, seat)
            action = engine.choose(engine.view(state, seat), legal)
            result = base.play(engine, state, seat, action)
            state = result.state
            _show_events(result.events, human, names, history, say)
            shown = False
            continue
        if not shown:
            say()
            say(drawer.text(engine.view(state, human), names))
            shown = True
        legal = engine.legal_actions(state, human)
        if len(legal) <= MAX_LISTED:
            say("Your actions: " + "  ".join(f"[{i}] {a}" for i, a in enumerate(legal, 1)))
        else:  # a huge list (Kathai's offers): the first ones, then type any move
            say(f"You have {len(legal)} moves; type one, e.g. " + ", ".join(legal[:8]) + ". "
                + "  ".join(f"[{i}] {a}" for i, a in enumerate(legal[:MAX_LISTED], 1)))
        try:
            line = read("> ").strip()
        except EOFError:
            say("\nBye.")
            return 0
        cmd = line.lower()
        if cmd in ("quit", "exit", "q"):
            say("Bye.")
            return 0
        if cmd in ("help", "?", ""):
            say(HELP)
            continue
        if cmd == "board":
            shown = False
            continue
        if cmd == "log":
            say("\n".join(history[-15:]) or "No moves yet.")
            continue
        if cmd.isdigit() and 1 <= int(cmd) <= min(len(legal), MAX_LISTED):
            line = legal[int(cmd) - 1]
        try:
            result = base.play(engine, state, human, line)
        except base.RuleError as err:
            say("✗ " + base.format_text(err.reason, names))
            continue
        state = result.state
        _show_events(result.events, human, names, history, say)
        shown = False
    outcome = engine.outcome(state)
    assert outcome is not None
    say()
    say(drawer.text(engine.view(state, human), names))
    say("Game over.")
    say(describe_outcome(engine, outcome, names))
    return 0


def _show_events(events: list[base.Event], viewer: int, names: list[str], history: list[str],
                 say: Callable[[str], None]) -> None:
    for ev in events:
        if ev.visible_to(viewer):
            line = base.format_text(ev.text, names)
            history.append(line)
            say("· " + line)
