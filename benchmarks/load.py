"""Load as on a big server: the real ``bazaar run`` in its own process (its worker pool drawing
the boards), talking through the real discord.py client to the fake Discord of the tests, which
runs here with the players.

500 games in play (``benchmarks/fixture.py``: real seeded games of all four kinds, people only,
each in its own thread) get ``/move`` interactions as a Poisson stream at 10, 20 and 40 moves/s
for 60 s each, each move a random legal one from a game not waiting for its last answer, then a
burst of 100 moves at one instant. Every aimed rate is run and reported, also when the bot cannot
keep up with it: a stretch stops sending once ``BACKLOG_S`` seconds of its moves wait unanswered
(its p99 is then a lower bound, "> N ms", with when it fell behind), waits a bounded time for
the answers (moves still unanswered count at the time waited so far, again a lower bound), and
the next stretch begins only once the bot has answered what was given up on (or a bounded wait
ran out: the figure says how many were still waiting). Per move: the milliseconds from the fake writing the
INTERACTION_CREATE to the bot's socket to the fake receiving the board that shows it (a new
message, or the last one edited in place), and to the interaction's acknowledgement. The bot's
event-loop lag comes from its own sampler (``BAZAAR_LAG_LOG``, see ``bot/host/looplag.py``).

The ``shards`` section runs the same load on two ``bazaar run`` processes (``SHARD_COUNT=2``,
``SHARD_IDS=0`` and ``1``, one drawing worker each) sharing a fresh schema of the PostgreSQL
server: the games are spread over two guilds, one on each shard, and copied from the fixture's
SQLite file by ``bazaar db copy``; each rate's stretch is ``SHARDED_SECONDS`` long.

Figures only; nothing is asserted.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import re
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .table import Figure, aim_at_most

ROOT = Path(__file__).resolve().parent.parent
for extra in (ROOT, ROOT / "tests", ROOT / "tests" / "e2e"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

BOARD = re.compile(r"\*\*[^*]+ #(\d+)\*\* · move (\d+)")
OVER = re.compile(r"🏁 \*\*[^*]+ #(\d+)\*\* is over")
AIM_P99_MS = 250.0
AIM_LAG_MS = 50.0
SHARDED_SECONDS = 30.0  # a rate's stretch on shard processes (60 s unsharded): make bench stays < 10 min
BACKLOG_S = 5.0  # a stretch stops early once this many seconds of its moves wait unanswered
AIMED = (10.0, 20.0, 40.0)  # the rates of issue #13


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..100); nan for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, -(-len(ordered) * q // 100) - 1))
    return ordered[int(k)]


@dataclass
class Flight:
    """One move sent and not yet answered."""

    gid: int
    seat: int
    action: str
    target: int  # the version its board shows
    handle: Any
    board_at: float | None = None
    sent: float = 0.0  # loop time it was handed to the fake


@dataclass
class Phase:
    """What one stretch of load measured."""

    name: str
    seconds: float
    sent: int = 0
    skipped: int = 0  # arrivals with every game still waiting for its answer
    refused: list[str] = field(default_factory=list)
    boards: list[float] = field(default_factory=list)  # ms, INTERACTION_CREATE -> board
    acks: list[float] = field(default_factory=list)  # ms, INTERACTION_CREATE -> acknowledged
    lost: int = 0  # sent but never answered within the drain time
    waited: list[float] = field(default_factory=list)  # ms each of the ``lost`` moves had waited
    carried: int = 0  # moves of earlier stretches still unanswered when this one began
    backlog: int = 0  # moves waiting when it stopped sending
    started: float = 0.0  # Unix time
    ended: float = 0.0
    first_sent: float = 0.0  # loop time
    last_board: float = 0.0  # loop time
    drained_at: float = 0.0  # loop time the wait for its answers ended
    lags: list[float] = field(default_factory=list)  # ms, from the bot's sampler
    driver_lags: list[float] = field(default_factory=list)  # ms, this process's own loop
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds used during the phase, by whom
    overloaded_at: float | None = None  # seconds into the phase when the backlog reached its bound

    @property
    def rate(self) -> float | None:
        return float(self.name.split()[0]) if self.seconds else None

    @property
    def p99(self) -> float:
        """p99 of /move -> board over every move sent; a move never answered counts as the time
        it had waited when the stretch gave up on it (so with any, this is a lower bound)."""
        return percentile(self.boards + self.waited, 99)

    @property
    def behind(self) -> bool:
        """The bot fell behind: the stretch stopped sending early, or moves went unanswered."""
        return self.overloaded_at is not None or self.lost > 0

    def meets(self) -> bool:
        return not self.behind and self.p99 < AIM_P99_MS


class Boards(dict[int, Any]):
    """The fake's message store, noting the newest board message of each channel as it is made."""

    def __init__(self, inner: dict[int, Any], latest: dict[int, Any]) -> None:
        super().__init__(inner)
        self.latest = latest

    def __setitem__(self, key: int, msg: Any) -> None:
        super().__setitem__(key, msg)
        first = (msg.content or "").split("\n", 1)[0]
        if BOARD.search(first) or OVER.search(first):
            self.latest[msg.channel_id] = msg


