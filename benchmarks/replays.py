"""``/replay`` of a long game (issue 28, item 7): for each game at its most players, the seeded AI
game with the most moves (of :data:`benchmarks.recaps.QUICK_SEEDS`) is stored in a fresh SQLite
database as a finished game, then the host's archive is asked for move k: the first ask
(the log read and rebuilt, every state kept), then further moves (from the kept states: a view
each), and the boards of nine moves drawn as the bot draws a replay's (``drawing.boards``, after one
warm-up board). The time
of a whole answer is the second plus the third; the drawn board is kept, so showing a move again
costs the second alone. Then ``/stats`` over many stored finished games, first and next asked.
Nothing is asserted."""

from __future__ import annotations

import asyncio
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from bot.host import drawing, gamestats
from bot.host.archive import Archive
from bot.host.store import Store
from bot.offline.demo import DEMO_NAMES
from engines import base

from .recaps import QUICK_SEEDS, longest
from .table import Figure, aim_at_most

AIM_MS = 300  # a replay's answer is one click: it should feel immediate


async def _stored(store: Store, game: str, seed: int, moves: list[tuple[int, str]]) -> int:
    """The AI game ``moves`` of ``game`` stored as a finished game; returns its id."""
    engine = base.get(game)
    n = engine.max_players
    row = await store.create_game(
        kind=game,
        seed=seed,
        options=engine.resolve_options({}),
        guild_id=1,
        channel_id=1,
        creator_id=1,
        creator_name=DEMO_NAMES[0],
        clock_seconds=3600,
    )
    for i in range(1, n):
        await store.add_seat(row.id, user_id=None, name=DEMO_NAMES[i], is_ai=True)
    steps = base.replay_steps(engine, seed, n, row.options, moves)
    state, _ = next(steps)
    await store.start_game(row.id, state_json=base.state_fingerprint(state), deadline=None)
    for v, ((seat, action), (state, _)) in enumerate(zip(moves, steps, strict=False)):
        last = v == len(moves) - 1
        await store.record_move(
            row.id,
            expected_version=v,
            seat=seat,
            action=action,
            by="ai",
            user_id=None,
            state_json=base.state_fingerprint(state) if last else "{}",
            status="finished" if last else "active",
        )
    return row.id


async def _measure(game: str, folder: Path) -> list[Figure]:
    _, seed, moves = longest(game, QUICK_SEEDS)
    store = await Store.open(folder / f"{game}.sqlite3")
    try:
        gid = await _stored(store, game, seed, moves)
        archive = Archive(store)
        k = len(moves) // 2
        t0 = time.perf_counter()
        frame = await archive.frame(gid, k, 1)
        cold = (time.perf_counter() - t0) * 1000
        warm = []
        for j in range(0, len(moves) + 1, max(1, len(moves) // 40)):
            t0 = time.perf_counter()
            await archive.frame(gid, j, 1)
            warm.append((time.perf_counter() - t0) * 1000)
        drawing.boards(frame.kind, frame.view, list(frame.names), [], frame.previous, False)  # warm-up
        draws = []
        for j in range(k, min(len(moves), k + 9)):
            shown = await archive.frame(gid, j, 1)
            t0 = time.perf_counter()
            drawing.boards(shown.kind, shown.view, list(shown.names), [], shown.previous, False)
            draws.append((time.perf_counter() - t0) * 1000)
        draw = statistics.median(draws)
    finally:
        await store.close()
    warm_ms = statistics.median(warm)
    label = f"replay {game}, {len(moves)} moves"
    return [
        Figure(f"{label}: move {k} first asked (log read, rebuilt)", f"{cold:.1f} ms"),
        Figure(f"{label}: another move, median of {len(warm)}", f"{warm_ms:.2f} ms"),
        Figure(f"{label}: its board drawn, median of {len(draws)}", f"{draw:.0f} ms"),
        aim_at_most(f"{label}: a step's answer (move + board)", warm_ms + draw, AIM_MS, "ms", "{:.0f}"),
    ]


async def _stats(folder: Path, count: int) -> list[Figure]:
    """``/stats`` of Ra over ``count`` stored finished games: the first ask (each game rebuilt
    for its result, which is kept), the next in another process (the kept results read)."""
    _, seed, moves = longest("ra", QUICK_SEEDS)
    path = folder / "stats.sqlite3"
    store = await Store.open(path)
    try:
        await _stored(store, "ra", seed, moves)
    finally:
        await store.close()
    _copies(path, count - 1)
    store = await Store.open(path)
    try:
        t0 = time.perf_counter()
        first = await gamestats.stats(Archive(store), 1, "ra")
        cold = time.perf_counter() - t0
    finally:
        await store.close()
    store = await Store.open(path)
    try:
        t0 = time.perf_counter()
        await gamestats.stats(Archive(store), 1, "ra")
        warm = (time.perf_counter() - t0) * 1000
    finally:
        await store.close()
    label = f"/stats ra, {first.games} games of {len(moves)} moves"
    return [
        Figure(f"{label}: first ask (each rebuilt, kept)", f"{cold:.1f} s"),
        aim_at_most(f"{label}: next ask, another process", warm, AIM_MS, "ms", "{:.0f}"),
    ]


def _copies(path: Path, count: int) -> None:
    """``count`` more copies of game 1 of the SQLite file ``path`` (its row, seats, log)."""
    games = "kind, seed, options, guild_id, channel_id, thread_id, creator_id, status, version, "
    games += "clock_seconds, deadline, reminded, attention, created_at, updated_at"
    with sqlite3.connect(path) as db:
        for _ in range(count):
            gid = db.execute(f"INSERT INTO games ({games}) SELECT {games} FROM games WHERE id = 1").lastrowid
            db.execute(
                "INSERT INTO seats (game_id, seat, user_id, name, is_ai) "
                "SELECT ?, seat, user_id, name, is_ai FROM seats WHERE game_id = 1",
                (gid,),
            )
            db.execute(
                "INSERT INTO moves (game_id, version, seat, action, by, user_id, at) "
                "SELECT ?, version, seat, action, by, user_id, at FROM moves WHERE game_id = 1",
                (gid,),
            )


def rows(quick: bool) -> list[Figure]:
    """The figures of every game (``quick``: Kathai alone), then ``/stats`` over 1,000 finished
    games (``quick``: 100)."""
    games = ["kathai"] if quick else [e.name for e in base.games()]
    out: list[Figure] = []
    with tempfile.TemporaryDirectory(prefix="bazaar-replay-") as tmp:
        for game in games:
            out += asyncio.run(_measure(game, Path(tmp)))
        out += asyncio.run(_stats(Path(tmp), 100 if quick else 1000))
    return out


if __name__ == "__main__":
    import sys

    from .table import render_table

    print(render_table(rows("--quick" in sys.argv)))
