"""bot.store: migrations, WAL, the version check inside the move transaction, the append-only log,
and refusing a corrupt file without touching it."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.host.store import CorruptDatabase, Store, StoreError, VersionConflict, digest, migration_files


async def _store(tmp_path: Path) -> Store:
    return await Store.open(tmp_path / "sub" / "bazaar.sqlite3", now=lambda: 1000.0)


async def _game(store: Store, **kw):
    args = dict(kind="toy", seed=5, options={"a": 1}, guild_id=1, channel_id=2, creator_id=10,
                creator_name="Ann", clock_seconds=3600)
    args.update(kw)
    return await store.create_game(**args)


async def test_fresh_database_is_created_and_migrated(tmp_path, caplog):
    caplog.set_level("INFO")
    store = await _store(tmp_path)
    try:
        assert (tmp_path / "sub" / "bazaar.sqlite3").exists()
        assert "creating a fresh one" in caplog.text
        assert await store.schema_version() == migration_files()[-1][0] >= 1
        mode = await store._one("PRAGMA journal_mode")
        fk = await store._one("PRAGMA foreign_keys")
        assert mode[0] == "wal" and fk[0] == 1
        assert await store.migrate() == []  # idempotent
    finally:
        await store.close()
    store = await _store(tmp_path)  # reopening applies nothing new and keeps data
    await store.close()


async def test_corrupt_file_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "bad.sqlite3"
    junk = b"this is not a database at all " * 200
    path.write_bytes(junk)
    with pytest.raises(CorruptDatabase, match="bad.sqlite3"):
        await Store.open(path)
    assert path.read_bytes() == junk


async def test_newer_schema_is_refused(tmp_path):
    store = await _store(tmp_path)
    await store._db.execute("INSERT INTO schema_migrations VALUES (9999, 'future', 0)")
    await store.close()
    with pytest.raises(StoreError, match="newer"):
        await _store(tmp_path)


async def test_failed_migration_rolls_back(tmp_path):
    folder = tmp_path / "migs"
    folder.mkdir()
    (folder / "0001_ok.sql").write_text("CREATE TABLE a (x INTEGER);")
    (folder / "0002_bad.sql").write_text("CREATE TABLE b (x INTEGER); INSERT INTO nowhere VALUES (1);")
    with pytest.raises(StoreError, match="0002_bad.sql"):
        await Store.open(tmp_path / "m.sqlite3", migrations=folder)
    store = await Store.open(tmp_path / "m.sqlite3", migrate=False)
    try:
        assert await store.schema_version() == 1
        tables = {r[0] for r in await store._all("SELECT name FROM sqlite_master WHERE type='table'")}
        assert "a" in tables and "b" not in tables
    finally:
        await store.close()


async def test_lobby_seats_and_game_rows(tmp_path):
    store = await _store(tmp_path)
    try:
        g = await _game(store)
        assert g.status == "lobby" and g.version == 0 and g.options == {"a": 1} and g.place_id == 2
        await store.add_seat(g.id, user_id=11, name="Bob")
        await store.add_seat(g.id, user_id=None, name="AI 1", is_ai=True)
        with pytest.raises(sqlite3.IntegrityError):
            await store.add_seat(g.id, user_id=11, name="Bob again")
        with pytest.raises(VersionConflict):
            await store.add_seat(g.id, user_id=12, name="Cy", max_seats=3)
        await store.remove_seat(g.id, 0)
        seats = await store.seats(g.id)
        assert [(s.seat, s.name, s.is_ai) for s in seats] == [(0, "Bob", False), (1, "AI 1", True)]
        g2 = await _game(store, channel_id=3)
        g2 = await store.update_game(g2.id, thread_id=99)
        assert [x.id for x in await store.games(place_id=99)] == [g2.id]
        assert [x.id for x in await store.games(statuses=["lobby"], guild_id=1)] == [g.id, g2.id]
        with pytest.raises(VersionConflict):
            await store.update_game(g2.id, expect_status="active", status="ended")
    finally:
        await store.close()


async def test_record_move_checks_version_inside_the_transaction(tmp_path):
    store = await _store(tmp_path)
    try:
        g = await _game(store)
        with pytest.raises(VersionConflict):  # a lobby takes no moves
            await store.record_move(g.id, expected_version=0, seat=0, action="x", by="player",
                                    user_id=10, state_json="{}")
        g = await store.start_game(g.id, state_json='{"v":0}', deadline=5000.0)
        assert g.status == "active" and g.deadline == 5000.0
        v = await store.record_move(g.id, expected_version=0, seat=0, action="take 1", by="player",
                                    user_id=10, state_json='{"v":1}', deadline=6000.0,
                                    seat_updates={0: {"expiries": 2}})
        assert v == 1
        with pytest.raises(VersionConflict):
            await store.record_move(g.id, expected_version=0, seat=0, action="take 2", by="player",
                                    user_id=10, state_json='{"v":"bad"}')
        assert [m.action for m in await store.moves(g.id)] == ["take 1"]
        assert await store.snapshot(g.id) == (1, '{"v":1}', digest('{"v":1}'))
        assert (await store.seats(g.id))[0].expiries == 2
        await store.record_move(g.id, expected_version=1, seat=0, action="take 3", by="clock",
                                user_id=None, state_json='{"v":2}', status="finished")
        row = await store.game(g.id)
        assert (row.version, row.status, row.deadline) == (2, "finished", None)
        assert [m.version for m in await store.moves(g.id, last=1)] == [2]
    finally:
        await store.close()


async def test_move_log_is_append_only(tmp_path):
    store = await _store(tmp_path)
    try:
        g = await _game(store)
        await store.start_game(g.id, state_json="{}", deadline=None)
        await store.record_move(g.id, expected_version=0, seat=0, action="a", by="ai", user_id=None, state_json="{}")
        for sql in ("UPDATE moves SET action = 'b'", "DELETE FROM moves"):
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                await store._db.execute(sql)
        with pytest.raises(sqlite3.IntegrityError):  # bad 'by'
            await store._db.execute("INSERT INTO moves VALUES (?, 5, 0, 'x', 'ghost', NULL, 0)", (g.id,))
    finally:
        await store.close()


async def test_messages_are_remembered_and_retired(tmp_path):
    store = await _store(tmp_path)
    try:
        g = await _game(store)
        await store.add_message(g.id, kind="turn", channel_id=2, message_id=500, version=0, live=True)
        await store.add_message(g.id, kind="dm", channel_id=3, message_id=501, version=0, seat=0)
        live = await store.messages(g.id, kind="turn", live=True)
        assert [m.message_id for m in live] == [500]
        await store.retire_messages([m.id for m in live])
        assert await store.messages(g.id, kind="turn", live=True) == []
        assert len(await store.messages(g.id)) == 2
    finally:
        await store.close()


async def test_a_migration_another_process_applied_meanwhile_is_skipped(tmp_path):
    """Two bots starting on one new file: the second read the schema version before the first
    committed its migration. Running that migration again must be a no-op, not a failed start
    ("table games already exists"), and must not touch the data."""
    path = tmp_path / "race.sqlite3"
    first = await Store.open(path, migrate=False)
    second = await Store.open(path, migrate=False)
    try:
        stale = await second.schema_version()
        every = [n for n, _, _ in migration_files()]
        assert stale == 0 and await first.migrate() == every
        g = await _game(first)

        async def still_stale() -> int:
            return stale

        second.schema_version = still_stale  # what it read before the first one committed
        assert await second.migrate() == []
        assert [x.id for x in await second.games()] == [g.id]
        rows = await second._all("SELECT version FROM schema_migrations ORDER BY version")
        assert rows == [(n,) for n in every]
    finally:
        await first.close()
        await second.close()
