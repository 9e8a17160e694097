"""``bazaar play``: one person plays in the terminal against AI seats.

The person sees only their own view (as plain text), one numbered list of their moves with what
each does, and every event they may see (public ones, their private ones, the public twin of
others'). Bad input is answered in one line and changes nothing. A move the game marks as
irreversible (:meth:`engines.base.Engine.irreversible`) is confirmed first. The game is saved
after every move (:mod:`bot.offline.saved`), so ``bazaar play --resume`` continues it.
Everything game-specific comes from the engine and its renderer module.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TextIO

import render
from bot.digits import is_digits
from engines import base, search

from . import boardcmd, saved, takeback
from .demo import DEMO_NAMES, describe_outcome
from .movelog import MoveLog
from .sections import STREAM_LINES, own_part, renumber, score_part, stretch_summary
from .wording import YOU, move_lines, plain, second_person

MAX_LISTED = 40  # longer legal lists are numbered in part; any legal move may still be typed
QUIT = ("quit", "exit", "q")
YES = ("y", "yes")


class Stop(Exception):
    """The person ended the session (``quit``, Ctrl-D); the game stays saved."""


class Session:
    """One terminal game: the state, the move log (saved after every move) and the output."""

    resume_hint = "bazaar play --resume"  # the command that continues a saved game

    def __init__(
        self,
        engine: base.Engine,
        log: MoveLog,
        human: int,
        save: Path | None,
        read: Callable[[str], str],
        out: TextIO,
        level: str = search.DEFAULT_LEVEL,
    ) -> None:
        self.engine, self.log, self.human, self.save = engine, log, human, save
        self.level = level  # the AI seats' level
        self.read, self.out = read, out
        self.names = log.names
        self.drawer = render.get(engine.name)
        self.history: list[str] = []
        self.state: Any = None
        self.numbers: dict[str, int] = {}  # the listed moves' numbers, kept while a turn goes on
        self.others_moved = 0  # moves of other seats so far (a new count starts a new numbering)
        self.numbered_at = -1  # ``others_moved`` when ``numbers`` was made
        self.streamed = 0  # lines of others' play printed since the person last moved
        self.held: list[tuple[str, str]] | None = None  # others' play held for a summary
        self.held_stages: list[str] = []
        self.held_moves = 0

    # -- output
    def say(self, text: str = "") -> None:
        """Print ``text`` with seat tokens named, markdown removed and, for the default name,
        in the second person ("You take a2")."""
        line = plain(base.format_text(text, self.names))
        if self.names[self.human] == YOU:
            line = second_person(line)
        print(line, file=self.out, flush=True)

    def show_events(self, events: list[base.Event]) -> None:
        for ev in base.events_for(events, self.human):
            self.history.append(ev.text)
            if self.held is not None:
                self.held.append((ev.kind, ev.text))
            else:
                self.say("· " + ev.text)
                self.streamed += 1
        stage = getattr(self.drawer, "epoch_text", None)
        text = stage([e for e in events if e.public], self.names) if stage else None
        if text and self.held is not None:
            self.held_stages.append(text)
        elif text:
            self.say()
            self.say(text)

    def hold_if_long(self) -> None:
        """After :data:`STREAM_LINES` lines of others' play, hold the rest for a summary (games
        that name their minor events, ``Engine.minor_events``)."""
        if self.held is None and self.streamed >= STREAM_LINES and getattr(self.engine, "minor_events", None):
            self.held, self.held_moves = [], 0
            self.say("… the other players play on; a summary follows when it is your turn.")

    def release(self) -> None:
        """Print the summary of the held stretch, if any, and its scoring texts."""
        self.streamed = 0
        if self.held is None:
            return
        held, self.held = self.held, None
        minor: Mapping[str, str] = getattr(self.engine, "minor_events", {})  # held only when it has some
        for line in stretch_summary(held, minor, self.held_moves):
            self.say(line)
        for text in self.held_stages:
            self.say()
            self.say(text)
        self.held_stages = []

    def help_text(self) -> str:
        legal = self.engine.legal_actions(self.state, self.human) if self.awaits_human() else []
        menu = self.engine.menu(self.state, self.human) if legal else None
        if menu is not None:  # the game's own order: the moves worth reading first
            legal = [a for a, _ in menu.moves]
        examples: list[str] = []
        for a in legal:  # one example per kind of move available now
            if a.split()[0] not in {e.split()[0] for e in examples}:
                examples.append(a)
        eg = f" (now e.g. `{'`, `'.join(examples[:4])}`)" if examples else ""
        return (
            f"Type the number of a move from the list, or the move itself{eg}. "
            f"Other commands: `rules` ({self.engine.title}'s rules in short), `board` (the "
            "board again), `hand` (your part of it), `score` (the points), `moves` (the list "
            "again), `log` (recent moves), `undo` (take back your last move), `help`, `quit`. "
            f"The game is saved after every move: `{self.resume_hint}` continues it."
        )

    # -- the game
    def awaits_human(self) -> bool:
        return self.human in self.engine.to_move(self.state)

    def apply(self, seat: int, text: str) -> None:
        result = base.play(self.engine, self.state, seat, text)
        self.state = result.state
        self.record(seat, result.action, result.events)

    def record(self, seat: int, action: str, events: list[base.Event]) -> None:
        """Log and save a move (or an undo) just applied, and show its events."""
        self.log.moves.append((seat, action))
        if self.save is not None:
            try:
                saved.save(self.save, self.log)
            except saved.SaveError as err:
                self.say(f"✗ {err}; the game goes on without saving.")
                self.save = None
        if seat == self.human:
            self.streamed = 0
        else:
            self.others_moved += 1
            self.held_moves += self.held is not None
        self.show_events(events)

    def ai_turn(self) -> None:
        seat = base.first_awaited(self.engine, self.state)
        legal = self.engine.legal_actions(self.state, seat)
        found = search.choose(
            self.engine,
            self.engine.view(self.state, seat),
            legal,
            self.level,
            search.ai_seed(self.log.seed, len(self.log.moves), seat),
        )
        self.apply(seat, found.action)
        self.hold_if_long()

    def show_board(self) -> None:
        self.say()
        self.say(self.drawer.text(self.engine.view(self.state, self.human), self.names, moves=False))

    def listed(self) -> tuple[dict[int, str], int]:
        """The moves numbered now (at most :data:`MAX_LISTED`), number -> move, in the game's own
        order where it has one (its menu: the moves worth reading first), and how many are legal.
        A move keeps its number while the person's turn goes on (no other seat moved)."""
        menu = self.engine.menu(self.state, self.human)
        if menu is not None:
            legal, total = [a for a, _ in menu.moves], menu.total
        else:
            legal = self.engine.legal_actions(self.state, self.human)
            total = len(legal)
        old = self.numbers if self.numbered_at == self.others_moved else {}
        self.numbers, self.numbered_at = renumber(old, legal), self.others_moved
        shown = sorted((k, a) for a, k in self.numbers.items())[:MAX_LISTED]
        return dict(shown), total

    def show_moves(self) -> None:
        menu = self.engine.menu(self.state, self.human)
        moves, total = self.listed()
        if menu is not None:
            named = dict(menu.moves)
            labels = [named.get(a, a) for a in moves.values()]
        else:
            labels = [self.engine.action_label(self.state, self.human, a) for a in moves.values()]
        self.say("Your moves:")
        for line in move_lines(list(moves.values()), labels, list(moves)):
            self.say(line)
        for note in menu.notes if menu is not None else ():
            self.say("  · " + note)
        if total > len(moves) and (menu is None or not menu.notes):
            self.say(f"  … and {total - len(moves)} more: type any of them (see `help`).")

    def show_part(self, which: str) -> None:
        """``hand``: the person's own part of the board; ``score``: the points so far."""
        view = self.engine.view(self.state, self.human)
        board = self.drawer.text(view, self.names, moves=False)
        if which == "hand":
            self.say(own_part(board, self.names[self.human]) or board)
            return
        sheet = getattr(self.drawer, "score_text", None)
        final = sheet(view, self.names) if sheet else ""
        self.say(final or score_part(board) or "No points are shown yet.")

    def ask(self, prompt: str) -> str:
        try:
            return self.read(prompt).strip()
        except EOFError:
            raise Stop from None

    def human_turn(self) -> bool:
        """Read one line and act on it; True when a move was played."""
        return self.handle(self.ask("> "))

    def handle(self, line: str) -> bool:
        """Act on one line the person typed (a command, a number, a move); True when a move
        was played."""
        cmd = line.lower()
        if cmd in QUIT:
            raise Stop
        if cmd in ("help", "?"):
            self.say(self.help_text())
            return False
        if cmd == "rules":
            self.say(self.engine.summary or f"{self.engine.title} has no rules summary.")
            return False
        if cmd == "board":
            boardcmd.show(self)
            return False
        if cmd in ("hand", "score"):
            self.show_part(cmd)
            return False
        if cmd == "moves":
            self.show_moves()
            return False
        if cmd == "undo":
            return takeback.undo(self)
        if cmd == "log":
            self.say("\n".join(self.history[-15:]) or "No moves yet.")
            return False
        if not cmd:
            self.show_moves()
            return False
        if is_digits(cmd):
            moves, _ = self.listed()
            k = int(cmd)
            if k not in moves:
                top = max(moves, default=1)
                span = "1" if top == 1 else f"1–{top}" if len(moves) == top else "a number from the list"
                self.say(f"✗ There is no move {k}: pick {span}, or type a move.")
                return False
            line = moves[k]
        try:
            line = self.engine.read_names(self.state, self.human, line, self.names)
        except base.RuleError as err:
            self.say("✗ " + err.reason)
            return False
        reason = self.engine.is_legal(self.state, self.human, line)
        if reason is not None:
            self.say("✗ " + reason)
            return False
        action = self.engine.parse(line)
        warning = self.engine.irreversible(self.state, self.human, action)
        if warning and self.ask(plain(f"{warning} Play `{action}`? [y/N] ")).lower() not in YES:
            self.say("Not played. Choose again.")
            return False
        self.apply(self.human, action)
        return True

    def run(self) -> int:
        shown = False
        while self.engine.outcome(self.state) is None:
            if not self.awaits_human():
                self.ai_turn()
                shown = False
                continue
            auto = self.engine.auto_answer(self.state, self.human)
            if auto is not None:  # the person's only move, and playing it at once hides nothing
                self.say("· " + auto[1])
                self.apply(self.human, auto[0])
                shown = False
                continue
            if not shown:
                self.release()
                self.show_board()
                self.show_moves()
                shown = True
            if self.human_turn():
                shown = False
        self.finish()
        return 0

    def finish(self) -> None:
        outcome = self.engine.outcome(self.state)
        assert outcome is not None
        self.release()
        view = self.engine.view(self.state, self.human)
        self.say()
        self.say(self.drawer.text(view, self.names, moves=False))
        self.say()
        self.say("Game over. " + winners_line(outcome.winners))
        sheet = getattr(self.drawer, "score_text", None)
        self.say(
            (sheet(view, self.names) if sheet else "") or describe_outcome(self.engine, outcome, self.names)
        )
        if self.save is not None:
            saved.forget(self.save)


