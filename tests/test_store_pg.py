"""What only PostgreSQL has: several processes on one database (a move waiting on another's
uncommitted one, a record read while another commits, due clocks claimed concurrently), the two
dialects' migrations defining the same schema, and one-line errors for a server that cannot be
used."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from bot.host import store_pg, store_schema
from bot.host.store import PG_MIGRATIONS, Store, StoreError, StoreUnavailable, VersionConflict
from tests.store_internals import record_of, row_of


async def _game(store: Store, deadline: float | None = None) -> int:
    row = await store.create_game(
        kind="toy",
        seed=1,
        options={},
        guild_id=1,
        channel_id=2,
        creator_id=3,
        creator_name="Ann",
        clock_seconds=600,
    )
    await store.start_game(row.id, state_json="s0", deadline=deadline)
    return row.id


def _one_line(err: BaseException, *words: str) -> None:
    text = str(err)
    assert "\n" not in text and "Traceback" not in text, text
    for w in words:
        assert w in text, (w, text)


async def test_a_move_waits_for_another_process_uncommitted_move_then_is_refused(pg_url: str) -> None:
    """Process A has applied the UPDATE of its move but not committed; B's move for the same
    version waits on the row (it does not read the old version and go ahead), then A commits and
    B's UPDATE matches no row: VersionConflict, and the log holds A's move only."""
    import asyncpg

    store = await Store.open(pg_url)
    gid = await _game(store)
    other = await asyncpg.connect(pg_url)
    try:
        tx = other.transaction()
        await tx.start()
        await other.execute("UPDATE games SET version = 1 WHERE id = $1 AND version = 0", gid)
        await other.execute(
            "INSERT INTO moves (game_id, version, seat, action, by, user_id, at) "
            "VALUES ($1, 1, 0, 'a 1', 'player', 3, 0)",
            gid,
        )
        waiting = asyncio.create_task(
            store.record_move(
                gid, expected_version=0, seat=0, action="b 1", by="player", user_id=3, state_json="s1"
            )
        )
        await asyncio.sleep(0.3)
        assert not waiting.done()  # blocked on A's row lock
        await tx.commit()
        with pytest.raises(VersionConflict):
            await waiting
        assert [m.action for m in await store.moves(gid)] == ["a 1"]
    finally:
        await other.close()
        await store.close()


async def test_a_game_is_read_in_one_snapshot_while_another_process_commits(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between the row and the move log of one record() another process commits a move: the
    record still shows one instant (REPEATABLE READ), and the next one shows the move."""
    store, other = await Store.open(pg_url), await Store.open(pg_url)
    gid = await _game(store)
    real = store_pg._Handle.sql_rows
    hooked: list[int] = []

    async def sql_rows(self: store_pg._Handle, sql: str, args: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        if "FROM moves" in sql and not hooked:
            hooked.append(1)
            await other.record_move(
                gid, expected_version=0, seat=0, action="take 1", by="player", user_id=3, state_json="s1"
            )
        return await real(self, sql, args)

    monkeypatch.setattr(store_pg._Handle, "sql_rows", sql_rows)
    try:
        record = await record_of(store, gid)
        assert hooked and (await row_of(other, gid)).version == 1  # the other process did commit meanwhile
        assert (
            record.snapshot is not None and record.row.version == len(record.moves) == record.snapshot[0] == 0
        )
        record = await record_of(store, gid)
        assert (
            record.snapshot is not None and record.row.version == len(record.moves) == record.snapshot[0] == 1
        )
    finally:
        await asyncio.gather(store.close(), other.close())


async def test_two_processes_claiming_due_clocks_get_each_game_once(pg_url: str) -> None:
    """Two stores (two processes) claim due clocks at the same moment, many times in small
    batches: every due game is claimed exactly once, and games not due are never claimed."""
    stores = [await Store.open(pg_url) for _ in range(2)]
    try:
        due = [await _game(stores[0], deadline=100.0 + i) for i in range(40)]
        later = [await _game(stores[0], deadline=10_000.0) for _ in range(5)]
        got: dict[str, list[int]] = {"p0": [], "p1": []}

        async def claimer(i: int) -> None:
            while True:
                ids = await stores[i].claim_due(1000.0, f"p{i}", 60, limit=3)
                if not ids:
                    return
                got[f"p{i}"] += ids
                await asyncio.sleep(0)

        await asyncio.gather(claimer(0), claimer(1))
        claimed = got["p0"] + got["p1"]
        assert sorted(claimed) == sorted(due), got
        assert got["p0"] and got["p1"]  # both took part
        assert not set(claimed) & set(later)
        owners = {gid: (await stores[0].claims(gid))[0] for gid in due}
        assert all(owners[g] == "p0" for g in got["p0"]) and all(owners[g] == "p1" for g in got["p1"])
    finally:
        await asyncio.gather(*(s.close() for s in stores))


async def test_claims_skip_rows_another_transaction_holds(pg_url: str) -> None:
    """A due game whose row another transaction holds (a process in the middle of a move) is
    skipped, not waited for (SKIP LOCKED), and claimed once the row is free."""
    import asyncpg

    store = await Store.open(pg_url)
    first, second = await _game(store, deadline=1.0), await _game(store, deadline=2.0)
    other = await asyncpg.connect(pg_url)
    try:
        tx = other.transaction()
        await tx.start()
        await other.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", first)
        assert await asyncio.wait_for(store.claim_due(1000.0, "p", 60), 5) == [second]
        await tx.rollback()
        assert await store.claim_due(1000.0, "p", 60) == [first]
    finally:
        await other.close()
        await store.close()


def _kind(declared: str) -> str:
    """A column type as a family both dialects share."""
    t = declared.lower()
    if "int" in t:
        return "integer"
    if "char" in t or "text" in t:
        return "text"
    if "real" in t or "double" in t or "float" in t:
        return "real"
    return t


async def test_both_dialects_migrations_define_the_same_tables_and_columns(
    pg_url: str, tmp_path: Path
) -> None:
    """Read both schemas back from the databases the migrations built (SQLite's PRAGMA
    table_info, PostgreSQL's information_schema.columns): the same tables, with the same
    columns, type families, NOT NULL and primary keys."""
    lite = await Store.open(tmp_path / "lite.sqlite3")
    pg = await Store.open(pg_url)
    try:
        tables = [
            r[0]
            for r in await lite._all(
                "SELECT name FROM sqlite_master WHERE type = 'table' "
                "AND name NOT LIKE 'sqlite_%' ORDER BY name"
            )
        ]
        sqlite_cols = {}
        for table in tables:
            info = await lite._all('SELECT name, type, "notnull", pk FROM pragma_table_info(?)', (table,))
            sqlite_cols[table] = {(n, _kind(t), bool(nn) or pk > 0, pk > 0) for n, t, nn, pk in info}
        rows = await pg._all(
            "SELECT c.table_name, c.column_name, c.data_type, c.is_nullable, "
            "EXISTS (SELECT 1 FROM information_schema.key_column_usage k "
            "JOIN information_schema.table_constraints t "
            "ON t.constraint_name = k.constraint_name AND t.table_schema = k.table_schema "
            "WHERE t.constraint_type = 'PRIMARY KEY' AND k.table_schema = c.table_schema "
            "AND k.table_name = c.table_name AND k.column_name = c.column_name) "
            "FROM information_schema.columns c WHERE c.table_schema = current_schema()"
        )
        pg_cols: dict[str, set[tuple[Any, ...]]] = {}
        for table, col, dtype, nullable, pk in rows:
            pg_cols.setdefault(table, set()).add((col, _kind(dtype), nullable == "NO", pk))
        assert len(tables) >= 7 and "claim_until" in {c[0] for c in sqlite_cols["games"]}
        assert set(pg_cols) == set(sqlite_cols)
        for table in tables:
            assert pg_cols[table] == sqlite_cols[table], table
    finally:
        await asyncio.gather(lite.close(), pg.close())


async def test_an_unreachable_server_is_one_clear_line() -> None:
    with pytest.raises(StoreUnavailable) as info:
        await Store.open("postgresql://bazaar:s3cret@127.0.0.1:9/nowhere")
    _one_line(info.value, "127.0.0.1:9", "cannot be reached", "BAZAAR_DB")
    assert "s3cret" not in str(info.value)


async def test_a_missing_database_and_a_bad_url_are_one_clear_line(pg_admin: str) -> None:
    base = pg_admin.rsplit("/", 1)[0]
    with pytest.raises(StoreUnavailable) as info:
        await Store.open(base + "/bazaar_no_such_database")
    _one_line(info.value, "does not exist", "BAZAAR_DB")
    with pytest.raises(StoreError) as bad_url:
        await Store.open("postgresql://postgres@127.0.0.1:notaport/test")
    _one_line(bad_url.value, "BAZAAR_DB", "postgresql://")


async def test_a_newer_schema_or_a_failing_migration_leaves_the_database_as_it_was(
    pg_url: str, tmp_path: Path
) -> None:
    folder = tmp_path / "migs"
    folder.mkdir()
    for _, _, path in store_schema.migration_files(PG_MIGRATIONS):
        (folder / path.name).write_text(path.read_text())
    (folder / "0099_bad.sql").write_text(
        "ALTER TABLE games ADD COLUMN x INTEGER; INSERT INTO nowhere VALUES (1);"
    )
    with pytest.raises(StoreError, match="0099_bad.sql"):
        await Store.open(pg_url, migrations=folder)
    store = await Store.open(pg_url, migrate=False)
    try:
        assert await store.schema_version() == max(
            n for n, _, _ in store_schema.migration_files(PG_MIGRATIONS)
        )
        cols = {
            r[0]
            for r in await store._all(
                "SELECT column_name FROM information_schema.columns "
                "WHERE table_schema = current_schema() AND table_name = 'games'"
            )
        }
        assert "x" not in cols
    finally:
        await store.close()


def test_migration_files_split_into_whole_statements_for_postgres() -> None:
    parts = store_pg.pg_statements(
        "-- a comment; with a semicolon\nCREATE TABLE t (a TEXT DEFAULT 'x;y');\n"
        "CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN RAISE "
        "EXCEPTION ''no; never''; END;';\n"
    )
    assert len(parts) == 2 and parts[0].endswith("'x;y')") and parts[1].endswith("END;'")
    with pytest.raises(StoreError):
        store_pg.pg_statements("CREATE TABLE u (a TEXT")
    with pytest.raises(StoreError, match=r"\$\$"):
        store_pg.pg_statements("CREATE FUNCTION g() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql;")
    assert (
        store_pg.dollar("SELECT '?' WHERE a = ? AND b IN (?, ?)")
        == "SELECT '?' WHERE a = $1 AND b IN ($2, $3)"
    )
    assert sqlite3.complete_statement(
        parts[1] + ";"
    )  # the same file splits the same way for SQLite's splitter


async def test_a_connection_lost_in_the_middle_of_a_move_changes_nothing_and_passes(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server ends the move's connection between its UPDATE and its log entry (a restart,
    a failover): StoreUnavailable, one line, nothing of the move kept; the next try works on a
    new connection of the pool."""
    import asyncpg

    store = await Store.open(pg_url)
    gid = await _game(store)
    admin = await asyncpg.connect(pg_url)
    real = store_pg._Handle.sql_run
    cut: list[bool] = []

    async def sql_run(self: store_pg._Handle, sql: str, args: Iterable[Any] = ()) -> int:
        if sql.startswith("INSERT INTO moves") and not cut:
            cut.append(await admin.fetchval("SELECT pg_terminate_backend($1)", self._conn.get_server_pid()))
        return await real(self, sql, args)

    monkeypatch.setattr(store_pg._Handle, "sql_run", sql_run)
    try:
        with pytest.raises(StoreUnavailable) as info:
            await store.record_move(
                gid, expected_version=0, seat=0, action="take 1", by="player", user_id=3, state_json="s1"
            )
        assert cut == [True]
        _one_line(info.value, "lost its connection", "try again")
        row = await row_of(store, gid)
        snapshot = await store.snapshot(gid)
        assert row.version == 0 and await store.moves(gid) == [] and snapshot is not None and snapshot[0] == 0
        assert (
            await store.record_move(
                gid, expected_version=0, seat=0, action="take 1", by="player", user_id=3, state_json="s1"
            )
            == 1
        )
    finally:
        await admin.close()
        await store.close()
