"""The SQLite backend of :class:`~bot.host.store.Store` (the default: ``BAZAAR_DB`` a file path).

One aiosqlite connection in WAL mode with foreign keys on. A store-wide ``asyncio.Lock`` keeps
coroutines from interleaving statements on the shared connection, and writes run inside
``BEGIN IMMEDIATE … COMMIT`` (so another process on the same file waits for the lock, at most
:attr:`Store.BUSY_TIMEOUT_MS`). The file is checked before the store serves (see
:mod:`bot.host.storefail`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from .store_base import Store
from .store_schema import MIGRATIONS, migration_files, sql_statements
from .storefail import (
    ConstraintViolation,
    CorruptDatabase,
    StoreError,
    prepare_path,
    probe_write,
    translatable,
    unavailable,
)

log = logging.getLogger("bot.host.store")


async def _worker_gone(connection: aiosqlite.Connection) -> None:
    """Wait for the worker thread of a connection that failed to open to stop (aiosqlite stops it
    but does not wait, so it would answer into a closed event loop with a traceback at exit)."""
    thread = getattr(connection, "_thread", None)
    if thread is not None and thread.is_alive():
        await asyncio.to_thread(thread.join, 5.0)


class _Handle:
    """Statements of the open transaction on the store's connection (looked up at each call, so
    a test's fault wrapper put in front of it is used)."""

    def __init__(self, store: SqliteStore) -> None:
        self._store = store

    async def sql_rows(self, sql: str, args: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        try:
            async with self._store._db.execute(sql, tuple(args)) as cur:
                return [tuple(r) for r in await cur.fetchall()]
        except sqlite3.IntegrityError as err:
            raise ConstraintViolation(str(err)) from err

    async def sql_row(self, sql: str, args: Iterable[Any] = ()) -> tuple[Any, ...] | None:
        rows = await self.sql_rows(sql, args)
        return rows[0] if rows else None

    async def sql_run(self, sql: str, args: Iterable[Any] = ()) -> int:
        try:
            cur = await self._store._db.execute(sql, tuple(args))
        except sqlite3.IntegrityError as err:
            raise ConstraintViolation(str(err)) from err
        return int(cur.rowcount)

    async def sql_insert(self, sql: str, args: Iterable[Any] = ()) -> int:
        try:
            cur = await self._store._db.execute(sql, tuple(args))
        except sqlite3.IntegrityError as err:
            raise ConstraintViolation(str(err)) from err
        return int(cur.lastrowid or 0)

    async def sql_many(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        try:
            await self._store._db.executemany(sql, [tuple(r) for r in rows])
        except sqlite3.IntegrityError as err:
            raise ConstraintViolation(str(err)) from err

    async def sql_copy(self, table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
        """Many rows into ``table`` (PostgreSQL copies them; here, one ``executemany``)."""
        marks = ", ".join("?" * len(columns))
        await self.sql_many(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)


class SqliteStore(Store):
    """The store on a SQLite file."""

    dialect = "sqlite"

    def __init__(self, db: aiosqlite.Connection, path: Path, now: Callable[[], float]) -> None:
        self._db = db
        self.path = path
        self.now = now
        self._lock = asyncio.Lock()

    def describe(self) -> str:
        return str(self.path)

    @classmethod
    async def connect(
        cls,
        target: str | Path,
        *,
        now: Callable[[], float],
        migrate: bool = True,
        migrations: Path | None = None,
    ) -> SqliteStore:
        """Open (or create) the database at ``path``, check it, and apply pending migrations.

        A missing file (and folder) gives a fresh database (logged). Raises
        :class:`CorruptDatabase` if the file is not a SQLite database or fails ``PRAGMA
        quick_check``, :class:`StoreUnavailable` if it cannot be opened or written (a folder that
        cannot be created, a read-only file or folder, a lock held by another process), and
        :class:`StoreError` if it was written by a newer schema than this code knows. Every
        message is one line naming the problem and what to do. Nothing is modified in any case.
        """
        path = Path(target)
        fresh = prepare_path(path)
        if fresh:
            log.info("No database at %s: creating a fresh one.", path)
        # the busy timeout: how long a statement waits out another connection's lock
        connection = aiosqlite.connect(path, isolation_level=None, timeout=cls.BUSY_TIMEOUT_MS / 1000)
        try:
            db = await connection
        except sqlite3.Error as err:
            await _worker_gone(connection)
            raise unavailable(err, path) from err
        try:
            check = await (await db.execute("PRAGMA quick_check")).fetchone()
            if not check or check[0] != "ok":
                found = " ".join(str(check[0] if check else "no answer").split())[:200]
                raise CorruptDatabase(
                    f"the database {path} is damaged (its integrity check says: {found}): "
                    f"restore a backup, or move it aside to start afresh"
                )
            await db.execute("PRAGMA journal_mode=WAL")
            await db.execute("PRAGMA foreign_keys=ON")
            # FULL: a move acknowledged to a player is on disk, WAL and all, before the
            # acknowledgement (NORMAL may lose the last transactions on a power loss)
            await db.execute("PRAGMA synchronous=FULL")
            await probe_write(db)
        except sqlite3.Error as err:
            await db.close()
            raise unavailable(err, path) from err
        except BaseException:
            await db.close()
            raise
        store = cls(db, path, now)
        if migrate:
            try:
                await store.migrate(migrations or MIGRATIONS)
            except BaseException:
                await store.close()
                raise
        return store

    async def close(self) -> None:
        with contextlib.suppress(ValueError):  # already closed
            await self._db.close()

    def _failed(self, err: sqlite3.Error) -> StoreError:
        """The :class:`StoreUnavailable` (or :class:`CorruptDatabase`) for the database failing
        with ``err`` (see :func:`~bot.host.storefail.translatable`), logged as one line."""
        failure = unavailable(err, self.path)
        log.warning("Database error: %s", failure)
        return failure

    async def _rollback(self) -> None:
        """Roll back the open transaction, if any (SQLite may already have rolled it back)."""
        try:
            if self._db.in_transaction:
                await self._db.execute("ROLLBACK")
        except sqlite3.Error as err:
            log.warning("Rolling back failed: %s", err)

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[_Handle]:
        """``BEGIN IMMEDIATE … COMMIT``, rolled back on any error, a failing ``COMMIT`` included."""
        async with self._lock:
            try:
                await self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield _Handle(self)
                    await self._db.execute("COMMIT")
                except BaseException:
                    await self._rollback()
                    raise
            except sqlite3.Error as err:
                if not translatable(err):
                    raise
                raise self._failed(err) from err

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[_Handle]:
        """``BEGIN … ROLLBACK``: every ``SELECT`` inside sees the same snapshot of the file, even
        with another process writing to it."""
        async with self._lock:
            try:
                await self._db.execute("BEGIN")
                try:
                    yield _Handle(self)
                finally:
                    await self._rollback()
            except sqlite3.Error as err:
                if not translatable(err):
                    raise
                raise self._failed(err) from err

    async def _all(self, sql: str, args: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        async with self._lock:
            try:
                async with self._db.execute(sql, tuple(args)) as cur:
                    return [tuple(r) for r in await cur.fetchall()]
            except sqlite3.Error as err:
                if not translatable(err):
                    raise
                raise self._failed(err) from err

    # ------------------------------------------------------------------ migrations

    async def schema_version(self) -> int:
        async with self._lock:
            try:
                await self._ensure_migration_table()
                row = await (await self._db.execute("SELECT MAX(version) FROM schema_migrations")).fetchone()
            except sqlite3.Error as err:
                if not translatable(err):
                    raise
                raise self._failed(err) from err
        return int(row[0] or 0) if row else 0

    async def _ensure_migration_table(self) -> None:
        await self._db.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
        )

    async def migrate(self, folder: Path | None = None) -> list[int]:
        """Apply every migration newer than the database, each in its own transaction.

        Each transaction first claims the migration's number in ``schema_migrations``, so one
        applied meanwhile by another process on the same file (both read the old version) is
        skipped, not run twice. Returns the numbers applied. Raises :class:`StoreError` if the
        database is newer than the newest file, or if a migration fails (it is rolled back)."""
        files = migration_files(folder or MIGRATIONS)
        current = await self.schema_version()
        newest = files[-1][0] if files else 0
        if current > newest:
            raise StoreError(
                f"the database {self.path} has schema {current}, newer than this "
                f"version of Bazaar knows ({newest}); upgrade Bazaar"
            )
        applied: list[int] = []
        for number, name, path in files:
            if number <= current:
                continue
            script = path.read_text()
            async with self._lock:
                try:
                    await self._db.execute("BEGIN IMMEDIATE")
                    await self._db.execute(
                        "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                        (number, name, self.now()),
                    )
                    for statement in sql_statements(script):
                        await self._db.execute(statement)
                    await self._db.execute("COMMIT")
                except sqlite3.Error as err:
                    if self._db.in_transaction:
                        await self._db.execute("ROLLBACK")
                    done = await (
                        await self._db.execute("SELECT 1 FROM schema_migrations WHERE version = ?", (number,))
                    ).fetchone()
                    if done:
                        log.info("Database migration %s was applied meanwhile by another process", path.name)
                        continue
                    raise StoreError(f"migration {path.name} failed: {err}") from err
            log.info("Applied database migration %s", path.name)
            applied.append(number)
        return applied
