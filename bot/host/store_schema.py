"""Where the store's schema comes from: the numbered migration files of each dialect, a file
split into whole statements, and whether a ``BAZAAR_DB`` value names PostgreSQL. Import them
from :mod:`bot.host.store`.

Schema changes are numbered files ``bot/host/migrations/<dialect>/NNNN_name.sql`` (the same
numbers, tables and columns in both dialects; a test reads both schemas back), applied in order
and tracked in ``schema_migrations``.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from .storefail import StoreError

MIGRATIONS_ROOT = Path(__file__).parent / "migrations"
MIGRATIONS = MIGRATIONS_ROOT / "sqlite"
PG_MIGRATIONS = MIGRATIONS_ROOT / "postgres"
_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
PG_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(target: str | Path) -> bool:
    """Whether ``target`` (a ``BAZAAR_DB`` value) names a PostgreSQL database, not a file."""
    return isinstance(target, str) and target.strip().lower().startswith(PG_SCHEMES)


def sql_statements(script: str) -> list[str]:
    """The statements of a migration file, each whole (a trigger's ``BEGIN … END`` included, as
    ``sqlite3.complete_statement`` judges), so each runs through ``execute`` inside the one
    transaction that also records the migration (``executescript`` would commit first). The
    PostgreSQL files write function bodies as quoted strings, which split the same way."""
    out: list[str] = []
    buf = ""
    pieces = script.split(";")
    for i, piece in enumerate(pieces):
        buf += piece + (";" if i < len(pieces) - 1 else "")
        if sqlite3.complete_statement(buf):
            if buf.strip(" \t\r\n;"):
                out.append(buf.strip())
            buf = ""
    if buf.strip(" \t\r\n;"):
        raise StoreError(f"a migration ends in an incomplete statement: {buf.strip()[:60]!r}")
    return out


def migration_files(folder: Path = MIGRATIONS) -> list[tuple[int, str, Path]]:
    """``(number, name, path)`` of every migration file, in order. Raises :class:`StoreError` if
    two files share a number."""
    out: dict[int, tuple[int, str, Path]] = {}
    for path in sorted(folder.glob("*.sql")):
        m = _MIGRATION_NAME.match(path.name)
        if not m:
            continue
        number = int(m.group(1))
        if number in out:
            raise StoreError(f"two migrations are numbered {number:04d} in {folder}")
        out[number] = (number, path.stem, path)
    return [out[k] for k in sorted(out)]