class Load:
    """The players of every game, and the bookkeeping of what they sent and saw."""

    def __init__(
        self,
        fake: Any,
        games: dict[int, dict[str, Any]],
        users: dict[int, Any],
        threads: dict[int, Any],
        rng: random.Random,
        bot_pids: list[int],
        drain_s: float,
    ) -> None:
        from engines import base

        self.fake = fake
        self.base = base
        self.games = games
        self.users = users
        self.threads = threads
        self.rng = rng
        self.states = {
            gid: base.replay(base.get(g["kind"]), g["seed"], g["n"], g["options"], g["moves"])
            for gid, g in games.items()
        }
        self.versions = {gid: len(g["moves"]) for gid, g in games.items()}
        self.idle = [gid for gid in games if base.get(games[gid]["kind"]).outcome(self.states[gid]) is None]
        self.inflight: dict[int, Flight] = {}
        self.latest: dict[int, Any] = {}
        fake.message_store = Boards(fake.message_store, self.latest)
        self._inner = fake._changed
        fake._changed = self._changed
        self.abandoned: list[Any] = []  # handles of moves a stretch stopped waiting for
        self.bot_pids = bot_pids
        self.drain_s = drain_s

    def _changed(self) -> None:
        now = asyncio.get_running_loop().time()
        for f in self.inflight.values():
            if f.board_at is None:
                msg = self.latest.get(self.threads[f.gid].id)
                if msg is not None and _shows(msg, f):
                    f.board_at = now
        self._inner()

    async def send(self, gid: int) -> None:
        """A random legal move for a person awaited in ``gid``, by ``/move``."""
        g, state = self.games[gid], self.states[gid]
        engine = self.base.get(g["kind"])
        seat = self.rng.choice(list(engine.to_move(state)))
        action = str(self.rng.choice(engine.legal_actions(state, seat)))
        user = self.users[g["users"][seat]]
        sent = asyncio.get_running_loop().time()
        handle = await self.fake.slash(user, self.threads[gid], "move", action=action, wait=False)
        self.inflight[gid] = Flight(gid, seat, action, self.versions[gid] + 1, handle, sent=sent)

    def reap(self, phase: Phase) -> None:
        """Book every answered move: its latencies, the game's new state; the game is idle again."""
        for gid, f in list(self.inflight.items()):
            h = f.handle
            if not h.done or h.sent_at is None:
                continue
            reply = h.content if h.response is not None else ""
            played = reply.startswith("✅ Played")
            if played and f.board_at is None:
                continue  # played: its board is still to come
            del self.inflight[gid]
            phase.acks.append(1000 * (h.acked_at - h.sent_at))
            if not played:
                phase.refused.append(reply[:80])
                self.idle.append(gid)
                continue
            assert f.board_at is not None
            phase.boards.append(1000 * (f.board_at - h.sent_at))
            phase.last_board = max(phase.last_board, f.board_at)
            engine = self.base.get(self.games[gid]["kind"])
            self.states[gid], _ = engine.apply(self.states[gid], f.seat, f.action)
            self.versions[gid] += 1
            if engine.outcome(self.states[gid]) is None:
                self.idle.append(gid)

    def cpu(self) -> dict[str, float]:
        """CPU seconds used so far by the bot's processes, their board workers, their recap lane
        (the worker at a lowered priority) and this process."""
        from .startup import children, cpu_s

        kids = [c for p in self.bot_pids for c in children(p)]
        return {
            "bot": sum(cpu_s(p) for p in self.bot_pids),
            "workers": sum(cpu_s(c) for c in kids if _niceness(c) <= 0),
            "recaps": sum(cpu_s(c) for c in kids if _niceness(c) > 0),
            "players+fake": cpu_s(os.getpid()),
        }

    async def drain(self, phase: Phase, timeout: float) -> None:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while self.inflight and loop.time() < end:
            self.reap(phase)
            await asyncio.sleep(0.01)
        self.reap(phase)
        now = phase.drained_at = loop.time()
        phase.lost += len(self.inflight)
        phase.waited += [1000 * (now - (f.handle.sent_at or f.sent)) for f in self.inflight.values()]
        self.abandoned += [f.handle for f in self.inflight.values()]  # their games are not played again
        self.inflight.clear()

    async def recover(self, timeout: float) -> int:
        """Wait (up to ``timeout`` s) until the bot has answered every move a stretch gave up on,
        so the next stretch does not measure that backlog; returns how many are still waiting."""
        await self.settle(timeout)
        self.abandoned = [h for h in self.abandoned if not h.done]
        return len(self.abandoned)

    async def settle(self, timeout: float) -> None:
        """Wait (up to ``timeout`` s) for the moves given up on to be answered, so the bot is not
        stopped in the middle of them."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while any(not h.done for h in self.abandoned) and loop.time() < end:
            await asyncio.sleep(0.1)

    def _take_idle(self) -> int | None:
        if not self.idle:
            return None
        i = self.rng.randrange(len(self.idle))
        self.idle[i], self.idle[-1] = self.idle[-1], self.idle[i]
        return self.idle.pop()

    async def poisson(self, rate: float, seconds: float) -> Phase:
        """Moves arriving at ``rate`` per second (exponential gaps) for ``seconds``, then drained."""
        loop = asyncio.get_running_loop()
        phase = Phase(f"{rate:g} moves/s", seconds, started=time.time())
        cpu0 = self.cpu()
        t_end = loop.time() + seconds
        t_next = loop.time()
        phase.first_sent = t_next
        backlog = max(20, int(rate * BACKLOG_S))
        while True:
            t_next += self.rng.expovariate(rate)
            if t_next > t_end:
                break
            self.reap(phase)
            delay = t_next - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            if len(self.inflight) >= backlog:  # the bot cannot keep up: stop adding to its queue
                phase.overloaded_at = loop.time() - phase.first_sent
                phase.backlog = len(self.inflight)
                break
            gid = self._take_idle()
            if gid is None:
                phase.skipped += 1
                continue
            await self.send(gid)
            phase.sent += 1
        await self.drain(phase, self.drain_s)
        phase.ended = time.time()
        phase.cpu = {k: v - cpu0[k] for k, v in self.cpu().items()}
        return phase

    async def burst(self, count: int) -> Phase:
        """``count`` moves of as many games sent at one instant, then drained."""
        loop = asyncio.get_running_loop()
        phase = Phase(f"burst of {count}", 0.0, started=time.time())
        cpu0 = self.cpu()
        picked = [g for g in (self._take_idle() for _ in range(count)) if g is not None]
        phase.first_sent = loop.time()
        for gid in picked:
            await self.send(gid)
        phase.sent = len(picked)
        await self.drain(phase, self.drain_s)
        phase.ended = time.time()
        phase.cpu = {k: v - cpu0[k] for k, v in self.cpu().items()}
        return phase


def _niceness(pid: int) -> int:
    """The nice value of process ``pid`` (0 if it is gone)."""
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])
    except (OSError, IndexError, ValueError):
        return 0


def _shows(msg: Any, f: Flight) -> bool:
    first = (msg.content or "").split("\n", 1)[0]
    m = BOARD.search(first)
    if m:
        return int(m.group(1)) == f.gid and int(m.group(2)) >= f.target
    m = OVER.search(first)
    return m is not None and int(m.group(1)) == f.gid


def _lags(path: Path, phase: Phase) -> list[float]:
    """The bot's lag samples (ms) taken during ``phase``."""
    out: list[float] = []
    if not path.exists():
        return out
    for line in path.read_text().splitlines():
        t, _, ms = line.partition(" ")
        if phase.started <= float(t) <= phase.ended:
            out.append(float(ms))
    return out


