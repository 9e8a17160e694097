"""The turn clock: durations, what is due at a given time, and a scheduler that sleeps until the
next deadline.

Time is injected: the scheduler and :func:`due` take a ``now()`` callable (Unix seconds), so tests
move time forward by changing what ``now()`` returns and calling :meth:`TurnClock.tick` (or
:meth:`TurnClock.poke` to wake the running loop) instead of sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

from bot.digits import is_digits

log = logging.getLogger(__name__)

DEFAULT_CLOCK = 24 * 3600
MIN_CLOCK = 60
MAX_CLOCK = 30 * 24 * 3600
EXPIRIES_BEFORE_TAKEOVER = 3

_UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}
_PART = re.compile(r"([0-9]+)\s*([dhms])")


class BadDuration(ValueError):
    """A clock duration that does not parse or is out of range; ``str()`` is for players."""


def parse_duration(text: str | None, *, default: int = DEFAULT_CLOCK) -> int:
    """Seconds in ``text`` such as ``24h``, ``90m``, ``1h30m``, ``2d`` or a bare number of
    minutes; ``default`` when empty. Raises :class:`BadDuration` if malformed or outside
    1 minute … 30 days."""
    if text is None or not text.strip():
        return default
    t = text.strip().lower().replace(" ", "")
    if is_digits(t):
        seconds = int(t) * 60
    else:
        parts = _PART.findall(t)
        if not parts or "".join(n + u for n, u in parts) != t:
            raise BadDuration(f"`{text}` is not a duration: write it like `24h`, `90m`, `1h30m` or `2d`.")
        seconds = sum(int(n) * _UNITS[u] for n, u in parts)
    if seconds < MIN_CLOCK:
        raise BadDuration("The turn clock must be at least 1 minute.")
    if seconds > MAX_CLOCK:
        raise BadDuration("The turn clock can be at most 30 days.")
    return seconds


def format_duration(seconds: float) -> str:
    """``seconds`` as a short text: ``1d 2h``, ``3h 5m``, ``45m``, ``30s``."""
    s = max(0, int(round(seconds)))
    if s < 60:
        return f"{s}s"
    d, s = divmod(s, 86400)
    h, s = divmod(s, 3600)
    m, s = divmod(s, 60)
    parts = [f"{v}{u}" for v, u in ((d, "d"), (h, "h"), (m, "m")) if v]
    return " ".join(parts[:2])


@dataclass(frozen=True)
class Entry:
    """One active game's clock: its deadline, and the reminder time if not yet reminded."""

    game_id: int
    deadline: float
    remind_at: float | None
    ai_at: float | None = None  # when AI seats awaited beside people may answer (their grace ends)

    @classmethod
    def of(
        cls, game_id: int, deadline: float, clock_seconds: int, reminded: bool, ai_at: float | None = None
    ) -> Entry:
        """The entry of a game whose turn expires at ``deadline`` (half-time reminder), with the
        end of an AI grace at ``ai_at`` if one runs."""
        return cls(game_id, deadline, None if reminded else deadline - clock_seconds / 2, ai_at)


def due(entries: Iterable[Entry], now: float) -> list[tuple[int, str]]:
    """``(game_id, "expire" | "remind" | "ai")`` for every entry due at ``now``, by time. An
    expired game needs no reminder any more; "ai": AI seats awaited beside people may answer."""
    out: list[tuple[float, int, str]] = []
    for e in entries:
        if e.ai_at is not None and e.ai_at <= now and e.deadline > now:
            out.append((e.ai_at, e.game_id, "ai"))
        if e.deadline <= now:
            out.append((e.deadline, e.game_id, "expire"))
        elif e.remind_at is not None and e.remind_at <= now:
            out.append((e.remind_at, e.game_id, "remind"))
    return [(gid, kind) for _, gid, kind in sorted(out)]


def next_wake(entries: Iterable[Entry]) -> float | None:
    """The earliest time at which something becomes due, or None if nothing is scheduled."""
    times = [min(t for t in (e.remind_at, e.deadline, e.ai_at) if t is not None) for e in entries]
    return min(times) if times else None


CONCURRENCY = 8  # due games a tick handles at once

Handler = Callable[[int, str], Awaitable[None]]


class TurnClock:
    """Runs ``handler(game_id, "remind" | "expire" | "ai")`` when games come due.

    ``entries()`` returns the current clock entries (from the service, in memory). The loop sleeps
    until the next wake time (at most ``max_sleep`` seconds, so a changed wall clock is noticed)
    or until :meth:`poke` is called after a deadline changes."""

    def __init__(
        self,
        entries: Callable[[], Iterable[Entry]],
        handler: Handler,
        *,
        now: Callable[[], float] = time.time,
        max_sleep: float = 300.0,
    ) -> None:
        self._entries = entries
        self._handler = handler
        self.now = now
        self.max_sleep = max_sleep
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._busy = asyncio.Lock()
        self.concurrency = CONCURRENCY

    async def tick(self) -> list[tuple[int, str]]:
        """Handle everything due now; returns what was handled. The games are handled
        concurrently (at most :attr:`concurrency` at once; each game's own lock keeps its
        consequences in order), so a slow one never holds up another. A failing handler is
        logged with its game id and does not stop the others."""
        async with self._busy:
            items = due(self._entries(), self.now())
            await self._each(items)
            return items

    async def _each(self, items: list[tuple[int, str]]) -> None:
        """Run the handler for ``items``: one game's items in their order, the games side by
        side under a semaphore of :attr:`concurrency`."""
        games: dict[int, list[str]] = {}
        for gid, kind in items:
            games.setdefault(gid, []).append(kind)
        room = asyncio.Semaphore(self.concurrency)

        async def one(gid: int, kinds: list[str]) -> None:
            async with room:
                for kind in kinds:
                    await self._handle(gid, kind)

        await asyncio.gather(*(one(gid, kinds) for gid, kinds in games.items()))

    async def _handle(self, gid: int, kind: str) -> None:
        try:
            await self._handler(gid, kind)
        except Exception:
            log.exception("Turn clock %s failed for game %s", kind, gid)

    def seconds_to_next(self) -> float:
        """Seconds until the loop should wake next (``max_sleep`` if nothing is scheduled)."""
        wake = next_wake(self._entries())
        if wake is None:
            return self.max_sleep
        return min(self.max_sleep, max(0.0, wake - self.now()))

    def poke(self) -> None:
        """Wake the loop so it recomputes its next wake time (after a deadline changed)."""
        self._wake.set()

    async def _run(self) -> None:
        while True:
            try:
                self._wake.clear()  # a poke during tick() then makes the wait return at once
                await self.tick()
                delay = self.seconds_to_next()
                if delay > 0:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._wake.wait(), timeout=delay)
            except asyncio.CancelledError:
                raise
            except Exception:  # keep the clock alive whatever happens
                log.exception("Turn clock loop error")
                await asyncio.sleep(1)

    def start(self) -> asyncio.Task[None]:
        """Start the loop (idempotent); returns its task."""
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="bazaar-turn-clock")
        return self._task

    async def stop(self) -> None:
        """Cancel the loop and wait for it."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
