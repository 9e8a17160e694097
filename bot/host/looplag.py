"""How late the event loop runs: a task sleeps a short interval again and again and notes how much
longer than asked each sleep took. That overshoot is how long a gateway heartbeat or an
interaction acknowledgement due at that moment waited behind other work on the loop.

A stall longer than :data:`STALL_S` is logged as a warning; a summary of each minute is logged at
DEBUG. With ``record`` (``BAZAAR_LAG_LOG``, for benchmarks) every sample is appended to that file
as ``<unix time> <lag ms>`` lines, flushed about once a second.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from pathlib import Path

log = logging.getLogger(__name__)

INTERVAL_S = 0.02  # the sampler's sleep
STALL_S = 0.5  # a single overshoot this long is worth a warning
SUMMARY_S = 60.0  # a DEBUG summary this often
KEEP = 30_000  # samples kept in memory (10 minutes at the interval)


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile of ``values`` (``q`` in 0..100); 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, -(-len(ordered) * q // 100) - 1))
    return ordered[int(k)]


class LagMonitor:
    """Samples the running loop's lag (see the module docstring) once started."""

    def __init__(self, *, interval: float = INTERVAL_S, record: Path | None = None) -> None:
        self.interval = interval
        self.record = record
        self.samples: deque[tuple[float, float]] = deque(maxlen=KEEP)  # (unix time, lag s)
        self._task: asyncio.Task[None] | None = None
        self._unwritten: list[str] = []

    def start(self) -> None:
        """Start sampling on the running loop (idempotent)."""
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="bazaar-loop-lag")

    async def stop(self) -> None:
        """Stop sampling and write what is left to ``record``."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        self._flush()

    def lags(self, since: float = 0.0) -> list[float]:
        """The lags (seconds) sampled at or after the Unix time ``since``."""
        return [lag for t, lag in self.samples if t >= since]

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        flushed = summary = loop.time()
        window: list[float] = []
        while True:
            start = loop.time()
            await asyncio.sleep(self.interval)
            now = loop.time()
            lag = max(0.0, now - start - self.interval)
            self.samples.append((time.time(), lag))
            window.append(lag)
            if lag >= STALL_S:
                log.warning("The event loop was held up for %.0f ms", 1000 * lag)
            if self.record is not None:
                self._unwritten.append(f"{time.time():.3f} {1000 * lag:.2f}\n")
                if now - flushed >= 1.0:
                    self._flush()
                    flushed = now
            if now - summary >= SUMMARY_S:
                log.debug(
                    "Event loop lag over %.0f s: p99 %.1f ms, max %.1f ms",
                    now - summary,
                    1000 * percentile(window, 99),
                    1000 * max(window),
                )
                window, summary = [], now

    def _flush(self) -> None:
        if self.record is None or not self._unwritten:
            return
        try:
            with open(self.record, "a", encoding="utf-8") as out:
                out.writelines(self._unwritten)
        except OSError as err:
            log.warning(
                "Cannot write the event loop's lag to %s: %s; no longer recording it", self.record, err
            )
            self.record = None
        self._unwritten = []
