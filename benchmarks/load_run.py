"""Running the load bench (see :mod:`benchmarks.load`): the fake Discord with one guild per
shard, a thread and three people per game, the fixture's games (copied to a fresh PostgreSQL
schema for shard processes), the ``bazaar run`` processes, and the :class:`~benchmarks.load.Plan`
played against them, each stretch given the loop lags measured during it."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

from .load import DriverLag, Load, Phase, Plan, lag_samples


async def measure(
    folder: Path, n_games: int, plan: Plan, seed: int = 1, shards: int = 0
) -> tuple[list[Phase], dict[str, Any]]:
    """The load against one ``bazaar run`` on a SQLite file (``shards`` 0), or against ``shards``
    processes (``SHARD_COUNT``, one ``SHARD_IDS`` each) sharing a fresh schema of the PostgreSQL
    server, the games spread over one guild per shard and copied there by ``bazaar db copy``."""
    from fakediscord import FakeDiscord

    fake = FakeDiscord(ack_deadline=None, default_timeout=120.0, shard_count=max(1, shards))
    await fake.start()
    bots: list[Any] = []
    driver_lag = DriverLag()
    schema: PgSchema | None = None
    try:
        threads, users, db = _games(fake, folder, n_games, shards)
        target: str | Path = db
        if shards:
            schema = await PgSchema.create()
            target = schema.url
            await _copy(fake, db, target, folder)
        lag_files = await _start_bots(fake, db, target, folder, shards, bots)
        from . import fixture

        games = fixture.stored_logs(db, list(range(1, n_games + 1)))
        load = Load(fake, games, users, threads, random.Random(seed), [b.pid for b in bots], plan.drain_s)
        driver_lag.task = asyncio.ensure_future(driver_lag.run())
        results = await plan.run(load)
        await load.settle(plan.drain_s)
        await asyncio.sleep(plan.tail_s)  # the posts after the last answers
        for phase in results:
            phase.lags = [ms for path in lag_files for ms in lag_samples(path, phase)]
            phase.driver_lags = driver_lag.during(phase)
        codes = [await bot.stop() for bot in bots]
        extra = {
            "exit": max(codes, key=abs),
            "problems": [p for bot in bots for p in bot.problems()],
            "processes": len(bots),
        }
    finally:
        if driver_lag.task is not None:
            driver_lag.task.cancel()
        for bot in bots:
            if bot.alive():
                bot.proc.kill()
        await fake.close()
        if schema is not None:
            await schema.drop()
    return results, extra


def _games(fake: Any, folder: Path, n_games: int, shards: int) -> tuple[dict[int, Any], dict[int, Any], Path]:
    """The guilds (one per shard), each game's thread and three people on the fake, and the
    fixture's SQLite file of the games in play there: ``(threads, users, db)``."""
    from . import fixture

    homes = []  # (guild, channel) of each shard (one, unsharded)
    for shard in range(max(1, shards)):
        name = f"games-{shard}"
        where = (shard, shards) if shards else None
        guild = fake.add_guild(f"Load {shard}", channels=[name], shard=where)
        homes.append((guild, fake.channel(name)))
    threads: dict[int, Any] = {}
    users: dict[int, Any] = {}
    places = []
    for gid in range(1, n_games + 1):
        guild, channel = homes[gid % len(homes)]
        thread = fake.new_thread(channel, f"game {gid}")
        threads[gid] = thread
        people = [fake.add_user(f"u{gid}x{s}", guild=guild) for s in range(3)]
        users.update({u.id: u for u in people})
        places.append(fixture.Place(channel.id, thread.id, [u.id for u in people], guild.id))
    db = folder / f"load-{n_games}-{shards}.sqlite3"
    t0 = time.perf_counter()
    info = fixture.build(
        db,
        n_games,
        people_only=True,
        places=places,
        pool_scale=0.5 if n_games <= 100 else 1.0,
    )
    print(
        f"  fixture: {n_games} games in play, {info['moves']:,} moves, built in "
        f"{time.perf_counter() - t0:.1f} s",
        flush=True,
    )
    return threads, users, db


async def _copy(fake: Any, db: Path, target: str, folder: Path) -> None:
    """Copy the fixture's games to the PostgreSQL ``target`` with ``bazaar db copy``."""
    from botprocess import run_cli

    t0 = time.perf_counter()
    code, out = await run_cli(fake, db, "db", "copy", "--to", target, "--from", str(db), cwd=folder)
    if code != 0:
        raise RuntimeError(f"bazaar db copy failed ({code}): {out.strip()[-300:]}")
    took = time.perf_counter() - t0
    print(f"  copied to PostgreSQL and replayed there in {took:.1f} s", flush=True)


async def _start_bots(
    fake: Any, db: Path, target: str | Path, folder: Path, shards: int, bots: list[Any]
) -> list[Path]:
    """Register the commands (as ``bazaar sync`` does), then start the ``bazaar run`` processes
    (appended to ``bots`` as they start) and wait for their check of the stored games; returns
    the files their loop-lag samplers write."""
    from botprocess import BotProcess

    from bot.host.config import Config
    from bot.surface.app import BazaarBot

    with fake.patch_discord():
        async with BazaarBot(Config(token=fake.token, db_path=db), sync_only=True) as syncer:
            await syncer.login(fake.token)
            await syncer.tree.sync()
    lag_files = []
    for shard in range(max(1, shards)):
        lag_files.append(folder / f"load-lag-{shards}-{shard}.txt")
        env = {"BAZAAR_LOG_LEVEL": "INFO", "BAZAAR_LAG_LOG": str(lag_files[-1])}
        if shards:
            # one drawing worker each: the processes share this machine's cores between them
            env.update({"SHARD_COUNT": str(shards), "SHARD_IDS": str(shard), "BAZAAR_WORKERS": "1"})
        bot = BotProcess(fake, target, folder / f"load-bot-{shards}-{shard}.log", cwd=folder, env=env)
        bots.append(bot)
        await bot.start(120.0)
    await fake.wait_for(
        lambda: all("Checked" in b.log() for b in bots), 120.0, what="the bots' check of the stored games"
    )
    return lag_files


class PgSchema:
    """A fresh schema of the PostgreSQL server named by ``BAZAAR_BENCH_PG`` (default: the
    machine's), dropped afterwards."""

    def __init__(self, name: str) -> None:
        from .store import SERVER

        self.name = name
        self.url = f"{SERVER}{'&' if '?' in SERVER else '?'}search_path={name}"

    @classmethod
    async def create(cls) -> PgSchema:
        import secrets

        schema = cls(f"bazaar_bench_{secrets.token_hex(4)}")
        await schema._execute(f'CREATE SCHEMA "{schema.name}"')
        return schema

    async def drop(self) -> None:
        await self._execute(f'DROP SCHEMA IF EXISTS "{self.name}" CASCADE')

    async def _execute(self, sql: str) -> None:
        import asyncpg

        from .store import SERVER

        conn = await asyncpg.connect(SERVER, timeout=10)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()
