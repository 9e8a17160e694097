"""Database faults for the tests: a connection wrapper that makes chosen statements fail the way
SQLite fails when the disk is full (or any other ``OperationalError``), a hook that runs code
just before a chosen statement (another process writing in between), a real write lock held by
another connection, and copies of damaged database files.

``faults = FaultyDB.install(store)`` puts the wrapper in front of ``store``'s connection;
``faults.fail("COMMIT")`` makes every COMMIT raise until ``faults.heal()``.
"""

from __future__ import annotations

import copy
import sqlite3
from collections.abc import Awaitable, Callable, Generator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bot.host.live import LiveGame

DISK_FULL = "database or disk is full"


def live_fields(game: LiveGame) -> tuple[Any, ...]:
    """What a live game holds, to compare before and after a write the database refused (which
    must change none of it)."""
    return (
        game.state,
        game.row,
        copy.deepcopy(game.seats),
        list(game.pending),
        list(game.outboxes),
        list(game.notes),
        game.started,
        game.closed,
        game.ai_at,
    )


def _refusal(message: str) -> Callable[[], Awaitable[Any]]:
    """A statement's run that fails as SQLite would with ``message``."""

    async def refuse() -> Any:
        raise sqlite3.OperationalError(message)

    return refuse


class _Outcome:
    """What ``execute`` returns: awaitable and an async context manager, like aiosqlite's."""

    def __init__(self, run: Callable[[], Awaitable[Any]]) -> None:
        self._run = run
        self._cursor: Any = None

    def __await__(self) -> Generator[Any, None, Any]:
        return self._run().__await__()

    async def __aenter__(self) -> Any:
        self._cursor = await self._run()
        return self._cursor

    async def __aexit__(self, *exc: Any) -> bool:
        if self._cursor is not None:
            await self._cursor.close()
        return False


class FaultyDB:
    """Stands in for an ``aiosqlite.Connection``: statements whose text starts with (or contains)
    an armed pattern raise ``sqlite3.OperationalError(message)`` without running; everything
    else goes through to the real connection."""

    def __init__(self, db: Any) -> None:
        self._real = db
        self._fail: list[tuple[str, str]] = []
        self._hooks: list[tuple[str, Callable[[], Awaitable[None]]]] = []
        self.failed: list[str] = []  # the statements refused so far

    @classmethod
    def install(cls, store: Any) -> FaultyDB:
        faults = cls(store._db)
        store._db = faults
        return faults

    def fail(self, pattern: str, message: str = DISK_FULL) -> None:
        """Make statements matching ``pattern`` fail with ``message`` (until :meth:`heal`)."""
        self._fail.append((pattern, message))

    def heal(self) -> None:
        """The fault is gone: every statement runs again."""
        self._fail.clear()

    def before(self, pattern: str, hook: Callable[[], Awaitable[None]]) -> None:
        """Run ``hook`` once, just before the next statement matching ``pattern``."""
        self._hooks.append((pattern, hook))

    @staticmethod
    def _matches(sql: str, pattern: str) -> bool:
        return sql.lstrip().upper().startswith(pattern.upper()) or pattern.upper() in sql.upper()

    def execute(self, sql: str, parameters: Any = ()) -> _Outcome:
        for pattern, message in self._fail:
            if self._matches(sql, pattern):
                self.failed.append(sql)

                return _Outcome(_refusal(message))
        hook = next(((p, h) for p, h in self._hooks if self._matches(sql, p)), None)
        if hook is not None:
            self._hooks.remove(hook)

        async def run() -> Any:
            if hook is not None:
                await hook[1]()
            return await self._real.execute(sql, parameters)

        return _Outcome(run)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


@contextmanager
def write_lock(path: Path) -> Iterator[sqlite3.Connection]:
    """Another process's connection holding the write lock on ``path`` (``BEGIN IMMEDIATE``)."""
    other = sqlite3.connect(path, isolation_level=None, timeout=0.1)
    try:
        other.execute("BEGIN IMMEDIATE")
        yield other
    finally:
        if other.in_transaction:
            other.execute("ROLLBACK")
        other.close()


@contextmanager
def exclusive_lock(path: Path) -> Iterator[sqlite3.Connection]:
    """Another process's connection holding ``path`` exclusively (rollback journal, exclusive
    locking mode, an open write): not even a read gets through."""
    other = sqlite3.connect(path, isolation_level=None, timeout=0.1)
    try:
        other.execute("PRAGMA journal_mode=DELETE")
        other.execute("PRAGMA locking_mode=EXCLUSIVE")
        other.execute("BEGIN EXCLUSIVE")
        yield other
    finally:
        if other.in_transaction:
            other.execute("ROLLBACK")
        other.close()


def damaged_copies(good: Path, folder: Path) -> dict[str, Path]:
    """Files that are not usable databases, next to a good one: random bytes, the good file cut
    in half and cut to its first page, and a text file."""
    import random

    data = good.read_bytes()
    out = {
        "random bytes": random.Random(7).randbytes(8192),
        "truncated": data[: len(data) // 2],
        "first page only": data[:4096],
        "text file": b"# bazaar settings\nDISCORD_TOKEN=\n" * 20,
    }
    paths = {}
    for name, blob in out.items():
        p = folder / (name.replace(" ", "-") + ".sqlite3")
        p.write_bytes(blob)
        paths[name] = p
    return paths
