"""Offline games: ``bazaar demo`` (AI seats, snapshots, interim and final sheets, the animated
recap, a contact sheet, move log) and ``bazaar replay``.

Uses the same engines and renderers as the bot, and nothing of Discord.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import render
from engines import base, search
from render import caption, recap
from render.common import to_png

from . import contact
from .movelog import MoveLog

DEMO_NAMES = ["Asha", "Bilal", "Chen", "Dara", "Emeka"]


@dataclass
class DemoResult:
    game: str
    players: int
    options: dict[str, Any]
    folder: Path
    actions: int
    snapshots: int
    outcome: base.Outcome
    sheets: int = 0  # interim sheets written (e.g. Ra's epoch sheets)
    recap: recap.Recap | None = None  # the animated recap written (None without images)


DEMO_LEVEL = "easy"
"""The demo's AI level by default: the heuristic, so ``make demo`` plays every game in seconds
(``bazaar demo --ai-level normal`` shows the search)."""


def ai_game(
    engine: base.Engine,
    seed: int,
    n: int,
    options: dict[str, Any] | None = None,
    on_step: Callable[[Any, int, str, list[base.Event]], None] | None = None,
    level: str = DEMO_LEVEL,
) -> tuple[Any, list[tuple[int, str]]]:
    """Play a whole game with AI seats at ``level`` (each move from its seat's own view, seeded
    as the bot seeds it); returns the final state and the move log.

    ``on_step(state, seat, action, events)`` is called after every applied action."""
    state = engine.setup(seed, n, options)
    moves: list[tuple[int, str]] = []
    while engine.outcome(state) is None:
        seat = base.first_awaited(engine, state)
        legal = engine.legal_actions(state, seat)
        action = search.choose(
            engine, engine.view(state, seat), legal, level, search.ai_seed(seed, len(moves), seat)
        ).action
        result = base.play(engine, state, seat, action)
        state = result.state
        moves.append((seat, result.action))
        if on_step:
            on_step(state, seat, result.action, result.events)
    return state, moves


def outcome_summary(out: base.Outcome) -> dict[str, Any]:
    return {"ranks": list(out.ranks), "scores": list(out.scores), "winners": list(out.winners)}


def run_demo(
    game: str,
    seed: int,
    n: int,
    options: dict[str, Any],
    out_dir: Path,
    names: list[str] | None = None,
    images: bool = True,
    level: str = DEMO_LEVEL,
) -> DemoResult:
    """Play one AI game and write, into a new folder under ``out_dir``: one board PNG per turn
    (the start, then after each turn: see :func:`render.recap.turn_ended`) as the bot posts it
    (the caption of that turn's moves on top, what changed since the last board marked; the
    game's second picture beside it as ``turn-<n>-2.png`` where it has one), every interim sheet
    the renderer offers on the way (``sheet-<turn>-<caption>.png``, e.g. Ra's epoch sheets, the
    ones the bot posts), the final score sheet, every seat's final hand, ``recap.gif`` (those
    boards animated, as the bot posts it), ``moves.log``, ``index.html``, a contact sheet of
    the folder, and ``phone.html``, every picture at a phone's width; then refreshes
    ``out_dir/index.html`` (every game folder in it). Returns what was written."""
    engine = base.get(game)
    engine.check_players(n)
    options = engine.resolve_options(options)
    names = (names or DEMO_NAMES)[:n]
    variant = "".join(
        f"-{k}={v}".lower() for k, v in sorted(options.items()) if v != engine.default_options()[k]
    )
    folder = out_dir / f"{game}-{n}p-seed{seed}{variant}"
    folder.mkdir(parents=True, exist_ok=True)
    for old in [*folder.glob("*.png"), *folder.glob("*.gif")]:
        old.unlink()
    drawer = render.get(game)
    frames: list[bytes] = []  # the boards written, one per turn
    sheets = 0

    since: list[tuple[int | None, list[base.Event]]] = []  # the moves since the last board (its caption)
    shown: list[Mapping[str, Any]] = []  # the public view of the last board written (its marks)
    last: list[Any] = [None]  # the state after the last step (where a turn is seen to end)

    def snapshot(state: Any, label: str) -> None:
        view = engine.view(state, None)
        previous = shown[-1] if shown else None
        lines = caption.lines_of(since, names)
        png = to_png(render.board_image(game, view, names, caption=lines, previous=previous))
        frames.append(png)
        stem = f"turn-{len(frames):04d}{label}"
        (folder / f"{stem}.png").write_bytes(png)
        second = render.extra_image(game, view, names, previous=previous)
        if second is not None:  # posted with the board in one message
            (folder / f"{stem}-2.png").write_bytes(to_png(second))
        since.clear()
        shown[:] = [view]

    def interim(state: Any, events: list[base.Event]) -> None:
        nonlocal sheets
        found = render.interim_sheet(game, engine.view(state, None), base.events_for(events, None), names)
        if found is not None:
            title, img = found
            sheets += 1
            slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "sheet"
            (folder / f"sheet-{len(frames):04d}-{slug}.png").write_bytes(to_png(img))

    state0 = engine.setup(seed, n, options)
    last[0] = state0
    if images:
        since.append((None, engine.events_on_setup(state0)))
        snapshot(state0, "-start")

    def on_step(state: Any, seat: int, action: str, events: list[base.Event]) -> None:
        before, last[0] = last[0], state
        if images:
            since.append((seat, events))
            interim(state, events)
            if recap.turn_ended(engine, state, seat, before):
                snapshot(state, "")

    final, moves = ai_game(engine, seed, n, options, on_step, level)
    out = engine.outcome(final)
    assert out is not None
    film = None
    if images:
        final_view = engine.view(final, None)
        (folder / "final-score-sheet.png").write_bytes(to_png(drawer.score_sheet(final_view, names)))
        for s in range(n):
            (folder / f"final-hand-{s + 1}.png").write_bytes(
                to_png(drawer.hand(engine.view(final, s), names))
            )
        # as the bot draws it: replayed from the log, one posted board per turn (render.recap)
        film = recap.recap(engine, seed, n, options, moves, recap.posted(game), names)
        (folder / "recap.gif").write_bytes(film.data)
    log = MoveLog(game, seed, n, options, names, moves, outcome_summary(out))
    (folder / "moves.log").write_text(log.dumps())
    changed = [f"{k}={v}" for k, v in sorted(options.items()) if v != engine.default_options()[k]]
    title = " · ".join([engine.title or game, f"{n} players", f"seed {seed}", *changed])
    if images:
        contact.write_phone_page(folder, title)
    contact.write_game_index(folder, title, describe_outcome(engine, out, names).splitlines())
    contact.write_out_index(out_dir)
    return DemoResult(game, n, options, folder, len(moves), len(frames), out, sheets, film)


def describe_outcome(engine: base.Engine, out: base.Outcome, names: list[str]) -> str:
    """One line per seat, best first: rank, name, score and note."""
    lines = []
    for s in sorted(range(len(out.ranks)), key=lambda s: (out.ranks[s], s)):
        score = "–" if out.scores[s] is None else str(out.scores[s])
        note = f"  ({out.notes[s]})" if s < len(out.notes) and out.notes[s] else ""
        lines.append(f"  {out.ranks[s]}. {names[s]:<12} {score:>5}{note}")
    return "\n".join(lines)


def replay_log(log: MoveLog) -> tuple[base.Engine, Any, base.Outcome | None]:
    """Replay a move log; returns the engine, the final state and its outcome (None if the log
    stops before the end). Raises :class:`engines.base.RuleError` if a move does not fit."""
    engine = base.get(log.game)
    engine.check_players(log.players)
    steps = base.replay_steps(engine, log.seed, log.players, engine.resolve_options(log.options), log.moves)
    state, _ = next(steps)
    for i, (seat, action) in enumerate(log.moves, 1):
        try:
            state, _ = next(steps)
        except base.RuleError as err:
            names = log.names or None
            raise base.RuleError(
                f"move {i} (`{seat} {action}`): {base.format_text(err.reason, names)}"
            ) from None
    return engine, state, engine.outcome(state)


def result_matches(log: MoveLog, out: base.Outcome | None) -> bool | None:
    """Whether the replayed outcome equals the ``# result:`` line (None if the log has none)."""
    if log.result is None:
        return None
    if out is None:
        return False
    got = outcome_summary(out)
    return all(json.dumps(got[k]) == json.dumps(log.result.get(k)) for k in got)
