"""`bazaar db backup FILE`: a consistent copy of the SQLite database (even while a bot writes to
it), checked by replaying every game of the copy; pg_dump's way for PostgreSQL; and `db copy`
refused while a bot runs on its source."""

from __future__ import annotations

import asyncio
import os
import stat
from pathlib import Path

import pytest

from bot import cli
from bot.host.backup import hold_running
from bot.host.store import Store
from tests.store_internals import sqlite_of
from tests.test_db_commands import _install


def test_a_backup_is_a_checked_consistent_private_copy(
    env: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "bazaar.sqlite3"
    counts = asyncio.run(_install(db))
    env.setenv("BAZAAR_DB", str(db))
    running = hold_running(db)  # a bot runs on it: a backup is still allowed
    try:
        assert cli.main(["db", "backup", str(tmp_path / "b" / "copy.sqlite3")]) == 0
    finally:
        running.close()
    out = capsys.readouterr().out
    assert out.startswith("bazaar: backed up") and "replay to their snapshots" in out and "do not" not in out
    copy = tmp_path / "b" / "copy.sqlite3"
    assert stat.S_IMODE(os.stat(copy).st_mode) == 0o600
    assert not copy.with_name("copy.sqlite3-wal").exists()  # one self-contained file

    async def games(path: Path) -> list[tuple[int, int, str]]:
        store = await Store.open(path, migrate=False)
        try:
            return [(r.id, r.version, r.status) for r in await store.games()]
        finally:
            await store.close()

    assert (
        asyncio.run(games(copy)) == asyncio.run(games(db)) and len(asyncio.run(games(db))) == counts["games"]
    )
    # never over an existing file
    assert cli.main(["db", "backup", str(copy)]) == 1
    assert "exists already" in capsys.readouterr().err


def test_a_backup_taken_while_a_bot_writes_is_one_consistent_state(
    env: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "bazaar.sqlite3"
    asyncio.run(_install(db))
    env.setenv("BAZAAR_DB", str(db))

    async def write_and_back_up() -> None:
        store = await Store.open(db)
        try:
            conn = sqlite_of(store)
            await conn.execute("BEGIN IMMEDIATE")
            await conn.execute("UPDATE games SET version = version + 100")
            # a write in flight: the backup sees the last committed state, not this
            code = await asyncio.to_thread(cli.main, ["db", "backup", str(tmp_path / "mid.sqlite3")])
            assert code == 0
            await conn.execute("ROLLBACK")
        finally:
            await store.close()

    asyncio.run(write_and_back_up())
    assert "do not" not in capsys.readouterr().out  # every game of the copy replays to its snapshot


def test_postgresql_is_backed_up_with_pg_dump(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    env.setenv("BAZAAR_DB", "postgresql://bob@127.0.0.1:9/x")
    assert cli.main(["db", "backup", "x.dump"]) == 2
    err = capsys.readouterr().err
    assert "pg_dump" in err and "pg_restore" in err and err.count("\n") == 1


def test_copy_is_refused_while_a_bot_runs_on_the_source(
    env: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "bazaar.sqlite3"
    asyncio.run(_install(db))
    running = hold_running(db)
    try:
        code = cli.main(["db", "copy", "--from", str(db), "--to", "postgresql://postgres@127.0.0.1:9/test"])
    finally:
        running.close()
    err = capsys.readouterr().err
    assert code == 1 and "a bot is running on" in err and err.count("\n") == 1
