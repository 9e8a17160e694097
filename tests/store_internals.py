"""Reading a store in the tests: a game that must exist, and the connection behind a store for
tests that change the database behind the store's back (a tampered snapshot, a dropped trigger)
as an operator with a SQL shell could."""

from __future__ import annotations

from typing import Any

import aiosqlite

from bot.host.store_base import Store
from bot.host.store_pg import PgStore
from bot.host.store_rows import GameRecord, GameRow
from bot.host.store_sqlite import SqliteStore


async def row_of(store: Store, game_id: int) -> GameRow:
    """The game's row (it must exist)."""
    row = await store.game(game_id)
    assert row is not None, f"no game #{game_id} in the database"
    return row


async def record_of(store: Store, game_id: int) -> GameRecord:
    """The game's whole record (it must exist)."""
    record = await store.record(game_id)
    assert record is not None, f"no game #{game_id} in the database"
    return record


def sqlite_of(store: Store) -> aiosqlite.Connection:
    """The SQLite connection of a store on a file."""
    assert isinstance(store, SqliteStore), store
    return store._db


def pool_of(store: Store) -> Any:
    """The asyncpg pool of a store on PostgreSQL (asyncpg has no types: Any)."""
    assert isinstance(store, PgStore), store
    return store._pool
