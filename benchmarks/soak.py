"""The soak: one real bot process plays a simulated week on an injected clock.

300 games in play (``benchmarks/fixture.py``: real seeded games of the four kinds, some with AI
seats) across 30 servers, each game in its own thread of the fake Discord of the tests, 24-hour
turn clocks. The bot (:mod:`benchmarks.soakbot`: the real config, store, bot and worker pool)
runs on a clock :data:`SPEED` times faster than the wall clock, so a simulated week takes a few
real minutes. The players here follow every game from the database and act as people do: most
answer after a while (an exponential wait, :data:`ACT_MEAN_H` simulated hours on average), some
walk away for good (their turns expire; after three in a row the AI takes their seat over), a
few resign. Once every simulated day the bot process is killed (SIGKILL) and started again.

Reported: the moves acknowledged to players (answered "Played") against those stored (each
acknowledged move must be in the database: none lost to a kill), how late the latest due turn
clock was handled (from its deadline to the stored expiry, in real seconds: the aim is under
2 s; deadlines that passed while the bot was down get the restart grace and are left out), the
boards' p99 (from the ``/move`` to the board showing it), expiries, AI takeovers, resignations,
restarts, and the peak memory of the bot process (its own peak, and with its workers).

``--quick``: 60 games on 6 servers, two simulated days, a kill each simulated half-day.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
import re
import sqlite3
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
DAY = 86400.0
CLOCK_S = 24 * 3600  # every game's turn clock (the fixture's)
ACT_MEAN_H = 16.0  # simulated hours a person takes to answer, on average (a 24-hour clock)
WALK_AWAY = 0.12  # share of people who stop playing for good, at a random moment
RESIGN = 0.03  # share of people who resign, at a random moment
AIM_LATE_S = 2.0
AIM_BOARD_P99_MS = 2000.0
LOST_AFTER_S = 60.0  # real seconds after which an unanswered move counts as never answered
DOWN_S = 600.0  # simulated seconds the bot is down at each kill (its start-up is not simulated time)


@dataclass(frozen=True)
class Shape:
    """How big a soak: games, servers, simulated days, kills (one every ``kill_every`` days)."""

    games: int
    servers: int
    days: float
    kill_every: float
    speed: float


FULL = Shape(300, 30, 7.0, 1.0, 2400.0)  # a week in 252 s of wall clock, and the restarts
QUICK = Shape(60, 6, 2.0, 0.5, 4800.0)  # two days in 36 s, and the restarts


@dataclass
class Person:
    user: Any
    walks_at: float  # simulated time they walk away (inf: never)
    resigns_at: float  # simulated time they resign (inf: never)
    gone: bool = False


@dataclass
class Game:
    gid: int
    kind: str
    state: Any
    version: int
    thread: Any
    people: dict[int, Person]  # seat -> person
    deadline: float | None = None
    status: str = "active"
    ai_seats: set[int] = field(default_factory=set)
    act_at: float | None = None  # simulated time the awaited person answers
    flight: dict[str, Any] | None = None


@dataclass
class Tally:
    acked: list[tuple[int, int, str, int, int]] = field(default_factory=list)  # gid, seat, action, user, base
    boards_ms: list[float] = field(default_factory=list)
    refused: int = 0
    unanswered: int = 0
    resigned: int = 0
    walked: int = 0
    late_s: list[float] = field(default_factory=list)
    graced: int = 0
    restarts: int = 0
    restart_s: list[float] = field(default_factory=list)
    peak_bot_kb: int = 0
    peak_all_kb: int = 0


class Soak:
    """The players, the bot process and the bookkeeping of one soak."""

    def __init__(self, shape: Shape, folder: Path, seed: int = 1) -> None:
        self.shape = shape
        self.folder = folder
        self.rng = random.Random(seed)
        self.tally = Tally()
        self.games: dict[int, Game] = {}
        self.waits: list[tuple[Game, int, float]] = []  # (game, target version, sent at): boards awaited
        self.latest: dict[int, Any] = {}
        self.ready_sim = 0.0  # simulated time the current bot run was ready (its restart grace before)
        self.sim0 = 0.0
        self.real0: float | None = 0.0
        self.starts: dict[int, int] = {}  # game id -> its version when the soak began

    def sim(self) -> float:
        """The bot's simulated time: frozen at the run's start while it starts (``real0`` None)."""
        if self.real0 is None:
            return self.sim0
        return self.sim0 + (time.time() - self.real0) * self.shape.speed

    async def run_bot(self, fake: Any, db: Path, env: dict[str, str], log_path: Path) -> Any:
        """Start a bot run at the simulated time now and wait until its clock runs."""
        from botprocess import BotProcess  # type: ignore[import-not-found]

        self.sim0, self.real0 = self.sim(), None
        sync = self.folder / "soak-clock.txt"
        sync.unlink(missing_ok=True)
        env = {**env, "BAZAAR_SOAK_SIM0": repr(self.sim0), "BAZAAR_SOAK_SYNC": str(sync)}
        bot = await BotProcess(fake, db, log_path, cwd=self.folder, env=env).start(120.0)
        await fake.wait_for(sync.exists, 60.0, what="the bot's clock to start")
        await asyncio.sleep(0.05)
        self.real0 = float(sync.read_text())
        self.ready_sim = self.sim0
        return bot

    # ------------------------------------------------------------------ setting up

    async def setup(self, fake: Any) -> Path:
        from bot.host.config import Config
        from bot.surface.app import BazaarBot
        from engines import base

        from . import fixture

        shape = self.shape
        homes = []
        for i in range(shape.servers):
            guild = fake.add_guild(f"Soak {i}", channels=[f"soak-{i}"])
            homes.append((guild, fake.channel(f"soak-{i}")))
        places, threads, users = [], {}, {}
        for gid in range(1, shape.games + 1):
            guild, channel = homes[gid % len(homes)]
            threads[gid] = fake.new_thread(channel, f"game {gid}")
            members = [fake.add_user(f"s{gid}x{s}", guild=guild) for s in range(3)]
            users.update({u.id: u for u in members})
            places.append(fixture.Place(channel.id, threads[gid].id, [u.id for u in members], guild.id))
        db = self.folder / f"soak-{shape.games}.sqlite3"
        info = fixture.build(db, shape.games, ai=0.35, places=places, pool_scale=0.5)
        print(
            f"  fixture: {shape.games} games in play on {shape.servers} servers, {info['moves']:,} moves",
            flush=True,
        )
        self.sim0 = time.time()  # the fixture's deadlines lie 13-24 h ahead of it
        self.real0 = None
        stored = fixture.stored_logs(db, list(range(1, shape.games + 1)))
        con = sqlite3.connect(db)
        try:
            rows = {r[0]: r[1:] for r in con.execute("SELECT id, deadline FROM games")}
            ai = {(g, s) for g, s in con.execute("SELECT game_id, seat FROM seats WHERE is_ai = 1")}
        finally:
            con.close()
        for gid, g in stored.items():
            engine = base.get(g["kind"])
            state = base.replay(engine, g["seed"], g["n"], g["options"], g["moves"])
            people = {s: self._person(users[u]) for s, u in g["users"].items()}
            self.games[gid] = Game(
                gid,
                g["kind"],
                state,
                len(g["moves"]),
                threads[gid],
                people,
                rows[gid][0],
                ai_seats={s for s in range(g["n"]) if (gid, s) in ai},
            )
        with fake.patch_discord():  # register the commands, as `bazaar sync` does
            async with BazaarBot(Config(token=fake.token, db_path=db), sync_only=True) as syncer:
                await syncer.login(fake.token)
                await syncer.tree.sync()
        return db

    def _person(self, user: Any) -> Person:
        span = self.shape.days * DAY
        walks = self.sim0 + self.rng.uniform(0, span) if self.rng.random() < WALK_AWAY else math.inf
        resigns = self.sim0 + self.rng.uniform(0, span) if self.rng.random() < RESIGN else math.inf
        return Person(user, walks, resigns)

    # ------------------------------------------------------------------ following the games

    def poll(self, db: Path) -> None:
        """Read what the bot stored since the last look: new moves (applied to the games held
        here), deadlines, seats handed to the AI, and how late each expiry was handled."""
        from engines import base

        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
        try:
            rows = con.execute("SELECT id, status, version, deadline FROM games").fetchall()
            for gid, status, version, deadline in rows:
                g = self.games.get(gid)
                if g is None:
                    continue
                if version > g.version:
                    moves = con.execute(
                        "SELECT version, seat, action, by, at FROM moves WHERE game_id = ? "
                        "AND version > ? ORDER BY version",
                        (gid, g.version),
                    ).fetchall()
                    engine = base.get(g.kind)
                    for v, seat, action, by, at in moves:
                        if by == "clock" and g.deadline is not None and (v == g.version + 1):
                            self._expiry(g.deadline, at)
                        g.state, _ = engine.apply(g.state, seat, action)
                        g.version = v
                    g.act_at = None
                    g.ai_seats = {
                        s
                        for (s,) in con.execute(
                            "SELECT seat FROM seats WHERE game_id = ? AND (is_ai = 1 OR ai_takeover = 1)",
                            (gid,),
                        )
                    }
                g.status, g.deadline = status, deadline
        finally:
            con.close()

    def _expiry(self, deadline: float, at: float) -> None:
        if deadline < self.ready_sim:  # it fell due while the bot was down: the restart's grace
            self.tally.graced += 1
            return
        self.tally.late_s.append(max(0.0, at - deadline) / self.shape.speed)

    def changed(self) -> None:
        """A message was posted or edited: note when each awaited board first showed its move."""
        now = time.perf_counter()
        keep = []
        for g, target, sent in self.waits:
            msg = self.latest.get(g.thread.id)
            m = BOARD.search((msg.content or "").split("\n", 1)[0]) if msg is not None else None
            if m and int(m.group(1)) == g.gid and int(m.group(2)) >= target:
                self.tally.boards_ms.append(1000 * (now - sent))
            elif now - sent < LOST_AFTER_S:
                keep.append((g, target, sent))
        self.waits = keep

    async def act(self, fake: Any) -> None:
        """Each game whose awaited person is still playing gets their answer once its time comes."""
        from engines import base

        now = self.sim()
        for g in self.games.values():
            if g.flight is not None:
                self._reap(g)
                continue
            if g.status != "active":
                continue
            engine = base.get(g.kind)
            awaited = [s for s in engine.to_move(g.state) if s in g.people and s not in g.ai_seats]
            for s in awaited:
                p = g.people[s]
                if not p.gone and now >= p.resigns_at:
                    p.gone = True
                    self.tally.resigned += 1
                    handle = await fake.slash(p.user, g.thread, "resign", wait=False)
                    g.flight = {"resign": True, "handle": handle, "at": time.perf_counter()}
                    break
                if not p.gone and now >= p.walks_at:
                    p.gone = True
                    self.tally.walked += 1
            if g.flight is not None:
                continue
            live = [s for s in awaited if not g.people[s].gone]
            if not live:
                continue
            if g.act_at is None:
                g.act_at = now + self.rng.expovariate(1 / (ACT_MEAN_H * 3600))
            if now < g.act_at:
                continue
            seat = self.rng.choice(live)
            action = str(self.rng.choice(engine.legal_actions(g.state, seat)))
            handle = await fake.slash(g.people[seat].user, g.thread, "move", action=action, wait=False)
            g.flight = {
                "seat": seat,
                "action": action,
                "base": g.version,
                "handle": handle,
                "at": time.perf_counter(),
            }
            g.act_at = None

    def _reap(self, g: Game) -> None:
        f = g.flight
        assert f is not None
        h = f["handle"]
        if not h.done:
            if time.perf_counter() - f["at"] > LOST_AFTER_S:
                self.tally.unanswered += 1
                g.flight = None
            return
        g.flight = None
        if f.get("resign"):
            return
        reply = h.content if h.response is not None else ""
        if not reply.startswith("✅ Played"):
            self.tally.refused += 1
            return
        user = g.people[f["seat"]].user.id
        self.tally.acked.append((g.gid, f["seat"], f["action"], user, f["base"]))
        self.waits.append((g, f["base"] + 1, f["at"]))

    # ------------------------------------------------------------------ checks at the end

    def stored_vs_acked(self, db: Path) -> tuple[int, int, int]:
        """``(acknowledged, of them stored, player moves stored during the soak)``: an
        acknowledged move is stored when its game holds a person's move after the version it was
        sent at, by the same person, seat and action (each stored move matched once)."""
        con = sqlite3.connect(db)
        try:
            stored: dict[int, list[tuple[int, int, str, int | None]]] = {}
            for gid, v, seat, action, user in con.execute(
                "SELECT game_id, version, seat, action, user_id FROM moves WHERE by = 'player' "
                "ORDER BY version"
            ):
                stored.setdefault(gid, []).append((v, seat, action, user))
        finally:
            con.close()
        used: set[tuple[int, int]] = set()
        found = 0
        for gid, seat, action, user, base in self.tally.acked:
            hit = next(
                (
                    v
                    for v, s, a, u in stored.get(gid, [])
                    if v > base and s == seat and a == action and u == user and (gid, v) not in used
                ),
                None,
            )
            if hit is not None:
                used.add((gid, hit))
                found += 1
        total = sum(1 for gid, moves in stored.items() for v, *_ in moves if v > self.starts.get(gid, 0))
        return len(self.tally.acked), found, total

    def memory(self, pid: int) -> None:
        """Note the bot process's peak resident memory and, with its workers, its current total."""
        from .startup import children

        def status(p: int, key: str) -> int:
            try:
                for line in Path(f"/proc/{p}/status").read_text().splitlines():
                    if line.startswith(key):
                        return int(line.split()[1])
            except OSError:
                pass
            return 0

        own = status(pid, "VmHWM:")
        total = status(pid, "VmRSS:") + sum(status(c, "VmRSS:") for c in children(pid))
        self.tally.peak_bot_kb = max(self.tally.peak_bot_kb, own)
        self.tally.peak_all_kb = max(self.tally.peak_all_kb, total)


