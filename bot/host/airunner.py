"""AI stretches in the background: the AI seats of a game play one action per turn of a task of
their own, never inside the turn clock's tick or the start-up.

The turn clock (an expiry, the end of an AI grace) and the start-up (AI seats a previous run left
awaited) hand a game's AI play to :meth:`AiRunner.start`: one task per game at a time (asked again
while it runs, it looks at the game once more when done). Each turn of the task takes the game's
lock, plays at most one AI action (``Duties.advance_ai`` with ``steps=1``), seals its outbox
(:func:`bot.host.outbox.seal`), lets go of the lock, hands the outbox to ``publish`` (the
surface's publisher) and yields. A game where no person plays
any more (every seat the AI's) is played at a bounded pace (:attr:`AiRunner.pace` seconds between
actions) and its searches queue behind those of games people play (see :mod:`bot.host.jobgate`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from engines import base

from . import outbox
from .live import LiveGame
from .outbox import Outbox

MAX_AI_STEPS = 5000  # bound on consecutive AI actions (an AI-only stretch to the end)

log = logging.getLogger("bot.host.service")

AI_ALONE_PACE = 0.5  # seconds between two actions of a game nobody plays any more
STOP_WAIT = 5.0  # seconds stop() lets running stretches finish their action


@dataclass
class Stretch:
    """What an AI stretch remembers between its actions: whether the people awaited beside the
    AI seats had their grace, and who they were when it began (new people get a new grace)."""

    grace_over: bool = False
    people: set[int] | None = None


def watched(game: LiveGame) -> bool:
    """Whether a person still plays a seat of ``game`` (not handed to the AI)."""
    return any(not game.ai_plays(s.seat) for s in game.humans())


class Player(Protocol):
    """What an AI stretch asks of the service's AI part (:class:`bot.host.duties.Duties`)."""

    async def get(self, game_id: int | str) -> LiveGame: ...
    async def reread(self, game: LiveGame) -> None: ...
    def on_clock_change(self) -> None: ...
    async def advance_ai(
        self, game: LiveGame, *, grace_over: bool = ..., steps: int = ..., stretch: Stretch | None = ...
    ) -> bool: ...


class AiRunner:
    """The background AI stretches of the game service's AI part (``service``, see the module
    docstring). ``publish(box)`` posts an AI action's outbox; ``on_busy(+1 / -1)`` is told
    when a stretch starts and ends (the bot counts them as work in flight)."""

    def __init__(self, service: Player, *, pace: float = AI_ALONE_PACE) -> None:
        self.service = service
        self.pace = pace
        self.sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep  # (tests note the pauses)
        self.publish: Callable[[Outbox], Awaitable[Any]] | None = None
        self.on_busy: Callable[[int], None] | None = None
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: dict[int, Stretch] = {}
        self._stopping = False

    def running(self) -> list[int]:
        """The ids of the games whose AI stretch runs now."""
        return [gid for gid, t in self._tasks.items() if not t.done()]

    def start(self, game_id: int, stretch: Stretch | None = None) -> None:
        """Let the AI seats of game ``game_id`` play in the background (from ``stretch``, else a
        fresh one); if they already do, they look at the game again once done."""
        if self._stopping:
            return
        stretch = stretch or Stretch()
        task = self._tasks.get(game_id)
        if task is not None and not task.done():
            again = self._again.get(game_id)
            if again is None or not again.grace_over:
                self._again[game_id] = stretch
            return
        self._busy(1)
        self._tasks[game_id] = asyncio.create_task(self._run(game_id, stretch), name=f"bazaar-ai-{game_id}")

    def _busy(self, delta: int) -> None:
        if self.on_busy is not None:
            self.on_busy(delta)

    async def _run(self, game_id: int, stretch: Stretch) -> None:
        try:
            while True:
                await self._stretch(game_id, stretch)
                if game_id not in self._again or self._stopping:
                    return
                stretch = self._again.pop(game_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("Game %s: the AI stretch failed", game_id)
        finally:
            self._again.pop(game_id, None)
            self._tasks.pop(game_id, None)
            self._busy(-1)

    async def _stretch(self, game_id: int, stretch: Stretch) -> None:
        """Play the game's AI seats one action at a time until none is awaited (or a person is,
        within their grace), publishing after each action."""
        service = self.service
        for _ in range(MAX_AI_STEPS):
            if self._stopping:
                return
            game = await service.get(game_id)
            try:
                async with game.lock:
                    await service.reread(game)
                    more = await service.advance_ai(game, stretch=stretch, steps=1)
                    box = outbox.seal(game)
            except base.StaleState:
                continue  # another process moved it: look again at the game as stored
            service.on_clock_change()
            if box is not None and self.publish is not None:
                await self.publish(box)
            if not more:
                return
            await self.sleep(0 if watched(game) else self.pace)
        log.warning("Game %s: stopped after %s AI actions in a row", game_id, MAX_AI_STEPS)

    async def settle(self) -> None:
        """Wait until no AI stretch runs (tests, and the bot's settle)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def stop(self, wait: float = STOP_WAIT) -> None:
        """Stop every stretch after the action it is playing (cancelled after ``wait`` seconds):
        what was saved stands, and the next run resumes the rest."""
        self._stopping = True
        tasks = list(self._tasks.values())
        if not tasks:
            return
        _, pending = await asyncio.wait(tasks, timeout=wait)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
