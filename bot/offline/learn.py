"""``bazaar learn <game>``: the guided first game in the terminal.

The game's guide (``engines/<game>/guide.py``, run by :mod:`engines.guide`) fixes the seed, the
options, the learner's seat and every seat's moves. Before each of the learner's steps the guide
says what the step is for and suggests a move (``go`` plays it); a learner who plays something
else is told why the suggestion is better and may play theirs anyway, and the guide goes on from
the game as it is (the AI seats then play as the normal AI). The game is saved after every move
(the move log with the seed, by :mod:`bot.offline.saved`), so ``bazaar learn <game>`` after
``quit`` or Ctrl-D resumes it. ``--autoplay`` plays the whole script, printing every explanation.
Everything the learner is told comes from their own view (:func:`engines.guide.advise`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from engines import base
from engines import guide as guides
from engines.guide import Advice, Guide, Position

from . import saved
from .demo import DEMO_NAMES
from .movelog import MoveLog
from .terminal import YES, Session, Stop
from .wording import YOU, description, plain

GO = ("go", "g")
WHY = ("why", "guide")


class _Kept(Exception):
    """The learner kept the suggestion open instead of playing their own move."""


class _Stopped(Exception):
    """The script reached the guide's stop (:attr:`Guide.stop`): the guided game ends there."""


class LearnSession(Session):
    """A terminal game whose AI seats follow the guide's script and whose learner is advised."""

    def __init__(
        self,
        engine: base.Engine,
        guide: Guide,
        log: MoveLog,
        save: Path | None,
        read: Callable[[str], str],
        out: TextIO,
        autoplay: bool = False,
        level: str = "normal",
    ) -> None:
        super().__init__(engine, log, guide.seat, save, read, out, level)
        self.guide, self.autoplay = guide, autoplay
        self.advice: Advice | None = None
        self.advised_at = -1  # the number of moves played when ``advice`` was made
        self.checking = False  # the learner's typed move is being played (compare it first)
        self.resume_hint = f"bazaar learn {engine.name}"

    def help_text(self) -> str:
        return (
            "`go` plays the guide's suggestion and `why` says the guide's words again. " + super().help_text()
        )

    def position(self) -> Position:
        return Position.of(self.log.moves, self.human)

    def current_advice(self) -> Advice:
        """The guide's advice for the learner's step now (made once per step)."""
        if self.advice is None or self.advised_at != len(self.log.moves):
            view = self.engine.view(self.state, self.human)
            legal = self.engine.legal_actions(self.state, self.human)
            self.advice = guides.advise(self.engine, self.guide, view, legal, self.position(), self.level)
            self.advised_at = len(self.log.moves)
        return self.advice

    def show_advice(self) -> None:
        advice = self.current_advice()
        self.say(f"Guide: {advice.text}")
        if not self.autoplay:
            self.say(f"Suggested: {self.labelled(advice.action)}. Type `go` to play it.")

    def labelled(self, action: str) -> str:
        """``action`` with what it does, as the list of moves words it (``take a3 — Ancient
        Manuscript (1 V)``)."""
        menu = self.engine.menu(self.state, self.human)
        label = dict(menu.moves).get(action) if menu is not None else None
        desc = description(action, label or self.engine.action_label(self.state, self.human, action))
        return f"`{action}` — {desc}" if desc else f"`{action}`"

    # -- the AI seats: the script while the game follows it, else the normal AI
    def ai_turn(self) -> None:
        seat = base.first_awaited(self.engine, self.state)
        move = guides.scripted(self.guide, self.log.moves, seat)
        if move is None:
            super().ai_turn()
            return
        self.apply(seat, move)
        self.hold_if_long()

    # -- the learner
    def show_board(self) -> None:
        if not self.autoplay:
            super().show_board()

    def show_moves(self) -> None:
        if not self.autoplay:
            super().show_moves()
        self.say()
        self.say(f"Step {self.guide.step(self.position())}:")
        self.show_advice()

    def human_turn(self) -> bool:
        if not self.autoplay:
            return super().human_turn()
        action = self.current_advice().action
        self.say(f"> {action}")
        self.apply(self.human, action)
        return True

    def handle(self, line: str) -> bool:
        cmd = line.strip().lower()
        if cmd in WHY:
            self.show_advice()
            return False
        if cmd in GO:
            line = self.current_advice().action
        self.checking = True
        try:
            return super().handle(line)
        except _Kept:
            return False
        finally:
            self.checking = False

    def apply(self, seat: int, text: str) -> None:
        if seat == self.human and self.checking:
            self.compare(text)
        super().apply(seat, text)
        if guides.stopped(self.guide, self.log.moves):
            raise _Stopped

    def run(self) -> int:
        try:
            return super().run()
        except _Stopped:
            self.release()
            self.say()
            self.say(self.guide.stop_note)
            if self.save is not None:
                saved.forget(self.save)
            self.closing()
            return 0

    def compare(self, played: str) -> None:
        """Say why the suggestion is better than ``played`` and ask whether to play it anyway;
        raises :class:`_Kept` when the learner does not."""
        advice = self.current_advice()
        if played == advice.action:
            return
        view = self.engine.view(self.state, self.human)
        seed = guides.decision_seed(self.guide, self.position())
        self.say(guides.why_better(self.engine, self.guide, view, advice, played, seed))
        if self.ask(plain(f"Play `{played}` anyway? [y/N] ")).lower() not in YES:
            self.say(f"Not played. Type `go` for `{advice.action}`, or choose another move.")
            raise _Kept
        if advice.scripted:
            self.say(
                "You left the script: from here the guide explains each step and suggests the AI's "
                "move, and the AI seats play on their own."
            )

    def finish(self) -> None:
        super().finish()
        self.closing()

    def closing(self) -> None:
        self.say()
        self.say(
            f"That was the guided game of {self.engine.title}. Play a whole game against the AI "
            f"with `bazaar play {self.engine.name}`."
        )


