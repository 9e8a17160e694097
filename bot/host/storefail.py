"""How the database fails: the store's exceptions, a one-line reason (with what to do) for every
SQLite error, and the checks the SQLite store makes before it serves (PostgreSQL's reasons are
in :mod:`bot.host.store_pg`).

A :class:`StoreUnavailable` means the database could not be read or written just now and nothing
was changed; the host answers it privately and tries again later (see ``bot/host/service.py``
and ``actions.guard``), and at start-up the bot exits with its one-line message.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import aiosqlite


class StoreError(Exception):
    """A problem with the database file itself; the message is one line for the log."""


class CorruptDatabase(StoreError):
    """The file exists but is not a usable SQLite database (or fails its integrity check)."""


class StoreUnavailable(StoreError):
    """The database cannot be read or written right now (locked by another process, read-only,
    the disk full, an I/O error, or damaged): nothing was changed. ``str()`` is one line naming
    the problem and what to do about it."""


class VersionConflict(StoreError):
    """A write expected a game version (or status) that is no longer current."""


class ConstraintViolation(StoreError):
    """A write broke a constraint of the schema (a user seated twice in one game); nothing was
    changed. Both backends raise it for their own integrity errors."""


_ADVICE = {
    "SQLITE_BUSY": "is locked by another process (is another Bazaar running on it?): stop that "
    "process or wait for it, then try again",
    "SQLITE_LOCKED": "is locked by another connection: stop that process or wait for it, then try again",
    "SQLITE_READONLY": "is read-only: make the file and its folder writable by the bot's user",
    "SQLITE_CANTOPEN": "cannot be opened: check that its folder exists and that the bot's user may "
    "write there, or set BAZAAR_DB to another place",
    "SQLITE_PERM": "may not be written (permission denied): make the file and its folder writable by "
    "the bot's user",
    "SQLITE_FULL": "cannot grow: the disk is full; free some space",
    "SQLITE_IOERR": "could not be read or written (an I/O error): check the disk",
    "SQLITE_NOTADB": "is unreadable, not a SQLite database: set BAZAAR_DB to the right file, "
    "restore a backup, or move this one aside to start afresh",
    "SQLITE_CORRUPT": "is damaged: restore a backup, or move it aside to start afresh",
}
_CORRUPT = ("SQLITE_NOTADB", "SQLITE_CORRUPT")


def _code_of(err: sqlite3.Error) -> str:
    """The primary SQLite result name of ``err`` (``SQLITE_READONLY`` for
    ``SQLITE_READONLY_DIRECTORY``), or "" when sqlite3 gave none."""
    name = getattr(err, "sqlite_errorname", None) or ""
    for code in _ADVICE:
        if name == code or name.startswith(code + "_"):
            return code
    text = str(err).lower()  # errors raised without a code (and the tests' fault wrapper's)
    for code, words in (
        ("SQLITE_BUSY", "locked"),
        ("SQLITE_FULL", "full"),
        ("SQLITE_READONLY", "readonly"),
        ("SQLITE_NOTADB", "not a database"),
        ("SQLITE_CORRUPT", "malformed"),
        ("SQLITE_CANTOPEN", "unable to open"),
        ("SQLITE_IOERR", "disk i/o"),
    ):
        if words in text:
            return code
    return ""


def unavailable(err: sqlite3.Error, path: Path | str) -> StoreError:
    """The :class:`StoreError` for a SQLite error on the database at ``path``: a
    :class:`CorruptDatabase` for a file that is not (or no longer) a database, else a
    :class:`StoreUnavailable`; its message is one line naming the problem and what to do."""
    code = _code_of(err)
    what = _ADVICE.get(code)
    message = (
        f"the database {path} {what} ({err})"
        if what
        else f"the database {path} failed ({err}): check the file and the disk"
    )
    return (CorruptDatabase if code in _CORRUPT else StoreUnavailable)(message)


def translatable(err: BaseException) -> bool:
    """Whether ``err`` is the database failing (not a constraint or a programming error)."""
    return isinstance(err, sqlite3.OperationalError) or type(err) is sqlite3.DatabaseError


PRIVATE = 0o600
"""The permissions of a new database file (and so of its WAL): the bot's user only."""


def prepare_path(path: Path) -> bool:
    """Whether ``path`` is still to be created (its folder is made if missing). Raises
    :class:`StoreUnavailable` when the path is a folder or its folder cannot be made."""
    try:
        if path.is_dir():
            raise StoreUnavailable(
                f"the database path {path} is a folder: set BAZAAR_DB to a file "
                f"in it, such as {path / 'bazaar.sqlite3'}"
            )
        fresh = not path.exists() or path.stat().st_size == 0
        if fresh:
            path.parent.mkdir(parents=True, exist_ok=True)
            # readable by the bot's user only; SQLite gives its WAL and shared-memory files the
            # main file's permissions
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT, PRIVATE))
            os.chmod(path, PRIVATE)
    except OSError as err:
        raise StoreUnavailable(
            f"cannot create the database {path}: {err.strerror or err} "
            f"({err.filename or path.parent}); create its folder (writable by the "
            f"bot's user) or set BAZAAR_DB to another place"
        ) from err
    return fresh


async def probe_write(db: aiosqlite.Connection) -> None:
    """Take the write lock and write the schema, then roll back: a read-only file or folder,
    or a lock another process holds, shows here rather than at the first move."""
    await db.execute("BEGIN IMMEDIATE")
    try:
        await db.execute("CREATE TABLE bazaar_write_probe (x)")  # rolled back: never kept
    finally:
        await db.execute("ROLLBACK")
