"""The store when the database fails: at opening (a folder to create or that cannot be made, a
lock held by another process, damaged files) every problem is one specific exception with a
one-line message naming the file and what to do, and nothing is modified; at run time a full
disk or a lock raises :class:`StoreUnavailable`, rolls the transaction back (a failing COMMIT
included) and leaves the connection usable once the fault is gone. Loading reads a game in one
read transaction, so another process committing meanwhile cannot make it look inconsistent."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.host.store import ConstraintViolation, CorruptDatabase, Store, StoreError, StoreUnavailable
from tests.dbfaults import FaultyDB, damaged_copies, exclusive_lock, write_lock
from tests.store_internals import record_of, row_of, sqlite_of


@pytest.fixture
def quick_locks(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lock held by another connection counts after 0.1 s instead of 5 s."""
    monkeypatch.setattr(Store, "BUSY_TIMEOUT_MS", 100)


async def _game(store: Store) -> int:
    row = await store.create_game(
        kind="toy",
        seed=1,
        options={},
        guild_id=1,
        channel_id=2,
        creator_id=3,
        creator_name="Ann",
        clock_seconds=60,
    )
    await store.start_game(row.id, state_json="s0", deadline=None)
    return row.id


async def _stored(store: Store, gid: int) -> tuple[int, str, list[str], tuple[int, str, str] | None]:
    row = await row_of(store, gid)
    return row.version, row.status, [m.action for m in await store.moves(gid)], await store.snapshot(gid)


def _one_line(err: BaseException, *words: str) -> None:
    text = str(err)
    assert "\n" not in text and "Traceback" not in text, text
    for w in words:
        assert w in text, (w, text)


# ---------------------------------------------------------------------- opening


async def test_a_missing_folder_is_created(tmp_path: Path) -> None:
    path = tmp_path / "not" / "there" / "bazaar.sqlite3"
    store = await Store.open(path)
    await store.close()
    assert path.exists()


async def test_a_folder_that_cannot_be_made_is_one_clear_line(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    with pytest.raises(StoreUnavailable) as info:
        await Store.open(tmp_path / "afile" / "bazaar.sqlite3")
    _one_line(info.value, "afile", "BAZAAR_DB", "create its folder")
    with pytest.raises(StoreUnavailable) as info:
        await Store.open(tmp_path)  # a folder given as the database
    _one_line(info.value, "is a folder", "BAZAAR_DB")


async def test_a_database_locked_by_another_process_is_refused_as_locked(
    tmp_path: Path, quick_locks: None
) -> None:
    path = tmp_path / "db.sqlite3"
    await (await Store.open(path)).close()
    with write_lock(path), pytest.raises(StoreUnavailable) as info:
        await Store.open(path)
    _one_line(info.value, str(path), "locked by another process")
    # not even readable: still "locked", never "damaged"
    with exclusive_lock(path), pytest.raises(StoreUnavailable) as info:
        await Store.open(path)
    assert not isinstance(info.value, CorruptDatabase)
    _one_line(info.value, "locked")
    await (await Store.open(path)).close()  # once the other process lets go, it opens


async def test_damaged_files_are_refused_and_left_alone(tmp_path: Path) -> None:
    good = tmp_path / "good.sqlite3"
    store = await Store.open(good)
    for _ in range(40):
        await _game(store)
    await store.close()
    for name, path in damaged_copies(good, tmp_path).items():
        before = path.read_bytes()
        with pytest.raises(CorruptDatabase) as info:
            await Store.open(path)
        _one_line(info.value, path.name)
        assert "aside to start afresh" in str(info.value), (name, str(info.value))
        assert path.read_bytes() == before, name
        assert not path.with_name(path.name + "-wal").exists(), name


# ---------------------------------------------------------------------- at run time


@pytest.mark.parametrize("where", ["COMMIT", "INSERT INTO moves", "INSERT INTO snapshots"])
async def test_a_full_disk_during_a_move_changes_nothing_and_passes(tmp_path: Path, where: str) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
    gid = await _game(store)
    before = await _stored(store, gid)
    faults = FaultyDB.install(store)
    faults.fail(where)
    with pytest.raises(StoreUnavailable) as info:
        await store.record_move(
            gid, expected_version=0, seat=0, action="take 1", by="player", user_id=3, state_json="s1"
        )
    _one_line(info.value, "disk is full")
    assert faults.failed and not sqlite_of(store).in_transaction
    assert await _stored(store, gid) == before
    faults.heal()
    assert (
        await store.record_move(
            gid, expected_version=0, seat=0, action="take 1", by="player", user_id=3, state_json="s1"
        )
        == 1
    )
    assert (await _stored(store, gid))[:3] == (1, "active", ["take 1"])
    await store.close()


async def test_a_write_lock_held_elsewhere_raises_unavailable_then_passes(
    tmp_path: Path, quick_locks: None
) -> None:
    path = tmp_path / "db.sqlite3"
    store = await Store.open(path)
    gid = await _game(store)
    with write_lock(path):
        with pytest.raises(StoreUnavailable, match="locked"):
            await store.save_draft(gid, 0, "offer", 0, {"give": ["a"]})
        assert (await row_of(store, gid)).version == 0  # reads still work in WAL mode
    assert await store.draft(gid, 0, "offer", 0) == {}
    await store.save_draft(gid, 0, "offer", 0, {"give": ["a"]})
    assert await store.draft(gid, 0, "offer", 0) == {"give": ["a"]}
    await store.close()


async def test_constraint_errors_are_not_taken_for_a_failing_database(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
    row = await store.create_game(
        kind="toy",
        seed=1,
        options={},
        guild_id=1,
        channel_id=2,
        creator_id=3,
        creator_name="Ann",
        clock_seconds=60,
    )
    with pytest.raises(ConstraintViolation):
        await store.add_seat(row.id, user_id=3, name="Ann again")
    assert not issubclass(ConstraintViolation, StoreUnavailable)
    assert not isinstance(StoreUnavailable("x"), sqlite3.Error) and issubclass(StoreUnavailable, StoreError)
    await store.close()


async def test_a_game_is_read_in_one_snapshot_while_another_process_commits(tmp_path: Path) -> None:
    """The row is read, then another connection (another process) commits a move before the
    moves are read: the record still shows one instant (version, log and snapshot agree)."""
    path = tmp_path / "db.sqlite3"
    store = await Store.open(path)
    gid = await _game(store)
    other = await Store.open(path)
    faults = FaultyDB.install(store)

    async def commit_elsewhere() -> None:
        await other.record_move(
            gid, expected_version=0, seat=0, action="take 1", by="player", user_id=3, state_json="s1"
        )

    faults.before("FROM moves", commit_elsewhere)
    record = await record_of(store, gid)
    assert (await row_of(other, gid)).version == 1  # the other process did commit meanwhile
    assert record.snapshot is not None and record.row.version == len(record.moves) == record.snapshot[0] == 0
    record = await record_of(store, gid)
    assert record.snapshot is not None and record.row.version == len(record.moves) == record.snapshot[0] == 1
    await asyncio.gather(store.close(), other.close())
