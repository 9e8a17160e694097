"""The store's interface and the SQL both backends share: the row types, the migration files, and
:class:`Store` with every method written once (see :mod:`bot.host.store` for how a backend is
chosen, :mod:`bot.host.store_sqlite` and :mod:`bot.host.store_pg` for the two backends).

Every method is written in SQL both dialects accept, with ``?`` placeholders (renumbered ``$1,
$2…`` for PostgreSQL), and runs through a transaction handle the backend provides
(:class:`Handle`). Every public method is one atomic unit (one transaction).
:meth:`Store.record_move` checks the game's version inside its transaction (``UPDATE games …
WHERE id = ? AND version = ?``), so a move computed on an old version never lands, whichever
process computed it: on PostgreSQL the second of two concurrent updates of the row waits for
the first to commit and then matches no row. :meth:`Store.claim_due` hands due turn clocks to
one process at a time, with a lease.

Schema changes are numbered files ``bot/host/migrations/<dialect>/NNNN_name.sql`` (the same
numbers, tables and columns in both dialects; a test reads both schemas back), applied in order
and tracked in ``schema_migrations``.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import time
from collections.abc import Callable, Iterable, Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, cast

from .store_posts import PostClaims
from .storefail import ConstraintViolation as ConstraintViolation  # re-exported
from .storefail import CorruptDatabase as CorruptDatabase  # re-exported
from .storefail import StoreError, VersionConflict
from .storefail import StoreUnavailable as StoreUnavailable  # re-exported

MIGRATIONS_ROOT = Path(__file__).parent / "migrations"
MIGRATIONS = MIGRATIONS_ROOT / "sqlite"
PG_MIGRATIONS = MIGRATIONS_ROOT / "postgres"
_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
STATUSES = ("lobby", "active", "finished", "ended")
OPEN_STATUSES = ("lobby", "active")
PG_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(target: str | Path) -> bool:
    """Whether ``target`` (a ``BAZAAR_DB`` value) names a PostgreSQL database, not a file."""
    return isinstance(target, str) and target.strip().lower().startswith(PG_SCHEMES)


def sql_statements(script: str) -> list[str]:
    """The statements of a migration file, each whole (a trigger's ``BEGIN … END`` included, as
    ``sqlite3.complete_statement`` judges), so each runs through ``execute`` inside the one
    transaction that also records the migration (``executescript`` would commit first). The
    PostgreSQL files write function bodies as quoted strings, which split the same way."""
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


_SEAT_FLAGS = "(is_ai + 2 * ai_takeover + 4 * dm_closed) * (1 << (3 * seat))"
"""The seat flags a process acts on, three bits a seat, summed over a game's seats by
:meth:`Store.stamp` (the same number :func:`seat_flags` makes of seats held in memory)."""


def seat_flags(seats: Iterable[SeatRow]) -> int:
    """The number :data:`_SEAT_FLAGS` sums in the database, of ``seats`` held in memory."""
    return sum((s.is_ai + 2 * s.ai_takeover + 4 * s.dm_closed) << (3 * s.seat) for s in seats)


def stamp_of(row: GameRow, seats: Iterable[SeatRow]) -> tuple[int, str, int, int]:
    """What :meth:`Store.stamp` returns for a game stored as ``row`` and ``seats``."""
    seats = list(seats)
    return (row.version, row.status, len(seats), seat_flags(seats))


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


_GAME_COLS = (
    "id, kind, seed, options, guild_id, channel_id, thread_id, creator_id, status, version, "
    "clock_seconds, deadline, reminded, attention, created_at, updated_at"
)
_SEAT_COLS = "game_id, seat, user_id, name, is_ai, dm_closed, dm_hash, expiries, ai_takeover, ai_level"
_MOVE_COLS = "game_id, version, seat, action, by, user_id, at"
_MESSAGE_COLS = "id, game_id, kind, seat, channel_id, message_id, version, live, posted_at"
_GAME_FIELDS = {"status", "thread_id", "deadline", "reminded", "attention", "channel_id"}
_SEAT_FIELDS = {"user_id", "name", "is_ai", "dm_closed", "dm_hash", "expiries", "ai_takeover", "ai_level"}
# every column of every table, in the order the copy (export_rows / import_rows) moves them
_COPY_GAMES = (
    "id, kind, seed, options, guild_id, channel_id, thread_id, creator_id, status, version, "
    "clock_seconds, deadline, reminded, attention, created_at, updated_at, claim_owner, claim_until"
)
_COPY_SEATS = "game_id, seat, user_id, name, is_ai, dm_closed, dm_hash, expiries, ai_takeover, ai_level"
_COPY_MOVES = "game_id, version, seat, action, by, user_id, at"
_COPY_SNAPSHOTS = "game_id, version, state, fingerprint"
_COPY_MESSAGES = "id, game_id, kind, seat, channel_id, message_id, version, live, posted_at"
_COPY_DRAFTS = "game_id, seat, form, version, data"
COPY_TABLES = ("games", "seats", "moves", "snapshots", "messages", "drafts")
# due: the deadline has passed, or the half-time reminder is owed (see bot.host.clock.due)
_DUE = (
    "status = 'active' AND deadline IS NOT NULL AND (deadline <= ? OR "
    "(reminded = 0 AND deadline - clock_seconds / 2.0 <= ?)) AND (claim_until IS NULL OR claim_until <= ?)"
)


def _game(row: Any) -> GameRow:
    (
        gid,
        kind,
        seed,
        options,
        guild,
        channel,
        thread,
        creator,
        status,
        version,
        clock,
        deadline,
        reminded,
        attention,
        created,
        updated,
    ) = row
    return GameRow(
        gid,
        kind,
        seed,
        json.loads(options),
        guild,
        channel,
        thread,
        creator,
        status,
        version,
        clock,
        deadline,
        bool(reminded),
        attention,
        created,
        updated,
    )


def _seat(row: Any) -> SeatRow:
    gid, seat, user, name, is_ai, dm_closed, dm_hash, expiries, takeover, level = row
    return SeatRow(
        gid, seat, user, name, bool(is_ai), bool(dm_closed), dm_hash, expiries, bool(takeover), level
    )


def _message(r: Any) -> MessageRow:
    return MessageRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6], bool(r[7]), r[8])


def _plain(v: Any) -> Any:
    """A value as stored: flags are 0/1 integers in both dialects."""
    return int(v) if isinstance(v, bool) else v


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


BACKENDS: dict[str, type[Store]] = {}
"""The store class of each dialect (``sqlite``, ``postgres``), filled in by :mod:`bot.host.store`."""


class Handle(Protocol):
    """One open transaction of a backend. Statements use ``?`` placeholders and are always
    parameterised. Constraint violations raise :class:`ConstraintViolation`."""

    async def sql_rows(self, sql: str, args: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        """Every row the statement returns."""

    async def sql_row(self, sql: str, args: Iterable[Any] = ()) -> tuple[Any, ...] | None:
        """The first row the statement returns, or None."""

    async def sql_run(self, sql: str, args: Iterable[Any] = ()) -> int:
        """Run a statement; returns the number of rows it changed."""

    async def sql_insert(self, sql: str, args: Iterable[Any] = ()) -> int:
        """Run an ``INSERT`` into a table with an ``id`` column; returns the new row's id."""

    async def sql_many(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        """Run one statement once per row of parameters."""


class Store(PostClaims):
    """The bot's database. Create it with :meth:`open` (which picks the backend); close it with
    :meth:`close`. Subclasses provide the transactions (:meth:`_tx`, :meth:`_read`), one-statement
    reads (:meth:`_all`), opening and migrating."""

    dialect = "?"
    now: Callable[[], float]
    shared = False
    """Whether other processes may write the same database while this one runs (PostgreSQL):
    the game service then checks a held game's stored version before acting on it."""

    BUSY_TIMEOUT_MS = 5000
    """SQLite: how long a statement waits for another connection's lock before the database
    counts as locked (:class:`StoreUnavailable`)."""

    @classmethod
    async def open(
        cls,
        target: str | Path,
        *,
        now: Callable[[], float] = time.time,
        migrate: bool = True,
        migrations: Path | None = None,
    ) -> Store:
        """Open the database ``target`` names (a file path: SQLite; a ``postgresql://`` URL:
        PostgreSQL), check it and apply pending migrations (``migrations``: a folder of this
        dialect's files, default the package's). Raises :class:`StoreUnavailable`,
        :class:`CorruptDatabase` or :class:`StoreError`, each with a one-line message."""
        dialect = "postgres" if is_postgres_url(target) else "sqlite"
        backend = BACKENDS.get(dialect)
        if backend is None:
            raise StoreError(
                f"the {dialect} store is not loaded: import bot.host.store, not bot.host.store_base"
            )
        return await backend.connect(target, now=now, migrate=migrate, migrations=migrations)

    async def close(self) -> None:
        """Close the connection or pool (idempotent)."""
        raise NotImplementedError

    def _tx(self) -> AbstractAsyncContextManager[Handle]:
        """One write transaction, rolled back on any error; the database failing raises
        :class:`StoreUnavailable`."""
        raise NotImplementedError

    def _read(self) -> AbstractAsyncContextManager[Handle]:
        """One read transaction: every ``SELECT`` inside sees the same snapshot."""
        raise NotImplementedError

    async def _all(self, sql: str, args: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    async def _one(self, sql: str, args: Iterable[Any] = ()) -> tuple[Any, ...] | None:
        rows = await self._all(sql, args)
        return rows[0] if rows else None

    async def schema_version(self) -> int:
        """The highest applied migration number (0 for an empty database)."""
        raise NotImplementedError

    async def migrate(self, folder: Path | None = None) -> list[int]:
        """Apply every migration newer than the database; returns the numbers applied."""
        raise NotImplementedError

    def describe(self) -> str:
        """The database for log lines and messages (a URL without its password)."""
        raise NotImplementedError

    @classmethod
    async def connect(
        cls,
        target: str | Path,
        *,
        now: Callable[[], float],
        migrate: bool = True,
        migrations: Path | None = None,
    ) -> Store:
        """The backend's opening (see :meth:`open`)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ games and seats

    async def create_game(
        self,
        *,
        kind: str,
        seed: int,
        options: Mapping[str, Any],
        guild_id: int | None,
        channel_id: int,
        creator_id: int,
        creator_name: str,
        clock_seconds: int,
    ) -> GameRow:
        """Insert a lobby with the creator in seat 0; returns the new game."""
        at = self.now()
        async with self._tx() as h:
            gid = await h.sql_insert(
                "INSERT INTO games (kind, seed, options, guild_id, channel_id, creator_id, status, "
                "clock_seconds, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'lobby', ?, ?, ?)",
                (
                    kind,
                    seed,
                    json.dumps(dict(options), sort_keys=True),
                    guild_id,
                    channel_id,
                    creator_id,
                    clock_seconds,
                    at,
                    at,
                ),
            )
            await h.sql_run(
                "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, 0, ?, ?)",
                (gid, creator_id, creator_name),
            )
            row = await h.sql_row(f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (gid,))
        return _game(row)

    async def game(self, game_id: int) -> GameRow | None:
        """The game ``game_id``, or None."""
        row = await self._one(f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (game_id,))
        return _game(row) if row else None

    async def stamp(self, game_id: int) -> tuple[int, str, int, int] | None:
        """``(version, status, seat count, seat flags)`` of a game as stored now (one indexed
        read), or None: what a process holding the game in memory compares with
        :func:`stamp_of` its own copy to notice another process's writes (a move, an end, a
        join, and the seat changes made without a move: a resignation, an AI taking a seat
        over, DMs found closed)."""
        row = await self._one(
            "SELECT version, status, (SELECT COUNT(*) FROM seats WHERE game_id = ?), "
            f"(SELECT SUM({_SEAT_FLAGS}) FROM seats WHERE game_id = ?) "
            "FROM games WHERE id = ?",
            (game_id, game_id, game_id),
        )
        return (int(row[0]), str(row[1]), int(row[2]), int(row[3] or 0)) if row else None

    async def games(
        self,
        *,
        statuses: Iterable[str] | None = None,
        guild_id: int | None = None,
        place_id: int | None = None,
    ) -> list[GameRow]:
        """Games filtered by status, guild, and place (the channel or the thread), by id."""
        where: list[str] = []
        args: list[Any] = []
        if statuses is not None:
            st = list(statuses)
            if not st:
                return []
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

    async def update_game(
        self, game_id: int, *, expect_status: str | Iterable[str] | None = None, **fields: Any
    ) -> GameRow:
        """Set ``fields`` (status, thread_id, deadline, reminded, attention, channel_id) and
        return the updated row. Raises :class:`VersionConflict` if ``expect_status`` is given and
        the game's status is not among them, :class:`KeyError` for an unknown game."""
        bad = set(fields) - _GAME_FIELDS
        if bad:
            raise ValueError(f"cannot update {sorted(bad)}")
        if "status" in fields and fields["status"] not in STATUSES:
            raise ValueError(f"bad status {fields['status']!r}")
        async with self._tx() as h:
            row = await h.sql_row(
                "SELECT status FROM games WHERE id = ? FOR UPDATE"
                if self.dialect == "postgres"
                else "SELECT status FROM games WHERE id = ?",
                (game_id,),
            )
            if row is None:
                raise KeyError(game_id)
            if expect_status is not None:
                allowed = (expect_status,) if isinstance(expect_status, str) else tuple(expect_status)
                if row[0] not in allowed:
                    raise VersionConflict(f"game {game_id} is {row[0]}, not {'/'.join(allowed)}")
            sets = ", ".join(f"{k} = ?" for k in fields)
            await h.sql_run(
                f"UPDATE games SET {sets}{', ' if sets else ''}updated_at = ? WHERE id = ?",
                (*(_plain(v) for v in fields.values()), self.now(), game_id),
            )
            row = await h.sql_row(f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (game_id,))
        return _game(row)

    async def seats(self, game_id: int) -> list[SeatRow]:
        """The seats of a game, by seat number."""
        rows = await self._all(f"SELECT {_SEAT_COLS} FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
        return [_seat(r) for r in rows]

    async def seats_of(self, game_ids: Iterable[int]) -> dict[int, list[SeatRow]]:
        """The seats of several games in one read (by game, then seat number); a game without
        seats, or not asked for, has no entry."""
        ids = sorted(set(game_ids))
        out: dict[int, list[SeatRow]] = {}
        for at in range(0, len(ids), 500):  # bounded statements however many games a guild has
            chunk = ids[at : at + 500]
            rows = await self._all(
                f"SELECT {_SEAT_COLS} FROM seats WHERE game_id IN ({','.join('?' * len(chunk))}) "
                "ORDER BY game_id, seat",
                tuple(chunk),
            )
            for r in rows:
                seat = _seat(r)
                out.setdefault(seat.game_id, []).append(seat)
        return out

    async def _lobby_locked(self, h: Handle, game_id: int) -> None:
        """Lock the lobby's row for this transaction; :class:`VersionConflict` if not a lobby."""
        row = await h.sql_row(
            "SELECT status FROM games WHERE id = ? FOR UPDATE"
            if self.dialect == "postgres"
            else "SELECT status FROM games WHERE id = ?",
            (game_id,),
        )
        if row is None or row[0] != "lobby":
            raise VersionConflict(f"game {game_id} is not a lobby")

    async def add_seat(
        self,
        game_id: int,
        *,
        user_id: int | None,
        name: str,
        is_ai: bool = False,
        max_seats: int | None = None,
        ai_level: str | None = None,
    ) -> SeatRow:
        """Append a seat to a lobby. Raises :class:`VersionConflict` if the game is not a lobby
        or already has ``max_seats`` seats, and :class:`ConstraintViolation` if the user is seated."""
        async with self._tx() as h:
            await self._lobby_locked(h, game_id)
            counted = await h.sql_row("SELECT COUNT(*) FROM seats WHERE game_id = ?", (game_id,))
            n = int(counted[0]) if counted else 0
            if max_seats is not None and n >= max_seats:
                raise VersionConflict(f"game {game_id} is full")
            await h.sql_run(
                "INSERT INTO seats (game_id, seat, user_id, name, is_ai, ai_level) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, n, user_id, name, int(is_ai), ai_level),
            )
            await h.sql_run("UPDATE games SET updated_at = ? WHERE id = ?", (self.now(), game_id))
        return SeatRow(game_id, n, user_id, name, is_ai, False, None, 0, False, ai_level)

    async def remove_seat(self, game_id: int, seat: int, *, end_if_empty: bool = False) -> bool:
        """Remove a lobby seat and close the gap (later seats move up by one); with
        ``end_if_empty``, a lobby left with no person seated is ended in the same transaction.
        Returns whether it was ended. Raises :class:`VersionConflict` if the game is not a lobby."""
        async with self._tx() as h:
            await self._lobby_locked(h, game_id)
            await h.sql_run("DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat))
            later = await h.sql_rows(
                "SELECT seat FROM seats WHERE game_id = ? AND seat > ? ORDER BY seat", (game_id, seat)
            )
            for (s,) in later:
                await h.sql_run(
                    "UPDATE seats SET seat = ? WHERE game_id = ? AND seat = ?", (s - 1, game_id, s)
                )
            counted = await h.sql_row(
                "SELECT COUNT(*) FROM seats WHERE game_id = ? AND is_ai = 0 AND user_id IS NOT NULL",
                (game_id,),
            )
            ended = end_if_empty and (int(counted[0]) if counted else 0) == 0
            await h.sql_run(
                "UPDATE games SET updated_at = ?"
                + (", status = 'ended', deadline = NULL" if ended else "")
                + " WHERE id = ?",
                (self.now(), game_id),
            )
        return ended

    async def update_seat(self, game_id: int, seat: int, **fields: Any) -> None:
        """Set ``fields`` (dm_closed, dm_hash, expiries, ai_takeover, is_ai, name, user_id)."""
        bad = set(fields) - _SEAT_FIELDS
        if bad:
            raise ValueError(f"cannot update {sorted(bad)}")
        if not fields:
            return
        sets = ", ".join(f"{k} = ?" for k in fields)
        async with self._tx() as h:
            await h.sql_run(
                f"UPDATE seats SET {sets} WHERE game_id = ? AND seat = ?",
                (*(_plain(v) for v in fields.values()), game_id, seat),
            )

    # ------------------------------------------------------------------ moves and snapshots

    async def start_game(
        self, game_id: int, *, state_json: str, deadline: float | None, thread_id: int | None = None
    ) -> GameRow:
        """Turn a lobby into an active game at version 0 with its first snapshot (played in
        ``thread_id`` when given), in one transaction. Raises :class:`VersionConflict` if it is
        not a lobby any more."""
        async with self._tx() as h:
            changed = await h.sql_run(
                "UPDATE games SET status = 'active', deadline = ?, reminded = 0, updated_at = ?, "
                "thread_id = COALESCE(?, thread_id) WHERE id = ? AND status = 'lobby' AND version = 0",
                (deadline, self.now(), thread_id, game_id),
            )
            if changed != 1:
                raise VersionConflict(f"game {game_id} is not a lobby any more")
            await self._put_snapshot(h, game_id, 0, state_json)
            row = await h.sql_row(f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (game_id,))
        return _game(row)

    @staticmethod
    async def _put_snapshot(h: Handle, game_id: int, version: int, state_json: str) -> None:
        await h.sql_run(
            "INSERT INTO snapshots (game_id, version, state, fingerprint) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, state = excluded.state, "
            "fingerprint = excluded.fingerprint",
            (game_id, version, state_json, digest(state_json)),
        )

    async def record_move(
        self,
        game_id: int,
        *,
        expected_version: int,
        seat: int,
        action: str,
        by: str,
        user_id: int | None,
        state_json: str,
        status: str = "active",
        deadline: float | None = None,
        reminded: bool = False,
        seat_updates: Mapping[int, Mapping[str, Any]] | None = None,
    ) -> int:
        """Append one move and its snapshot in one transaction; returns the new version.

        The game must be active at ``expected_version``, else :class:`VersionConflict` is raised
        and nothing is written: the version is checked by the ``UPDATE`` itself, so of two
        processes moving the same game at once exactly one commits. ``status`` becomes the
        game's status (``finished`` at the end); ``seat_updates`` maps seats to column values
        (expiries, ai_takeover) set in the same transaction."""
        for fields in (seat_updates or {}).values():
            bad = set(fields) - _SEAT_FIELDS
            if bad:
                raise ValueError(f"cannot update {sorted(bad)}")
        at = self.now()
        new_version = expected_version + 1
        async with self._tx() as h:
            changed = await h.sql_run(
                "UPDATE games SET version = ?, status = ?, deadline = ?, reminded = ?, updated_at = ? "
                "WHERE id = ? AND version = ? AND status = 'active'",
                (new_version, status, deadline, int(reminded), at, game_id, expected_version),
            )
            if changed != 1:
                raise VersionConflict(f"game {game_id} is not active at version {expected_version}")
            await h.sql_run(
                f"INSERT INTO moves ({_MOVE_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, new_version, seat, action, by, user_id, at),
            )
            await self._put_snapshot(h, game_id, new_version, state_json)
            for s, fields in (seat_updates or {}).items():
                if fields:
                    sets = ", ".join(f"{k} = ?" for k in fields)
                    await h.sql_run(
                        f"UPDATE seats SET {sets} WHERE game_id = ? AND seat = ?",
                        (*(_plain(v) for v in fields.values()), game_id, s),
                    )
        return new_version

    async def moves(self, game_id: int, *, last: int | None = None) -> list[MoveRow]:
        """The move log of a game in order (only the ``last`` entries if given)."""
        if last is None:
            rows = await self._all(
                f"SELECT {_MOVE_COLS} FROM moves WHERE game_id = ? ORDER BY version", (game_id,)
            )
        else:
            rows = await self._all(
                f"SELECT {_MOVE_COLS} FROM moves WHERE game_id = ? ORDER BY version DESC LIMIT ?",
                (game_id, last),
            )
            rows.reverse()
        return [MoveRow(*r) for r in rows]

    async def history(self, game_id: int) -> tuple[list[MoveRow], tuple[int, str, str] | None]:
        """The move log and the snapshot of a game read together, in one read transaction (no
        move can commit between the two reads, from this process or another), as :meth:`moves`
        and :meth:`snapshot` return them."""
        record = await self.record(game_id)
        return (record.moves, record.snapshot) if record else ([], None)

    async def record(self, game_id: int) -> GameRecord | None:
        """Everything a game is loaded from (its row, seats, move log and snapshot), read in one
        read transaction so they belong together; None for an unknown game."""
        async with self._read() as h:
            row = await h.sql_row(f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (game_id,))
            if row is None:
                return None
            seats = await h.sql_rows(
                f"SELECT {_SEAT_COLS} FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
            )
            moves = await h.sql_rows(
                f"SELECT {_MOVE_COLS} FROM moves WHERE game_id = ? ORDER BY version", (game_id,)
            )
            snap = await h.sql_row(
                "SELECT version, state, fingerprint FROM snapshots WHERE game_id = ?", (game_id,)
            )
        return GameRecord(
            _game(row),
            [_seat(r) for r in seats],
            [MoveRow(*r) for r in moves],
            (snap[0], snap[1], snap[2]) if snap else None,
        )

    async def snapshot(self, game_id: int) -> tuple[int, str, str] | None:
        """``(version, state_json, fingerprint)`` of the cached snapshot, or None."""
        row = await self._one(
            "SELECT version, state, fingerprint FROM snapshots WHERE game_id = ?", (game_id,)
        )
        return (row[0], row[1], row[2]) if row else None

    # ------------------------------------------------------------------ turn clocks across processes

    async def claim_due(self, now: float, owner: str, lease_seconds: float, *, limit: int = 100) -> list[int]:
        """Claim the active games whose turn clock is due at ``now`` (the deadline passed, or the
        half-time reminder owed) and that no one holds a live claim on; returns their ids, by
        deadline. Each claim is ``owner``'s until ``now + lease_seconds``: release it with
        :meth:`release_claim` once handled; a process that dies holding claims loses nothing,
        as they lapse at the end of the lease and another process claims them then. On
        PostgreSQL the rows are taken ``FOR UPDATE SKIP LOCKED``, so processes claiming at the
        same time never wait for each other and never get the same game."""
        until = now + lease_seconds
        async with self._tx() as h:
            if self.dialect == "postgres":
                rows = await h.sql_rows(
                    "UPDATE games SET claim_owner = ?, claim_until = ? "
                    "WHERE id IN (SELECT id FROM games WHERE "
                    + _DUE
                    + " ORDER BY deadline, id LIMIT ? FOR UPDATE SKIP LOCKED) RETURNING id, deadline",
                    (owner, until, now, now, now, limit),
                )
                return [r[0] for r in sorted(rows, key=lambda r: (r[1], r[0]))]
            rows = await h.sql_rows(
                "SELECT id FROM games WHERE " + _DUE + " ORDER BY deadline, id LIMIT ?",
                (now, now, now, limit),
            )
            ids = [r[0] for r in rows]
            for gid in ids:
                await h.sql_run(
                    "UPDATE games SET claim_owner = ?, claim_until = ? WHERE id = ?", (owner, until, gid)
                )
        return ids

    async def release_claim(self, game_id: int, owner: str) -> bool:
        """Give back ``owner``'s claim on a game (its due clock handled, or given up): the game
        can be claimed again as soon as it is due. Returns whether ``owner`` held the claim (a
        claim that lapsed and was taken by another process is left alone)."""
        async with self._tx() as h:
            changed = await h.sql_run(
                "UPDATE games SET claim_owner = NULL, claim_until = NULL WHERE id = ? AND claim_owner = ?",
                (game_id, owner),
            )
        return changed == 1

    async def release_claims(self, owner: str) -> int:
        """Give back every claim ``owner`` holds (a process shutting down); returns how many."""
        async with self._tx() as h:
            return await h.sql_run(
                "UPDATE games SET claim_owner = NULL, claim_until = NULL WHERE claim_owner = ?", (owner,)
            )

    async def claims(self, game_id: int) -> tuple[str | None, float | None]:
        """``(owner, until)`` of the claim on a game's clock (Nones when unclaimed)."""
        row = await self._one("SELECT claim_owner, claim_until FROM games WHERE id = ?", (game_id,))
        return (row[0], row[1]) if row else (None, None)

    # ------------------------------------------------------------------ copying a whole database

    async def export_rows(self) -> dict[str, list[tuple[Any, ...]]]:
        """Every row of every table (:data:`COPY_TABLES`), read in one read transaction, in key
        order: what :meth:`import_rows` writes into another database."""
        async with self._read() as h:
            return {
                "games": await h.sql_rows(f"SELECT {_COPY_GAMES} FROM games ORDER BY id"),
                "seats": await h.sql_rows(f"SELECT {_COPY_SEATS} FROM seats ORDER BY game_id, seat"),
                "moves": await h.sql_rows(f"SELECT {_COPY_MOVES} FROM moves ORDER BY game_id, version"),
                "snapshots": await h.sql_rows(f"SELECT {_COPY_SNAPSHOTS} FROM snapshots ORDER BY game_id"),
                "messages": await h.sql_rows(f"SELECT {_COPY_MESSAGES} FROM messages ORDER BY id"),
                "drafts": await h.sql_rows(f"SELECT {_COPY_DRAFTS} FROM drafts ORDER BY game_id, seat, form"),
            }

    async def is_empty(self) -> bool:
        """Whether the database holds no game (and so nothing else)."""
        return await self._one("SELECT id FROM games LIMIT 1") is None

    async def import_rows(self, rows: Mapping[str, list[tuple[Any, ...]]]) -> None:
        """Write the rows :meth:`export_rows` read (from any backend) into this database, ids
        kept, in one transaction (all or nothing); on PostgreSQL the id sequences then continue
        after the highest id. Raises :class:`StoreError` if this database holds a game already."""
        async with self._tx() as h:
            if await h.sql_row("SELECT id FROM games LIMIT 1") is not None:
                raise StoreError(
                    f"the database {self.describe()} is not empty (it holds games): "
                    "copy into a new, empty database"
                )
            await h.sql_many(
                f"INSERT INTO games ({_COPY_GAMES}) VALUES ({', '.join('?' * 18)})", rows["games"]
            )
            await h.sql_many(
                f"INSERT INTO seats ({_COPY_SEATS}) VALUES ({', '.join('?' * 10)})", rows["seats"]
            )
            await h.sql_many(
                f"INSERT INTO moves ({_COPY_MOVES}) VALUES ({', '.join('?' * 7)})", rows["moves"]
            )
            await h.sql_many(
                f"INSERT INTO snapshots ({_COPY_SNAPSHOTS}) VALUES ({', '.join('?' * 4)})", rows["snapshots"]
            )
            await h.sql_many(
                f"INSERT INTO messages ({_COPY_MESSAGES}) VALUES ({', '.join('?' * 9)})", rows["messages"]
            )
            await h.sql_many(
                f"INSERT INTO drafts ({_COPY_DRAFTS}) VALUES ({', '.join('?' * 5)})", rows["drafts"]
            )
            if self.dialect == "postgres":
                await h.sql_row(
                    "SELECT setval(pg_get_serial_sequence('games', 'id'), "
                    "COALESCE((SELECT MAX(id) FROM games), 0) + 1, false)"
                )
                await h.sql_row(
                    "SELECT setval(pg_get_serial_sequence('messages', 'id'), "
                    "COALESCE((SELECT MAX(id) FROM messages), 0) + 1, false)"
                )

    # ------------------------------------------------------------------ posted messages

    async def add_message(
        self,
        game_id: int,
        *,
        kind: str,
        channel_id: int,
        message_id: int,
        version: int,
        live: bool = False,
        seat: int | None = None,
    ) -> None:
        """Remember a message the bot posted for ``game_id``."""
        async with self._tx() as h:
            await h.sql_run(
                "INSERT INTO messages (game_id, kind, seat, channel_id, message_id, version, live, "
                "posted_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, kind, seat, channel_id, message_id, version, int(live), self.now()),
            )

    async def messages(
        self, game_id: int, *, kind: str | None = None, live: bool | None = None
    ) -> list[MessageRow]:
        """Messages posted for a game, oldest first, filtered by kind and liveness."""
        where: list[str] = ["game_id = ?"]
        args: list[Any] = [game_id]
        if kind is not None:
            where.append("kind = ?")
            args.append(kind)
        if live is not None:
            where.append("live = ?")
            args.append(int(live))
        rows = await self._all(
            f"SELECT {_MESSAGE_COLS} FROM messages WHERE {' AND '.join(where)} ORDER BY id", args
        )
        return [_message(r) for r in rows]

    async def unposted(self, between: tuple[float, float] | None = None) -> list[tuple[int, int | None]]:
        """``(game id, newest version posted)`` of every active or finished game whose current
        version has no board (``turn``) or score sheet (``final``) message: a process stopped
        between storing a move and posting it. The version is None when nothing was posted.
        With ``between`` (two times), only the games last changed then (an index range read:
        the running sweep of :meth:`bot.surface.app.BazaarBot.sweep_unposted`)."""
        window, args = "", cast(tuple[float, ...], ())
        if between is not None:
            window, args = " AND g.updated_at >= ? AND g.updated_at <= ?", between
        rows = await self._all(
            "SELECT g.id, g.version, (SELECT MAX(m.version) FROM messages m WHERE m.game_id = g.id "
            "AND m.kind IN ('turn', 'final')) AS posted FROM games g "
            f"WHERE g.status IN ('active', 'finished'){window} ORDER BY g.id",
            args,
        )
        return [(gid, posted) for gid, version, posted in rows if posted is None or posted < version]

    async def set_message_version(self, message_id: int, version: int) -> None:
        """Record that the posted message ``message_id`` now shows ``version`` (after an edit)."""
        async with self._tx() as h:
            await h.sql_run("UPDATE messages SET version = ? WHERE message_id = ?", (version, message_id))

    async def retire_messages(self, ids: Iterable[int]) -> None:
        """Mark messages as no longer carrying buttons."""
        ids = list(ids)
        if not ids:
            return
        async with self._tx() as h:
            await h.sql_run(f"UPDATE messages SET live = 0 WHERE id IN ({','.join('?' * len(ids))})", ids)

    # ------------------------------------------------------------------ form drafts

    async def draft(self, game_id: int, seat: int, form: str, version: int) -> dict[str, list[str]]:
        """The values ``seat`` has picked so far in ``form`` at game ``version`` ({} when none, or
        when the draft was made at another version)."""
        row = await self._one(
            "SELECT version, data FROM drafts WHERE game_id = ? AND seat = ? AND form = ?",
            (game_id, seat, form),
        )
        if row is None or row[0] != version:
            return {}
        try:
            data = json.loads(row[1])
        except ValueError:
            return {}
        return {str(k): [str(v) for v in vs] for k, vs in data.items() if isinstance(vs, list)}

    async def save_draft(
        self, game_id: int, seat: int, form: str, version: int, values: Mapping[str, list[str]]
    ) -> dict[str, list[str]]:
        """Set the picks ``values`` (pick key -> values) in ``seat``'s draft of ``form`` at
        ``version`` (a draft of another version is dropped first); returns the whole draft."""
        async with self._tx() as h:
            row = await h.sql_row(
                "SELECT version, data FROM drafts WHERE game_id = ? AND seat = ? AND form = ?",
                (game_id, seat, form),
            )
            draft: dict[str, list[str]] = {}
            if row is not None and row[0] == version:
                try:
                    draft = {str(k): list(v) for k, v in json.loads(row[1]).items()}
                except ValueError:
                    draft = {}
            draft.update({k: list(v) for k, v in values.items()})
            await h.sql_run(
                "INSERT INTO drafts (game_id, seat, form, version, data) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (game_id, seat, form) DO UPDATE SET version = excluded.version, "
                "data = excluded.data",
                (game_id, seat, form, version, json.dumps(draft, sort_keys=True)),
            )
        return draft

    async def drop_drafts(self, game_id: int, seat: int | None = None) -> None:
        """Forget the drafts of a game (of one seat when ``seat`` is given)."""
        async with self._tx() as h:
            if seat is None:
                await h.sql_run("DELETE FROM drafts WHERE game_id = ?", (game_id,))
            else:
                await h.sql_run("DELETE FROM drafts WHERE game_id = ? AND seat = ?", (game_id, seat))
