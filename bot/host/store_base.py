"""The store's interface and the SQL both backends share: :class:`Store` with every method written
once (see :mod:`bot.host.store` for how a backend is
chosen, :mod:`bot.host.store_sqlite` and :mod:`bot.host.store_pg` for the two backends).

Every method is written in SQL both dialects accept, with ``?`` placeholders (renumbered ``$1,
$2…`` for PostgreSQL), and runs through a transaction handle the backend provides
(:class:`Handle`). Every public method is one atomic unit (one transaction).
:meth:`Store.record_move` checks the game's version inside its transaction (``UPDATE games …
WHERE id = ? AND version = ?``), so a move computed on an old version never lands, whichever
process computed it: on PostgreSQL the second of two concurrent updates of the row waits for
the first to commit and then matches no row. :meth:`Store.claim_due` hands due turn clocks to
one process at a time, with a lease. The rows are in :mod:`bot.host.store_rows`, the migration
files in :mod:`bot.host.store_schema`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any, Protocol

from .store_rows import (
    GameRecord,
    GameRow,
    MoveRow,
    SeatRow,
    digest,
    game_row,
    insert_lobby,
    seat_row,
    stored,
)
from .store_schema import is_postgres_url
from .store_tables import Tables
from .storefail import StoreError, VersionConflict

STATUSES = ("lobby", "active", "finished", "ended")


_SEAT_FLAGS = "(is_ai + 2 * ai_takeover + 4 * dm_closed) * (1 << (3 * seat))"
"""The seat flags a process acts on, three bits a seat, summed over a game's seats by
:meth:`Store.stamp` (the same number :func:`seat_flags` makes of seats held in memory)."""


_GAME_COLS = (
    "id, kind, seed, options, guild_id, channel_id, thread_id, creator_id, status, version, "
    "clock_seconds, deadline, reminded, attention, created_at, updated_at"
)
_SEAT_COLS = "game_id, seat, user_id, name, is_ai, dm_closed, dm_hash, expiries, ai_takeover, ai_level"
_MOVE_COLS = "game_id, version, seat, action, by, user_id, at"
_GAME_FIELDS = {"status", "thread_id", "deadline", "reminded", "attention", "channel_id"}
_SEAT_FIELDS = {"user_id", "name", "is_ai", "dm_closed", "dm_hash", "expiries", "ai_takeover", "ai_level"}


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


class Store(Tables):
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
            gid = await insert_lobby(
                h, at, kind, seed, options, guild_id, channel_id, creator_id, clock_seconds
            )
            await h.sql_run(
                "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, 0, ?, ?)",
                (gid, creator_id, creator_name),
            )
            row = await h.sql_row(f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (gid,))
        return game_row(row)

    async def game(self, game_id: int) -> GameRow | None:
        """The game ``game_id``, or None."""
        row = await self._one(f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (game_id,))
        return game_row(row) if row else None

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
        return [game_row(r) for r in await self._all(sql + " ORDER BY id", args)]

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
                (*(stored(v) for v in fields.values()), self.now(), game_id),
            )
            row = await h.sql_row(f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (game_id,))
        return game_row(row)

    async def seats(self, game_id: int) -> list[SeatRow]:
        """The seats of a game, by seat number."""
        rows = await self._all(f"SELECT {_SEAT_COLS} FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
        return [seat_row(r) for r in rows]

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
                seat = seat_row(r)
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
                (*(stored(v) for v in fields.values()), game_id, seat),
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
        return game_row(row)

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
                        (*(stored(v) for v in fields.values()), game_id, s),
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
            game_row(row),
            [seat_row(r) for r in seats],
            [MoveRow(*r) for r in moves],
            (snap[0], snap[1], snap[2]) if snap else None,
        )

    async def snapshot(self, game_id: int) -> tuple[int, str, str] | None:
        """``(version, state_json, fingerprint)`` of the cached snapshot, or None."""
        row = await self._one(
            "SELECT version, state, fingerprint FROM snapshots WHERE game_id = ?", (game_id,)
        )
        return (row[0], row[1], row[2]) if row else None
