"""The first start after migration 0010 (issue 28): 10,000 finished Pralaya games (``--quick``:
1,000) stored with their move logs and no recorded result, as a database upgraded from before
ratings holds them; then :meth:`bot.host.ratings.Ratings.start`, what ``load_all`` awaits (the
start path: whether ratings are due), and the catch-up it leaves running in the background
(each game replayed from its log, its result recorded, everything rated), with the event loop's
longest stall meanwhile (what the bot's other work would wait). Figures only."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

from bot.host.ratings import Ratings
from bot.host.store import Store
from engines import base

from .table import Figure, aim_at_most

GAME_COLS = (
    "id, kind, seed, options, guild_id, channel_id, creator_id, status, version, clock_seconds, created_at, "
    "updated_at"
)
GAMES = 10_000
QUICK_GAMES = 1_000


def _log() -> tuple[dict[str, Any], list[tuple[int, str]]]:
    """A real 3-player Pralaya game's options and move log (random legal moves, seed 3)."""
    engine = base.get("pralaya")
    rng = random.Random(3)
    state = engine.setup(3, 3, engine.default_options())
    moves: list[tuple[int, str]] = []
    while engine.outcome(state) is None:
        seat = engine.to_move(state)[0]
        played = base.play(engine, state, seat, rng.choice(engine.legal_actions(state, seat)))
        state = played.state
        moves.append((seat, played.action))
    return dict(engine.default_options()), moves


def _store_games(path: Path, games: int) -> int:
    """``games`` copies of that game, finished, among 300 people on two servers; moves a game."""
    options, moves = _log()
    rows: list[tuple[Any, ...]] = []
    seats: list[tuple[Any, ...]] = []
    logged: list[tuple[Any, ...]] = []
    for gid in range(1, games + 1):
        at = 1_700_000_000.0 + gid * 60
        rows.append((gid, "pralaya", 3, json.dumps(options), 1 + gid % 2, 10, 1001, "finished", len(moves),
                     3600, at, at))  # fmt: skip
        seats.extend((gid, k, 1001 + (gid + k) % 300, f"player{k}", 0, None) for k in range(3))
        logged.extend((gid, v, seat, a, "player", None, at + v) for v, (seat, a) in enumerate(moves, 1))
    db = sqlite3.connect(path)
    with db:
        for table, cols, values in (
            ("games", GAME_COLS, rows),
            ("seats", "game_id, seat, user_id, name, is_ai, ai_level", seats),
            ("moves", "game_id, version, seat, action, by, user_id, at", logged),
        ):
            marks = ", ".join("?" * len(cols.split(", ")))
            db.executemany(f"INSERT INTO {table} ({cols}) VALUES ({marks})", values)
    db.close()
    return len(moves)


async def _measure(path: Path, games: int) -> list[Figure]:
    store = await Store.open(path)
    await store.close()
    moves = _store_games(path, games)
    store = await Store.open(path)
    try:
        ratings = Ratings(store)
        t0 = time.perf_counter()
        assert await ratings.start()
        start_ms = (time.perf_counter() - t0) * 1000
        t1, stall = time.perf_counter(), 0.0
        while ratings.computing is not None:
            a = time.perf_counter()
            await asyncio.sleep(0.01)
            stall = max(stall, time.perf_counter() - a - 0.01)
        behind = time.perf_counter() - t1
        assert not await store.rating_due()
    finally:
        await store.close()
    note = f"{games:,} finished games of {moves} moves, no result recorded"
    return [
        aim_at_most("ratings: first start, on the start path", start_ms, 1000, "ms", "{:.1f}", note),
        Figure("ratings: first start, catch-up in the background", f"{behind:.1f} s", note=note),
        aim_at_most("ratings: event loop's longest stall meanwhile", stall * 1000, 100, "ms", "{:.0f}", note),
    ]


def rows(quick: bool, folder: Path) -> list[Figure]:
    """The first start's figures (see the module docstring)."""
    return asyncio.run(_measure(folder / "ratings_start.sqlite3", QUICK_GAMES if quick else GAMES))
