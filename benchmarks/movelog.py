"""The store with a big move log: milliseconds to commit one move (``Store.record_move``: the
version-checked update of the game, the move appended to the log, the snapshot replaced, one
``BEGIN IMMEDIATE … COMMIT``) on a database whose move log holds a million moves or more (the
start-up fixture's).

WAL mode with ``synchronous=FULL`` (the store's settings): a commit is on disk before the move is
acknowledged, so it survives the machine losing power. The same commits are timed with
``synchronous=NORMAL`` (durable against a crash of the bot only) to show what that costs.
Figures only.
"""

from __future__ import annotations

import asyncio
import sqlite3
import statistics
import time
from pathlib import Path

from .table import Figure, aim_at_least

LOG_AIM = 1_000_000


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, -(-len(ordered) * q // 100) - 1))
    return ordered[int(k)]


async def _commits(db: Path, count: int, synchronous: str = "") -> tuple[list[float], int]:
    from bot.host.store import SqliteStore, Store

    raw = sqlite3.connect(db)
    games = raw.execute(
        "SELECT g.id, g.version, s.state FROM games g JOIN snapshots s ON s.game_id = g.id "
        "WHERE g.status = 'active' ORDER BY g.id LIMIT 300"
    ).fetchall()
    raw.close()
    store = await Store.open(db)
    if synchronous:  # a comparison run at another setting than the store's own
        if not isinstance(store, SqliteStore):
            raise TypeError(f"PRAGMA synchronous is a SQLite setting, and {db} opened {type(store).__name__}")
        await store._db.execute(f"PRAGMA synchronous={synchronous}")
    versions = {gid: v for gid, v, _ in games}
    states = {gid: st for gid, _, st in games}
    ids = list(versions)
    times: list[float] = []
    try:
        for i in range(count):
            gid = ids[i % len(ids)]
            t0 = time.perf_counter()
            versions[gid] = await store.record_move(
                gid,
                expected_version=versions[gid],
                seat=0,
                action="bench",
                by="player",
                user_id=1,
                state_json=states[gid],
                deadline=time.time() + 86400,
            )
            times.append(1000 * (time.perf_counter() - t0))
        counted = await store._one("SELECT COUNT(*) FROM moves")
        log_size = counted[0] if counted is not None else 0  # COUNT(*) always gives a row
    finally:
        await store.close()
    return times, log_size


def rows(quick: bool, db: Path) -> list[Figure]:
    """Commit moves on ``db`` (changed: use a throw-away copy) and report median and p99."""
    before = sqlite3.connect(db).execute("SELECT COUNT(*) FROM moves").fetchone()[0]
    count = 300 if quick else 3000
    times, after = asyncio.run(_commits(db, count))
    normal, _ = asyncio.run(_commits(db, count, "NORMAL"))
    log_fig = aim_at_least("store: moves in the log", before, LOG_AIM, "moves")
    if quick:  # the quick fixture is small by design: the figure is not held against the aim
        log_fig = Figure(log_fig.name, log_fig.value, log_fig.aim, None, "--quick uses a smaller fixture")
    figs = [
        log_fig,
        Figure(
            "store: a move committed, median",
            f"{statistics.median(times):.2f} ms",
            "",
            None,
            note=f"{len(times):,} commits of Store.record_move over 300 games in play, the log growing "
            f"to {after:,}; WAL, synchronous=FULL (on disk before it is acknowledged)",
        ),
        Figure("store: a move committed, p99", f"{_percentile(times, 99):.2f} ms", "", None),
        Figure(
            "store: a move committed, median, synchronous=NORMAL",
            f"{statistics.median(normal):.2f} ms",
            "",
            None,
            note="the same commits without the sync that makes them survive a power loss: "
            "the difference is what durability costs per move",
        ),
        Figure(
            "store: no query scans the move log",
            "EXPLAIN QUERY PLAN of every store query",
            "no SCAN moves",
            None,
            note="checked by tests/test_store_plans.py (make test), not here",
        ),
    ]
    return figs
