"""The worker pool: CPU-heavy jobs (drawing boards, AI search) run in other processes, one per core,
so a burst keeps every core busy and the event loop stays free for the gateway heartbeat and
interaction acknowledgements.

A job is a module-level function and picklable arguments (views, names, seeds: never a state
holding hidden information the job's reader may not see). ``Workers(0)`` runs jobs in threads of
this process instead, for tests and for machines where processes cannot be started.

Size: ``BAZAAR_WORKERS`` (a number; ``0`` for threads), else the machine's cores.
"""

from __future__ import annotations

import asyncio
import concurrent.futures as cf
from concurrent.futures.process import BrokenProcessPool
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")


def default_size() -> int:
    """``BAZAAR_WORKERS`` if set to a whole number ≥ 0, else the cores this process may use."""
    raw = os.environ.get("BAZAAR_WORKERS", "").strip()
    if raw:
        try:
            value = int(raw)
        except ValueError:
            value = -1
        if value >= 0:
            return value
        log.warning("BAZAAR_WORKERS=%r is not a whole number ≥ 0; using one worker per core", raw)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not Linux
        return max(1, os.cpu_count() or 1)


def _warm() -> None:
    """Run once in each new worker: import the engines and renderers before the first job, and
    watch the bot's process (see :func:`_exit_with_parent`)."""
    import engines

    threading.Thread(target=_exit_with_parent, args=(os.getppid(),), name="bazaar-orphan-watch", daemon=True).start()
    engines.load_all()


def _exit_with_parent(parent: int, every: float = 1.0) -> None:
    """End this worker once the process that started it is gone (killed, out of memory): a worker
    holds both ends of its job queue, so it would otherwise wait for jobs for ever."""
    while True:
        time.sleep(every)
        if os.getppid() != parent:
            os._exit(0)


class Workers:
    """A pool of ``size`` worker processes (``0``: threads in this process)."""

    def __init__(self, size: int | None = None) -> None:
        self.size = default_size() if size is None else size
        self._pool: cf.Executor | None = None
        self._broken = 0

    def _executor(self) -> cf.Executor:
        if self._pool is None:
            if self.size == 0:
                self._pool = cf.ThreadPoolExecutor(max_workers=4, thread_name_prefix="bazaar-job")
            else:
                # spawn: a fork of a process running an event loop and threads is unsafe
                ctx = multiprocessing.get_context("spawn")
                self._pool = cf.ProcessPoolExecutor(max_workers=self.size, mp_context=ctx, initializer=_warm)
        return self._pool

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker; its result, or its exception raised here. A pool whose
        worker died (killed, out of memory) is replaced once per call and the job tried again."""
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            pool = self._executor()
            try:
                return await loop.run_in_executor(pool, fn, *args)
            except BrokenProcessPool:  # (cf.process is only there once a process pool was made)
                self._broken += 1
                log.warning("A worker process died; starting a new pool (attempt %d)", attempt)
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