class DriverLag:
    """This process's own loop lag (the players and the fake): a measurement is only as good as it."""

    def __init__(self) -> None:
        self.samples: list[tuple[float, float]] = []
        self.task: asyncio.Task[None] | None = None

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            t = loop.time()
            await asyncio.sleep(0.02)
            self.samples.append((time.time(), 1000 * max(0.0, loop.time() - t - 0.02)))

    def during(self, phase: Phase) -> list[float]:
        return [ms for t, ms in self.samples if phase.started <= t <= phase.ended]


async def _measure(
    folder: Path, n_games: int, plan: Plan, seed: int = 1, shards: int = 0
) -> tuple[list[Phase], dict[str, Any]]:
    """The load against one ``bazaar run`` on a SQLite file (``shards`` 0), or against ``shards``
    processes (``SHARD_COUNT``, one ``SHARD_IDS`` each) sharing a fresh schema of the PostgreSQL
    server, the games spread over one guild per shard and copied there by ``bazaar db copy``."""
    from botprocess import BotProcess, run_cli  # type: ignore[import-not-found]
    from fakediscord import FakeDiscord  # type: ignore[import-not-found]

    from bot.host.config import Config
    from bot.surface.app import BazaarBot

    from . import fixture

    fake = FakeDiscord(ack_deadline=None, default_timeout=120.0, shard_count=max(1, shards))
    await fake.start()
    bots: list[Any] = []
    driver_lag = DriverLag()
    schema: PgSchema | None = None
    try:
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
        target: str | Path = db
        if shards:
            schema = await PgSchema.create()
            target = schema.url
            t0 = time.perf_counter()
            code, out = await run_cli(fake, db, "db", "copy", "--to", target, "--from", str(db), cwd=folder)
            if code != 0:
                raise RuntimeError(f"bazaar db copy failed ({code}): {out.strip()[-300:]}")
            took = time.perf_counter() - t0
            print(f"  copied to PostgreSQL and replayed there in {took:.1f} s", flush=True)
        with fake.patch_discord():  # register the commands, as `bazaar sync` does
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
        games = fixture.stored_logs(db, list(range(1, n_games + 1)))
        load = Load(fake, games, users, threads, random.Random(seed), [b.pid for b in bots], plan.drain_s)
        driver_lag.task = asyncio.ensure_future(driver_lag.run())
        results = await plan.run(load)
        await load.settle(plan.drain_s)
        await asyncio.sleep(plan.tail_s)  # the posts after the last answers
        for phase in results:
            phase.lags = [ms for path in lag_files for ms in _lags(path, phase)]
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
        import asyncpg  # type: ignore[import-untyped]

        from .store import SERVER

        conn = await asyncpg.connect(SERVER, timeout=10)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()


