"""``bazaar db migrate``, ``bazaar db backup FILE``, ``bazaar db copy --to URL [--from PATH]`` and
``bazaar db forget-user USER_ID``: one-line ``bazaar:``
messages for every failure (an unreachable server, a URL that is not one, a target that is not
empty, a source file that does not exist), exit code 0 on success, 1 when the database refuses,
2 for wrong arguments."""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

from ..digits import is_digits
from .backup import backup, refuse_if_running
from .config import ConfigError, load_config
from .forget import forget_user
from .ratings import Ratings
from .store import Store, StoreError, is_postgres_url
from .store_copy import copy_store, replays
from .store_pg import passwords, redacted


def _fail(message: str, code: int = 1) -> int:
    print(f"bazaar: {message}", file=sys.stderr)
    return code


async def _migrate(target: str | Path) -> str:
    store = await Store.open(target, migrate=False)
    try:
        before = await store.schema_version()
        applied = await store.migrate()
        now = await store.schema_version()
        done = f"applied migration(s) {', '.join(str(n) for n in applied)}" if applied else "nothing to apply"
        return f"database {store.describe()}: schema {before} -> {now} ({done})"
    finally:
        await store.close()


async def _rate(target: str | Path) -> str:
    """``bazaar db rate``: record the results still missing, then rate everything again."""
    if isinstance(target, Path) and not target.is_file():
        raise StoreError(f"there is no SQLite database at {target}: check BAZAAR_DB")
    store = await Store.open(target)
    try:
        started = time.perf_counter()
        ratings = Ratings(store)
        recorded = await ratings.record_missing()
        games, rows = await ratings.rerate()
        took = time.perf_counter() - started
        return f"database {store.describe()}: rated {games} game(s) into {rows} rating(s) in {took:.1f} s" + (
            f" ({recorded} result(s) recorded from their logs first)" if recorded else ""
        )
    finally:
        await store.close()


PG_BACKUP = (
    "BAZAAR_DB is a PostgreSQL database: back it up with pg_dump, e.g. "
    "`PGPASSWORD=… pg_dump --format=custom --file=bazaar.dump postgresql://user@host:5432/dbname` "
    "(consistent while the bot runs), and restore it with pg_restore into an empty database"
)


async def _backup(source: Path, target: Path) -> str:
    """Back ``source`` up to ``target`` and check the copy: every started game of it replays
    from its seed to its snapshot."""
    size = await asyncio.to_thread(backup, source, target)
    copy = await Store.open(target, migrate=False)
    try:
        rows = await copy.games()
        bad, replayed = [], 0
        for row in rows:
            record = await copy.record(row.id)
            ok = replays(record) if record is not None else False
            if ok is False:
                bad.append(row.id)
            elif ok:
                replayed += 1
    finally:
        await copy.close()
    await asyncio.to_thread(_single_file, target)
    line = (
        f"backed up {source} to {target} ({size / 1e6:.1f} MB, {len(rows)} game(s)); "
        f"{replayed} started game(s) of the copy replay to their snapshots"
    )
    if bad:
        line += (
            f"; {len(bad)} do not ("
            + ", ".join(f"#{g}" for g in bad[:10])
            + "): they need attention in the database itself"
        )
    return line


def _single_file(path: Path) -> None:
    import sqlite3

    db = sqlite3.connect(path)
    try:
        db.execute("PRAGMA journal_mode=DELETE")  # the backup stays one file, without a WAL beside it
    finally:
        db.close()


async def _copy(source_path: Path, url: str) -> tuple[bool, str]:
    lock = refuse_if_running(source_path)  # the copy needs the file to itself
    try:
        return await _copy_alone(source_path, url)
    finally:
        lock.close()


async def _copy_alone(source_path: Path, url: str) -> tuple[bool, str]:
    source = await Store.open(source_path, migrate=False)
    try:
        if await source.schema_version() < 1:
            raise StoreError(f"{source_path} holds no Bazaar database (no migrations applied)")
        await source.migrate()  # an older install's file gets the columns the copy moves
        target = await Store.open(url)
        try:
            if not await target.is_empty():
                raise StoreError(
                    f"the database {target.describe()} is not empty (it holds games, or settings "
                    "of channels or servers): copy into a new, empty database"
                )
            report = await copy_store(source, target)
        finally:
            await target.close()
    finally:
        await source.close()
    if not report.ok:
        return False, "the copy does not check out: " + "; ".join(report.differences[:5])
    return True, f"{report.summary()}. Set BAZAAR_DB to the URL to run on it."


