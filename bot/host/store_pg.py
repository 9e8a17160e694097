"""The PostgreSQL backend of :class:`~bot.host.store.Store` (``BAZAAR_DB=postgresql://…``).

An asyncpg pool; each public method of the store is one transaction on one pooled connection
(reads that must agree, :meth:`Store.record`, run ``REPEATABLE READ READ ONLY``). Statements are
the store's own, written with ``?`` placeholders and renumbered ``$1, $2…`` here
(:func:`dollar`); values always travel as parameters. Several processes may serve one database:
a move commits only if the game's version is still the one it was computed on (the ``UPDATE …
WHERE version = ?`` of :meth:`Store.record_move`: the second of two concurrent updates waits for
the first to commit, then matches no row), and :meth:`Store.claim_due` takes due clocks ``FOR
UPDATE SKIP LOCKED``. Migrations run under a session advisory lock, so processes starting
together apply each one once.

Query parameters in the URL that are not connection settings (``?search_path=bazaar``) are
server settings of every connection. The server failing (unreachable, shutting down, the disk
full, too many connections) raises :class:`StoreUnavailable` with one line naming the server
(never its password) and what to do.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import asyncpg

from bot.digits import is_digits

from .store_base import Store
from .store_schema import PG_MIGRATIONS, migration_files
from .storefail import ConstraintViolation, StoreError, StoreUnavailable

log = logging.getLogger("bot.host.store")

MIGRATION_LOCK = 0x62617A61  # the advisory lock key ("baza") held while migrating
_UNAVAILABLE = (
    OSError,
    asyncio.TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.OperatorInterventionError,
    asyncpg.InsufficientResourcesError,
    asyncpg.ReadOnlySQLTransactionError,
    asyncpg.SerializationError,
    asyncpg.DeadlockDetectedError,
    asyncpg.LockNotAvailableError,
    asyncpg.InvalidCatalogNameError,
    asyncpg.InvalidAuthorizationSpecificationError,
    asyncpg.InvalidPasswordError,
    asyncpg.exceptions.PostgresSystemError,
)


SECRET_PARAMS = frozenset({"password", "sslpassword"})
"""URL query parameters that hold a password (``?password=…``)."""


def passwords(url: str) -> list[str]:
    """The passwords written in ``url``: its ``user:password@`` part and its password query
    parameters (none for a URL that does not parse)."""
    try:
        parts = urlsplit(url)
        found = [parts.password] if parts.password else []
        found += [
            v for k, v in parse_qsl(parts.query, keep_blank_values=True) if k.lower() in SECRET_PARAMS and v
        ]
    except ValueError:
        return []
    return found


def redacted(url: str) -> str:
    """``url`` without its passwords, in whichever form it holds them (``user:pass@``,
    ``?password=``, ``?sslpassword=``), for messages and logs."""
    try:
        parts = urlsplit(url)
        netloc = parts.netloc
        if parts.password is not None:
            host = parts.hostname or ""
            netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
        pairs = parse_qsl(parts.query, keep_blank_values=True)
        query = parts.query
        if any(k.lower() in SECRET_PARAMS for k, _ in pairs):
            query = urlencode([(k, "***" if k.lower() in SECRET_PARAMS else v) for k, v in pairs], safe="*")
        return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))
    except ValueError:
        return "the PostgreSQL URL in BAZAAR_DB"


def scrubbed(text: str, url: str) -> str:
    """``text`` (say, a driver's error message) with every password of ``url`` masked."""
    for secret in sorted(passwords(url), key=len, reverse=True):
        text = text.replace(secret, "***")
    return text


@functools.lru_cache(maxsize=512)
def dollar(sql: str) -> str:
    """``sql`` with its ``?`` placeholders numbered ``$1, $2…`` (outside quoted text). The
    store's statements contain no other ``?``."""
    out: list[str] = []
    n = 0
    quote = ""
    for ch in sql:
        if quote:
            if ch == quote:
                quote = ""
        elif ch in ("'", '"'):
            quote = ch
        elif ch == "?":
            n += 1
            out.append(f"${n}")
            continue
        out.append(ch)
    return "".join(out)


def pg_statements(script: str) -> list[str]:
    """The statements of a PostgreSQL migration file, split at ``;`` outside quoted text and
    comments (function bodies are written as quoted strings, never ``$$``)."""
    out: list[str] = []
    buf: list[str] = []
    i, quote = 0, ""
    while i < len(script):
        ch = script[i]
        if quote:
            buf.append(ch)
            if ch == quote:
                quote = ""
        elif ch in ("'", '"'):
            quote = ch
            buf.append(ch)
        elif script.startswith("--", i):
            end = script.find("\n", i)
            i = len(script) if end < 0 else end
            continue
        elif ch == "$" and script.startswith("$$", i):
            raise StoreError("a PostgreSQL migration uses $$ quoting: write the body as a quoted string")
        elif ch == ";":
            text = "".join(buf).strip()
            if text:
                out.append(text)
            buf = []
        else:
            buf.append(ch)
        i += 1
    if quote or "".join(buf).strip():
        raise StoreError(f"a migration ends in an incomplete statement: {''.join(buf).strip()[:60]!r}")
    return out


def _changed(status: str) -> int:
    """The row count of a command status such as ``UPDATE 1`` or ``INSERT 0 1``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if is_digits(last) else 0


class _Handle:
    """Statements of one open transaction on one pooled connection."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn

    async def sql_rows(self, sql: str, args: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        try:
            return [tuple(r) for r in await self._conn.fetch(dollar(sql), *args)]
        except asyncpg.IntegrityConstraintViolationError as err:
            raise ConstraintViolation(_line(err)) from err

    async def sql_row(self, sql: str, args: Iterable[Any] = ()) -> tuple[Any, ...] | None:
        rows = await self.sql_rows(sql, args)
        return rows[0] if rows else None

    async def sql_run(self, sql: str, args: Iterable[Any] = ()) -> int:
        try:
            return _changed(await self._conn.execute(dollar(sql), *args))
        except asyncpg.IntegrityConstraintViolationError as err:
            raise ConstraintViolation(_line(err)) from err

    async def sql_insert(self, sql: str, args: Iterable[Any] = ()) -> int:
        try:
            return int(await self._conn.fetchval(dollar(sql + " RETURNING id"), *args))
        except asyncpg.IntegrityConstraintViolationError as err:
            raise ConstraintViolation(_line(err)) from err

    async def sql_many(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        rows = [tuple(r) for r in rows]
        if not rows:
            return
        try:
            await self._conn.executemany(dollar(sql), rows)
        except asyncpg.IntegrityConstraintViolationError as err:
            raise ConstraintViolation(_line(err)) from err

    async def sql_copy(self, table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
        """Many rows into ``table`` with ``COPY`` (far faster than inserting them one by one), in
        parts of :data:`COPY_ROWS` (each within the command timeout on a loaded machine)."""
        records = list(rows)
        try:
            for at in range(0, len(records), COPY_ROWS):
                part = records[at : at + COPY_ROWS]
                await self._conn.copy_records_to_table(table, records=part, columns=list(columns))
        except asyncpg.IntegrityConstraintViolationError as err:
            raise ConstraintViolation(_line(err)) from err


COPY_ROWS = 20_000


class PgStore(Store):
    """The store on a PostgreSQL database."""

    dialect = "postgres"
    shared = True
    POOL_SIZE = 4
    """Connections per process (each store method holds one for its transaction)."""
    TIMEOUT = 10.0
    """Seconds to connect, and for one statement, before the server counts as unavailable."""

    def __init__(self, pool: asyncpg.Pool, url: str, now: Callable[[], float]) -> None:
        self._pool = pool
        self.url = url
        self.now = now

    def describe(self) -> str:
        return redacted(self.url)

    @classmethod
    async def connect(
        cls,
        target: str | Path,
        *,
        now: Callable[[], float],
        migrate: bool = True,
        migrations: Path | None = None,
    ) -> PgStore:
        """Connect a pool to ``url`` and apply pending migrations. Raises
        :class:`StoreUnavailable` if the server cannot be reached or refuses the connection, and
        :class:`StoreError` for a malformed URL or a database of a newer schema."""
        url = str(target).strip()
        shown = redacted(url)
        try:
            pool = await asyncpg.create_pool(
                dsn=url, min_size=1, max_size=cls.POOL_SIZE, timeout=cls.TIMEOUT, command_timeout=cls.TIMEOUT
            )
        except (ValueError, asyncpg.ClientConfigurationError) as err:
            why = scrubbed(_line(err), url)
            raise StoreError(
                f"BAZAAR_DB is not a usable PostgreSQL URL ({shown}): {why}; write it "
                f"like postgresql://user@host:5432/dbname"
            ) from err
        except _UNAVAILABLE as err:
            raise cls._unavailable(err, shown) from err
        store = cls(pool, url, now)
        if migrate:
            try:
                await store.migrate(migrations or PG_MIGRATIONS)
            except BaseException:
                await store.close()
                raise
        return store

    @staticmethod
    def _unavailable(err: BaseException, shown: str) -> StoreUnavailable:
        if isinstance(err, (asyncpg.InvalidCatalogNameError,)):
            what = "does not exist: create it (createdb) or fix the database name in BAZAAR_DB"
        elif isinstance(err, (asyncpg.InvalidAuthorizationSpecificationError, asyncpg.InvalidPasswordError)):
            what = "refused the user or password in BAZAAR_DB: check them and the server's pg_hba.conf"
        elif isinstance(err, asyncpg.DiskFullError):
            what = "cannot grow: the server's disk is full; free some space"
        elif isinstance(err, asyncpg.TooManyConnectionsError):
            what = "has no connection free (too many clients): raise max_connections or stop some"
        elif isinstance(
            err, (asyncpg.SerializationError, asyncpg.DeadlockDetectedError, asyncpg.LockNotAvailableError)
        ):
            what = "could not serialise this write with another one: try again"
        elif isinstance(
            err, (asyncpg.InterfaceError, asyncpg.ConnectionDoesNotExistError, asyncpg.AdminShutdownError)
        ):
            what = "lost its connection (the server restarted or went away): try again once it is back"
        elif isinstance(
            err,
            (OSError, asyncio.TimeoutError, asyncpg.PostgresConnectionError, asyncpg.CannotConnectNowError),
        ):
            what = (
                "cannot be reached: check that the PostgreSQL server is running and the host and port "
                "in BAZAAR_DB"
            )
        else:
            what = "failed: check the PostgreSQL server and its log"
        return StoreUnavailable(f"the database {shown} {what} ({_line(err)})")

    def _failure(self, err: BaseException) -> StoreUnavailable:
        failure = self._unavailable(err, self.describe())
        log.warning("Database error: %s", failure)
        return failure

    @staticmethod
    def _down(err: BaseException) -> bool:
        """Whether ``err`` is the server or the connection failing (not a programming error)."""
        return isinstance(err, _UNAVAILABLE) or (
            isinstance(err, asyncpg.InterfaceError) and "closed" in str(err)
        )

    async def close(self) -> None:
        try:
            await asyncio.wait_for(self._pool.close(), self.TIMEOUT)
        except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
            self._pool.terminate()

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[_Handle]:
        try:
            async with self._pool.acquire() as conn, conn.transaction():
                yield _Handle(conn)
        except Exception as err:
            if self._down(err):
                raise self._failure(err) from err
            raise

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[_Handle]:
        try:
            async with (
                self._pool.acquire() as conn,
                conn.transaction(isolation="repeatable_read", readonly=True),
            ):
                yield _Handle(conn)
        except Exception as err:
            if self._down(err):
                raise self._failure(err) from err
            raise

    async def _all(self, sql: str, args: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        try:
            return [tuple(r) for r in await self._pool.fetch(dollar(sql), *args)]
        except Exception as err:
            if self._down(err):
                raise self._failure(err) from err
            raise

    # ------------------------------------------------------------------ migrations

    async def schema_version(self) -> int:
        try:
            async with self._pool.acquire() as conn:
                return await self._version(conn)
        except Exception as err:
            if self._down(err):
                raise self._failure(err) from err
            raise

    @staticmethod
    async def _version(conn: asyncpg.Connection) -> int:
        exists = await conn.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL")
        if not exists:
            return 0
        return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"))

    async def migrate(self, folder: Path | None = None) -> list[int]:
        """Apply every migration newer than the database, each in its own transaction, holding
        the advisory lock :data:`MIGRATION_LOCK` throughout (a second process starting at the
        same time waits, then finds them applied). Returns the numbers applied. Raises
        :class:`StoreError` if the database is newer than the newest file, or if a migration
        fails (it is rolled back)."""
        files = migration_files(folder or PG_MIGRATIONS)
        newest = files[-1][0] if files else 0
        applied: list[int] = []
        try:
            async with self._pool.acquire() as conn:
                await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
                try:
                    await conn.execute(
                        "CREATE TABLE IF NOT EXISTS schema_migrations ("
                        " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                        " applied_at DOUBLE PRECISION NOT NULL)"
                    )
                    current = await self._version(conn)
                    if current > newest:
                        raise StoreError(
                            f"the database {self.describe()} has schema {current}, newer than "
                            f"this version of Bazaar knows ({newest}); upgrade Bazaar"
                        )
                    for number, name, path in files:
                        if number <= current:
                            continue
                        try:
                            async with conn.transaction():
                                await conn.execute(
                                    "INSERT INTO schema_migrations (version, name, applied_at) "
                                    "VALUES ($1, $2, $3)",
                                    number,
                                    name,
                                    self.now(),
                                )
                                for statement in pg_statements(path.read_text()):
                                    await conn.execute(statement)
                        except asyncpg.PostgresError as err:
                            if self._down(err):
                                raise
                            raise StoreError(f"migration {path.name} failed: {_line(err)}") from err
                        log.info("Applied database migration %s", path.name)
                        applied.append(number)
                finally:
                    await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
        except StoreError:
            raise
        except Exception as err:
            if self._down(err):
                raise self._failure(err) from err
            raise
        return applied


def _line(err: BaseException) -> str:
    """``err`` as one short line."""
    text = " ".join(str(err).split()) or type(err).__name__
    return text[:200]