def winners_line(winners: tuple[int, ...]) -> str:
    """ "{s0} wins." / "{s0} and {s2} share the win." (seat tokens)."""
    who = ["{s%d}" % s for s in winners]
    if len(who) == 1:
        return f"{who[0]} wins."
    return ", ".join(who[:-1]) + f" and {who[-1]} share the win." if who else "Nobody wins."


def _called(name: str) -> str:
    return "" if name == YOU else f" ({name})"


def _stopped(session: Session, code: int) -> int:
    if session.save is not None and session.engine.outcome(session.state) is None:
        session.say(f"\nThe game is saved in {session.save}: `bazaar play --resume` continues it.")
    else:
        session.say("\nBye.")
    return code


def _drive(session: Session) -> int:
    try:
        return session.run()
    except Stop:
        return _stopped(session, 0)
    except KeyboardInterrupt:
        return _stopped(session, 130)


def play_terminal(
    game: str,
    n: int,
    human: int = 0,
    seed: int | None = None,
    options: dict[str, Any] | None = None,
    name: str = YOU,
    read: Callable[[str], str] = input,
    out: TextIO | None = None,
    save: Path | None = None,
    err: TextIO | None = None,
    level: str = search.DEFAULT_LEVEL,
) -> int:
    """Start a new game and play it against AI seats at ``level``; returns 0 when it ends or the
    person leaves (Ctrl-D, ``quit``), 130 after Ctrl-C, 2 on bad setup (said in one line on ``err``).
    With ``save``, the game is written there after every move and removed when it ends."""
    out, err = out or sys.stdout, err or sys.stderr
    try:
        engine = base.get(game)
        engine.check_players(n)
        options = engine.resolve_options(options)
    except base.RuleError as e:
        print(f"bazaar: {e.reason}", file=err)
        return 2
    if not 0 <= human < n:
        print(f"bazaar: --seat must be between 1 and {n}.", file=err)
        return 2
    if not name.strip() or len(name) > 40:
        print("bazaar: --name must be 1 to 40 characters.", file=err)
        return 2
    seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
    names = [f"AI {DEMO_NAMES[s]}" for s in range(n)]
    names[human] = name.strip()
    log = MoveLog(engine.name, seed, n, options, names, [], None, human, level)
    session = Session(engine, log, human, save, read, out, level)
    session.state = engine.setup(seed, n, options)
    note = ""
    if save is not None:
        try:
            replaced = _may_replace(save, read, out)
            if replaced is None:
                return 0
            note = " (it replaces the unfinished game saved there)" if replaced else ""
            saved.save(save, log)
        except saved.SaveError as e:
            print(f"bazaar: {e}", file=err)
            return 2
    session.say(f"{engine.title}: {n} players, seed {seed}. You are seat {human + 1}{_called(names[human])}.")
    if save is not None:
        session.say(f"Saved after every move in {save}{note}; `bazaar play --resume` continues it.")
    session.say(session.help_text())
    for ev in base.events_for(engine.events_on_setup(session.state), human):
        session.say("· " + ev.text)
    return _drive(session)


