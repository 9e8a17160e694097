"""bot.host.store on both backends (SQLite and PostgreSQL, ``backend_target``): migrations, the
version check inside the move transaction, the append-only log, messages, drafts and clock
claims; and, on SQLite, WAL and refusing a corrupt file without touching it."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.host.store import (
    PG_MIGRATIONS,
    ConstraintViolation,
    CorruptDatabase,
    GameRow,
    Store,
    StoreError,
    VersionConflict,
    digest,
    migration_files,
    stamp_of,
)
from tests.store_internals import pool_of, record_of, row_of, sqlite_of


async def _store(target: str | Path) -> Store:
    return await Store.open(target, now=lambda: 1000.0)


async def _game(store: Store, **kw: Any) -> GameRow:
    args: dict[str, Any] = dict(
        kind="toy",
        seed=5,
        options={"a": 1},
        guild_id=1,
        channel_id=2,
        creator_id=10,
        creator_name="Ann",
        clock_seconds=3600,
    )
    args.update(kw)
    return await store.create_game(**args)


async def raw(store: Store, sql: str, *args: Any) -> None:
    """Run one statement past the store's API (as an operator with a SQL shell would)."""
    if store.dialect == "sqlite":
        await sqlite_of(store).execute(sql, args)
    else:
        from bot.host.store_pg import dollar

        await pool_of(store).execute(dollar(sql), *args)


def _integrity_errors(store: Store) -> tuple[type[BaseException], ...]:
    if store.dialect == "sqlite":
        return (sqlite3.IntegrityError,)
    import asyncpg

    return (asyncpg.IntegrityConstraintViolationError,)


async def _tables(store: Store) -> set[str]:
    if store.dialect == "sqlite":
        return {r[0] for r in await store._all("SELECT name FROM sqlite_master WHERE type = 'table'")}
    return {
        r[0]
        for r in await store._all(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        )
    }


