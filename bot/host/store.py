"""The event-sourced store: games, seats, an append-only move log, snapshots and posted messages.

One aiosqlite connection in WAL mode with foreign keys on. Every public method is one atomic
unit: a store-wide ``asyncio.Lock`` keeps coroutines from interleaving statements on the shared
connection, and writes run inside ``BEGIN IMMEDIATE … COMMIT``. :meth:`Store.record_move` checks
the game's version inside its transaction, so a move computed on an old version never lands.

Schema changes are numbered files ``bot/migrations/NNNN_name.sql`` applied in order and tracked in
``schema_migrations``.
"""
from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
import sqlite3
import time
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, AsyncIterator, Callable, Iterable, Mapping

import aiosqlite

from .storefail import (CorruptDatabase, StoreError, StoreUnavailable, VersionConflict, prepare_path,  # noqa: F401  (re-exported)
                        probe_write, translatable, unavailable)

log = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).parent / "migrations"
_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
STATUSES = ("lobby", "active", "finished", "ended")
OPEN_STATUSES = ("lobby", "active")


def sql_statements(script: str) -> list[str]:
    """The statements of a migration file, each whole (a trigger's ``BEGIN … END`` included, as
    ``sqlite3.complete_statement`` judges), so each runs through ``execute`` inside the one
    transaction that also records the migration (``executescript`` would commit first)."""
    out: list[str] = []
    buf = ""
    pieces = script.split(";")
    for i, piece in enumerate(pieces):
        buf += piece + (";" if i < len(pieces) - 1 else "")
        if sqlite3.complete_statement(buf):
            if buf.strip(" \t\r\n;"):
                out.append(buf.strip())
            buf = ""
    if buf.strip(" \t\r\n;"):
        raise StoreError(f"a migration ends in an incomplete statement: {buf.strip()[:60]!r}")
    return out


@dataclass(frozen=True)
class GameRow:
    """One row of ``games``; ``options`` is decoded from JSON."""

    id: int
    kind: str
    seed: int
    options: dict[str, Any]
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    creator_id: int
    status: str
    version: int
    clock_seconds: int
    deadline: float | None
    reminded: bool
    attention: str | None
    created_at: float
    updated_at: float

    @property
    def place_id(self) -> int:
        """The channel where the game is played: its thread if it has one, else the channel."""
        return self.thread_id or self.channel_id


@dataclass(frozen=True)
class SeatRow:
    """One row of ``seats``."""

    game_id: int
    seat: int
    user_id: int | None
    name: str
    is_ai: bool
    dm_closed: bool
    dm_hash: str | None
    expiries: int
    ai_takeover: bool
    ai_level: str | None = None  # an AI seat's level (engines.search.LEVELS); None: the default


@dataclass(frozen=True)
class MoveRow:
    """One entry of the append-only move log."""

    game_id: int
    version: int
    seat: int
    action: str
    by: str
    user_id: int | None
    at: float


@dataclass(frozen=True)
class MessageRow:
    """A message the bot posted for a game (so it can edit it or clear its buttons later)."""

    id: int
    game_id: int
    kind: str
    seat: int | None
    channel_id: int
    message_id: int
    version: int
    live: bool
    posted_at: float


@dataclass(frozen=True)
class GameRecord:
    """A game as stored, read at one instant: its row, seats, move log and snapshot
    ``(version, state_json, fingerprint)`` (None before the start)."""

    row: GameRow
    seats: list[SeatRow]
    moves: list[MoveRow]
    snapshot: tuple[int, str, str] | None


_GAME_COLS = ("id, kind, seed, options, guild_id, channel_id, thread_id, creator_id, status, version, "
              "clock_seconds, deadline, reminded, attention, created_at, updated_at")
_SEAT_COLS = "game_id, seat, user_id, name, is_ai, dm_closed, dm_hash, expiries, ai_takeover, ai_level"
_GAME_FIELDS = {"status", "thread_id", "deadline", "reminded", "attention", "channel_id"}
_SEAT_FIELDS = {"user_id", "name", "is_ai", "dm_closed", "dm_hash", "expiries", "ai_takeover", "ai_level"}