async def _soak(shape: Shape, folder: Path) -> tuple[Soak, dict[str, Any]]:
    import botprocess
    from fakediscord import FakeDiscord  # type: ignore[import-not-found]

    fake = FakeDiscord(ack_deadline=None, default_timeout=120.0)
    await fake.start()
    soak = Soak(shape, folder)
    bot: Any = None
    try:
        db = await soak.setup(fake)
        soak.starts = {gid: g.version for gid, g in soak.games.items()}
        from .load import Boards

        fake.message_store = Boards(fake.message_store, soak.latest)
        inner = fake._changed

        def changed() -> None:
            soak.changed()
            inner()

        fake._changed = changed
        botprocess.LAUNCH = ROOT / "benchmarks" / "soakbot.py"
        env = {"BAZAAR_LOG_LEVEL": "INFO", "BAZAAR_SOAK_SPEED": repr(shape.speed), "BAZAAR_SOAK_TICK": "0.1"}
        log_path = folder / "soak-bot.log"
        end = soak.sim0 + shape.days * DAY
        next_kill = soak.sim0 + shape.kill_every * DAY
        started = time.perf_counter()
        bot = await soak.run_bot(fake, db, env, log_path)
        print(
            f"  soak: {shape.days:g} simulated days at {shape.speed:g}x, a kill every {shape.kill_every:g} "
            f"day(s) ...",
            flush=True,
        )
        tick = 0
        while soak.sim() < end:
            soak.poll(db)
            await soak.act(fake)
            tick += 1
            if tick % 10 == 0:
                soak.memory(bot.pid)
            if soak.sim() >= next_kill:
                t0 = time.perf_counter()
                soak.memory(bot.pid)
                await bot.kill()
                soak.sim0, soak.real0 = soak.sim() + DOWN_S, None  # down a simulated while
                bot = await soak.run_bot(fake, db, env, log_path)
                soak.tally.restarts += 1
                soak.tally.restart_s.append(time.perf_counter() - t0)
                next_kill += shape.kill_every * DAY
            await asyncio.sleep(0.05)
        for _ in range(100):  # the last answers
            soak.poll(db)
            await soak.act(fake)
            if not any(g.flight for g in soak.games.values()):
                break
            await asyncio.sleep(0.1)
        soak.memory(bot.pid)
        code = await bot.stop()
        soak.poll(db)
        extra = {"exit": code, "problems": bot.problems(), "wall_s": time.perf_counter() - started, "db": db}
    finally:
        if bot is not None and bot.alive():
            bot.proc.kill()
        await fake.close()
    return soak, extra


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, math.ceil(len(ordered) * q / 100) - 1))]


