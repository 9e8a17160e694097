"""The players of the soak (:mod:`benchmarks.soak`) and its bookkeeping: they follow every game
from the database the bot writes (its moves, deadlines and seats handed to the AI), answer as
people do (most after a while, some walk away for good, a few resign), and note what the bot
acknowledged, when each board showed a move, how late each expiry was stored, and the bot's
memory.
"""

from __future__ import annotations

import asyncio
import math
import random
import re
import sqlite3
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for extra in (ROOT, ROOT / "tests", ROOT / "tests" / "e2e"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

BOARD = re.compile(r"\*\*[^*]+ #(\d+)\*\* · move (\d+)")
DAY = 86400.0
ACT_MEAN_H = 16.0  # simulated hours a person takes to answer, on average (a 24-hour clock)
WALK_AWAY = 0.12  # share of people who stop playing for good, at a random moment
RESIGN = 0.03  # share of people who resign, at a random moment
LOST_AFTER_S = 60.0  # real seconds after which an unanswered move counts as never answered


@dataclass(frozen=True)
class Shape:
    """How big a soak: games, servers, simulated days, kills (one every ``kill_every`` days)."""

    games: int
    servers: int
    days: float
    kill_every: float
    speed: float


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
        from botprocess import BotProcess

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
