"""Shared test configuration."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# PostgreSQL fixtures (a fresh schema per test on the machine's server; see tests/pgserver.py)
from tests.pgserver import backend, backend_target, pg_admin, pg_session, pg_url  # noqa: F401

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
