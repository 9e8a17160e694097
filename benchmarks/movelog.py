"""The store with a big move log: milliseconds to commit one move (``Store.record_move``: the
version-checked update of the game, the move appended to the log, the snapshot replaced, one
``BEGIN IMMEDIATE … COMMIT``) on a database whose move log holds a million moves or more (the
start-up fixture's).

WAL mode with ``synchronous=NORMAL`` (the store's settings): a commit is durable against a crash
of the bot, not against the machine losing power before the next checkpoint. Figures only.
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


async def _commits(db: Path, count: int) -> tuple[list[float], int]:
    from bot.host.store import Store

    raw = sqlite3.connect(db)
    games = raw.execute(
        "SELECT g.id, g.version, s.state FROM games g JOIN snapshots s ON s.game_id = g.id "
        "WHERE g.status = 'active' ORDER BY g.id LIMIT 300"
    ).fetchall()
    raw.close()
    store = await Store.open(db)
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
        log_size = (await store._one("SELECT COUNT(*) FROM moves"))[0]  # type: ignore[index]
    finally:
        await store.close()
    return times, log_size


def rows(quick: bool, db: Path) -> list[Figure]:
    """Commit moves on ``db`` (changed: use a throw-away copy) and report median and p99."""
    before = sqlite3.connect(db).execute("SELECT COUNT(*) FROM moves").fetchone()[0]
    times, after = asyncio.run(_commits(db, 300 if quick else 3000))
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
            f"to {after:,}; WAL, synchronous=NORMAL",
        ),
        Figure("store: a move committed, p99", f"{_percentile(times, 99):.2f} ms", "", None),
        Figure(
            "store: no query scans the move log",
            "EXPLAIN QUERY PLAN of every store query",
            "no SCAN moves",
            None,
            note="checked by tests/test_store_plans.py (make test), not here",
        ),
    ]
    return figs
