"""Offline games: ``bazaar demo`` (AI seats, snapshots, score sheet, move log) and ``bazaar replay``.

Uses the same engines and renderers as the bot, and nothing of Discord.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import render
from engines import base
from render.common import to_png

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


def ai_game(engine: base.Engine, seed: int, n: int, options: dict[str, Any] | None = None,
            on_step: Callable[[Any, int, str, list[base.Event]], None] | None = None
            ) -> tuple[Any, list[tuple[int, str]]]:
    """Play a whole game with AI seats; returns the final state and the move log.

    ``on_step(state, seat, action, events)`` is called after every applied action."""
    state = engine.setup(seed, n, options)
    moves: list[tuple[int, str]] = []
    while engine.outcome(state) is None:
        seat = base.first_awaited(engine, state)
        legal = engine.legal_actions(state, seat)
        action = engine.choose(engine.view(state, seat), legal)
        result = base.play(engine, state, seat, action)
        state = result.state
        moves.append((seat, result.action))
        if on_step:
            on_step(state, seat, result.action, result.events)
    return state, moves


def outcome_summary(out: base.Outcome) -> dict[str, Any]:
    return {"ranks": list(out.ranks), "scores": list(out.scores), "winners": list(out.winners)}


def run_demo(game: str, seed: int, n: int, options: dict[str, Any], out_dir: Path,
             names: list[str] | None = None, images: bool = True) -> DemoResult:
    """Play one AI game and write, into a new folder under ``out_dir``: one board PNG per turn
    (each time the seat to act changes, and the final board), the final score sheet, every
    seat's final hand, and ``moves.log``. Returns what was written."""
    engine = base.get(game)
    engine.check_players(n)
    options = engine.resolve_options(options)
    names = (names or DEMO_NAMES)[:n]
    variant = "".join(f"-{k}={v}".lower() for k, v in sorted(options.items())
                      if v != engine.default_options()[k])
    folder = out_dir / f"{game}-{n}p-seed{seed}{variant}"
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink()
    drawer = render.get(game)
    snaps = 0

    def snapshot(state: Any, label: str) -> None:
        nonlocal snaps
        snaps += 1
        img = drawer.board(engine.view(state, None), names)
        (folder / f"turn-{snaps:04d}{label}.png").write_bytes(to_png(img))

    state0 = engine.setup(seed, n, options)
    if images:
        snapshot(state0, "-start")

    def on_step(state: Any, seat: int, action: str, events: list[base.Event]) -> None:
        awaited = engine.to_move(state)
        if images and (engine.outcome(state) is not None or awaited[:1] != (seat,)):
            snapshot(state, "")

    final, moves = ai_game(engine, seed, n, options, on_step)
    out = engine.outcome(final)
    assert out is not None
    if images:
        final_view = engine.view(final, None)
        (folder / "final-score-sheet.png").write_bytes(to_png(drawer.score_sheet(final_view, names)))
        for s in range(n):
            (folder / f"final-hand-{s + 1}.png").write_bytes(
                to_png(drawer.hand(engine.view(final, s), names)))
    log = MoveLog(game, seed, n, options, names, moves, outcome_summary(out))
    (folder / "moves.log").write_text(log.dumps())
    return DemoResult(game, n, options, folder, len(moves), snaps, out)


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
            raise base.RuleError(f"move {i} (`{seat} {action}`): "
                                 f"{base.format_text(err.reason, names)}") from None
    return engine, state, engine.outcome(state)


def result_matches(log: MoveLog, out: base.Outcome | None) -> bool | None:
    """Whether the replayed outcome equals the ``# result:`` line (None if the log has none)."""
    if log.result is None:
        return None
    if out is None:
        return False
    got = outcome_summary(out)
    return all(json.dumps(got[k]) == json.dumps(log.result.get(k)) for k in got)