@dataclass
class Plan:
    """Which stretches of load to run: every aimed rate in ``rates`` for ``seconds`` each, in
    turn, whether or not a lower one kept up; then, if the lowest aimed rate missed the aim, up
    to ``lower`` rates each half the one before (``lower_seconds`` each) looking for the highest
    that meets it; then the burst. Before each stretch after the first the bot is given up to
    ``recover_s`` seconds to answer what the stretches before gave up on (see
    :meth:`Load.recover`); what is still waiting then is noted on the stretch (``carried``)."""

    rates: list[float]
    seconds: float
    lower: int
    lower_seconds: float
    burst: int
    drain_s: float
    recover_s: float = 30.0
    tail_s: float = 5.0  # seconds left for the posts after the last answers, before the bots stop

    async def run(self, load: Any) -> list[Phase]:
        done: list[Phase] = []

        async def recovered() -> int:
            return await load.recover(self.recover_s) if done else 0

        async def stretch(rate: float, seconds: float) -> Phase:
            carried = await recovered()
            print(f"  load: {rate:g} moves/s for {seconds:g} s ...", flush=True)
            phase: Phase = await load.poisson(rate, seconds)
            phase.carried = carried
            done.append(phase)
            return phase

        for rate in self.rates:
            await stretch(rate, self.seconds)
        if done and self.lower:
            lowest = min(done, key=lambda p: p.rate or 0.0)
            rate = lowest.rate or 0.0
            if not lowest.meets():
                for _ in range(self.lower):
                    rate /= 2
                    if (await stretch(rate, self.lower_seconds)).meets():
                        break
        carried = await recovered()
        print(f"  load: burst of {self.burst} ...", flush=True)
        phase = await load.burst(self.burst)
        phase.carried = carried
        done.append(phase)
        return done


