"""Shared test configuration."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# PostgreSQL fixtures (a fresh schema per test on the machine's server; see tests/pgserver.py)
from pgserver import backend, backend_target, pg_admin, pg_session, pg_url  # noqa: E402,F401
