"""A database of many stored games for the start-up, memory, store and load benchmarks.

Every stored game is real: a seeded game played through the engines (random legal moves;
Kathai's by its AI, whose games end sooner), its move log as played, its snapshot the state the
log replays to. Games in play are such a game cut at a point where a person is awaited (never an
AI seat, which would owe a move); finished games are played to the end. To keep building fast,
the rows are drawn from a pool of distinct played games (each stored row has its own id, seats,
places and deadline; several rows may share a seed and a log).

The file is made by the real migrations (``Store.open``) and then filled in one transaction, with
each board recorded as posted (so a bot started on it posts nothing at start-up) and each seat's
private-view digest as sent by DM.

Run: ``python -m benchmarks.fixture OUT.sqlite3 [--games N]`` (default 10,000 games).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engines import base

#: (game, player count, pool games per AI variant); Kathai needs 3 players.
POOL = (
    ("pralaya", 2, 12),
    ("pralaya", 3, 12),
    ("ra", 2, 12),
    ("ra", 3, 12),
    ("phraya", 2, 10),
    ("kathai", 3, 3),
)
CUTS = 8  # cut points (games in play) per pool game
GUILD = 4000


@dataclass
class Played:
    """One pool game: its log and, at each cut, the fingerprint and per-seat DM digests."""

    kind: str
    seed: int
    n: int
    ai_seats: frozenset[int]
    moves: list[tuple[int, str]] = field(default_factory=list)
    cuts: dict[int, tuple[str, list[str]]] = field(
        default_factory=dict
    )  # version -> (fingerprint, dm digests)
    final: tuple[str, list[str]] | None = None


def _snapshot(engine: base.Engine, state: Any, n: int) -> tuple[str, list[str]]:
    from bot.host.live import private_digest

    return base.state_fingerprint(state), [private_digest(engine, state, s) for s in range(n)]


_POOLS: dict[tuple[str, int, int, bool, int], list[Played]] = {}


def play_pool(kind: str, n: int, count: int, ai: bool, rng: random.Random, seed0: int) -> list[Played]:
    """``count`` played games of ``kind`` (the last seat an AI seat when ``ai``), with :data:`CUTS`
    cut points each where only people are awaited (remembered: a second fixture of the same run
    reuses them)."""
    key = (kind, n, count, ai, seed0)
    if key not in _POOLS:
        _POOLS[key] = _play_pool(kind, n, count, ai, random.Random(seed0), seed0)
    return _POOLS[key]


def _play_pool(kind: str, n: int, count: int, ai: bool, rng: random.Random, seed0: int) -> list[Played]:
    engine = base.get(kind)
    out = []
    for i in range(count):
        p = Played(kind, seed0 + i, n, frozenset({n - 1}) if ai else frozenset())
        state = engine.setup(p.seed, n, {})
        states: list[Any] = [state]
        while engine.outcome(state) is None:
            seat = base.first_awaited(engine, state)
            legal = engine.legal_actions(state, seat)
            action = engine.choose(engine.view(state, seat), legal) if kind == "kathai" else rng.choice(legal)
            state, _ = engine.apply(state, seat, action)
            p.moves.append((seat, str(action)))
            states.append(state)
        good = [v for v, st in enumerate(states[:-1]) if not set(engine.to_move(st)) & p.ai_seats]
        for v in rng.sample(good, min(CUTS, len(good))):
            p.cuts[v] = _snapshot(engine, states[v], n)
        p.final = _snapshot(engine, state, n)
        out.append(p)
    return out


@dataclass
class Place:
    """Where a stored game is played and who sits in it (people's user ids, seat order)."""

    channel_id: int
    thread_id: int
    users: list[int]
    guild_id: int | None = None  # None: the guild given to build()


def build(
    path: Path,
    games: int,
    *,
    finished: float = 0.55,
    ai: float = 0.5,
    seed: int = 1,
    kinds: tuple[str, ...] | None = None,
    places: list[Place] | None = None,
    people_only: bool = False,
    pool_scale: float = 1.0,
    guild_id: int = GUILD,
) -> dict[str, Any]:
    """Write ``games`` stored games to a new database at ``path``: a share ``finished`` of them
    over, the others in play; a share ``ai`` with an AI seat (none with ``people_only``).
    ``places`` (one per game, in play: none finished) fix the channels, threads and users (the
    load benchmark's fake Discord has them; a game takes as many of the place's users as it
    seats people); else they are made up. ``pool_scale`` shrinks the pool of distinct played
    games (quicker to build). Returns counts and timings."""
    from bot.host.store import Store

    if path.exists():
        raise FileExistsError(path)
    t0 = time.perf_counter()
    now = time.time()  # deadlines lie ahead of it: nothing is overdue when a bot starts on the file
    with ThreadPoolExecutor(1) as one:  # the real migrations; callable from a running event loop too
        one.submit(asyncio.run, _migrate(path, Store, now)).result()
    rng = random.Random(seed)
    pool = _pool(rng, kinds, people_only, pool_scale)
    t_pool = time.perf_counter() - t0
    rows = _Rows()
    counts = {"active": 0, "finished": 0, "with_ai": 0}
    for gid in range(1, games + 1):
        with_ai = not people_only and rng.random() < ai
        p = rng.choice(pool[with_ai])
        done = places is None and rng.random() < finished
        place = places[gid - 1] if places is not None else None
        stored = _draw(gid, p, done, place, rng, now, guild_id)
        counts[stored.status] += 1
        counts["with_ai"] += with_ai
        rows.add(stored)
    rows.write(path)
    return {
        "games": games,
        **counts,
        "moves": len(rows.moves),
        "pool": len(pool[False]) + len(pool[True]),
        "pool_s": t_pool,
        "build_s": time.perf_counter() - t0,
        "bytes": path.stat().st_size,
    }


def _pool(
    rng: random.Random, kinds: tuple[str, ...] | None, people_only: bool, pool_scale: float
) -> dict[bool, list[Played]]:
    """The pool games the stored rows are drawn from: with an AI seat (True) and without (False)."""
    pool: dict[bool, list[Played]] = {False: [], True: []}
    for i, (kind, n, count) in enumerate(POOL):
        if kinds is not None and kind not in kinds:
            continue
        for with_ai in (False,) if people_only else (False, True):
            size = max(1, round(count * pool_scale))
            pool[with_ai] += play_pool(kind, n, size, with_ai, rng, seed0=1000 * i + (500 if with_ai else 0))
    return pool


CLOCK = 24 * 3600  # every stored game's turn clock (seconds)


@dataclass
class _Stored:
    """One stored game as drawn: the pool game it is, where it was cut, where it is played and by
    whom, its deadline and when it was made."""

    gid: int
    game: Played
    done: bool
    version: int
    fingerprint: str
    dm: list[str]  # per seat: the digest of the private view it was sent
    place: Place
    guild_id: int
    by_seat: dict[int, int]  # people's seats -> their user ids
    creator: int  # the user who opened it
    deadline: float | None
    at: float

    @property
    def status(self) -> str:
        return "finished" if self.done else "active"


def _draw(
    gid: int, p: Played, done: bool, place: Place | None, rng: random.Random, now: float, guild_id: int
) -> _Stored:
    """Stored game ``gid`` of pool game ``p``: over (``done``) or cut at one of its cut points,
    at ``place`` (else a made-up channel and thread, and made-up users)."""
    if done:
        if p.final is None:
            raise ValueError(f"pool game {p.kind} seed {p.seed} was not played to its end")
        version, (fingerprint, dm) = len(p.moves), p.final
    else:
        version, (fingerprint, dm) = rng.choice(list(p.cuts.items()))
    place = place if place is not None else Place(5000 + gid % 50, 10**6 + gid, [])
    people = [s for s in range(p.n) if s not in p.ai_seats]
    users = place.users[: len(people)] if place.users else [10**7 + gid * 10 + s for s in people]
    deadline = None if done else now + rng.uniform(0.55, 1.0) * CLOCK  # no reminder due yet
    at = now - rng.uniform(0, 30 * 86400)
    guild = guild_id if place.guild_id is None else place.guild_id
    by_seat = dict(zip(people, users, strict=False))
    return _Stored(gid, p, done, version, fingerprint, dm, place, guild, by_seat, users[0], deadline, at)


@dataclass
class _Rows:
    """The rows of every table, gathered before one transaction writes them."""

    games: list[tuple[object, ...]] = field(default_factory=list)
    seats: list[tuple[object, ...]] = field(default_factory=list)
    moves: list[tuple[object, ...]] = field(default_factory=list)
    snapshots: list[tuple[object, ...]] = field(default_factory=list)
    messages: list[tuple[object, ...]] = field(default_factory=list)

    def add(self, g: _Stored) -> None:
        """The rows of stored game ``g``: the game, its seats, its moves up to the cut, its snapshot
        and its board, recorded as posted."""
        from bot.host.store import digest

        p = g.game
        self.games.append(
            (g.gid, p.kind, p.seed, "{}", g.guild_id, g.place.channel_id, g.place.thread_id, g.creator)
            + (g.status, g.version, CLOCK, g.deadline, 0, None, g.at, g.at)
        )
        for s in range(p.n):
            ai_seat = s in p.ai_seats
            user = None if ai_seat else g.by_seat[s]
            name = f"AI {s}" if ai_seat else f"p{user}"
            self.seats.append((g.gid, s, user, name, int(ai_seat), 0, None if ai_seat else g.dm[s], 0, 0))
        for v, (s, action) in enumerate(p.moves[: g.version], start=1):
            by = "ai" if s in p.ai_seats else "player"
            self.moves.append((g.gid, v, s, action, by, None if s in p.ai_seats else g.by_seat[s], g.at + v))
        self.snapshots.append((g.gid, g.version, g.fingerprint, digest(g.fingerprint)))
        kind = "final" if g.done else "turn"
        self.messages.append(
            (g.gid, kind, None, g.place.thread_id, 9 * 10**12 + g.gid, g.version, 0, g.at + g.version)
        )

    def write(self, path: Path) -> None:
        """Insert every row into the migrated database at ``path``, in one transaction."""
        db = sqlite3.connect(path, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("BEGIN")
            db.executemany(
                "INSERT INTO games (id, kind, seed, options, guild_id, channel_id, thread_id, creator_id, "
                "status, version, clock_seconds, deadline, reminded, attention, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                self.games,
            )
            db.executemany(
                "INSERT INTO seats (game_id, seat, user_id, name, is_ai, dm_closed, dm_hash, expiries, "
                "ai_takeover) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                self.seats,
            )
            db.executemany(
                "INSERT INTO moves (game_id, version, seat, action, by, user_id, at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                self.moves,
            )
            db.executemany(
                "INSERT INTO snapshots (game_id, version, state, fingerprint) VALUES (?, ?, ?, ?)",
                self.snapshots,
            )
            db.executemany(
                "INSERT INTO messages (game_id, kind, seat, channel_id, message_id, version, live, "
                "posted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                self.messages,
            )
            db.execute("COMMIT")
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            db.close()


async def _migrate(path: Path, store_cls: Any, now: float) -> None:
    store = await store_cls.open(path, now=lambda: now)
    await store.close()


def stored_logs(path: Path, ids: list[int]) -> dict[int, dict[str, Any]]:
    """``{game id: {kind, seed, n, options, moves: [(seat, action)], users: {seat: user id}}}``
    of stored games, read back (the load benchmark's players follow their games from these)."""
    db = sqlite3.connect(path)
    try:
        out: dict[int, dict[str, Any]] = {}
        for gid in ids:
            kind, seed, options, thread = db.execute(
                "SELECT kind, seed, options, thread_id FROM games WHERE id = ?", (gid,)
            ).fetchone()
            seats = db.execute(
                "SELECT seat, user_id, is_ai FROM seats WHERE game_id = ? ORDER BY seat", (gid,)
            ).fetchall()
            moves = db.execute(
                "SELECT seat, action FROM moves WHERE game_id = ? ORDER BY version", (gid,)
            ).fetchall()
            out[gid] = {
                "kind": kind,
                "seed": seed,
                "options": json.loads(options),
                "n": len(seats),
                "thread": thread,
                "moves": [(s, a) for s, a in moves],
                "users": {s: u for s, u, ai in seats if not ai},
            }
        return out
    finally:
        db.close()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.fixture", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("out", type=Path)
    parser.add_argument("--games", type=int, default=10_000)
    args = parser.parse_args(argv)
    info = build(args.out, args.games)
    print(json.dumps(info, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
