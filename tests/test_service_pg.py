"""Two game services (two bot processes) on one PostgreSQL schema: a move commits in only one of
them, and a process holding a game in memory notices what the other did before it acts."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest

from bot.host.live import Refusal
from bot.host.service import GameService
from bot.host.store import Store
from engines import base
from engines.base import StaleState
from tests.test_service import Clock, ToyNim


@pytest.fixture
def nim() -> Iterator[ToyNim]:
    engine = ToyNim()
    base.register(engine)
    yield engine
    base.unregister(engine.name)


@pytest.fixture
async def pair(pg_url: str, nim: ToyNim) -> AsyncIterator[list[GameService]]:
    """Two services, each with its own store (pool) on one schema, sharing one clock."""
    clock = Clock()
    stores = [await Store.open(pg_url, now=clock) for _ in range(2)]
    services = [GameService(s, now=clock, seed_source=lambda: 42) for s in stores]
    yield services
    await asyncio.gather(*(s.close() for s in stores))


def _only(guild_id: int) -> Callable[[int | None], bool]:
    """A service's ``holds``: this process holds the games of server ``guild_id`` only."""
    return lambda g: g == guild_id


async def _started(svc: GameService) -> int:
    g = await svc.create(
        kind="toynim", options=None, clock=None, guild_id=1, channel_id=100, user_id=10, name="Ann"
    )
    await svc.join(g.id, 11, "Bob")
    await svc.start(g.id, 10)
    return g.id


async def test_moves_for_one_version_from_two_processes_apply_once(
    pair: list[GameService], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both processes have checked the move against the same version when they commit (each
    waits at the commit until the other arrives there, so the race is the same on any machine):
    one commit applies, the other is told the game moved on."""
    a, b = pair
    gid = await _started(a)
    await b.get(gid)  # both hold the game
    arrived: list[int] = []
    both = asyncio.Event()
    for svc in (a, b):
        real = svc.store.record_move

        async def record_move(*args: Any, _real: Any = real, **kwargs: Any) -> Any:
            arrived.append(1)
            if len(arrived) == 2:
                both.set()
            await asyncio.wait_for(both.wait(), 30)
            return await _real(*args, **kwargs)

        monkeypatch.setattr(svc.store, "record_move", record_move)
    for round_ in range(4):
        game = await a.get(gid)
        user = 10 + game.awaited()[0]
        arrived.clear()
        both.clear()
        results = await asyncio.gather(
            a.move(gid, user, "take 1"), b.move(gid, user, "take 2"), return_exceptions=True
        )
        errors = [r for r in results if isinstance(r, BaseException)]
        assert len(errors) == 1 and isinstance(errors[0], StaleState), results
        assert "moved on meanwhile" in errors[0].reason
        assert len(await a.store.moves(gid)) == round_ + 1
    moves = await b.store.moves(gid)
    assert [m.version for m in moves] == [1, 2, 3, 4]
    pile = 9 - sum(int(m.action.split()[1]) for m in moves)
    for svc in (a, b):  # both end up with the stored game (the loser reloaded it)
        game = await svc.get(gid)
        assert game.row.version == 4 and game.state.pile == pile


async def test_a_held_game_catches_up_with_another_process_before_acting(pair: list[GameService]) -> None:
    a, b = pair
    gid = await _started(a)
    held = await b.get(gid)
    assert held.row.version == 0 and held.state.pile == 9
    await a.move(gid, 10, "take 1")  # process A moves; B's copy is now one move behind
    with pytest.raises(StaleState):  # a click on B's old board (version 0) is stale, as in one process
        await b.move(gid, 10, "take 2", expected_version=0)
    assert (await b.get(gid)) is held and held.row.version == 1 and held.state.pile == 8  # reloaded in place
    await b.move(gid, 11, "take 2", expected_version=1)  # Bob's click on the board A posted
    assert [m.action for m in await a.store.moves(gid)] == ["take 1", "take 2"]
    game = await a.get(gid)
    assert game.row.version == 2 and game.state.pile == 6
    await a.end(gid, 10, can_manage=False)
    with pytest.raises(Refusal, match="already over"):  # B sees the game ended by A
        await b.end(gid, 10, can_manage=False)


async def test_a_lobby_joined_in_another_process_is_seen(pair: list[GameService]) -> None:
    a, b = pair
    g = await a.create(
        kind="toynim", options=None, clock=None, guild_id=1, channel_id=100, user_id=10, name="Ann"
    )
    await b.get(g.id)
    await a.join(g.id, 11, "Bob")
    with pytest.raises(Refusal, match="already in"):
        await b.join(g.id, 11, "Bob")
    assert [s.name for s in (await b.get(g.id)).seats] == ["Ann", "Bob"]
    await b.start(g.id, 10)
    assert (await a.get(g.id)).row.status == "active" and (await a.get(g.id)).state.pile == 9


async def test_seat_changes_without_a_move_in_another_process_are_seen(pair: list[GameService]) -> None:
    """A resignation changes a seat but not the version: the other process sees it all the same
    (the stamp carries the seats' flags), so it does not wait for the person who left."""
    a, b = pair
    gid = await _started(a)
    held = await b.get(gid)
    assert not held.seats[1].is_ai
    await a.resign(gid, 11)  # Bob leaves in process A while Ann is to move
    game = await b.get(gid)
    assert game is held and game.seats[1].is_ai and game.row.version == 0
    await b.store.update_seat(gid, 0, dm_closed=True)  # found closed by a DM sent elsewhere
    assert (await a.get(gid)).seats[0].dm_closed


async def test_every_overdue_game_gets_its_grace_when_processes_start_together(
    pg_url: str, nim: ToyNim
) -> None:
    """More overdue games than one claim reads (150 > 100), on two servers whose processes
    start together, each holding one server: every game is given its restart grace (none is
    expired by the other process's start), whichever process claims it."""
    clock = Clock()
    stores = [await Store.open(pg_url, now=clock) for _ in range(2)]
    try:
        ids = []
        for k in range(150):
            g = await stores[0].create_game(
                kind="toynim",
                seed=42,
                options={"pile": 9},
                guild_id=1 + k % 2,
                channel_id=100 + k,
                creator_id=10,
                creator_name="Ann",
                clock_seconds=3600,
            )
            await stores[0].add_seat(g.id, user_id=11, name="Bob", is_ai=False)
            state = nim.setup(42, 2, {"pile": 9})
            await stores[0].start_game(
                g.id, state_json=base.state_fingerprint(state), deadline=clock() + 3600, thread_id=None
            )
            ids.append(g.id)
        clock.t += 2 * 3600  # everyone was down: every clock ran out
        services = [
            GameService(s, now=clock, seed_source=lambda: 42, holds=_only(1 + k))
            for k, s in enumerate(stores)
        ]
        for k, svc in enumerate(services):
            svc.claims = (f"process-{k}", 60.0)
            await svc.load_all()
        rearmed = await asyncio.gather(*(svc.rearm_overdue() for svc in services))
        got = sorted(g.id for batch in rearmed for g, _, _ in batch)
        assert got == sorted(ids)  # each game once, all of them
        for gid in ids:
            row = await stores[1].game(gid)
            assert row is not None and row.deadline is not None
            assert row.deadline > clock() and row.reminded and row.version == 0
    finally:
        await asyncio.gather(*(s.close() for s in stores))
