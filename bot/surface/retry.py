"""Posting again, later, what Discord refused: when a game's board (or final sheet) could not be
posted (Discord answering 5xx after discord.py's own retries, a dropped connection, a timeout),
the publisher puts the batch back on the game and this schedules another publish after a
pause that grows (``delays``, the last one repeated while the game stays unposted). A move or a
clock expiry in between publishes it too (coalesced with the newer steps); a restart posts it
from the store (``Store.unposted``). One retry task per game at a time.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any, Protocol

from ..host.live import Batch, LiveGame
from ..host.service import GameService

log = logging.getLogger(__name__)

#: Seconds before each retry of an unposted board; the last is repeated.
DELAYS = (2.0, 10.0, 30.0, 120.0, 600.0)


class Publishing(Protocol):
    """What a retry needs of the publisher (``publish.Publisher``)."""

    bot: Any

    @property
    def service(self) -> GameService: ...

    async def flush(self, game: LiveGame) -> Batch | None: ...


class PostRetry:
    """Schedules publishing again the games whose board could not be posted."""

    def __init__(self, publisher: Publishing, delays: Sequence[float] = DELAYS) -> None:
        self.publisher = publisher
        self.delays = tuple(delays) or DELAYS
        self.tasks: dict[int, asyncio.Task[None]] = {}
        self.stopped = False  # set by stop(): the bot is closing, nothing new is scheduled

    def schedule(self, game: LiveGame) -> None:
        """Publish ``game`` again later, unless a retry is already on its way or the bot is
        closing (the store still knows what is unposted, and the next start posts it)."""
        if self.stopped:
            return
        task = self.tasks.get(game.id)
        if task is not None and not task.done():
            return
        self.tasks[game.id] = asyncio.get_running_loop().create_task(
            self._run(game), name=f"bazaar-repost-{game.id}"
        )

    def waiting(self, game_id: int) -> bool:
        """Whether a retry of ``game_id`` is scheduled."""
        task = self.tasks.get(game_id)
        return task is not None and not task.done()

    async def _run(self, game: LiveGame) -> None:
        service = self.publisher.service
        attempt = 0
        try:
            while service.has_pending(game) and not self.publisher.bot.is_closed():
                delay = self.delays[min(attempt, len(self.delays) - 1)]
                attempt += 1
                await asyncio.sleep(delay)
                if not service.has_pending(game):
                    break  # a later publish posted it
                log.warning("Game %s: posting the board again (attempt %d)", game.id, attempt)
                await self._publish(game)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("Game %s: retrying its post failed", game.id)
        finally:
            if self.tasks.get(game.id) is asyncio.current_task():
                del self.tasks[game.id]

    async def _publish(self, game: LiveGame) -> None:
        """Publish, counted as a handler in flight (the bot waits for those when closing)."""
        bot = self.publisher.bot
        bot.inflight = getattr(bot, "inflight", 0) + 1
        try:
            await self.publisher.flush(game)
        finally:
            bot.inflight -= 1

    async def stop(self) -> None:
        """Cancel every scheduled retry and schedule no more (the store still knows what is
        unposted)."""
        self.stopped = True
        tasks = [t for t in self.tasks.values() if not t.done()]
        for t in tasks:
            t.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        self.tasks.clear()
