"""Issue 23, item 1: the turn clock never stalls behind AI play. A game whose only person walked
away (the AI took their seat over after three expiries) is played by a background task, one AI
action at a time, each published; the clock's tick that expired it returns at once and handles
the other games meanwhile. The AI is a fake slow one: its searches at level "hard" wait for the
test's go (ordering, no wall clock).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from bot.host import jobgate
from bot.host.clock import TurnClock
from bot.host.live import LiveGame
from bot.host.outbox import Outbox
from bot.host.service import GameService
from bot.host.store import Store
from bot.host.workers import Workers
from tests.test_ai_seats import (
    Clock,
    SearchNim,
    engine_fixture,  # noqa: F401  (the SearchNim fixture)
)

T = TypeVar("T")


class SlowAI(Workers):
    """A worker pool whose "hard" AI searches wait for ``go`` once ``hold`` is set; notes each
    AI job's level and the priority it was submitted at."""

    def __init__(self) -> None:
        super().__init__(0)
        self.go = asyncio.Event()
        self.hold = False
        self.free = 0  # "hard" searches still let through at once while holding
        self.waiting = 0
        self.jobs: list[tuple[str, int]] = []

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        level = args[3]
        self.jobs.append((level, jobgate.JOB_PRIORITY.get()))
        if self.hold and level == "hard" and self.free:
            self.free -= 1
        elif self.hold and level == "hard":
            self.waiting += 1
            await self.go.wait()
            self.waiting -= 1
        return fn(*args)

    def close(self) -> None:
        pass


def _taken_over(game: LiveGame, seat: int) -> bool:
    """Whether the AI plays ``seat`` for its person now (read afresh each time)."""
    return game.seats[seat].ai_takeover


async def _game(svc: GameService, channel: int, people: list[int], ais: int) -> int:
    g = await svc.create(
        kind="toynim",
        options="pile=30",
        clock="1h",
        guild_id=1,
        channel_id=channel,
        user_id=people[0],
        name=f"P{people[0]}",
    )
    for user in people[1:]:
        await svc.join(g.id, user, f"P{user}")
    for _ in range(ais):
        await svc.add_ai(g.id, people[0], "hard")
    await svc.start(g.id, people[0])
    return g.id


async def test_an_ai_only_game_plays_in_the_background_not_in_the_clocks_tick(
    tmp_path: Path, engine: SearchNim
) -> None:
    clock, pool = Clock(), SlowAI()
    store = await Store.open(tmp_path / "db.sqlite3", now=clock)
    svc = GameService(store, now=clock, seed_source=lambda: 42, workers=pool)
    svc.ai.pace = 0.25
    pauses: list[float] = []

    async def pause(seconds: float) -> None:  # noted, not slept
        pauses.append(seconds)
        await asyncio.sleep(0)

    svc.ai.sleep = pause
    published: list[tuple[int, int]] = []

    async def publish(box: Outbox) -> None:
        published.append((box.game_id, box.batch.version))
        svc.take_batch(await svc.get(box.game_id))

    svc.ai.publish = publish
    alone = await _game(svc, 100, [10], ais=2)  # Ann and two AI seats; Ann walks away
    a = await svc.get(alone)
    for _ in range(2):
        assert a.row.deadline is not None
        clock.t = a.row.deadline
        assert await svc.expire(alone) is not None
        await svc.ai.settle()
    assert a.seats[0].expiries == 2 and not a.seats[0].ai_takeover
    assert ("hard", jobgate.AI_WATCHED) in pool.jobs  # Ann still played: her game's AI went first
    people = await _game(svc, 200, [20, 21], ais=0)
    b = await svc.get(people)

    assert pauses and set(pauses) == {0}  # while Ann played, her AI seats went on without a pause
    pool.hold, pool.jobs, published[:], pauses[:] = True, [], [], []  # Ann's AI seats: slow from now on
    assert a.row.deadline is not None and b.row.deadline is not None
    clock.t = max(a.row.deadline, b.row.deadline)
    version = a.row.version
    handled: list[int] = []

    async def on_due(gid: int, kind: str) -> None:  # as the bot's on_clock_due
        if await svc.expire(gid) is not None:
            handled.append(gid)

    items = await asyncio.wait_for(TurnClock(svc.clock_entries, on_due, now=clock).tick(), 10)
    assert sorted(items) == sorted([(alone, "expire"), (people, "expire")])
    assert sorted(handled) == sorted([alone, people])
    assert _taken_over(a, 0) and a.row.version == version + 1  # Ann's expired turn only, nothing more
    assert (await store.moves(people))[-1].by == "clock"  # the other game's expiry was not held up
    await asyncio.sleep(0)
    assert svc.ai.running() == [alone] and pool.waiting == 1  # the AI-only game: in the background
    assert pool.jobs[-1] == ("hard", jobgate.AI_ALONE)  # behind the searches of games people play

    pool.go.set()
    await asyncio.wait_for(svc.ai.settle(), 30)
    assert a.row.status == "finished" and svc.ai.running() == []
    assert pauses and set(pauses) == {0.25}  # nobody plays it: a bounded pace between its actions
    ai_moves = [m.version for m in await store.moves(alone) if m.version > version + 1]
    assert ai_moves and [v for gid, v in published if gid == alone] == ai_moves  # each action posted
    await store.close()


async def test_a_clock_ai_grace_hands_the_rest_of_the_stretch_to_the_background(
    tmp_path: Path, engine: SearchNim
) -> None:
    """Only one AI action is played inside the clock's handling of a game people play."""
    clock, pool = Clock(), SlowAI()
    store = await Store.open(tmp_path / "db.sqlite3", now=clock)
    svc = GameService(store, now=clock, seed_source=lambda: 42, workers=pool)
    gid = await _game(svc, 100, [10], ais=2)
    g = await svc.get(gid)
    version = g.row.version
    await svc.move(gid, 10, "take 1")  # the AI seats answer inline, as before
    assert g.row.version == version + 3 and g.awaited() == (0,)
    assert g.row.deadline is not None
    clock.t = g.row.deadline
    pool.hold, pool.free = True, 1  # the first AI search is quick, the next one slow
    assert await asyncio.wait_for(svc.expire(gid), 10) is not None  # Ann's turn, and at most one AI action
    assert g.row.version == version + 5 and pool.waiting == 1 and svc.ai.running() == [gid]
    pool.go.set()
    await asyncio.wait_for(svc.ai.settle(), 30)
    assert g.awaited() == (0,) and g.row.version == version + 6
    await store.close()
