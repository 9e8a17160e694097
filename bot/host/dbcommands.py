"""``bazaar db migrate`` and ``bazaar db copy --to URL [--from PATH]``: one-line ``bazaar:``
messages for every failure (an unreachable server, a URL that is not one, a target that is not
empty, a source file that does not exist), exit code 0 on success, 1 when the database refuses,
2 for wrong arguments."""
from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from .config import ConfigError, load_config
from .store import Store, StoreError, is_postgres_url
from .store_pg import passwords, redacted
from .store_copy import copy_store


def _fail(message: str, code: int = 1) -> int:
    print(f"bazaar: {message}", file=sys.stderr)
    return code


async def _migrate(target: str | Path) -> str:
    store = await Store.open(target, migrate=False)
    try:
        before = await store.schema_version()
        applied = await store.migrate()
        now = await store.schema_version()
        done = (f"applied migration(s) {', '.join(str(n) for n in applied)}" if applied
                else "nothing to apply")
        return f"database {store.describe()}: schema {before} -> {now} ({done})"
    finally:
        await store.close()


async def _copy(source_path: Path, url: str) -> tuple[bool, str]:
    source = await Store.open(source_path, migrate=False)
    try:
        if await source.schema_version() < 1:
            raise StoreError(f"{source_path} holds no Bazaar database (no migrations applied)")
        await source.migrate()  # an older install's file gets the columns the copy moves
        target = await Store.open(url)
        try:
            if not await target.is_empty():
                raise StoreError(f"the database {target.describe()} is not empty (it holds games): "
                                 "copy into a new, empty database")
            report = await copy_store(source, target)
        finally:
            await target.close()
    finally:
        await source.close()
    if not report.ok:
        return False, "the copy does not check out: " + "; ".join(report.differences[:5])
    return True, f"{report.summary()}. Set BAZAAR_DB to the URL to run on it."


def run_db_command(args: argparse.Namespace) -> int:
    """Run ``bazaar db <migrate|copy>``; returns the exit code."""
    try:
        config = load_config(require_token=False)
    except ConfigError as err:
        return _fail(str(err), 2)
    try:
        if args.db_cmd == "migrate":
            print(f"bazaar: {asyncio.run(_migrate(config.db_path))}")
            return 0
        url = args.to.strip()
        if not is_postgres_url(url):
            return _fail(f"--to must be a postgresql:// URL (postgresql://user@host:5432/dbname), not "
                         f"{redacted(url)!r}", 2)
        if passwords(url):
            return _fail("--to holds a password, which every user of this machine can read in the process "
                         "list: leave it out of the URL and set PGPASSWORD (or use ~/.pgpass) instead", 2)
        source = Path(args.source) if args.source else config.db_path
        if is_postgres_url(source) or not isinstance(source, Path):
            return _fail("the copy reads a SQLite file: give it with --from PATH (BAZAAR_DB is a URL)", 2)
        if not source.is_file():
            return _fail(f"there is no SQLite database at {source}: give the bot's file with --from PATH", 2)
        ok, line = asyncio.run(_copy(source, url))
        return _fail(line) if not ok else (print(f"bazaar: {line}") or 0)
    except StoreError as err:
        return _fail(str(err))