def rows(quick: bool, folder: Path, shards: int = 0) -> list[Figure]:
    """Run the load and report it (see the module docstring): against one process on SQLite, or
    (``shards`` > 0) against that many shard processes sharing PostgreSQL."""
    logging.getLogger("discord").setLevel(logging.ERROR)
    seconds = SHARDED_SECONDS if shards else 60.0
    if quick:
        n_games, plan = 30, Plan(list(AIMED), 2.0, 0, 2.0, 15, 10.0, recover_s=5.0, tail_s=1.0)
    else:
        n_games, plan = 500, Plan(list(AIMED), seconds, 3, 20.0, 100, 30.0, recover_s=30.0)
    label = f"load ({shards} shards, PostgreSQL)" if shards else "load"
    results, extra = asyncio.run(_measure(folder, n_games, plan, shards=shards))
    figs: list[Figure] = []
    for phase in results:
        figs += _phase_rows(phase, n_games, label, plan.drain_s)
    met = [p.rate for p in results if p.rate is not None and p.meets()]
    tried = ", ".join(f"{p.rate:g}" for p in results if p.rate is not None)
    figs.append(
        Figure(
            f"{label}: highest rate with p99 < 250 ms",
            f"{max(met):g} moves/s" if met else "none measured",
            "",
            None,
            note=f"of the rates run ({tried} moves/s)",
        )
    )
    for problem in extra["problems"][:3]:  # the whole record, for whoever reads the bench's output
        print("  a bot logged:\n    " + problem.replace("\n", "\n    "), flush=True)
    if extra["exit"] != 0 or extra["problems"]:
        figs.append(
            Figure(
                f"{label}: the bot's log",
                f"exit {extra['exit']}, {len(extra['problems'])} problems",
                "clean",
                False,
                note=(extra["problems"] or [""])[0][:200],
            )
        )
    return figs


