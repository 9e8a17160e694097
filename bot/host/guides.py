"""The guided first game in a hosted game (``/learn``): the host runs the game's guide
(:mod:`engines.guide`) on a game stored like any other.

A guided game is an ordinary game whose AI seats are stored with the level :data:`GUIDE`: while
the game follows the guide's script they play the script's moves (and wait while the script's
next move is the learner's), and once the learner leaves the script they play as the normal AI.
That flag is in the seats' rows, so the game survives a restart as any game does.

After each move written to a guided game (:meth:`Guides.after_commit`, called by the core's
write of a move), the guide speaks through the game's notes, which the turn message shows: when
the learner played something other than the suggestion, why the suggestion is better (their
move stands: the guide follows the game from there); and when the learner is awaited next, what
the step is for and the move it suggests. All of it is computed from ``view(state, learner)``,
the learner's legal moves and the move log (:class:`engines.guide.Position`), in the worker
pool when it searches or plays out.
"""

from __future__ import annotations

import logging
from typing import Any

from engines import base, takeback
from engines import guide as guides
from engines import prompt as pr
from engines.guide import Advice, Guide, Position

from .live import LiveGame
from .store import Store
from .workers import Workers

log = logging.getLogger(__name__)

GUIDE = "guide"
"""The ``ai_level`` stored for the AI seats of a guided game."""

PLAYS_AS = "normal"
"""The level the guide's AI seats and suggestions use once the learner left the script."""

MARK = "📘"
"""How the guide's notes begin (the turn message shows them after the events they speak about)."""

STEP = f"{MARK} **Guide, step"
"""How the guide's words before a step begin."""

Log = list[tuple[int, str]]


def guide_of(game: LiveGame) -> Guide | None:
    """The guide ``game`` is run by, or None for any other game."""
    if not any(s.is_ai and s.ai_level == GUIDE for s in game.seats):
        return None
    try:
        return guides.guide_for(game.engine.name)
    except KeyError:
        return None


def learner(game: LiveGame) -> int | None:
    """The learner's seat of a guided game (its one person)."""
    people = [s.seat for s in game.seats if not s.is_ai]
    return people[0] if people else None


def _advise(game: str, view: dict[str, Any], legal: list[str], pos: Position) -> Advice:
    """:func:`engines.guide.advise` by game name (run in the worker pool)."""
    engine = base.get(game)
    return guides.advise(engine, guides.guide_for(game), view, legal, pos, PLAYS_AS)


def _why(game: str, view: dict[str, Any], advice: Advice, played: str, seed: int) -> str:
    """:func:`engines.guide.why_better` by game name (run in the worker pool)."""
    engine = base.get(game)
    return guides.why_better(engine, guides.guide_for(game), view, advice, played, seed)


def step_note(step: int, advice: Advice, prompt: pr.Prompt | None = None) -> str:
    """The note a turn message shows before the learner's ``step``: what it is for and the move
    it suggests, with the control that plays it when the learner's ``prompt`` has one (the
    words a player sees on the button or in the menu, not only the move's text)."""
    how = control_for(prompt, advice.action)
    return f"{STEP} {step}:** {advice.text} Suggested: `{advice.action}`{f' ({how})' if how else ''}."


def control_for(prompt: pr.Prompt | None, action: str) -> str | None:
    """How ``action`` is played with ``prompt``'s controls, as a player reads them: "the **Bid
    13** button", "**Silk** in the **Sell…** menu" (with "under **My hand**" when the prompt is
    offered only there); None when no single button or menu choice plays it (a form, a dialog:
    the move's text says it, and `/move` takes it)."""
    if prompt is None:
        return None
    where = "" if prompt.public else " under **My hand**"
    for button in pr.buttons(prompt.controls):
        if button.action == action:
            return f"the **{button.label}** button{where}"
    for control in pr.walk(prompt.controls):
        if isinstance(control, pr.Pick) and control.min <= 1 <= control.max:
            for choice in control.choices:
                if control.build([choice.value]) == action:
                    return f"**{choice.label}** in the **{control.placeholder}** menu{where}"
    return None


