"""AI seats in the host (bot.host.duties): levels, the job the worker pool gets, the game's lock
free while an AI thinks, the turn clock's stand-in at the default level, and a search AI playing
in real worker processes with the seat's own view only.

The toy engine is test_service's ToyNim with a determinize (each seat holds a secret number that
the others do not see: the sample draws it afresh).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from bot.host import thinking
from bot.host.live import Refusal
from bot.host.service import GameService
from bot.host.store import Store
from bot.host.workers import Workers
from engines import base, search
from engines.base import NotYourTurn
from tests.test_service import NimState, ToyNim

T = TypeVar("T")


class SearchNim(ToyNim):
    name = "toynim"
    search_iterations = {"normal": 60, "hard": 200}

    def determinize(self, view: base.View, rng: random.Random) -> NimState:
        n = view["n_players"]
        secret = tuple(view["secret"] if s == view["viewer"] else rng.randrange(1000, 9999) for s in range(n))
        turn = view["to_move"][0] if view["to_move"] else 0
        return NimState(view["pile"], turn, tuple(view["taken"]), secret)


class Clock:
    def __init__(self) -> None:
        self.t = 1_700_000_000.0

    def __call__(self) -> float:
        return self.t


class HeldWorkers(Workers):
    """A worker pool that records each job and holds it until the test lets it go."""

    def __init__(self) -> None:
        super().__init__(0)
        self.jobs: list[tuple[Any, ...]] = []
        self.go = asyncio.Event()
        self.started = asyncio.Event()
        self.fail = False

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        self.jobs.append((fn, *args))
        self.started.set()
        await self.go.wait()
        if self.fail:
            raise RuntimeError("the worker crashed")
        return fn(*args)

    def close(self) -> None:
        pass


@pytest.fixture(name="engine")
def engine_fixture() -> Iterator[SearchNim]:
    e = SearchNim()
    base.register(e)
    yield e
    base.unregister(e.name)


class ClockedHost(GameService):
    """The host of these tests, with its injected clock."""

    def __init__(self, store: Store, clock: Clock, workers: Workers, ai_level: str | None) -> None:
        self.clock = clock
        super().__init__(store, now=clock, seed_source=lambda: 42, workers=workers, ai_level=ai_level)


async def _host(tmp_path: Path, workers: Workers, ai_level: str | None = None) -> ClockedHost:
    clock = Clock()
    store = await Store.open(tmp_path / "db.sqlite3", now=clock)
    return ClockedHost(store, clock, workers, ai_level)


async def _lobby(
    svc: GameService, humans: int = 1, levels: tuple[str | None, ...] = (None,), clock: str | None = None
) -> int:
    g = await svc.create(
        kind="toynim", options="pile=30", clock=clock, guild_id=1, channel_id=100, user_id=10, name="Ann"
    )
    for i in range(1, humans):
        await svc.join(g.id, 10 + i, f"P{i}")
    for level in levels:
        await svc.add_ai(g.id, 10, level)
    return g.id


async def test_ai_levels_are_stored_named_and_checked(tmp_path: Path, engine: SearchNim) -> None:
    svc = await _host(tmp_path, HeldWorkers())
    gid = await _lobby(svc, levels=("hard", None))
    g = await svc.get(gid)
    assert [(s.name, s.ai_level) for s in g.seats[1:]] == [("AI 1 (hard)", "hard"), ("AI 2", None)]
    assert [(s.name, s.ai_level) for s in (await svc.store.seats(gid))[1:]] == [
        ("AI 1 (hard)", "hard"),
        ("AI 2", None),
    ]
    with pytest.raises(Refusal, match="no AI level `expert`"):
        await svc.add_ai(gid, 10, "expert")
    assert len(await svc.store.seats(gid)) == 3
    assert svc.ai_level(g, 1) == "hard" and svc.ai_level(g, 2) == engine.default_ai_level == "normal"
    await svc.store.close()


async def test_the_ai_thinks_off_the_lock_with_its_own_view_and_seed(
    tmp_path: Path, engine: SearchNim
) -> None:
    pool = HeldWorkers()
    svc = await _host(tmp_path, pool)
    gid = await _lobby(svc, humans=2, levels=("hard",))  # Ann, P1, AI 1 (hard)
    await svc.start(gid, 10)
    g = await svc.get(gid)
    await svc.move(gid, 10, "take 1")
    state_then, version_then = g.state, g.row.version
    thinking_move = asyncio.create_task(svc.move(gid, 11, "take 2"))  # the AI is next
    await asyncio.wait_for(pool.started.wait(), 5)
    assert g.thinking == 1 and not g.lock.locked()
    # meanwhile the game answers at once: a move out of turn, a look at the game
    with pytest.raises(NotYourTurn):
        await asyncio.wait_for(svc.move(gid, 10, "take 1"), 1.0)
    fn, kind, view, legal, level, seed = pool.jobs[0]
    assert fn is thinking.think and kind == "toynim" and level == "hard"
    assert view == dict(engine.view(g.state, 2)) and legal == engine.legal_actions(g.state, 2)
    assert seed == search.ai_seed(g.row.seed, g.row.version, 2)
    assert "secret" in view and view["secret"] == g.state.secret[2]  # its own secret, nobody else's
    assert state_then is not g.state and g.row.version == version_then + 1
    pool.go.set()
    await asyncio.wait_for(thinking_move, 5)
    moves = await svc.store.moves(gid)
    assert moves[-1].by == "ai" and moves[-1].seat == 2 and g.awaited() == (0,)
    # the same decision with the same seed, searched again, gives the same move
    again = thinking.think(kind, view, legal, level, seed)
    assert again.action == moves[-1].action and again.iterations == 200
    await svc.store.close()


async def test_a_game_ended_while_the_ai_thinks_takes_no_ai_move(tmp_path: Path, engine: SearchNim) -> None:
    pool = HeldWorkers()
    svc = await _host(tmp_path, pool)
    gid = await _lobby(svc, levels=("normal",))
    await svc.start(gid, 10)
    move = asyncio.create_task(svc.move(gid, 10, "take 1"))
    await asyncio.wait_for(pool.started.wait(), 5)
    await svc.end(gid, 10, can_manage=False)
    pool.go.set()
    await asyncio.wait_for(move, 5)
    g = await svc.get(gid)
    assert g.row.status == "ended" and [m.by for m in await svc.store.moves(gid)] == ["player"]
    await svc.store.close()


async def test_a_failing_ai_plays_the_first_legal_move_and_logs_no_action(
    tmp_path: Path, engine: SearchNim, caplog: pytest.LogCaptureFixture
) -> None:
    pool = HeldWorkers()
    pool.fail = True
    pool.go.set()
    svc = await _host(tmp_path, pool)
    gid = await _lobby(svc, levels=("normal",))
    await svc.start(gid, 10)
    with caplog.at_level(logging.ERROR):
        await svc.move(gid, 10, "take 1")
    last = (await svc.store.moves(gid))[-1]
    assert last.by == "ai" and last.action == "take 1"
    assert "the AI failed for seat 1" in caplog.text and "take" not in caplog.text
    await svc.store.close()


async def test_the_clock_stand_in_plays_at_the_default_level(tmp_path: Path, engine: SearchNim) -> None:
    pool = HeldWorkers()
    pool.go.set()
    svc = await _host(tmp_path, pool)
    gid = await _lobby(svc, humans=2, levels=("easy",), clock="10m")  # Ann, P1, AI 1 (easy)
    await svc.start(gid, 10)
    svc.clock.t += 601
    assert await svc.expire(gid) is not None  # Ann's time ran out: the stand-in plays at the default
    levels = [job[4] for job in pool.jobs]
    assert levels[0] == engine.default_ai_level == "normal"
    host_default = await _host(tmp_path / "b", HeldWorkers(), ai_level="hard")
    g2 = await _lobby(host_default, levels=(None,))
    game = await host_default.get(g2)
    assert host_default.ai_level(game, 1) == "hard"  # BAZAAR_AI_LEVEL over the game's default
    await svc.store.close()
    await host_default.store.close()


async def test_search_ai_plays_in_worker_processes(tmp_path: Path) -> None:
    """The real pool: the job runs in another process (engines registered there: a real game)."""
    import engines

    engines.load_all()
    ra = base.get("ra")
    state = ra.setup(5, 3, {})
    seat = base.first_awaited(ra, state)
    legal = ra.legal_actions(state, seat)
    pool = Workers(1)
    try:
        found = await pool.run(thinking.think, "ra", dict(ra.view(state, seat)), legal, "easy", 1)
        pid = await pool.run(_pid)
    finally:
        pool.close()
    import os

    assert found.action in legal and found.level == "easy" and pid != os.getpid()


def _pid() -> int:
    import os

    return os.getpid()
