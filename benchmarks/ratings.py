"""Ratings figures on SQLite, then on PostgreSQL (issue 28): the rating update when a game ends
(:meth:`bot.host.ratings.Ratings.game_over`: reading the players' rows, the Plackett–Luce step,
writing rows, changes and the result in one transaction), ``/leaderboard`` and ``/profile``
answered (the reads, the picture drawn and encoded as PNG) and ``bazaar db rate``'s work
(:meth:`Ratings.rerate`: every table recomputed from scratch) with 100,000 finished games stored
(``--quick``: 10,000), and the start-up check whether the ratings are due
(:meth:`Store.rating_due`, the only part of the first start's catch-up left on the start path).

The history is written straight into a migrated database: games of 2–4 seats among 300 people on
two servers, one in eight with an AI seat, their results (finish time, ranks, players) as the
bot records them; then rated once (what the first start after migration 0010 does) so the
tables are full. Figures only: a loaded machine gives slower numbers, never a failure.
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import sqlite3
import statistics
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot.host.live import LiveGame
from bot.host.ratings import Ratings
from bot.host.store import Store
from engines import base
from render.png import to_png
from render.ratings import leaderboard, profile

from .store import SERVER
from .table import Figure, aim_at_most

PEOPLE = 300
GAMES = 100_000
QUICK_GAMES = 10_000


GAME_COLS = (
    "id", "kind", "seed", "options", "guild_id", "channel_id", "creator_id", "status", "version",
    "clock_seconds", "created_at", "updated_at",
)  # fmt: skip
SEAT_COLS = ("game_id", "seat", "user_id", "name", "is_ai", "ai_level")
RESULT_COLS = ("game_id", "kind", "guild_id", "finished_at", "ranks", "players", "ladder")
History = dict[str, tuple[tuple[str, ...], list[tuple[Any, ...]]]]


def _history_rows(games: int) -> History:
    """``games`` finished Pralaya games with their seats and recorded results, by table."""
    rng = random.Random(28)
    rows: list[tuple[Any, ...]] = []
    seats: list[tuple[Any, ...]] = []
    results: list[tuple[Any, ...]] = []
    for gid in range(1, games + 1):
        guild = 1 + gid % 2
        n = rng.choice((2, 3, 3, 4))
        users = rng.sample(range(1, PEOPLE + 1), n)
        ai = gid % 8 == 0
        at = 1_700_000_000.0 + gid * 60
        rows.append((gid, "pralaya", gid, "{}", guild, 10, users[0], "finished", 50, 3600, at, at))
        players: list[str | None] = []
        for s, u in enumerate(users):
            if ai and s == n - 1:
                seats.append((gid, s, None, "AI 1", 1, "easy"))
                players.append("ai:easy")
            else:
                seats.append((gid, s, 1000 + u, f"player{u}", 0, None))
                players.append(f"u{1000 + u}")
        ranks = [1 + r for r in rng.sample(range(n), n)]
        ladder = "ai" if ai else "people"
        results.append((gid, "pralaya", guild, at, json.dumps(ranks), json.dumps(players), ladder))
    return {"games": (GAME_COLS, rows), "seats": (SEAT_COLS, seats), "game_results": (RESULT_COLS, results)}


def _history(path: Path, games: int) -> None:
    """The history written into a migrated SQLite file (sqlite3, fast)."""
    db = sqlite3.connect(path)
    with db:
        for table, (cols, rows) in _history_rows(games).items():
            marks = ", ".join("?" * len(cols))
            db.executemany(f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({marks})", rows)
    db.close()


async def _pg_history(url: str, games: int) -> None:
    """The history copied into a migrated PostgreSQL schema (``url`` names it)."""
    import asyncpg

    server, _, schema = url.partition("search_path=")
    conn = await asyncpg.connect(server.rstrip("?&"), server_settings={"search_path": schema})
    try:
        for table, (cols, rows) in _history_rows(games).items():
            await conn.copy_records_to_table(table, records=rows, columns=list(cols))
        await conn.execute(
            "SELECT setval(pg_get_serial_sequence('games', 'id'), (SELECT MAX(id) FROM games))"
        )
    finally:
        await conn.close()


def _finished_state() -> Any:
    """A real finished 3-player Pralaya game (random legal moves), for the end-of-game update."""
    engine = base.get("pralaya")
    rng = random.Random(3)
    state = engine.setup(3, 3, engine.default_options())
    while engine.outcome(state) is None:
        seat = engine.to_move(state)[0]
        state = base.play(engine, state, seat, rng.choice(engine.legal_actions(state, seat))).state
    return state


def _ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


async def _measure(path: Path | str, games: int) -> list[Figure]:
    store = await Store.open(path)
    await store.close()
    t0 = time.perf_counter()
    if isinstance(path, Path):
        _history(path, games)
    else:
        await _pg_history(path, games)
    print(f"  wrote {games:,} finished games in {time.perf_counter() - t0:.1f} s", flush=True)
    store = await Store.open(path)
    try:
        ratings = Ratings(store)
        t0, c0 = time.perf_counter(), time.process_time()
        rated, rows = await ratings.rerate()
        rate_s, rate_cpu = time.perf_counter() - t0, time.process_time() - c0
        t0 = time.perf_counter()
        await ratings.rerate()
        again_s = time.perf_counter() - t0
        print(f"  rated {rated:,} games into {rows:,} ratings in {rate_s:.1f} s (again {again_s:.1f} s)")
        t0 = time.perf_counter()
        due = await store.rating_due()
        due_ms = (time.perf_counter() - t0) * 1000
        assert not due
        ends = await _game_ends(store, ratings)
        boards, cards = await _answers(store, ratings)
    finally:
        await store.close()
    note = f"{games:,} games stored"
    return [
        aim_at_most("ratings: update at game end (median)", _ms(ends), 10, "ms", "{:.2f}", note),
        aim_at_most("ratings: start-up check (rating_due)", due_ms, 1000, "ms", "{:.0f}", note),
        aim_at_most("ratings: /leaderboard answer (median)", _ms(boards), 300, "ms", "{:.0f}", note),
        aim_at_most("ratings: /profile answer (median)", _ms(cards), 300, "ms", "{:.0f}", note),
        aim_at_most(
            "ratings: bazaar db rate (recompute all)",
            rate_s,
            60,
            "s",
            "{:.1f}",
            f"{note}; {rate_cpu:.1f} s of CPU",
        ),  # fmt: skip
    ]


async def _game_ends(store: Store, ratings: Ratings) -> list[float]:
    """The rating update of 30 games finishing, each among three of the stored players."""
    state = _finished_state()
    engine = base.get("pralaya")
    out = []
    for i in range(30):
        row = await store.create_game(
            kind="pralaya", seed=3, options={}, guild_id=1, channel_id=10, creator_id=1001 + i,
            creator_name=f"player{1 + i}", clock_seconds=3600,
        )  # fmt: skip
        for k in (1, 2):
            await store.add_seat(row.id, user_id=1001 + i + k, name=f"player{1 + i + k}")
        game = LiveGame(row=row, seats=await store.seats(row.id), engine=engine, state=state)
        t0 = time.perf_counter()
        changes = await ratings.game_over(game, lambda seat: "easy")
        out.append(time.perf_counter() - t0)
        assert len(changes) == 6, changes  # three people, on the server's and the global table
    return out


async def _answers(store: Store, ratings: Ratings) -> tuple[list[float], list[float]]:
    boards, cards = [], []
    for i in range(20):
        t0 = time.perf_counter()
        b = await ratings.board("pralaya", 1 + i % 2, 1000 + 1 + i * 7)
        to_png(leaderboard.draw(b))
        boards.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        p = await ratings.profile(1000 + 1 + i * 7, 1 + i % 2, f"player{1 + i * 7}")
        to_png(profile.draw(p))
        cards.append(time.perf_counter() - t0)
    return boards, cards


def rows(quick: bool, folder: Path) -> list[Figure]:
    """The ratings' figures (see the module docstring), on SQLite then on PostgreSQL."""
    from . import ratings_start

    games = QUICK_GAMES if quick else GAMES
    out = asyncio.run(_measure(folder / "ratings.sqlite3", games))
    return out + asyncio.run(_postgres(games)) + ratings_start.rows(quick, folder)


async def _postgres(games: int) -> list[Figure]:
    """The same figures on a fresh schema of the PostgreSQL server (``BAZAAR_BENCH_PG``)."""
    import asyncpg

    schema = f"bazaar_bench_{secrets.token_hex(4)}"
    try:
        admin = await asyncpg.connect(SERVER, timeout=5)
    except Exception as err:  # no server here: say so instead of a figure
        return [Figure("ratings, PostgreSQL", f"skipped: no server at {SERVER} ({type(err).__name__})")]
    try:
        await admin.execute(f'CREATE SCHEMA "{schema}"')
        sep = "&" if "?" in SERVER else "?"
        figures = await _measure(f"{SERVER}{sep}search_path={schema}", games)
    finally:
        await admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        await admin.close()
    return [replace(f, name=f.name.replace("ratings:", "ratings (PostgreSQL):")) for f in figures]