def default_save(game: str) -> Path:
    """``learn-<game>.log`` beside ``bazaar play``'s save (:func:`saved.default_path`)."""
    return saved.default_path().parent / f"learn-{game}.log"


def _new_log(guide: Guide) -> MoveLog:
    names = [f"AI {DEMO_NAMES[s]}" for s in range(guide.players)]
    names[guide.seat] = YOU
    return MoveLog(
        guide.game,
        guide.seed,
        guide.players,
        dict(guide.options),
        names,
        guide.prologue(),  # the prepared position, if the guide has one
        None,
        guide.seat,
        "normal",
    )


def _fits(guide: Guide, log: MoveLog) -> bool:
    """``log`` is a guided game of ``guide`` (its seed, players, options and seat)."""
    return (log.game, log.seed, log.players, log.seat) == (
        guide.game,
        guide.seed,
        guide.players,
        guide.seat,
    ) and log.options == dict(guide.options)


def _open(engine: base.Engine, guide: Guide, save: Path | None, new: bool) -> tuple[MoveLog, bool]:
    """The log to play (a saved guided game, unless ``new``) and whether it was resumed.
    Raises :class:`saved.SaveError` when ``save`` holds something else."""
    if save is None or new:
        return _new_log(guide), False
    old = saved.load(save)
    if old is None:
        return _new_log(guide), False
    if not _fits(guide, old):
        raise saved.SaveError(f"{save} holds another game than {engine.title}'s guided game; use --new")
    return old, True


def learn_terminal(
    game: str,
    *,
    autoplay: bool = False,
    save: Path | None = None,
    new: bool = False,
    read: Callable[[str], str] = input,
    out: TextIO | None = None,
    err: TextIO | None = None,
    level: str = "normal",
) -> int:
    """Play (or, with ``autoplay``, show) ``game``'s guided first game; 0 when it ends or the
    learner leaves (saved in ``save``, resumed from there next time unless ``new``), 2 (one line
    on ``err``) when the game has no guide or the save cannot be used. ``level`` is the AI's
    once the game has left the script (its suggestions and the AI seats' moves)."""
    out, err = out or sys.stdout, err or sys.stderr
    engine = base.get(game)
    try:
        guide = guides.guide_for(engine.name)
    except KeyError:
        print(f"bazaar: {engine.title} has no guided game yet.", file=err)
        return 2
    save = None if autoplay else save
    try:
        log, resumed = _open(engine, guide, save, new)
        if save is not None:
            saved.save(save, log)
    except saved.SaveError as e:
        print(f"bazaar: {e}", file=err)
        return 2
    session = LearnSession(engine, guide, log, save, read, out, autoplay, level)
    try:
        for state, played in base.replay_steps(engine, log.seed, log.players, guide.options, list(log.moves)):
            session.state = state
            if played is not None:
                session.history += [e.text for e in base.events_for(played.events, guide.seat)]
    except base.RuleError as e:  # saved by another version of the rules
        why = base.format_text(e.reason, log.names)
        print(
            f"bazaar: the guided game saved in {save} no longer replays ({why}); --new starts over.", file=err
        )
        return 2
    try:
        _welcome(session, resumed)
        return session.run()
    except Stop:
        return _left(session, 0)
    except KeyboardInterrupt:
        return _left(session, 130)
    except BrokenPipeError:  # whoever read the output stopped (`--autoplay | head`): end quietly
        if out is sys.stdout:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _welcome(session: LearnSession, resumed: bool) -> None:
    guide, engine = session.guide, session.engine
    session.say(f"{engine.title}, the guided first game.")
    if resumed:
        session.say(f"Resuming after {len(session.log.moves)} moves.")
        session.say("\n".join(session.history[-5:]))
        return
    session.say(guide.intro)
    if guide.start:
        session.say(guide.start_note)
    if not session.autoplay:
        session.say(
            "Before each of your steps the guide says what it is for and suggests a move: type `go` "
            "to play it, or a number or a move of your own. `why` repeats the guide's words, `help` "
            f"lists the other commands, `quit` leaves: `bazaar learn {engine.name}` resumes the game."
        )
    if not guide.start:
        for ev in base.events_for(engine.events_on_setup(session.state), guide.seat):
            session.say("· " + ev.text)


def _left(session: LearnSession, code: int) -> int:
    if session.save is not None and session.engine.outcome(session.state) is None:
        session.say(
            f"\nThe guided game is saved in {session.save}: `bazaar learn {session.engine.name}` resumes it."
        )
    else:
        session.say("\nBye.")
    return code
