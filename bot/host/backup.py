"""``bazaar db backup FILE``: a consistent copy of a SQLite database, even while a bot runs on it,
checked by replaying every game of the copy; and the lock that tells ``db copy`` a bot is using
a file.

The copy is SQLite's online backup API (``sqlite3.Connection.backup``): pages are copied from a
read transaction's snapshot, so the copy is one consistent state of the database, whatever the
bot writes meanwhile. A running bot holds a shared ``flock`` on ``<database>.lock`` (released by
the system when the process ends, however it ends); ``db copy`` needs the whole file to itself
and takes that lock exclusively, so it refuses while a bot has it.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
from pathlib import Path
from typing import IO

from .storefail import PRIVATE, StoreError


class InUse(StoreError):
    """A bot is running on the database."""


def lock_path(db: Path) -> Path:
    return db.with_name(db.name + ".lock")


def hold_running(db: Path) -> IO[bytes]:
    """Mark ``db`` as in use by this running bot (a shared lock, so several bots of one process,
    as tests run them, may hold it). Keep the returned file open while the bot runs."""
    f = open(lock_path(db), "ab")  # noqa: SIM115 - held for the bot's lifetime
    os.chmod(f.name, PRIVATE)
    fcntl.flock(f.fileno(), fcntl.LOCK_SH)
    return f


def refuse_if_running(db: Path) -> IO[bytes]:
    """Take ``db`` for a command that must have it alone; raises :class:`InUse` while a bot
    runs on it. Keep the returned file open for the command's duration."""
    f = open(lock_path(db), "ab")  # noqa: SIM115 - held for the command's duration
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        f.close()
        raise InUse(
            f"a bot is running on {db}: stop it first (or take a consistent copy while it runs "
            f"with `bazaar db backup FILE` and copy that)"
        ) from None
    return f


def backup(source: Path, target: Path) -> int:
    """Copy ``source`` to ``target`` (a new file, 0600) with SQLite's online backup; returns its
    size in bytes. Raises :class:`StoreError` naming the problem; a failed copy leaves no file."""
    if target.exists():
        raise StoreError(f"{target} exists already: give a new file name (a backup never overwrites)")
    if not source.is_file():
        raise StoreError(f"there is no SQLite database at {source}")
    part = target.with_name(target.name + ".part")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        os.close(os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE))
        src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        try:
            dst = sqlite3.connect(part)
            try:
                src.backup(dst)
                dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            finally:
                dst.close()
        finally:
            src.close()
        os.replace(part, target)
    except (sqlite3.Error, OSError) as err:
        part.unlink(missing_ok=True)
        raise StoreError(f"the backup of {source} to {target} failed: {err}") from err
    return target.stat().st_size
