"""The turn clock on a database several processes share (PostgreSQL, Discord shards split over
processes): deadlines live in the database, and each process claims the due ones
(:meth:`Store.claim_due`, ``FOR UPDATE SKIP LOCKED`` with a lease), so an expiry or a reminder
fires once across processes, in whichever process claims it, for a game of any shard. A claim is
released once handled; a process that dies holding one loses nothing: the lease lapses and another
process claims the game then (and a consequence that was committed before the death is not due
any more, its deadline moved on with the move).

The AI graces (``ai_at``: AI seats waiting for people replying beside them) stay in the memory of
the process that made the move, as in :class:`~bot.host.clock.TurnClock`.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable, Iterable

from .clock import Entry, Handler, TurnClock, due
from .store_base import Store
from .store_rows import GameRow
from .storefail import StoreError

log = logging.getLogger(__name__)


def claim_owner() -> str:
    """A name for this process's claims: host, process id and a random part (a restarted
    process with the same pid is another owner)."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(3)}"


def due_kind(row: GameRow | None, now: float) -> str | None:
    """``"expire"`` or ``"remind"`` for a claimed game as stored, or None if nothing is due (it
    moved on between the claim and this read)."""
    if row is None or row.status != "active" or row.deadline is None:
        return None
    if row.deadline <= now:
        return "expire"
    if not row.reminded and row.deadline - row.clock_seconds / 2 <= now:
        return "remind"
    return None


class SharedClock(TurnClock):
    """Runs ``handler(game_id, kind)`` for the turn clocks this process claims from ``store``
    (every ``poll`` seconds at most, sooner when a deadline it holds in memory comes or on
    :meth:`poke`), and for the AI graces of the games it holds (``entries()``)."""

    def __init__(
        self,
        entries: Callable[[], Iterable[Entry]],
        handler: Handler,
        *,
        store: Store,
        owner: str,
        lease: float = 60.0,
        poll: float = 5.0,
        now: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(entries, handler, now=now, max_sleep=poll)
        self.store = store
        self.owner = owner
        self.lease = lease

    async def tick(self) -> list[tuple[int, str]]:
        """Handle the AI graces due here and the turn clocks claimed as due, the games side by
        side (at most :attr:`concurrency` at once; a failing handler is logged and does not stop
        the others); returns what was handled."""
        async with self._busy:
            now = self.now()
            items = [(gid, kind) for gid, kind in due(self._entries(), now) if kind == "ai"]
            try:
                claimed = await self.store.claim_due(now, self.owner, self.lease)
            except StoreError as err:
                log.warning("Turn clock: claiming the due clocks failed (%s); trying again shortly", err)
                await self._each(items)
                return items
            room = asyncio.Semaphore(self.concurrency)
            handled: list[tuple[int, str]] = []

            async def claimed_one(gid: int) -> None:
                async with room:
                    await self._claimed(gid, handled)

            await asyncio.gather(self._each(items), *(claimed_one(gid) for gid in claimed))
            return items + handled

    async def _claimed(self, gid: int, handled: list[tuple[int, str]]) -> None:
        """Handle the clock of claimed game ``gid`` if it is still due, then release the claim."""
        try:
            kind = due_kind(await self.store.game(gid), self.now())
            if kind is not None:
                log.info("Turn clock: %s for game %s (claimed by %s)", kind, gid, self.owner)
                await self._handle(gid, kind)
                handled.append((gid, kind))
        except StoreError as err:
            log.warning("Turn clock: reading game %s failed (%s)", gid, err)
        finally:
            await self._release(gid)

    async def _release(self, gid: int) -> None:
        try:
            await self.store.release_claim(gid, self.owner)
        except StoreError as err:  # the lease lapses instead
            log.warning("Turn clock: releasing game %s failed (%s); its lease will lapse", gid, err)

    def seconds_to_next(self) -> float:
        """Seconds to the next look: the next AI grace or deadline this process holds in memory
        that is still to come, at most ``poll`` (times already past are the claims' business: a
        deadline another process moved on must not make the loop spin)."""
        now = self.now()
        times = [
            t
            for e in self._entries()
            for t in (e.ai_at, e.remind_at, e.deadline)
            if t is not None and t > now
        ]
        wake = min(times, default=now + self.max_sleep)
        return min(self.max_sleep, max(0.0, wake - now))

    async def stop(self) -> None:
        """Stop the loop and give back every claim this process holds."""
        await super().stop()
        try:
            await self.store.release_claims(self.owner)
        except StoreError as err:
            log.warning("Turn clock: releasing the claims failed (%s); their leases will lapse", err)
