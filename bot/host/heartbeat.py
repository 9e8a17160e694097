"""A liveness file for container health checks: the running bot rewrites it every
:data:`EVERY` seconds while it is connected to Discord; ``bazaar health`` reads it."""

from __future__ import annotations

import os
import time
from pathlib import Path

EVERY = 30.0
STALE = 3 * EVERY


def beat(path: Path, now: float | None = None) -> None:
    """Record that the bot is up and connected now (atomically: a reader never sees half)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(f"{now if now is not None else time.time():.0f}\n")
    os.replace(tmp, path)


def check(path: Path | None, now: float | None = None) -> tuple[bool, str]:
    """``(healthy, one line)``: whether the bot wrote ``path`` within :data:`STALE` seconds."""
    if path is None:
        return False, "BAZAAR_HEARTBEAT is not set, so there is nothing to check"
    try:
        written = float(path.read_text().strip())
    except (OSError, ValueError):
        return False, f"no heartbeat at {path}: the bot is not running, or not connected yet"
    age = (now if now is not None else time.time()) - written
    if age > STALE:
        return False, f"the last heartbeat is {age:.0f} s old: the bot is stuck or not connected"
    return True, f"the bot was up and connected {age:.0f} s ago"
