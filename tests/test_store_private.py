"""A new SQLite database is the bot's user's alone (0600, its WAL too), and every commit is on
disk before it is acknowledged (``synchronous=FULL``: a move survives a power loss)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from bot.host.store import Store


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


async def test_a_new_database_and_its_wal_are_private(tmp_path: Path) -> None:
    old = os.umask(0o022)  # a usual umask: files would be world-readable
    try:
        path = tmp_path / "data" / "bazaar.sqlite3"
        store = await Store.open(path, now=lambda: 1_700_000_000.0)
        try:
            wal = path.with_name(path.name + "-wal")
            assert _mode(path) == 0o600
            assert wal.exists() and _mode(wal) == 0o600
        finally:
            await store.close()
    finally:
        os.umask(old)


async def test_commits_are_durable_against_power_loss(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "db.sqlite3", now=lambda: 1_700_000_000.0)
    try:
        row = await store._one("PRAGMA synchronous")
        assert row is not None and row[0] == 2  # FULL
        mode = await store._one("PRAGMA journal_mode")
        assert mode is not None and mode[0] == "wal"
    finally:
        await store.close()
