"""The worker pool: CPU-heavy jobs (drawing boards, AI search) run in other processes, one per core,
so a burst keeps every core busy and the event loop stays free for the gateway heartbeat and
interaction acknowledgements.

A job is a module-level function and picklable arguments (views, names, seeds: never a state
holding hidden information the job's reader may not see). ``Workers(0)`` runs jobs in threads of
this process instead, for tests and for machines where processes cannot be started.

Size: ``BAZAAR_WORKERS`` (a number; ``0`` for threads), else the machine's cores.

Long jobs (a finished game's recap: 3 to 16 CPU-seconds) go to a lane of their own
(:meth:`Workers.run_long`): one more process, at a lowered CPU priority (``os.nice(LANE_NICE)``),
so the system always runs the board workers first and a board never waits in a queue behind a
recap. With ``Workers(0)`` the lane is one thread of its own.

The board pool serves boards first: jobs pass a :class:`~bot.host.jobgate.Gate` in order of
their priority (boards, then the AI of games people play, then the AI of games nobody plays), and
AI searches never hold every worker (see :mod:`bot.host.jobgate`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures as cf
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from .jobgate import JOB_PRIORITY, Gate
from .lane import Lane, LaneBroken

log = logging.getLogger(__name__)
T = TypeVar("T")
THREADS = 4  # the pool's threads with Workers(0)
LANE_NICE = 10  # the long-job lane's niceness: the board workers (0) get the cores first


class WorkersClosed(RuntimeError):
    """A long job was cut short or refused because the pool was closed (the bot is stopping)."""


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

    threading.Thread(
        target=_exit_with_parent, args=(os.getppid(),), name="bazaar-orphan-watch", daemon=True
    ).start()
    engines.load_all()


def _warm_lane() -> None:
    """Run once in the long-job lane's process: lower its CPU priority (so the system prefers
    the board workers and the bot whenever they want a core), then as :func:`_warm`."""
    try:
        os.nice(LANE_NICE)
    except OSError as err:  # not allowed here: the lane still runs, as a separate queue
        log.warning("The long-job worker could not lower its priority: %s", err)
    _warm()


def _exit_with_parent(parent: int, every: float = 1.0) -> None:
    """End this worker once the process that started it is gone (killed, out of memory): a worker
    holds both ends of its job queue, so it would otherwise wait for jobs for ever."""
    while True:
        time.sleep(every)
        if os.getppid() != parent:
            os._exit(0)


class Workers:
    """A pool of ``size`` worker processes (``0``: threads in this process) for boards and the
    AI, and a lane of one more for long jobs (:meth:`run_long`)."""

    def __init__(self, size: int | None = None) -> None:
        self.size = default_size() if size is None else size
        self._pool: cf.Executor | None = None
        self._lane: cf.Executor | None = None  # threads (Workers(0)) only
        self._lane_process: Lane | None = None
        self._broken = 0
        self._closings = 0  # how many times close() ran: a long job that saw one is cut short
        self.gate = Gate(self.size or THREADS)  # boards first, then AI seats people wait on

    def _executor(self) -> cf.Executor:
        if self._pool is None:
            self._pool = self._new_pool(self.size, THREADS, "bazaar-job", _warm)
        return self._pool

    def _lane_executor(self) -> cf.Executor:
        if self._lane is None:
            self._lane = self._new_pool(1, 1, "bazaar-long-job", _warm_lane)
        return self._lane

    def _new_pool(self, processes: int, threads: int, name: str, warm: Callable[[], None]) -> cf.Executor:
        """``processes`` worker processes started with ``warm``, or ``threads`` threads called
        ``name`` with ``Workers(0)``."""
        if self.size == 0:
            return cf.ThreadPoolExecutor(max_workers=threads, thread_name_prefix=name)
        # spawn: a fork of a process running an event loop and threads is unsafe
        ctx = multiprocessing.get_context("spawn")
        return cf.ProcessPoolExecutor(max_workers=processes, mp_context=ctx, initializer=warm)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker; its result, or its exception raised here. A pool whose
        worker died (killed, out of memory) is replaced once per call and the job tried again.
        Jobs wait their turn by :data:`~bot.host.jobgate.JOB_PRIORITY` (boards first)."""
        await self.gate.enter(JOB_PRIORITY.get())
        try:
            return await self._run(False, fn, args, self._closings)
        finally:
            self.gate.leave()

    async def run_long(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the long-job lane (one process at a lowered priority; one thread with
        ``Workers(0)``), never in the board pool: jobs there queue behind each other only.
        Raises :class:`WorkersClosed` if the pool is closed before the job's result is back."""
        closings = self._closings
        try:
            result = await self._run(True, fn, args, closings)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if self._closings != closings and not (task and task.cancelling()):  # by close(), not the caller
                raise WorkersClosed("the worker pool was closed before the job ran") from None
            raise
        if self._closings != closings:  # a thread's job ran on after close: its result is for nobody
            raise WorkersClosed("the worker pool was closed while the job ran")
        return result

    async def _run(self, lane: bool, fn: Callable[..., T], args: tuple[Any, ...], closings: int = 0) -> T:
        if lane and self.size:
            return await self._run_lane(fn, args, closings)
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            pool = self._lane_executor() if lane else self._executor()
            try:
                return await loop.run_in_executor(pool, fn, *args)
            except BrokenProcessPool:  # (cf.process is only there once a process pool was made)
                if lane and self._closings != closings:
                    raise WorkersClosed("the worker pool was closed while the job ran") from None
                self._broken += 1
                log.warning("A worker process died; starting a new pool (attempt %d)", attempt)
                if lane:
                    self._lane = None
                else:
                    self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def _run_lane(self, fn: Callable[..., T], args: tuple[Any, ...], closings: int) -> T:
        """A long job in the lane process; a process that died under it is replaced once."""
        for attempt in (1, 2):
            if self._lane_process is None:
                self._lane_process = Lane(_warm_lane)
            lane = self._lane_process
            try:
                result: T = await lane.run(fn, args)
                return result
            except LaneBroken:
                if self._closings != closings:
                    raise WorkersClosed("the worker pool was closed while the job ran") from None
                self._broken += 1
                log.warning("The long-job worker died; starting a new one (attempt %d)", attempt)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def lane_pids(self) -> list[int]:
        """The process ids of the long-job lane (none before its first job, or with threads)."""
        return self._lane_process.pids() if self._lane_process is not None else []

    def close(self) -> None:
        """Stop both pools through their public APIs. A board job running finishes (they take
        milliseconds); the lane's process is ended at once (a recap cut short is drawn again by
        the next run: see ``Publisher.landed``)."""
        self._closings += 1
        if self._pool is not None:
            pool, self._pool = self._pool, None
            pool.shutdown(wait=True, cancel_futures=True)
        if self._lane is not None:
            lane, self._lane = self._lane, None
            lane.shutdown(wait=False, cancel_futures=True)
        if self._lane_process is not None:
            process, self._lane_process = self._lane_process, None
            process.close()
