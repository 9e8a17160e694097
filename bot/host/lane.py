"""The long-job lane in a process of its own, started, used and ended through public APIs only.

A :class:`Lane` owns one ``multiprocessing`` process (``spawn``) that runs one job at a time,
sent to it through a pipe. Ending it is ``Process.terminate`` (a recap cut short is drawn again
by the next run), not a private attribute of ``concurrent.futures``; nothing is left for the
interpreter's exit hooks, so a clean stop prints no traceback. A process that dies under a job
(killed, out of memory) is reported as :class:`LaneBroken`; the next job starts a new one.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any


class LaneBroken(RuntimeError):
    """The lane's process ended before it answered (killed, out of memory, or closed)."""


def _serve(conn: Connection, warm: Callable[[], None]) -> None:
    """The lane process: warm up, then answer each ``(fn, args)`` with ``(True, result)`` or
    ``(False, exception)`` until the pipe closes."""
    warm()
    while True:
        try:
            fn, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply: tuple[bool, Any] = (True, fn(*args))
        except BaseException as err:  # noqa: BLE001 - every failure goes back to the caller
            reply = (False, err)
        try:
            conn.send(reply)
        except (BrokenPipeError, OSError):
            return


class Lane:
    """One worker process for long jobs, one job at a time (callers queue on a lock)."""

    def __init__(self, warm: Callable[[], None]) -> None:
        self._warm = warm
        self._ctx = multiprocessing.get_context("spawn")  # a fork of a process with threads is unsafe
        self._proc: Any = None
        self._conn: Connection | None = None
        self._lock: asyncio.Lock | None = None
        self._guard = threading.Lock()

    def pids(self) -> list[int]:
        """The lane process's id while it runs (none before the first job or after close)."""
        proc = self._proc
        return [proc.pid] if proc is not None and proc.is_alive() else []

    def _start(self) -> Connection:
        with self._guard:
            if self._proc is None or not self._proc.is_alive():
                parent, child = self._ctx.Pipe()
                proc = self._ctx.Process(
                    target=_serve, args=(child, self._warm), name="bazaar-long-job", daemon=True
                )
                proc.start()
                child.close()
                self._proc, self._conn = proc, parent
            assert self._conn is not None
            return self._conn

    async def run(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        """``fn(*args)`` in the lane process; its result, or its exception raised here. Raises
        :class:`LaneBroken` if the process ends first."""
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            conn = self._start()
            loop = asyncio.get_running_loop()
            try:
                await loop.run_in_executor(None, conn.send, (fn, args))
                ok, value = await loop.run_in_executor(None, conn.recv)
            except (EOFError, OSError, ValueError) as err:  # the process (or the pipe) is gone
                self.close()
                raise LaneBroken("the long-job process ended before it answered") from err
        if ok:
            return value
        raise value

    def close(self) -> None:
        """End the lane process at once (a running job is lost) and close its pipe."""
        with self._guard:
            proc, conn = self._proc, self._conn
            self._proc = self._conn = None
        if proc is not None:
            if proc.is_alive():
                proc.terminate()
            proc.join(5)
        if conn is not None:
            conn.close()