async def test_fresh_database_is_created_and_migrated(
    backend_target: str | Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level("INFO")
    store = await _store(backend_target)
    try:
        newest = migration_files()[-1][0]
        assert newest == migration_files(PG_MIGRATIONS)[-1][0] >= 3
        assert await store.schema_version() == newest
        assert {
            "games",
            "seats",
            "moves",
            "snapshots",
            "messages",
            "drafts",
            "schema_migrations",
        } <= await _tables(store)
        if store.dialect == "sqlite":
            assert Path(backend_target).exists()
            assert "creating a fresh one" in caplog.text
            mode = await store._one("PRAGMA journal_mode")
            fk = await store._one("PRAGMA foreign_keys")
            assert mode is not None and fk is not None and mode[0] == "wal" and fk[0] == 1
        assert await store.migrate() == []  # idempotent
        g = await _game(store)
    finally:
        await store.close()
    store = await _store(backend_target)  # reopening applies nothing new and keeps data
    try:
        assert [x.id for x in await store.games()] == [g.id]
    finally:
        await store.close()


async def test_corrupt_file_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "bad.sqlite3"
    junk = b"this is not a database at all " * 200
    path.write_bytes(junk)
    with pytest.raises(CorruptDatabase, match="bad.sqlite3"):
        await Store.open(path)
    assert path.read_bytes() == junk


async def test_newer_schema_is_refused(backend_target: str | Path) -> None:
    store = await _store(backend_target)
    await raw(store, "INSERT INTO schema_migrations VALUES (9999, 'future', 0)")
    await store.close()
    with pytest.raises(StoreError, match="newer"):
        await _store(backend_target)


async def test_failed_migration_rolls_back(backend_target: str | Path, tmp_path: Path) -> None:
    folder = tmp_path / "migs"
    folder.mkdir()
    (folder / "0001_ok.sql").write_text("CREATE TABLE a (x INTEGER);")
    (folder / "0002_bad.sql").write_text("CREATE TABLE b (x INTEGER); INSERT INTO nowhere VALUES (1);")
    with pytest.raises(StoreError, match="0002_bad.sql"):
        await Store.open(backend_target, migrations=folder)
    store = await Store.open(backend_target, migrate=False)
    try:
        assert await store.schema_version() == 1
        tables = await _tables(store)
        assert "a" in tables and "b" not in tables
    finally:
        await store.close()


async def test_lobby_seats_and_game_rows(backend_target: str | Path) -> None:
    store = await _store(backend_target)
    try:
        g = await _game(store)
        assert g.status == "lobby" and g.version == 0 and g.options == {"a": 1} and g.place_id == 2
        await store.add_seat(g.id, user_id=11, name="Bob")
        await store.add_seat(g.id, user_id=None, name="AI 1", is_ai=True)
        with pytest.raises(ConstraintViolation):
            await store.add_seat(g.id, user_id=11, name="Bob again")
        with pytest.raises(VersionConflict):
            await store.add_seat(g.id, user_id=12, name="Cy", max_seats=3)
        await store.remove_seat(g.id, 0)
        seats = await store.seats(g.id)
        assert [(s.seat, s.name, s.is_ai) for s in seats] == [(0, "Bob", False), (1, "AI 1", True)]
        assert await store.stamp(g.id) == (0, "lobby", 2, 8) == stamp_of(g, seats)  # seat 1's AI bit
        assert await store.stamp(g.id + 99) is None
        await store.update_seat(g.id, 0, dm_closed=True, ai_takeover=True)  # no move, no version
        seats = await store.seats(g.id)
        assert await store.stamp(g.id) == (0, "lobby", 2, 8 + 2 + 4) == stamp_of(g, seats)
        g2 = await _game(store, channel_id=3, guild_id=2**62, creator_id=2**63 - 1)  # snowflakes are 64-bit
        g2 = await store.update_game(g2.id, thread_id=99)
        assert (g2.guild_id, g2.creator_id) == (2**62, 2**63 - 1)
        assert [x.id for x in await store.games(place_id=99)] == [g2.id]
        assert [x.id for x in await store.games(statuses=["lobby"], guild_id=1)] == [g.id]
        assert [x.id for x in await store.games(statuses=["lobby"])] == [g.id, g2.id]
        assert await store.games(statuses=[]) == []
        by_game = await store.seats_of([g2.id, g.id, g.id, g.id + 99])  # one read for a list of games
        assert {k: [(s.seat, s.name) for s in v] for k, v in by_game.items()} == {
            g.id: [(0, "Bob"), (1, "AI 1")],
            g2.id: [(0, "Ann")],
        }
        assert by_game[g.id] == seats and await store.seats_of([]) == {}
        with pytest.raises(VersionConflict):
            await store.update_game(g2.id, expect_status="active", status="ended")
        with pytest.raises(KeyError):
            await store.update_game(g2.id + 99, status="ended")
        assert await store.remove_seat(g.id, 0, end_if_empty=True) is True  # only the AI is left
        assert (await row_of(store, g.id)).status == "ended"
    finally:
        await store.close()


async def test_record_move_checks_version_inside_the_transaction(backend_target: str | Path) -> None:
    store = await _store(backend_target)
    try:
        g = await _game(store)
        with pytest.raises(VersionConflict):  # a lobby takes no moves
            await store.record_move(
                g.id, expected_version=0, seat=0, action="x", by="player", user_id=10, state_json="{}"
            )
        g = await store.start_game(g.id, state_json='{"v":0}', deadline=5000.0)
        assert g.status == "active" and g.deadline == 5000.0
        with pytest.raises(VersionConflict):
            await store.start_game(g.id, state_json='{"v":0}', deadline=5000.0)
        v = await store.record_move(
            g.id,
            expected_version=0,
            seat=0,
            action="take 1",
            by="player",
            user_id=10,
            state_json='{"v":1}',
            deadline=6000.0,
            seat_updates={0: {"expiries": 2}},
        )
        assert v == 1
        with pytest.raises(VersionConflict):
            await store.record_move(
                g.id,
                expected_version=0,
                seat=0,
                action="take 2",
                by="player",
                user_id=10,
                state_json='{"v":"bad"}',
            )
        with pytest.raises(ValueError):  # an unknown seat column writes nothing
            await store.record_move(
                g.id,
                expected_version=1,
                seat=0,
                action="take 2",
                by="player",
                user_id=10,
                state_json="{}",
                seat_updates={0: {"name = 'x'; --": 1}},
            )
        assert [m.action for m in await store.moves(g.id)] == ["take 1"]
        assert await store.snapshot(g.id) == (1, '{"v":1}', digest('{"v":1}'))
        assert (await store.seats(g.id))[0].expiries == 2
        await store.record_move(
            g.id,
            expected_version=1,
            seat=0,
            action="take 3",
            by="clock",
            user_id=None,
            state_json='{"v":2}',
            status="finished",
        )
        row = await row_of(store, g.id)
        assert (row.version, row.status, row.deadline) == (2, "finished", None)
        assert [m.version for m in await store.moves(g.id, last=1)] == [2]
        record = await record_of(store, g.id)
        assert record.row == row and len(record.moves) == 2
        assert record.snapshot is not None and record.snapshot[0] == 2
        assert await store.history(g.id) == (record.moves, record.snapshot)
        assert await store.record(g.id + 99) is None
    finally:
        await store.close()


async def test_concurrent_moves_on_one_version_commit_exactly_once(backend_target: str | Path) -> None:
    """Two writers (two Store objects: two processes) send a move for the same version at
    once, twenty times: each time exactly one commits and the other gets VersionConflict."""
    first, second = await _store(backend_target), await _store(backend_target)
    try:
        g = await _game(first)
        await first.start_game(g.id, state_json="s0", deadline=None)
        for v in range(20):
            results = await asyncio.gather(
                *(
                    s.record_move(
                        g.id,
                        expected_version=v,
                        seat=0,
                        action=f"{name} {v}",
                        by="player",
                        user_id=10,
                        state_json=f"{name}{v}",
                    )
                    for s, name in ((first, "a"), (second, "b"))
                ),
                return_exceptions=True,
            )
            assert sorted(type(r).__name__ for r in results) == ["VersionConflict", "int"], results
        moves = await second.moves(g.id)
        assert [m.version for m in moves] == list(range(1, 21))
        assert (await row_of(first, g.id)).version == 20
    finally:
        await asyncio.gather(first.close(), second.close())


async def test_move_log_is_append_only(backend_target: str | Path) -> None:
    store = await _store(backend_target)
    try:
        g = await _game(store)
        await store.start_game(g.id, state_json="{}", deadline=None)
        await store.record_move(
            g.id, expected_version=0, seat=0, action="a", by="ai", user_id=None, state_json="{}"
        )
        for sql in ("UPDATE moves SET action = 'b'", "DELETE FROM moves"):
            with pytest.raises(_integrity_errors(store), match="append-only"):
                await raw(store, sql)
        with pytest.raises(_integrity_errors(store)):  # bad 'by'
            await raw(store, "INSERT INTO moves VALUES (?, 5, 0, 'x', 'ghost', NULL, 0)", g.id)
        assert [m.action for m in await store.moves(g.id)] == ["a"]
    finally:
        await store.close()


async def test_messages_are_remembered_and_retired(backend_target: str | Path) -> None:
    store = await _store(backend_target)
    try:
        g = await _game(store)
        await store.start_game(g.id, state_json="{}", deadline=None)
        await store.add_message(g.id, kind="turn", channel_id=2, message_id=2**62 + 500, version=0, live=True)
        await store.add_message(g.id, kind="dm", channel_id=3, message_id=501, version=0, seat=0)
        live = await store.messages(g.id, kind="turn", live=True)
        assert [m.message_id for m in live] == [2**62 + 500]
        assert await store.unposted() == []
        await store.record_move(
            g.id, expected_version=0, seat=0, action="a", by="ai", user_id=None, state_json="{}"
        )
        assert await store.unposted() == [(g.id, 0)]
        await store.set_message_version(2**62 + 500, 1)
        assert await store.unposted() == []
        await store.retire_messages([m.id for m in live])
        assert await store.messages(g.id, kind="turn", live=True) == []
        assert len(await store.messages(g.id)) == 2
    finally:
        await store.close()


async def test_channel_shapes_are_remembered_across_reopening(backend_target: str | Path) -> None:
    """A channel where V2 was refused stays classic for every later store on the database (a
    restart, another process); an unknown channel is V2; a bad shape is refused."""
    store = await _store(backend_target)
    try:
        assert await store.message_shape(2**62 + 7) == "v2"
        await store.set_message_shape(2**62 + 7, "classic")
        with pytest.raises(ValueError):
            await store.set_message_shape(8, "embeds")
    finally:
        await store.close()
    again = await _store(backend_target)
    try:
        assert await again.message_shape(2**62 + 7) == "classic"
        assert await again.message_shape(8) == "v2"
        await again.set_message_shape(2**62 + 7, "v2")
        assert await again.message_shape(2**62 + 7) == "v2"
    finally:
        await again.close()


async def test_drafts_are_kept_per_version(backend_target: str | Path) -> None:
    store = await _store(backend_target)
    try:
        g = await _game(store)
        assert await store.save_draft(g.id, 0, "offer", 0, {"give": ["a"]}) == {"give": ["a"]}
        assert await store.save_draft(g.id, 0, "offer", 0, {"get": ["b"]}) == {"give": ["a"], "get": ["b"]}
        assert await store.draft(g.id, 0, "offer", 1) == {}  # made at another version
        assert await store.save_draft(g.id, 0, "offer", 1, {"get": ["c"]}) == {"get": ["c"]}
        await store.drop_drafts(g.id, 0)
        assert await store.draft(g.id, 0, "offer", 1) == {}
    finally:
        await store.close()


async def test_due_clocks_are_claimed_once_until_released_or_lapsed(backend_target: str | Path) -> None:
    store = await _store(backend_target)
    try:
        ids = []
        for deadline in (500.0, 200.0, 5000.0, 1400.0):
            g = await _game(store, clock_seconds=1000)
            await store.start_game(g.id, state_json="{}", deadline=deadline)
            ids.append(g.id)
        lobby = await _game(store)  # never due: not active
        # at 1000: the first two are past their deadline; the fourth owes its reminder (1400 - 1000 / 2)
        assert await store.claim_due(1000.0, "p1", 60) == [ids[1], ids[0], ids[3]]
        assert await store.claim_due(1000.0, "p2", 60) == []  # all held
        assert await store.claims(ids[0]) == ("p1", 1060.0) and await store.claims(lobby.id) == (None, None)
        assert await store.release_claim(ids[0], "p2") is False  # not p2's
        assert await store.release_claim(ids[0], "p1") is True
        assert await store.claim_due(1001.0, "p2", 60) == [ids[0]]
        assert await store.claim_due(1060.5, "p2", 60) == [ids[1], ids[3]]  # p1's lapsed: p1 died
        assert await store.release_claims("p2") == 3
        assert await store.claim_due(1062.0, "p3", 60, limit=1) == [ids[1]]
    finally:
        await store.close()


async def test_a_migration_another_process_applied_meanwhile_is_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
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

        monkeypatch.setattr(second, "schema_version", still_stale)  # what it read before the first committed
        assert await second.migrate() == []
        assert [x.id for x in await second.games()] == [g.id]
        rows = await second._all("SELECT version FROM schema_migrations ORDER BY version")
        assert rows == [(n,) for n in every]
    finally:
        await first.close()
        await second.close()


async def test_processes_starting_together_on_postgres_migrate_once(pg_url: str) -> None:
    """Three stores opened at once on one empty schema: the advisory lock lets one migrate;
    the others find every migration applied."""
    stores = await asyncio.gather(*(Store.open(pg_url) for _ in range(3)))
    try:
        every = [n for n, _, _ in migration_files(PG_MIGRATIONS)]
        rows = await stores[0]._all("SELECT version FROM schema_migrations ORDER BY version")
        assert rows == [(n,) for n in every]
        assert all([await s.migrate() == [] for s in stores])
    finally:
        await asyncio.gather(*(s.close() for s in stores))


async def test_hints_and_reviews_are_kept_across_reopening(backend_target: str | Path) -> None:
    """Hints off, one hint a seat a version, a review stored once (migration 0011)."""
    store = await _store(backend_target)
    try:
        g = await _game(store)
        assert await store.hints_on(g.id)
        await store.set_hints(g.id, False)
        assert await store.take_hint(g.id, 0, 3)
        assert not await store.take_hint(g.id, 0, 3)
        assert await store.take_hint(g.id, 1, 3) and await store.take_hint(g.id, 0, 4)
        assert await store.hint_taken(g.id, 1, 3) and not await store.hint_taken(g.id, 2, 3)
        await store.give_back_hint(g.id, 1, 3)
        assert not await store.hint_taken(g.id, 1, 3)
        assert await store.review(g.id, 0) is None
        await store.save_review(g.id, 0, '["first"]')
        await store.save_review(g.id, 0, '["second"]')
    finally:
        await store.close()
    again = await _store(backend_target)
    try:
        assert not await again.hints_on(g.id)
        assert await again.hint_taken(g.id, 0, 3) and not await again.hint_taken(g.id, 1, 3)
        assert not await again.take_hint(g.id, 0, 3)
        assert await again.take_hint(g.id, 1, 3)
        assert await again.review(g.id, 0) == '["first"]'
        assert await again.review(g.id, 1) is None
    finally:
        await again.close()
