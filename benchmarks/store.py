"""Store figures on both backends: how long committing one move takes (``Store.record_move``: the
version-checked UPDATE, the log entry, the snapshot, in one transaction), and the one indexed
read a process sharing the database makes before acting on a game it holds (``Store.stamp``).

SQLite runs on a file in a temporary folder; PostgreSQL on a fresh schema of the server named by
``BAZAAR_BENCH_PG`` (default: the machine's, ``postgresql://postgres@127.0.0.1:5432/test``),
dropped afterwards. Figures only: a loaded machine gives slower numbers, never a failure.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import statistics
import tempfile
import time
from pathlib import Path

from bot.host.store import Store
from engines import base

from .table import Figure

MOVES = 400
SERVER = os.environ.get("BAZAAR_BENCH_PG", "postgresql://postgres@127.0.0.1:5432/test")


def _state_text() -> str:
    """A real snapshot to store with each move: a Ra game's state after setup (a few KB)."""
    engine = base.get("ra")
    return base.state_fingerprint(engine.setup(1, 4, engine.default_options()))


def _figures(samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"median {statistics.median(ordered) * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms"


async def _measure(target: str | Path) -> tuple[list[float], list[float]]:
    store = await Store.open(target)
    try:
        row = await store.create_game(
            kind="ra",
            seed=1,
            options={},
            guild_id=1,
            channel_id=2,
            creator_id=3,
            creator_name="Ann",
            clock_seconds=3600,
        )
        await store.start_game(row.id, state_json="{}", deadline=None)
        state = _state_text()
        commits, stamps = [], []
        for v in range(MOVES):
            t0 = time.perf_counter()
            await store.record_move(
                row.id,
                expected_version=v,
                seat=v % 4,
                action="draw",
                by="player",
                user_id=3,
                state_json=state,
                deadline=time.time() + 3600,
                seat_updates={v % 4: {"expiries": 0, "ai_takeover": False}},
            )
            t1 = time.perf_counter()
            await store.stamp(row.id)
            stamps.append(time.perf_counter() - t1)
            commits.append(t1 - t0)
        return commits, stamps
    finally:
        await store.close()


async def _postgres() -> tuple[list[float], list[float]] | str:
    import asyncpg

    schema = f"bazaar_bench_{secrets.token_hex(4)}"
    try:
        admin = await asyncpg.connect(SERVER, timeout=5)
    except Exception as err:  # no server here: say so instead of a figure
        return f"skipped: no PostgreSQL server at {SERVER} ({type(err).__name__}); set BAZAAR_BENCH_PG"
    try:
        await admin.execute(f'CREATE SCHEMA "{schema}"')
        sep = "&" if "?" in SERVER else "?"
        return await _measure(f"{SERVER}{sep}search_path={schema}")
    finally:
        await admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        await admin.close()


def main() -> None:
    print(f"\n[store] committing one move (record_move, {MOVES} moves of one game, a Ra snapshot each)")
    with tempfile.TemporaryDirectory() as folder:
        commits, stamps = asyncio.run(_measure(Path(folder) / "bench.sqlite3"))
    print(f"  sqlite    move commit {_figures(commits)}; version check (stamp) {_figures(stamps)}")
    result = asyncio.run(_postgres())
    if isinstance(result, str):
        print(f"  postgres  {result}")
    else:
        commits, stamps = result
        print(f"  postgres  move commit {_figures(commits)}; version check (stamp) {_figures(stamps)}")


def rows(quick: bool) -> list[Figure]:
    """Move-commit latency on both backends, as rows of the bench table (reported, no aim: the
    aim on a million-move log is the startup section's)."""
    global MOVES
    MOVES = 60 if quick else 400
    out: list[Figure] = []
    with tempfile.TemporaryDirectory() as folder:
        commits, _ = asyncio.run(_measure(Path(folder) / "bench.sqlite3"))
    out.append(Figure("store: move commit, SQLite", _figures(commits)))
    result = asyncio.run(_postgres())
    if isinstance(result, str):
        out.append(Figure("store: move commit, PostgreSQL", result))
    else:
        out.append(Figure("store: move commit, PostgreSQL", _figures(result[0])))
    return out
