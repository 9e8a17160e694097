"""Which job of the worker pool goes first: boards, then the AI of games people wait on, then
the AI of games nobody watches.

Every job of :meth:`Workers.run <bot.host.workers.Workers.run>` passes a :class:`Gate` that lets
as many jobs run as the pool has workers; the others wait in order of :data:`JOB_PRIORITY` (then
first come, first served), so nothing ever queues inside the pool itself. AI jobs may use all the
workers but one (when there are two or more): a board never waits behind AI searches, neither
queued nor running.

The priority of a job is the :data:`JOB_PRIORITY` context variable of the task that submits it
(a board by default), so the jobs' signatures stay as they are.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import heapq
import itertools
from collections.abc import Iterator

BOARD = 0  # drawing a board, a hand, a text: a person is looking
AI_WATCHED = 1  # an AI seat of a game where people play
AI_ALONE = 2  # an AI seat of a game nobody plays any more (every seat the AI's)

JOB_PRIORITY: contextvars.ContextVar[int] = contextvars.ContextVar("bazaar_job_priority", default=BOARD)


@contextlib.contextmanager
def priority(level: int) -> Iterator[None]:
    """Jobs submitted inside the block (by this task) go at ``level``."""
    token = JOB_PRIORITY.set(level)
    try:
        yield
    finally:
        JOB_PRIORITY.reset(token)


class Gate:
    """Lets at most ``slots`` jobs run at once (AI jobs: ``slots - 1`` when ``slots`` ≥ 2); the
    others wait, the lowest priority level first."""

    def __init__(self, slots: int) -> None:
        self.slots = max(1, slots)
        self.running = 0
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def _room(self, level: int) -> bool:
        limit = self.slots if level == BOARD or self.slots == 1 else self.slots - 1
        return self.running < limit

    async def enter(self, level: int) -> None:
        """Wait for a slot for a job at ``level``."""
        if not self._waiting and self._room(level):
            self.running += 1
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (level, next(self._order), fut))
        self._wake()
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():  # a slot was given to us: pass it on
                self.leave()
            else:
                fut.cancel()
            raise

    def leave(self) -> None:
        """A job ended: its slot goes to the first waiting job that may have it."""
        self.running -= 1
        self._wake()

    def _wake(self) -> None:
        while self._waiting:
            level, _, fut = self._waiting[0]
            if fut.done():  # cancelled while waiting
                heapq.heappop(self._waiting)
                continue
            if not self._room(level):
                return
            heapq.heappop(self._waiting)
            self.running += 1
            fut.set_result(None)
