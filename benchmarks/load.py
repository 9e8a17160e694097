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
import os
import random
import re
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


def lag_samples(path: Path, phase: Phase) -> list[float]:
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