async def _forget(target: str | Path, user_id: int) -> tuple[bool, str]:
    """Forget ``user_id`` in the database ``target`` (a SQLite file only while no bot runs on
    it), then replay every game that is over and was changed. Returns (complete, the line):
    not complete when active games were left or a changed game does not replay."""
    if isinstance(target, Path) and not target.is_file():
        raise StoreError(f"there is no SQLite database at {target}: check BAZAAR_DB")
    lock = refuse_if_running(target) if isinstance(target, Path) else None
    try:
        store = await Store.open(target, migrate=False)
        try:
            if await store.schema_version() < 1:
                raise StoreError(f"{store.describe()} holds no Bazaar database (no migrations applied)")
            await store.migrate()  # 0007 lets the move log's user ids be erased
            report = await forget_user(store, user_id)
            rated = await Ratings(store).forget(user_id)
            bad, replayed = [], 0
            for gid in report.over:
                record = await store.record(gid)
                ok = replays(record) if record is not None else False
                bad += [gid] if ok is False else []
                replayed += 1 if ok else 0
        finally:
            await store.close()
    finally:
        if lock is not None:
            lock.close()
    line = report.summary() + (f"; their {rated} rated game(s) now count under a pseudonym" if rated else "")
    if report.changed:
        line += f"; {replayed} changed game(s) replay to their snapshots"
    if bad:
        line += (
            "; "
            + ", ".join(f"#{g}" for g in bad[:10])
            + " do not: they need attention in the database itself"
        )
    return not (bad or report.active), line


def _forget_command(target: str | Path, text: str) -> int:
    if not is_digits(text.strip()) or not 0 < int(text.strip()) < 2**63:
        return _fail(
            f"USER_ID is a Discord user id (a number, as Developer Mode's Copy User ID gives it), "
            f"not {text!r}",
            2,
        )
    ok, line = asyncio.run(_forget(target, int(text.strip())))
    if not ok:
        return _fail(line)
    print(f"bazaar: {line}")
    return 0


def run_db_command(args: argparse.Namespace) -> int:
    """Run ``bazaar db <migrate|backup|copy|forget-user>``; returns the exit code."""
    try:
        config = load_config(require_token=False)
    except ConfigError as err:
        return _fail(str(err), 2)
    try:
        if args.db_cmd == "forget-user":
            return _forget_command(config.db_path, args.user_id)
        if args.db_cmd == "rate":
            print(f"bazaar: {asyncio.run(_rate(config.db_path))}")
            return 0
        if args.db_cmd == "migrate":
            print(f"bazaar: {asyncio.run(_migrate(config.db_path))}")
            return 0
        if args.db_cmd == "backup":
            if is_postgres_url(config.db_path):
                return _fail(PG_BACKUP, 2)
            source = Path(config.db_path)
            print(f"bazaar: {asyncio.run(_backup(source, Path(args.file)))}")
            return 0
        url = args.to.strip()
        if not is_postgres_url(url):
            return _fail(
                f"--to must be a postgresql:// URL (postgresql://user@host:5432/dbname), not "
                f"{redacted(url)!r}",
                2,
            )
        if passwords(url):
            return _fail(
                "--to holds a password, which every user of this machine can read in the process "
                "list: leave it out of the URL and set PGPASSWORD (or use ~/.pgpass) instead",
                2,
            )
        copy_from: Path | str = Path(args.source) if args.source else config.db_path
        if is_postgres_url(copy_from) or not isinstance(copy_from, Path):
            return _fail("the copy reads a SQLite file: give it with --from PATH (BAZAAR_DB is a URL)", 2)
        if not copy_from.is_file():
            return _fail(
                f"there is no SQLite database at {copy_from}: give the bot's file with --from PATH", 2
            )
        ok, line = asyncio.run(_copy(copy_from, url))
        return _fail(line) if not ok else (print(f"bazaar: {line}") or 0)
    except StoreError as err:
        return _fail(str(err))
