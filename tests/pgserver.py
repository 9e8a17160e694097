"""A real PostgreSQL server for the tests: fixtures giving each test its own fresh schema.

The server is ``$BAZAAR_TEST_PG`` (default ``postgresql://postgres@127.0.0.1:5432/test``, the
machine's server with trust authentication). Each test session (each xdist worker) names its
schemas ``bazaar_test_<random>_<n>``; a test gets a new one, its URL carrying
``?search_path=<schema>`` (asyncpg passes it as a server setting of every connection), and the
schema is dropped after the test; whatever a killed run left behind is dropped at the session's
end. With ``CI=true`` a missing driver or an unreachable server FAILS the tests that need it;
elsewhere they are skipped with a message naming what is missing.

Fixtures: ``pg_url`` (a fresh schema's URL), ``backend_target`` (parametrised over ``sqlite``
and ``postgres``: a file path or a fresh schema's URL), ``pg_admin`` (the server URL itself).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import os
import secrets
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote

import pytest

T = TypeVar("T")
SERVER = os.environ.get("BAZAAR_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
PREFIX = f"bazaar_test_{secrets.token_hex(4)}"
_counter = itertools.count(1)
BACKENDS = ("sqlite", "postgres")


def in_thread(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a coroutine to completion in a thread of its own (its own event loop), so fixtures can
    prepare the server whatever loop the test itself runs in."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(make())).result(timeout=60)


def with_schema(url: str, schema: str) -> str:
    """``url`` with every connection's ``search_path`` set to ``schema``."""
    return f"{url}{'&' if '?' in url else '?'}search_path={quote(schema)}"


async def _execute(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(SERVER, timeout=10)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def _missing() -> str | None:
    """Why the PostgreSQL tests cannot run here, or None when they can."""
    try:
        import asyncpg  # noqa: F401
    except ImportError:
        return "the asyncpg package is not installed (make .venv/.installed installs it)"
    try:
        in_thread(lambda: _execute("SELECT 1"))
    except Exception as err:  # any failure to reach or use the server
        return f"no PostgreSQL server answers at {SERVER} ({type(err).__name__}: {err}); set BAZAAR_TEST_PG"
    return None


_checked: list[str | None] = []


def require_server() -> str:
    """The server URL; skips the test (fails it when ``CI=true``) if there is no usable server."""
    if not _checked:
        _checked.append(_missing())
    why = _checked[0]
    if why is not None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true needs PostgreSQL for this test: {why}", pytrace=False)
        pytest.skip(f"PostgreSQL test skipped: {why}")
    return SERVER


def new_schema() -> str:
    """Create a fresh, empty schema; returns its name."""
    name = f"{PREFIX}_{next(_counter)}"
    in_thread(lambda: _execute(f'CREATE SCHEMA "{name}"'))
    return name


def drop_schema(name: str) -> None:
    in_thread(lambda: _execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))


async def _drop_leftovers() -> None:
    import asyncpg

    conn = await asyncpg.connect(SERVER, timeout=10)
    try:
        for (name,) in await conn.fetch(
            "SELECT nspname FROM pg_namespace WHERE nspname LIKE $1", PREFIX + "%"
        ):
            await conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
    finally:
        await conn.close()


@pytest.fixture(scope="session")
def pg_session() -> Iterator[None]:
    """Drops this session's schemas that are still there at its end."""
    yield
    if _checked and _checked[0] is None:
        in_thread(_drop_leftovers)


@pytest.fixture
def pg_admin(pg_session: None) -> str:
    """The server's URL (skips or fails as :func:`require_server` says)."""
    return require_server()


@pytest.fixture
def pg_url(pg_admin: str) -> Iterator[str]:
    """The URL of a fresh schema of its own for this test, dropped afterwards."""
    name = new_schema()
    try:
        yield with_schema(pg_admin, name)
    finally:
        drop_schema(name)


@pytest.fixture(params=BACKENDS)
def backend(request: Any) -> str:
    """Each backend in turn: ``sqlite`` or ``postgres``."""
    return str(request.param)


@pytest.fixture
def backend_target(backend: str, tmp_path: Path, request: Any) -> str | Path:
    """What ``BAZAAR_DB`` would hold for a fresh database of ``backend``: a new file's path, or
    a fresh schema's URL."""
    if backend == "sqlite":
        return tmp_path / "sub" / "bazaar.sqlite3"
    return str(request.getfixturevalue("pg_url"))
