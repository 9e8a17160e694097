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
from pathlib import Path
from typing import Any, Callable, TextIO

import render
from engines import base, search

from . import saved
from .demo import DEMO_NAMES, describe_outcome
from .movelog import MoveLog
from .wording import YOU, move_lines, plain, second_person

MAX_LISTED = 40  # longer legal lists are numbered in part; any legal move may still be typed
QUIT = ("quit", "exit", "q")
YES = ("y", "yes")


class Stop(Exception):
    """The person ended the session (``quit``, Ctrl-D); the game stays saved."""


class Session:
    """One terminal game: the state, the move log (saved after every move) and the output."""

    def __init__(self, engine: base.Engine, log: MoveLog, human: int, save: Path | None,
                 read: Callable[[str], str], out: TextIO, level: str = search.DEFAULT_LEVEL) -> None:
        self.engine, self.log, self.human, self.save = engine, log, human, save
        self.level = level  # the AI seats' level
        self.read, self.out = read, out
        self.names = log.names
        self.drawer = render.get(engine.name)
        self.history: list[str] = []
        self.state: Any = None

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
            self.say("· " + ev.text)
        stage = getattr(self.drawer, "epoch_text", None)
        text = stage([e for e in events if e.public], self.names) if stage else None
        if text:
            self.say()
            self.say(text)

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
        return (f"Type the number of a move from the list, or the move itself{eg}. "
                f"Other commands: `rules` ({self.engine.title}'s rules in short), `board` (the "
                "board again), `log` (recent moves), `help`, `quit`. The game is saved after every "
                "move: `bazaar play --resume` continues it.")

    # -- the game
    def awaits_human(self) -> bool:
        return self.human in self.engine.to_move(self.state)

    def apply(self, seat: int, text: str) -> None:
        result = base.play(self.engine, self.state, seat, text)
        self.state = result.state
        self.log.moves.append((seat, result.action))
        if self.save is not None:
            saved.save(self.save, self.log)
        self.show_events(result.events)

    def ai_turn(self) -> None:
        seat = base.first_awaited(self.engine, self.state)
        legal = self.engine.legal_actions(self.state, seat)
        found = search.choose(self.engine, self.engine.view(self.state, seat), legal, self.level,
                              search.ai_seed(self.log.seed, len(self.log.moves), seat))
        self.apply(seat, found.action)

    def show_board(self) -> None:
        self.say()
        self.say(self.drawer.text(self.engine.view(self.state, self.human), self.names, moves=False))

    def listed(self) -> tuple[list[str], int]:
        """The moves numbered now (at most :data:`MAX_LISTED`) and how many are legal."""
        menu = self.engine.menu(self.state, self.human)
        if menu is not None:
            return [a for a, _ in menu.moves][:MAX_LISTED], menu.total
        legal = self.engine.legal_actions(self.state, self.human)
        return legal[:MAX_LISTED], len(legal)

    def show_moves(self) -> None:
        menu = self.engine.menu(self.state, self.human)
        moves, total = self.listed()
        if menu is not None:
            labels = [lab for _, lab in menu.moves][:MAX_LISTED]
        else:
            labels = [self.engine.action_label(self.state, self.human, a) for a in moves]
        self.say("Your moves:")
        for line in move_lines(moves, labels):
            self.say(line)
        for note in menu.notes if menu is not None else ():
            self.say("  · " + note)
        if total > len(moves) and (menu is None or not menu.notes):
            self.say(f"  … and {total - len(moves)} more: type any of them (see `help`).")

    def ask(self, prompt: str) -> str:
        try:
            return self.read(prompt).strip()
        except EOFError:
            raise Stop from None

    def human_turn(self) -> bool:
        """Read one line and act on it; True when a move was played."""
        line = self.ask("> ")
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
            self.show_board()
            self.show_moves()
            return False
        if cmd == "log":
            self.say("\n".join(self.history[-15:]) or "No moves yet.")
            return False
        if not cmd:
            self.show_moves()
            return False
        moves, _ = self.listed()
        if cmd.isdigit():
            k = int(cmd)
            if not 1 <= k <= len(moves):
                span = "1" if len(moves) == 1 else f"1–{len(moves)}"
                self.say(f"✗ There is no move {k}: pick {span}, or type a move.")
                return False
            line = moves[k - 1]
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
        view = self.engine.view(self.state, self.human)
        self.say()
        self.say(self.drawer.text(view, self.names, moves=False))
        self.say()
        self.say("Game over. " + winners_line(outcome.winners))
        sheet = getattr(self.drawer, "score_text", None)
        self.say((sheet(view, self.names) if sheet else "") or describe_outcome(self.engine, outcome, self.names))
        if self.save is not None:
            saved.forget(self.save)