def _phase_rows(phase: Phase, n_games: int, label: str = "load", drain_s: float = 0.0) -> list[Figure]:
    nan = float("nan")
    med = statistics.median(phase.boards) if phase.boards else nan
    lag99, lagmax = percentile(phase.lags, 99), max(phase.lags, default=nan)
    answered = len(phase.boards)
    cpu = ", ".join(f"{k} {v / answered:.3f}" for k, v in phase.cpu.items()) if answered else "-"
    wall = max(1e-9, phase.ended - phase.started)
    cores = sum(v for k, v in phase.cpu.items() if k != "players+fake") / wall
    cpu += f" (the bot and its workers, recap lane included, got {cores:.2f} cores"
    cpu += f" over the {wall:.0f} s; machine load average {os.getloadavg()[0]:.1f})"
    detail = (
        f"{answered} boards, median {med:.0f} ms; ack p99 {percentile(phase.acks, 99):.0f} ms, "
        f"max {max(phase.acks, default=nan):.0f} ms; bot loop lag max {lagmax:.0f} ms; "
        f"CPU s per move: {cpu}; "
        f"{phase.skipped} arrivals found no idle game, {len(phase.refused)} refused, {phase.lost} unanswered "
        f"after the drain; the players' own loop lag p99 {percentile(phase.driver_lags, 99):.0f} ms"
    )
    if phase.carried:
        detail += f"; it began with {phase.carried} moves of earlier stretches still unanswered"
    if phase.refused:
        detail += f"; refusals: {sorted(set(phase.refused))[:2]}"
    if phase.rate is not None:
        aimed = phase.rate in AIMED
        sending = phase.seconds if phase.overloaded_at is None else phase.overloaded_at
        board = aim_at_most(
            f"{label} {phase.name}: /move -> board p99",
            phase.p99,
            AIM_P99_MS,
            "ms",
            "{:.0f}",
            note=f"{n_games} games, {phase.sent} moves sent in {sending:.0f} s of {phase.seconds:g}; "
            + detail,
        )
        if phase.behind:  # what it measured is a lower bound: the bot did not keep up
            why = []
            if phase.overloaded_at is not None:
                why.append(f"fell behind after {phase.overloaded_at:.0f} s, {phase.backlog} moves waiting")
            if phase.lost:
                why.append(f"{phase.lost} unanswered after the {drain_s:g} s wait")
            note = board.note
            if phase.overloaded_at is not None:
                note += f"; it stopped sending once {BACKLOG_S:g} s of moves were waiting"
            board = Figure(board.name, f"> {board.value} ({'; '.join(why)})", board.aim, False, note)
        lag = aim_at_most(f"{label} {phase.name}: bot event-loop lag p99", lag99, AIM_LAG_MS, "ms", "{:.1f}")
        if phase.rate != 20.0:
            lag = Figure(lag.name, lag.value, "", None)
        if not aimed:
            board = Figure(board.name, board.value, board.aim, None, board.note)
        return [board, lag]
    worst_ack = max(phase.acks, default=float("inf"))
    last = 1000 * (phase.last_board - phase.first_sent) if phase.boards else float("inf")
    if phase.lost:  # some never came: the last board came at least as late as the wait's end
        last = max(last if phase.boards else 0.0, 1000 * (phase.drained_at - phase.first_sent))
    figs = [
        aim_at_most(
            f"{label} {phase.name}: slowest acknowledgement",
            worst_ack,
            1000,
            "ms",
            "{:.0f}",
            note=f"{n_games} games; " + detail,
        ),
        aim_at_most(
            f"{label} {phase.name}: last board",
            last,
            1500,
            "ms",
            "{:.0f}",
            note=f"from the first interaction sent; p99 of each move {phase.p99:.0f} ms; bot "
            f"loop lag p99 {lag99:.0f} ms",
        ),
    ]
    if phase.lost:
        last_fig = figs[1]
        value = f"> {last_fig.value} ({phase.lost} unanswered after the {drain_s:g} s wait)"
        figs[1] = Figure(last_fig.name, value, last_fig.aim, False, last_fig.note)
    return figs