def _may_replace(save: Path, read: Callable[[str], str], out: TextIO) -> bool | None:
    """Whether starting a new game at ``save`` replaces an unfinished one (True), or finds none
    (False); None when the person answers no (told how to continue the saved one). Raises
    :class:`saved.SaveError` when ``save`` holds something else than a saved game."""
    if save.is_dir():
        raise saved.SaveError(f"cannot save the game to {save}: it is a folder; give a file name")
    try:
        old = saved.load(save)
    except saved.SaveError as e:
        raise saved.SaveError(f"{e}; it is left as it is: give another file with --save") from None
    if old is None:
        return False
    title = base.get(old.game).title if old.game in {e.name for e in base.games()} else old.game
    question = (
        f"An unfinished {title} game ({len(old.moves)} moves) is saved in {save}. "
        "Start a new game and replace it? [y/N] "
    )
    try:
        answer = read(question).strip().lower()
    except (EOFError, KeyboardInterrupt):
        answer = ""
    if answer in YES:
        return True
    print(f"Kept the saved {title} game: bazaar play --resume continues it.", file=out, flush=True)
    return None


def resume_terminal(
    save: Path,
    game: str | None = None,
    read: Callable[[str], str] = input,
    out: TextIO | None = None,
    err: TextIO | None = None,
    level: str | None = None,
) -> int:
    """Continue the game saved at ``save`` with its AI level (or ``level`` when given, which is
    then saved); 2 (with one line on ``err``) when there is none, it is another game than
    ``game``, or it no longer replays."""
    out, err = out or sys.stdout, err or sys.stderr
    try:
        log = saved.load(save)
    except saved.SaveError as e:
        print(f"bazaar: {e}", file=err)
        return 2
    if log is None:
        print(
            f"bazaar: there is no saved game to resume ({save}); start one with `bazaar play <game>`.",
            file=err,
        )
        return 2
    try:
        engine = base.get(log.game)
        if game is not None and base.get(game).name != engine.name:
            print(
                f"bazaar: the saved game is {engine.title}, not {base.get(game).title}; "
                "run `bazaar play --resume` without a game.",
                file=err,
            )
            return 2
        engine.check_players(log.players)
        options = engine.resolve_options(log.options)
        if log.seat is None or not 0 <= log.seat < log.players or len(log.names) != log.players:
            raise base.RuleError("its seat or names do not fit its player count")
        level = level or log.level or search.DEFAULT_LEVEL
        if level not in search.LEVELS:
            raise base.RuleError(f"its AI level `{level}` is not one of {', '.join(search.LEVELS)}")
        log.level = level
        session = Session(engine, log, log.seat, save, read, out, level)
        for state, played in base.replay_steps(engine, log.seed, log.players, options, list(log.moves)):
            session.state = state
            if played is not None:
                session.history += [e.text for e in base.events_for(played.events, log.seat)]
    except base.RuleError as e:
        print(
            f"bazaar: the game saved in {save} cannot be resumed: {base.format_text(e.reason, log.names)}",
            file=err,
        )
        return 2
    session.say(
        f"{engine.title}: resuming after {len(log.moves)} moves (seed {log.seed}, AI level {level}). "
        f"You are seat {log.seat + 1}{_called(log.names[log.seat])}."
    )
    session.say("\n".join(session.history[-5:]))
    return _drive(session)