def winners_line(winners: tuple[int, ...]) -> str:
    """"{s0} wins." / "{s0} and {s2} share the win." (seat tokens)."""
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


def play_terminal(game: str, n: int, human: int = 0, seed: int | None = None,
                  options: dict[str, Any] | None = None, name: str = YOU,
                  read: Callable[[str], str] = input, out: TextIO | None = None,
                  save: Path | None = None, err: TextIO | None = None,
                  level: str = search.DEFAULT_LEVEL) -> int:
    """Start a new game and play it against AI seats at ``level``; returns 0 when it ends or the person leaves (Ctrl-D,
    ``quit``), 130 after Ctrl-C, 2 on bad setup (said in one line on ``err``). With ``save``,
    the game is written there after every move and removed when it ends."""
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
    log = MoveLog(engine.name, seed, n, options, names, [], None, human)
    session = Session(engine, log, human, save, read, out, level)
    session.state = engine.setup(seed, n, options)
    note = ""
    if save is not None:
        if save.exists():
            note = " (it replaces the unfinished game saved there)"
        saved.save(save, log)
    session.say(f"{engine.title}: {n} players, seed {seed}. You are seat {human + 1}{_called(names[human])}.")
    if save is not None:
        session.say(f"Saved after every move in {save}{note}; `bazaar play --resume` continues it.")
    session.say(session.help_text())
    for ev in base.events_for(engine.events_on_setup(session.state), human):
        session.say("· " + ev.text)
    return _drive(session)


def resume_terminal(save: Path, game: str | None = None, read: Callable[[str], str] = input,
                    out: TextIO | None = None, err: TextIO | None = None,
                    level: str = search.DEFAULT_LEVEL) -> int:
    """Continue the game saved at ``save``; 2 (with one line on ``err``) when there is none, it
    is another game than ``game``, or it no longer replays."""
    out, err = out or sys.stdout, err or sys.stderr
    try:
        log = saved.load(save)
    except saved.SaveError as e:
        print(f"bazaar: {e}", file=err)
        return 2
    if log is None:
        print(f"bazaar: there is no saved game to resume ({save}); start one with `bazaar play <game>`.",
              file=err)
        return 2
    try:
        engine = base.get(log.game)
        if game is not None and base.get(game).name != engine.name:
            print(f"bazaar: the saved game is {engine.title}, not {base.get(game).title}; "
                  "run `bazaar play --resume` without a game.", file=err)
            return 2
        engine.check_players(log.players)
        options = engine.resolve_options(log.options)
        if log.seat is None or not 0 <= log.seat < log.players or len(log.names) != log.players:
            raise base.RuleError("its seat or names do not fit its player count")
        session = Session(engine, log, log.seat, save, read, out, level)
        for state, played in base.replay_steps(engine, log.seed, log.players, options, list(log.moves)):
            session.state = state
            if played is not None:
                session.history += [e.text for e in base.events_for(played.events, log.seat)]
    except base.RuleError as e:
        print(f"bazaar: the game saved in {save} cannot be resumed: {base.format_text(e.reason, log.names)}",
              file=err)
        return 2
    session.say(f"{engine.title}: resuming after {len(log.moves)} moves (seed {log.seed}). "
                f"You are seat {log.seat + 1}{_called(log.names[log.seat])}.")
    session.say("\n".join(session.history[-5:]))
    return _drive(session)