def rows(quick: bool, folder: Path) -> list[Figure]:
    """Run the soak (see the module docstring) and report it."""
    logging.getLogger("discord").setLevel(logging.ERROR)
    shape = QUICK if quick else FULL
    soak, extra = asyncio.run(_soak(shape, folder))
    t = soak.tally
    acked, found, stored = soak.stored_vs_acked(extra["db"])
    con = sqlite3.connect(extra["db"])
    try:
        takeovers = con.execute("SELECT COUNT(*) FROM seats WHERE ai_takeover = 1").fetchone()[0]
        clocks = con.execute(
            "SELECT COUNT(DISTINCT game_id || ':' || version) FROM moves WHERE by = 'clock'"
        ).fetchone()[0]
        finished = con.execute("SELECT COUNT(*) FROM games WHERE status = 'finished'").fetchone()[0]
    finally:
        con.close()
    label = f"soak ({shape.games} games, {shape.servers} servers, {shape.days:g} days)"
    late = max(t.late_s, default=float("nan"))
    figs = [
        Figure(
            f"{label}: moves acknowledged / stored",
            f"{acked} / {found}",
            "equal",
            acked == found,
            note=f"{stored} player moves stored in all (a kill between a commit and its answer leaves a "
            f"move stored but not acknowledged); {t.refused} refused, {t.unanswered} unanswered",
        ),
        aim_at_most(
            f"{label}: latest due clock handled",
            late,
            AIM_LATE_S,
            "s",
            fmt="{:.2f}",
            note=f"{len(t.late_s)} expiries timed, median {_percentile(t.late_s, 50):.2f} s, p99 "
            f"{_percentile(t.late_s, 99):.2f} s, {sum(x >= AIM_LATE_S for x in t.late_s)} at 2 s or more "
            f"({t.graced} after a restart's grace "
            f"left out); real seconds from the deadline to the stored expiry",
        ),
        aim_at_most(
            f"{label}: boards p99",
            _percentile(t.boards_ms, 99),
            AIM_BOARD_P99_MS,
            "ms",
            fmt="{:.0f}",
            note=f"{len(t.boards_ms)} boards, median {_percentile(t.boards_ms, 50):.0f} ms, from /move to "
            f"the board showing it",
        ),
        Figure(
            f"{label}: peak memory",
            f"{t.peak_bot_kb / 1024:.0f} MB",
            "",
            None,
            note=f"the bot process's peak RSS; {t.peak_all_kb / 1024:.0f} MB at most with its workers",
        ),
        Figure(
            f"{label}: what happened",
            f"{shape.kill_every:g}-day kills: {t.restarts}",
            "",
            None,
            note=f"{clocks} expiries, {takeovers} AI takeovers, {t.walked} people walked away, {t.resigned} "
            f"resigned, {finished} games finished; restarts took {max(t.restart_s, default=0):.1f} s at "
            f"most; {extra['wall_s']:.0f} s of wall clock",
        ),
    ]
    problems = extra["problems"]
    for problem in problems[:3]:
        print("  the bot logged:\n    " + problem.replace("\n", "\n    "), flush=True)
    if extra["exit"] != 0 or problems:
        figs.append(
            Figure(
                f"{label}: the bot's log",
                f"exit {extra['exit']}, {len(problems)} problems",
                "clean",
                False,
                note=(problems or [""])[0][:200],
            )
        )
    return figs


def main(argv: list[str]) -> int:
    import tempfile

    from .table import render_table

    with tempfile.TemporaryDirectory(prefix="bazaar-soak-") as tmp:
        print(render_table(rows("--quick" in argv, Path(tmp))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
