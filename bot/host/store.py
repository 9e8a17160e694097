"""The event-sourced store: games, seats, an append-only move log, snapshots and posted messages.

One interface, two backends, chosen by what ``BAZAAR_DB`` holds (:meth:`Store.open`): a file
path gives SQLite (:mod:`bot.host.store_sqlite`: one aiosqlite connection in WAL mode, the
default), a ``postgresql://`` URL gives PostgreSQL (:mod:`bot.host.store_pg`: an asyncpg pool,
for several processes on one database). Callers import everything from here and never see the
dialect; the interface and the SQL both backends share are in :mod:`bot.host.store_base`, the
rows in :mod:`bot.host.store_rows`, the migration files in :mod:`bot.host.store_schema`.
"""

from __future__ import annotations

from .store_base import BACKENDS, Store
from .store_pg import PgStore
from .store_rows import GameRecord, GameRow, MoveRow, SeatRow, digest, stamp_of
from .store_schema import MIGRATIONS, PG_MIGRATIONS, is_postgres_url, migration_files, sql_statements
from .store_side import COPY_TABLES, MessageRow
from .store_sqlite import SqliteStore
from .storefail import ConstraintViolation, CorruptDatabase, StoreError, StoreUnavailable, VersionConflict

__all__ = [
    "BACKENDS",
    "COPY_TABLES",
    "MIGRATIONS",
    "PG_MIGRATIONS",
    "ConstraintViolation",
    "CorruptDatabase",
    "GameRecord",
    "GameRow",
    "MessageRow",
    "MoveRow",
    "PgStore",
    "SeatRow",
    "SqliteStore",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "VersionConflict",
    "digest",
    "is_postgres_url",
    "migration_files",
    "sql_statements",
    "stamp_of",
]

BACKENDS.update(sqlite=SqliteStore, postgres=PgStore)