async def _worker_gone(connection: aiosqlite.Connection) -> None:
    """Wait for the worker thread of a connection that failed to open to stop (aiosqlite stops it
    but does not wait, so it would answer into a closed event loop with a traceback at exit)."""
    thread = getattr(connection, "_thread", None)
    if thread is not None and thread.is_alive():
        await asyncio.to_thread(thread.join, 5.0)


def _game(row: sqlite3.Row | tuple) -> GameRow:
    (gid, kind, seed, options, guild, channel, thread, creator, status, version, clock, deadline,
     reminded, attention, created, updated) = row
    return GameRow(gid, kind, seed, json.loads(options), guild, channel, thread, creator, status,
                   version, clock, deadline, bool(reminded), attention, created, updated)


def _seat(row: sqlite3.Row | tuple) -> SeatRow:
    gid, seat, user, name, is_ai, dm_closed, dm_hash, expiries, takeover, level = row
    return SeatRow(gid, seat, user, name, bool(is_ai), bool(dm_closed), dm_hash, expiries, bool(takeover), level)


def digest(text: str) -> str:
    """The sha256 hex digest of ``text`` (used for snapshot and private-view fingerprints)."""
    return hashlib.sha256(text.encode()).hexdigest()


def migration_files(folder: Path = MIGRATIONS) -> list[tuple[int, str, Path]]:
    """``(number, name, path)`` of every migration file, in order. Raises :class:`StoreError` if
    two files share a number."""
    out: dict[int, tuple[int, str, Path]] = {}
    for path in sorted(folder.glob("*.sql")):
        m = _MIGRATION_NAME.match(path.name)
        if not m:
            continue
        number = int(m.group(1))
        if number in out:
            raise StoreError(f"two migrations are numbered {number:04d} in {folder}")
        out[number] = (number, path.stem, path)
    return [out[k] for k in sorted(out)]


