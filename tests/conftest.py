"""Shared test configuration."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

# PostgreSQL fixtures (a fresh schema per test on the machine's server; see tests/pgserver.py)
from tests.pgserver import backend, backend_target, pg_admin, pg_session, pg_url  # noqa: F401

# tests/ is a package (its modules are ``tests.…``; pytest puts the repository's root on the path,
# as the first folder above them without an __init__.py), so tests/ itself is no longer on the
# path: the game tests that still import their helpers by bare name (``from pralaya_helpers import
# …``) find them through this entry until they import ``tests.…`` too
TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:
    sys.path.append(str(TESTS))

# In-process bots of the tests draw in threads (Workers(0)): starting worker processes for each of
# the hundreds of bots the tests boot would only slow them. A bot launched as its own process
# (tests/e2e/botprocess.py drops BAZAAR_* from its environment) uses the real process pool, and
# tests/test_workers.py checks the pool itself.
os.environ.setdefault("BAZAAR_WORKERS", "0")


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """For the `bazaar db` command tests: run in an empty folder (no .env) with no BAZAAR_DB or
    DISCORD_TOKEN from outside; each test sets what it needs."""
    monkeypatch.chdir(tmp_path)
    for key in ("BAZAAR_DB", "DISCORD_TOKEN"):
        monkeypatch.delenv(key, raising=False)
    return monkeypatch