class Guides:
    """The guide's part in the host (see the module docstring): the move logs of the guided
    games held, and the last advice given in each."""

    def __init__(self, store: Store, workers: Workers) -> None:
        self.store = store
        self.workers = workers
        self._logs: dict[int, Log] = {}
        self._advice: dict[int, tuple[int, Advice]] = {}  # game id -> (version, advice at it)

    async def log(self, game: LiveGame) -> Log:
        """``game``'s moves in play as ``(seat, action)``: the stored log (kept while the game is
        held) without the moves an undo took back, nor the undo entries
        (:func:`engines.takeback.in_play`), so the guide's step follows a move taken back."""
        held = self._logs.get(game.id)
        if held is None or len(held) != game.row.version:
            held = [(m.seat, m.action) for m in await self.store.moves(game.id)]
            self._logs[game.id] = held
        return [(seat, text) for _, seat, text in takeback.in_play(held)]

    async def ai_order(self, game: LiveGame, ai: list[int]) -> tuple[list[int], bool]:
        """Of the awaited AI seats ``ai``, those that may play now, and whether a script says so:
        while a guided game follows its script, only the seat of the script's next move (none
        when it is the learner's), with no grace for the learner awaited beside it."""
        guide = guide_of(game)
        if guide is None or not ai:
            return ai, False
        log_ = await self.log(game)
        script = guide.moves()
        if len(log_) >= len(script) or not guides.on_script(guide, log_):
            return ai, False
        seat = script[len(log_)][0]
        return ([seat] if seat in ai else []), True

    async def scripted(self, game: LiveGame, seat: int) -> str | None:
        """The script's move for the AI ``seat`` of a guided game that follows it, else None."""
        guide = guide_of(game)
        if guide is None:
            return None
        return guides.scripted(guide, await self.log(game), seat)

    async def advice(self, game: LiveGame, state: Any, seat: int) -> Advice:
        """The guide's advice for the learner ``seat`` at ``state`` (the game's current version),
        from their view; made once per version."""
        kept = self._advice.get(game.id)
        if kept is not None and kept[0] == game.row.version:
            return kept[1]
        pos = Position.of(await self.log(game), seat)
        view = dict(game.engine.view(state, seat))
        legal = game.engine.legal_actions(state, seat)
        found: Advice = await self.workers.run(_advise, game.engine.name, view, legal, pos)
        self._advice[game.id] = (game.row.version, found)
        return found

    async def before_commit(self, game: LiveGame, seat: int, action: str, by: str) -> str | None:
        """Before the learner's own move is written: when it is not the suggestion, why the
        suggestion is better (from the state before the move), else None."""
        guide = guide_of(game)
        if guide is None or seat != learner(game) or by != "player" or game.state is None:
            return None
        if takeback.undo_target(action) is not None:  # taking a move back is no move to compare
            return None
        try:
            advice = await self.advice(game, game.state, seat)
            if advice.action == action:
                return None
            view = dict(game.engine.view(game.state, seat))
            pos = Position.of(await self.log(game), seat)
            why: str = await self.workers.run(
                _why, game.engine.name, view, advice, action, guides.decision_seed(guide, pos)
            )
        except Exception:
            log.exception("Game %s: the guide could not compare the learner's move", game.id)
            return None
        left = (
            " You left the script: from here the guide explains each step and suggests the AI's "
            "move, and the AI seats play on their own."
            if advice.scripted
            else ""
        )
        return f"{MARK} **Guide:** {why} Your move stands; the guide goes on from here.{left}"

    async def after_commit(self, game: LiveGame, seat: int, action: str, note: str | None) -> str | None:
        """After ``seat``'s ``action`` is written to ``game`` (the caller holds its lock): add
        ``note`` (from :meth:`before_commit`), then, when the learner is awaited, the guide's
        words for their next step. Returns the guide's closing words when the game reached the
        guide's stop (:attr:`Guide.stop`: the caller ends the game with them), else None."""
        guide = guide_of(game)
        if guide is None:
            return None
        held = self._logs.get(game.id)
        if held is not None and len(held) == game.row.version - 1:
            held.append((seat, action))
        if note:
            game.notes.append(note)
        log_ = await self.log(game)
        if game.row.status != "active":
            self.forget(game.id)  # it finished: nothing more to advise
            return None
        if len(log_) == guide.stop and guides.stopped(guide, log_):
            self.forget(game.id)
            return f"{MARK} **Guide:** {guide.stop_note}"
        await self.announce(game)
        return None

    async def announce(self, game: LiveGame) -> None:
        """When ``game``'s learner is awaited now, add the guide's words for their step."""
        seat = learner(game)
        if seat is None or game.state is None or game.row.status != "active":
            return
        if seat not in game.awaited() or game.seats[seat].ai_takeover:
            return
        guide = guide_of(game)
        try:
            log_ = await self.log(game)
            if guide is None or len(log_) < guide.start:
                return  # the guide is still playing the prepared position
            advice = await self.advice(game, game.state, seat)
        except Exception:
            log.exception("Game %s: the guide could not advise", game.id)
            return
        controls = _prompt_of(game, seat)
        game.notes.append(step_note(guide.step(Position.of(log_, seat)), advice, controls))

    def forget(self, game_id: int) -> None:
        """Drop what is kept of a game (it ended, or is reloaded)."""
        self._logs.pop(game_id, None)
        self._advice.pop(game_id, None)


def _prompt_of(game: LiveGame, seat: int) -> pr.Prompt | None:
    """The learner's prompt now (None if the engine cannot say: the note then names the move's
    text alone)."""
    try:
        found: pr.Prompt = game.engine.prompt(game.state, seat)
    except Exception:
        log.exception("Game %s: the learner's prompt could not be read for the guide", game.id)
        return None
    return found