class Store:
    """The bot's database. Create it with :meth:`open`; close it with :meth:`close`."""

    def __init__(self, db: aiosqlite.Connection, path: Path, now: Callable[[], float]) -> None:
        self._db = db
        self.path = path
        self.now = now
        self._lock = asyncio.Lock()

    # ------------------------------------------------------------------ opening

    BUSY_TIMEOUT_MS = 5000
    """How long a statement waits for another connection's lock before the database counts as
    locked (:class:`StoreUnavailable`)."""

    @classmethod
    async def open(cls, path: str | Path, *, now: Callable[[], float] = time.time,
                   migrate: bool = True, migrations: Path = MIGRATIONS) -> "Store":
        """Open (or create) the database at ``path``, check it, and apply pending migrations.

        A missing file (and folder) gives a fresh database (logged). Raises
        :class:`CorruptDatabase` if the file is not a SQLite database or fails ``PRAGMA
        quick_check``, :class:`StoreUnavailable` if it cannot be opened or written (a folder that
        cannot be created, a read-only file or folder, a lock held by another process), and
        :class:`StoreError` if it was written by a newer schema than this code knows. Every
        message is one line naming the problem and what to do. Nothing is modified in any case.
        """
        path = Path(path)
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
                raise CorruptDatabase(f"the database {path} is damaged (its integrity check says: {found}): "
                                      f"restore a backup, or move it aside to start afresh")
            await db.execute("PRAGMA journal_mode=WAL")
            await db.execute("PRAGMA foreign_keys=ON")
            await db.execute("PRAGMA synchronous=NORMAL")
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
                await store.migrate(migrations)
            except BaseException:
                await store.close()
                raise
        return store

    async def close(self) -> None:
        """Close the connection (idempotent)."""
        try:
            await self._db.close()
        except ValueError:  # already closed
            pass

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
    async def _tx(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction (``BEGIN IMMEDIATE … COMMIT``), rolled back on any error, a
        failing ``COMMIT`` included; the database failing raises :class:`StoreUnavailable`."""
        async with self._lock:
            try:
                await self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                    await self._db.execute("COMMIT")
                except BaseException:
                    await self._rollback()
                    raise
            except sqlite3.Error as err:
                if not translatable(err):
                    raise
                raise self._failed(err) from err

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        """One read transaction: every ``SELECT`` inside sees the same snapshot of the file, even
        with another process writing to it."""
        async with self._lock:
            try:
                await self._db.execute("BEGIN")
                try:
                    yield self._db
                finally:
                    await self._rollback()
            except sqlite3.Error as err:
                if not translatable(err):
                    raise
                raise self._failed(err) from err

    async def _all(self, sql: str, args: Iterable[Any] = ()) -> list[tuple]:
        async with self._lock:
            try:
                async with self._db.execute(sql, tuple(args)) as cur:
                    return list(await cur.fetchall())
            except sqlite3.Error as err:
                if not translatable(err):
                    raise
                raise self._failed(err) from err

    async def _one(self, sql: str, args: Iterable[Any] = ()) -> tuple | None:
        rows = await self._all(sql, args)
        return rows[0] if rows else None

    # ------------------------------------------------------------------ migrations

    async def schema_version(self) -> int:
        """The highest applied migration number (0 for an empty database)."""
        async with self._lock:
            try:
                await self._ensure_migration_table()
                row = await (await self._db.execute("SELECT MAX(version) FROM schema_migrations")).fetchone()
            except sqlite3.Error as err:
                if not translatable(err):
                    raise
                raise self._failed(err) from err
        return int(row[0] or 0)

    async def _ensure_migration_table(self) -> None:
        await self._db.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)")

    async def migrate(self, folder: Path = MIGRATIONS) -> list[int]:
        """Apply every migration newer than the database, each in its own transaction.

        Each transaction first claims the migration's number in ``schema_migrations``, so one
        applied meanwhile by another process on the same file (both read the old version) is
        skipped, not run twice. Returns the numbers applied. Raises :class:`StoreError` if the
        database is newer than the newest file, or if a migration fails (it is rolled back)."""
        files = migration_files(folder)
        current = await self.schema_version()
        newest = files[-1][0] if files else 0
        if current > newest:
            raise StoreError(f"the database {self.path} has schema {current}, newer than this "
                             f"version of Bazaar knows ({newest}); upgrade Bazaar")
        applied: list[int] = []
        for number, name, path in files:
            if number <= current:
                continue
            script = path.read_text()
            async with self._lock:
                try:
                    await self._db.execute("BEGIN IMMEDIATE")
                    await self._db.execute("INSERT INTO schema_migrations (version, name, applied_at) "
                                           "VALUES (?, ?, ?)", (number, name, self.now()))
                    for statement in sql_statements(script):
                        await self._db.execute(statement)
                    await self._db.execute("COMMIT")
                except sqlite3.Error as err:
                    if self._db.in_transaction:
                        await self._db.execute("ROLLBACK")
                    done = await (await self._db.execute(
                        "SELECT 1 FROM schema_migrations WHERE version = ?", (number,))).fetchone()
                    if done:
                        log.info("Database migration %s was applied meanwhile by another process", path.name)
                        continue
                    raise StoreError(f"migration {path.name} failed: {err}") from err
            log.info("Applied database migration %s", path.name)
            applied.append(number)
        return applied

    # ------------------------------------------------------------------ games and seats

    async def create_game(self, *, kind: str, seed: int, options: Mapping[str, Any],
                          guild_id: int | None, channel_id: int, creator_id: int, creator_name: str,
                          clock_seconds: int) -> GameRow:
        """Insert a lobby with the creator in seat 0; returns the new game."""
        at = self.now()
        async with self._tx() as db:
            cur = await db.execute(
                "INSERT INTO games (kind, seed, options, guild_id, channel_id, creator_id, status, "
                "clock_seconds, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'lobby', ?, ?, ?)",
                (kind, seed, json.dumps(dict(options), sort_keys=True), guild_id, channel_id,
                 creator_id, clock_seconds, at, at))
            gid = cur.lastrowid
            await db.execute("INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, 0, ?, ?)",
                             (gid, creator_id, creator_name))
            row = await (await db.execute(f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (gid,))).fetchone()
        return _game(row)

    async def game(self, game_id: int) -> GameRow | None:
        """The game ``game_id``, or None."""
        row = await self._one(f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (game_id,))
        return _game(row) if row else None

    async def games(self, *, statuses: Iterable[str] | None = None, guild_id: int | None = None,
                    place_id: int | None = None) -> list[GameRow]:
        """Games filtered by status, guild, and place (the channel or the thread), by id."""
        where, args = [], []
        if statuses is not None:
            st = list(statuses)
            where.append(f"status IN ({','.join('?' * len(st))})")
            args += st
        if guild_id is not None:
            where.append("guild_id = ?")
            args.append(guild_id)
        if place_id is not None:
            where.append("(channel_id = ? OR thread_id = ?)")
            args += [place_id, place_id]
        sql = f"SELECT {_GAME_COLS} FROM games"
        if where:
            sql += " WHERE " + " AND ".join(where)
        return [_game(r) for r in await self._all(sql + " ORDER BY id", args)]

    async def update_game(self, game_id: int, *, expect_status: str | Iterable[str] | None = None,
                          **fields: Any) -> GameRow:
        """Set ``fields`` (status, thread_id, deadline, reminded, attention, channel_id) and
        return the updated row. Raises :class:`VersionConflict` if ``expect_status`` is given and
        the game's status is not among them, :class:`KeyError` for an unknown game."""
        bad = set(fields) - _GAME_FIELDS
        if bad:
            raise ValueError(f"cannot update {sorted(bad)}")
        async with self._tx() as db:
            row = await (await db.execute("SELECT status FROM games WHERE id = ?", (game_id,))).fetchone()
            if row is None:
                raise KeyError(game_id)
            if expect_status is not None:
                allowed = (expect_status,) if isinstance(expect_status, str) else tuple(expect_status)
                if row[0] not in allowed:
                    raise VersionConflict(f"game {game_id} is {row[0]}, not {'/'.join(allowed)}")
            if "status" in fields and fields["status"] not in STATUSES:
                raise ValueError(f"bad status {fields['status']!r}")
            sets = ", ".join(f"{k} = ?" for k in fields)
            await db.execute(f"UPDATE games SET {sets}{', ' if sets else ''}updated_at = ? WHERE id = ?",
                             (*fields.values(), self.now(), game_id))
            row = await (await db.execute(f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (game_id,))).fetchone()
        return _game(row)

    async def seats(self, game_id: int) -> list[SeatRow]:
        """The seats of a game, by seat number."""
        rows = await self._all(f"SELECT {_SEAT_COLS} FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
        return [_seat(r) for r in rows]

    async def add_seat(self, game_id: int, *, user_id: int | None, name: str, is_ai: bool = False,
                       max_seats: int | None = None, ai_level: str | None = None) -> SeatRow:
        """Append a seat to a lobby. Raises :class:`VersionConflict` if the game is not a lobby
        or already has ``max_seats`` seats, and ``sqlite3.IntegrityError`` if the user is seated."""
        async with self._tx() as db:
            row = await (await db.execute("SELECT status FROM games WHERE id = ?", (game_id,))).fetchone()
            if row is None or row[0] != "lobby":
                raise VersionConflict(f"game {game_id} is not a lobby")
            n = (await (await db.execute("SELECT COUNT(*) FROM seats WHERE game_id = ?", (game_id,))).fetchone())[0]
            if max_seats is not None and n >= max_seats:
                raise VersionConflict(f"game {game_id} is full")
            await db.execute("INSERT INTO seats (game_id, seat, user_id, name, is_ai, ai_level) "
                             "VALUES (?, ?, ?, ?, ?, ?)", (game_id, n, user_id, name, int(is_ai), ai_level))
            await db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (self.now(), game_id))
        return SeatRow(game_id, n, user_id, name, is_ai, False, None, 0, False, ai_level)

    async def remove_seat(self, game_id: int, seat: int, *, end_if_empty: bool = False) -> bool:
        """Remove a lobby seat and close the gap (later seats move up by one); with
        ``end_if_empty``, a lobby left with no person seated is ended in the same transaction.
        Returns whether it was ended. Raises :class:`VersionConflict` if the game is not a lobby."""
        async with self._tx() as db:
            row = await (await db.execute("SELECT status FROM games WHERE id = ?", (game_id,))).fetchone()
            if row is None or row[0] != "lobby":
                raise VersionConflict(f"game {game_id} is not a lobby")
            await db.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat))
            later = await (await db.execute(
                "SELECT seat FROM seats WHERE game_id = ? AND seat > ? ORDER BY seat", (game_id, seat))).fetchall()
            for (s,) in later:
                await db.execute("UPDATE seats SET seat = ? WHERE game_id = ? AND seat = ?", (s - 1, game_id, s))
            people = (await (await db.execute(
                "SELECT COUNT(*) FROM seats WHERE game_id = ? AND is_ai = 0 AND user_id IS NOT NULL",
                (game_id,))).fetchone())[0]
            ended = end_if_empty and people == 0
            await db.execute("UPDATE games SET updated_at = ?" + (", status = 'ended', deadline = NULL" if ended else "")
                             + " WHERE id = ?", (self.now(), game_id))
        return ended

    async def update_seat(self, game_id: int, seat: int, **fields: Any) -> None:
        """Set ``fields`` (dm_closed, dm_hash, expiries, ai_takeover, is_ai, name, user_id)."""
        bad = set(fields) - _SEAT_FIELDS
        if bad:
            raise ValueError(f"cannot update {sorted(bad)}")
        if not fields:
            return
        sets = ", ".join(f"{k} = ?" for k in fields)
        async with self._tx() as db:
            await db.execute(f"UPDATE seats SET {sets} WHERE game_id = ? AND seat = ?",
                             (*(int(v) if isinstance(v, bool) else v for v in fields.values()), game_id, seat))

    # ------------------------------------------------------------------ moves and snapshots

    async def start_game(self, game_id: int, *, state_json: str, deadline: float | None,
                         thread_id: int | None = None) -> GameRow:
        """Turn a lobby into an active game at version 0 with its first snapshot (played in
        ``thread_id`` when given), in one transaction. Raises :class:`VersionConflict` if it is
        not a lobby any more."""
        async with self._tx() as db:
            cur = await db.execute(
                "UPDATE games SET status = 'active', deadline = ?, reminded = 0, updated_at = ?, "
                "thread_id = COALESCE(?, thread_id) WHERE id = ? AND status = 'lobby' AND version = 0",
                (deadline, self.now(), thread_id, game_id))
            if cur.rowcount != 1:
                raise VersionConflict(f"game {game_id} is not a lobby any more")
            await self._put_snapshot(db, game_id, 0, state_json)
            row = await (await db.execute(f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (game_id,))).fetchone()
        return _game(row)

    @staticmethod
    async def _put_snapshot(db: aiosqlite.Connection, game_id: int, version: int, state_json: str) -> None:
        await db.execute(
            "INSERT INTO snapshots (game_id, version, state, fingerprint) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, state = excluded.state, "
            "fingerprint = excluded.fingerprint", (game_id, version, state_json, digest(state_json)))

    async def record_move(self, game_id: int, *, expected_version: int, seat: int, action: str,
                          by: str, user_id: int | None, state_json: str, status: str = "active",
                          deadline: float | None = None, reminded: bool = False,
                          seat_updates: Mapping[int, Mapping[str, Any]] | None = None) -> int:
        """Append one move and its snapshot in one transaction; returns the new version.

        The game must be active at ``expected_version``, else :class:`VersionConflict` is raised
        and nothing is written. ``status`` becomes the game's status (``finished`` at the end);
        ``seat_updates`` maps seats to column values (expiries, ai_takeover) set in the same
        transaction."""
        at = self.now()
        new_version = expected_version + 1
        async with self._tx() as db:
            cur = await db.execute(
                "UPDATE games SET version = ?, status = ?, deadline = ?, reminded = ?, updated_at = ? "
                "WHERE id = ? AND version = ? AND status = 'active'",
                (new_version, status, deadline, int(reminded), at, game_id, expected_version))
            if cur.rowcount != 1:
                raise VersionConflict(f"game {game_id} is not active at version {expected_version}")
            await db.execute(
                "INSERT INTO moves (game_id, version, seat, action, by, user_id, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, new_version, seat, action, by, user_id, at))
            await self._put_snapshot(db, game_id, new_version, state_json)
            for s, fields in (seat_updates or {}).items():
                bad = set(fields) - _SEAT_FIELDS
                if bad:
                    raise ValueError(f"cannot update {sorted(bad)}")
                if fields:
                    sets = ", ".join(f"{k} = ?" for k in fields)
                    await db.execute(f"UPDATE seats SET {sets} WHERE game_id = ? AND seat = ?",
                                     (*(int(v) if isinstance(v, bool) else v for v in fields.values()), game_id, s))
        return new_version

    async def moves(self, game_id: int, *, last: int | None = None) -> list[MoveRow]:
        """The move log of a game in order (only the ``last`` entries if given)."""
        if last is None:
            rows = await self._all("SELECT game_id, version, seat, action, by, user_id, at FROM moves "
                                   "WHERE game_id = ? ORDER BY version", (game_id,))
        else:
            rows = await self._all("SELECT game_id, version, seat, action, by, user_id, at FROM moves "
                                   "WHERE game_id = ? ORDER BY version DESC LIMIT ?", (game_id, last))
            rows.reverse()
        return [MoveRow(*r) for r in rows]

    async def history(self, game_id: int) -> tuple[list[MoveRow], tuple[int, str, str] | None]:
        """The move log and the snapshot of a game read together, in one read transaction (no
        move can commit between the two reads, from this process or another), as :meth:`moves`
        and :meth:`snapshot` return them."""
        record = await self.record(game_id)
        return (record.moves, record.snapshot) if record else ([], None)

    async def record(self, game_id: int) -> "GameRecord | None":
        """Everything a game is loaded from (its row, seats, move log and snapshot), read in one
        read transaction so they belong together; None for an unknown game."""
        async with self._read() as db:
            async with db.execute(f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (game_id,)) as cur:
                row = await cur.fetchone()
            if row is None:
                return None
            async with db.execute(f"SELECT {_SEAT_COLS} FROM seats WHERE game_id = ? ORDER BY seat",
                                  (game_id,)) as cur:
                seats = await cur.fetchall()
            async with db.execute("SELECT game_id, version, seat, action, by, user_id, at FROM moves "
                                  "WHERE game_id = ? ORDER BY version", (game_id,)) as cur:
                moves = await cur.fetchall()
            async with db.execute("SELECT version, state, fingerprint FROM snapshots WHERE game_id = ?",
                                  (game_id,)) as cur:
                snap = await cur.fetchone()
        return GameRecord(_game(row), [_seat(r) for r in seats], [MoveRow(*r) for r in moves],
                          (snap[0], snap[1], snap[2]) if snap else None)

    async def snapshot(self, game_id: int) -> tuple[int, str, str] | None:
        """``(version, state_json, fingerprint)`` of the cached snapshot, or None."""
        row = await self._one("SELECT version, state, fingerprint FROM snapshots WHERE game_id = ?", (game_id,))
        return (row[0], row[1], row[2]) if row else None

    # ------------------------------------------------------------------ posted messages

    async def add_message(self, game_id: int, *, kind: str, channel_id: int, message_id: int,
                          version: int, live: bool = False, seat: int | None = None) -> None:
        """Remember a message the bot posted for ``game_id``."""
        async with self._tx() as db:
            await db.execute(
                "INSERT INTO messages (game_id, kind, seat, channel_id, message_id, version, live, posted_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, kind, seat, channel_id, message_id, version, int(live), self.now()))

    async def messages(self, game_id: int, *, kind: str | None = None,
                       live: bool | None = None) -> list[MessageRow]:
        """Messages posted for a game, oldest first, filtered by kind and liveness."""
        where, args = ["game_id = ?"], [game_id]
        if kind is not None:
            where.append("kind = ?")
            args.append(kind)
        if live is not None:
            where.append("live = ?")
            args.append(int(live))
        rows = await self._all(
            "SELECT id, game_id, kind, seat, channel_id, message_id, version, live, posted_at FROM messages "
            f"WHERE {' AND '.join(where)} ORDER BY id", args)
        return [MessageRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6], bool(r[7]), r[8]) for r in rows]

    async def unposted(self) -> list[tuple[int, int | None]]:
        """``(game id, newest version posted)`` of every active or finished game whose current
        version has no board (``turn``) or score sheet (``final``) message: the bot stopped
        between storing a move and posting it. The version is None when nothing was posted."""
        rows = await self._all(
            "SELECT id, posted FROM (SELECT g.id, g.version, (SELECT MAX(m.version) FROM messages m "
            "WHERE m.game_id = g.id AND m.kind IN ('turn', 'final')) AS posted FROM games g "
            "WHERE g.status IN ('active', 'finished')) WHERE posted IS NULL OR posted < version ORDER BY id")
        return [(gid, posted) for gid, posted in rows]

    async def set_message_version(self, message_id: int, version: int) -> None:
        """Record that the posted message ``message_id`` now shows ``version`` (after an edit)."""
        async with self._tx() as db:
            await db.execute("UPDATE messages SET version = ? WHERE message_id = ?", (version, message_id))

    async def retire_messages(self, ids: Iterable[int]) -> None:
        """Mark messages as no longer carrying buttons."""
        ids = list(ids)
        if not ids:
            return
        async with self._tx() as db:
            await db.execute(f"UPDATE messages SET live = 0 WHERE id IN ({','.join('?' * len(ids))})", ids)

    # ------------------------------------------------------------------ form drafts

    async def draft(self, game_id: int, seat: int, form: str, version: int) -> dict[str, list[str]]:
        """The values ``seat`` has picked so far in ``form`` at game ``version`` ({} when none, or
        when the draft was made at another version)."""
        row = await self._one("SELECT version, data FROM drafts WHERE game_id = ? AND seat = ? AND form = ?",
                              (game_id, seat, form))
        if row is None or row[0] != version:
            return {}
        try:
            data = json.loads(row[1])
        except ValueError:
            return {}
        return {str(k): [str(v) for v in vs] for k, vs in data.items() if isinstance(vs, list)}

    async def save_draft(self, game_id: int, seat: int, form: str, version: int,
                         values: Mapping[str, list[str]]) -> dict[str, list[str]]:
        """Set the picks ``values`` (pick key -> values) in ``seat``'s draft of ``form`` at
        ``version`` (a draft of another version is dropped first); returns the whole draft."""
        async with self._tx() as db:
            cur = await db.execute("SELECT version, data FROM drafts WHERE game_id = ? AND seat = ? AND form = ?",
                                   (game_id, seat, form))
            row = await cur.fetchone()
            draft: dict[str, list[str]] = {}
            if row is not None and row[0] == version:
                try:
                    draft = {str(k): list(v) for k, v in json.loads(row[1]).items()}
                except ValueError:
                    draft = {}
            draft.update({k: list(v) for k, v in values.items()})
            await db.execute(
                "INSERT INTO drafts (game_id, seat, form, version, data) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (game_id, seat, form) DO UPDATE SET version = excluded.version, data = excluded.data",
                (game_id, seat, form, version, json.dumps(draft, sort_keys=True)))
        return draft

    async def drop_drafts(self, game_id: int, seat: int | None = None) -> None:
        """Forget the drafts of a game (of one seat when ``seat`` is given)."""
        async with self._tx() as db:
            if seat is None:
                await db.execute("DELETE FROM drafts WHERE game_id = ?", (game_id,))
            else:
                await db.execute("DELETE FROM drafts WHERE game_id = ? AND seat = ?", (game_id, seat))
