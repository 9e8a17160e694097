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
    changed = [f"{k}={v}" for k, v in sorted(options.items()) if v != engine.default_options()[k]]
    folder = _fresh_folder(out_dir / f"{game}-{n}p-seed{seed}{''.join('-' + c.lower() for c in changed)}")
    pictures = _Pictures(engine, game, names, folder)
    if images:
        pictures.start(engine.setup(seed, n, options))
    final, moves = ai_game(engine, seed, n, options, pictures.step if images else None, level)
    out = engine.outcome(final)
    assert out is not None
    film = (
        _write_final_pictures(engine, game, seed, n, options, moves, final, names, folder) if images else None
    )
    log = MoveLog(game, seed, n, options, names, moves, outcome_summary(out))
    (folder / "moves.log").write_text(log.dumps())
    title = " · ".join([engine.title or game, f"{n} players", f"seed {seed}", *changed])
    if images:
        contact.write_phone_page(folder, title)
    contact.write_game_index(folder, title, describe_outcome(engine, out, names).splitlines())
    contact.write_out_index(out_dir)
    return DemoResult(game, n, options, folder, len(moves), len(pictures.frames), out, pictures.sheets, film)


def _fresh_folder(folder: Path) -> Path:
    """``folder``, made if missing, without the pictures of an earlier run."""
    folder.mkdir(parents=True, exist_ok=True)
    for old in [*folder.glob("*.png"), *folder.glob("*.gif")]:
        old.unlink()
    return folder


class _Pictures:
    """The pictures of a demo game written while it is played: a board per turn as the bot posts
    it (the caption of the moves since the last board, what changed marked, the game's second
    picture beside it), and every interim sheet the renderer offers on the way."""

    def __init__(self, engine: base.Engine, game: str, names: list[str], folder: Path) -> None:
        self.engine, self.game, self.names, self.folder = engine, game, names, folder
        self.frames: list[bytes] = []  # the boards written, one per turn
        self.sheets = 0  # interim sheets written
        self.since: list[tuple[int | None, list[base.Event]]] = []  # the moves since the last board
        self.shown: Mapping[str, Any] | None = None  # the public view of the last board (its marks)
        self.last: Any = None  # the state after the last step (where a turn is seen to end)

    def start(self, state: Any) -> None:
        """The board of the set-up game."""
        self.last = state
        self.since.append((None, self.engine.events_on_setup(state)))
        self.snapshot(state, "-start")

    def step(self, state: Any, seat: int, action: str, events: list[base.Event]) -> None:
        """After each action (``ai_game``'s ``on_step``): its interim sheet, and a board when a
        turn ended."""
        before, self.last = self.last, state
        self.since.append((seat, events))
        self.interim(state, events)
        if recap.turn_ended(self.engine, state, seat, before):
            self.snapshot(state, "")

    def snapshot(self, state: Any, label: str) -> None:
        view = self.engine.view(state, None)
        lines = caption.lines_of(self.since, self.names)
        png = to_png(render.board_image(self.game, view, self.names, caption=lines, previous=self.shown))
        self.frames.append(png)
        stem = f"turn-{len(self.frames):04d}{label}"
        (self.folder / f"{stem}.png").write_bytes(png)
        second = render.extra_image(self.game, view, self.names, previous=self.shown)
        if second is not None:  # posted with the board in one message
            (self.folder / f"{stem}-2.png").write_bytes(to_png(second))
        self.since.clear()
        self.shown = view

    def interim(self, state: Any, events: list[base.Event]) -> None:
        view = self.engine.view(state, None)
        found = render.interim_sheet(self.game, view, base.events_for(events, None), self.names)
        if found is not None:
            title, img = found
            self.sheets += 1
            slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "sheet"
            (self.folder / f"sheet-{len(self.frames):04d}-{slug}.png").write_bytes(to_png(img))


def _write_final_pictures(
    engine: base.Engine,
    game: str,
    seed: int,
    n: int,
    options: dict[str, Any],
    moves: list[tuple[int, str]],
    final: Any,
    names: list[str],
    folder: Path,
) -> recap.Recap:
    """The final score sheet, every seat's final hand and the animated recap; returns the recap."""
    drawer = render.get(game)
    (folder / "final-score-sheet.png").write_bytes(
        to_png(drawer.score_sheet(engine.view(final, None), names))
    )
    for s in range(n):
        (folder / f"final-hand-{s + 1}.png").write_bytes(to_png(drawer.hand(engine.view(final, s), names)))
    # as the bot draws it: replayed from the log, one posted board per turn (render.recap)
    film = recap.recap(engine, seed, n, options, moves, recap.posted(game), names)
    (folder / "recap.gif").write_bytes(film.data)
    return film


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
