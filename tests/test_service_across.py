"""Two game services (two bot processes) on one database, SQLite and PostgreSQL (issue 23, item
18): a move that committed is reported as played, never as "moved on", even when its write's
answer was lost or another process committed the same move first; the half-time reminder is
sent by one process; and a post (board, recap) is claimed by exactly one process through the
database (``Store.claim_post``). Interleavings are forced with events, never with sleeps."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any, cast

import pytest

from bot.host.live import LiveGame
from bot.host.service import GameService
from bot.host.store import Store, StoreUnavailable
from bot.host.store_posts import DONE, HELD, WON
from engines import base
from tests.store_internals import row_of
from tests.test_service import Clock, ToyNim


@pytest.fixture
def nim() -> Iterator[base.Engine]:
    engine = base.register(ToyNim())
    yield engine
    base.unregister(engine.name)


@pytest.fixture
async def pair(backend_target: str, nim: base.Engine) -> AsyncIterator[list[GameService]]:
    """Two services, each with its own store (connection or pool) on one database, one clock."""
    clock = Clock()
    stores = [await Store.open(backend_target, now=clock) for _ in range(2)]
    services = [GameService(s, now=clock, seed_source=lambda: 42) for s in stores]
    yield services
    await asyncio.gather(*(s.close() for s in stores))


async def _started(svc: GameService, clock: str | None = None) -> int:
    g = await svc.create(
        kind="toynim", options=None, clock=clock, guild_id=1, channel_id=100, user_id=10, name="Ann"
    )
    await svc.join(g.id, 11, "Bob")
    await svc.start(g.id, 10)
    return g.id


def _lose_the_answer(store: Store) -> None:
    """The next ``record_move`` of ``store`` commits, then its answer is lost (the connection
    broke after the COMMIT reached the server)."""
    real = store.record_move

    async def committed_then_lost(*args: Any, **kwargs: Any) -> Any:
        store.record_move = real  # type: ignore[method-assign]  # once
        await real(*args, **kwargs)
        raise StoreUnavailable("the database lost its connection (after the commit)")

    store.record_move = committed_then_lost  # type: ignore[method-assign]


async def test_a_move_whose_answer_was_lost_after_the_commit_is_played(pair: list[GameService]) -> None:
    a, _ = pair
    gid = await _started(a)
    _lose_the_answer(a.store)
    box = await a.move(gid, 10, "take 2")  # today: StoreUnavailable ("nothing changed"), though it committed
    game = await a.get(gid)
    assert game.row.version == 1 and game.state.pile == 7
    assert [(s.version, s.action) for s in box.batch.steps if s.seat is not None] == [(1, "take 2")]
    assert [m.action for m in await a.store.moves(gid)] == ["take 2"]
    await a.move(gid, 11, "take 1")  # the game goes on from the stored move
    assert (await row_of(a.store, gid)).version == 2


async def test_the_same_move_from_two_requests_at_two_processes_applies_once(pair: list[GameService]) -> None:
    """Two requests for the same move (a DM button and a typed /move) reach two processes at
    once: one applies, the other is refused as in one process (the game moved on), though the
    stored move is the same: it was not that request's write that committed."""
    a, b = pair
    gid = await _started(a)
    held = await b.get(gid)
    real = b.store.record_move

    async def a_first(*args: Any, **kwargs: Any) -> Any:
        await a.move(gid, 10, "take 3")
        return await real(*args, **kwargs)

    b.store.record_move = a_first  # type: ignore[method-assign]
    with pytest.raises(base.StaleState, match="moved on"):
        await b.move(gid, 10, "take 3")
    assert held.row.version == 0 and [m.action for m in await a.store.moves(gid)] == ["take 3"]


async def test_a_move_resent_after_its_answer_was_lost_is_played(pair: list[GameService]) -> None:
    """The answer of a move's write is lost and the check after it fails too (the database
    is away for a moment): the player is told it could not be saved, and sends it again. It
    had committed: it is reported as played, not as "moved on"."""
    a, _ = pair
    gid = await _started(a)
    _lose_the_answer(a.store)
    real = a.store.move_at

    async def away(*args: Any, **kwargs: Any) -> Any:
        raise StoreUnavailable("the database is away")

    a.store.move_at = away  # type: ignore[method-assign]
    with pytest.raises(StoreUnavailable):
        await a.move(gid, 10, "take 2")
    a.store.move_at = real  # type: ignore[method-assign]
    game = await a.get(gid)
    if game.row.version == 0:  # a copy that has not caught up (SQLite: nobody else writes)
        await a.move(gid, 10, "take 2")
    assert game.row.version == 1 and game.state.pile == 7
    assert [m.action for m in await a.store.moves(gid)] == ["take 2"]


async def test_another_move_that_got_in_first_is_still_moved_on(pair: list[GameService]) -> None:
    a, b = pair
    gid = await _started(a)
    await b.get(gid)
    await a.move(gid, 10, "take 1")
    with pytest.raises(base.StaleState, match="moved on"):
        await b.move(gid, 10, "take 2", expected_version=0)


async def test_a_failed_write_that_did_not_commit_still_says_so(pair: list[GameService]) -> None:
    a, _ = pair
    gid = await _started(a)
    real = a.store.record_move

    async def refused(*args: Any, **kwargs: Any) -> Any:
        raise StoreUnavailable("the database is full")

    a.store.record_move = refused  # type: ignore[method-assign]
    with pytest.raises(StoreUnavailable):
        await a.move(gid, 10, "take 1")
    a.store.record_move = real  # type: ignore[method-assign]
    assert (await a.get(gid)).row.version == 0 and await a.store.moves(gid) == []


async def test_the_half_time_reminder_is_sent_by_one_of_two_processes(
    pair: list[GameService], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both processes find the reminder due (their clocks fired together: a lease that lapsed
    while the first was slow); the first is held up just before it records it, the second
    records and sends it; the first then finds it sent."""
    a, b = pair
    gid = await _started(a, clock="10m")
    await b.get(gid)
    cast(Clock, a.now).t += 301  # past half-time (the services share the clock)
    second_done = asyncio.Event()
    first_reading = asyncio.Event()
    real = a.reread

    async def held_up(game: LiveGame) -> None:
        await real(game)
        first_reading.set()
        await second_done.wait()

    monkeypatch.setattr(a, "reread", held_up)
    first = asyncio.create_task(a.remind(gid))
    await first_reading.wait()  # A has read the game (not reminded yet) and is about to record it
    sent_by_b = await b.remind(gid)
    second_done.set()
    sent_by_a = await first
    assert sorted([sent_by_a, sent_by_b]) == [[], [0]]  # one reminder, from one process
    assert (await row_of(a.store, gid)).reminded


async def test_a_post_is_claimed_by_one_process_until_done_or_its_lease_lapses(
    pair: list[GameService],
) -> None:
    a, b = pair
    gid = await _started(a)
    sa, sb, clock = a.store, b.store, cast(Clock, a.now)
    results = await asyncio.gather(
        sa.claim_post(gid, 3, "board", "A", 60), sb.claim_post(gid, 3, "board", "B", 60)
    )
    assert sorted(results) == [HELD, WON]
    winner, loser = ("A", "B") if results[0] == WON else ("B", "A")
    assert await sa.claim_post(gid, 3, "board", winner, 60) == WON  # its own claim, again (a retry)
    assert await sb.claim_post(gid, 3, "board", loser, 60) == HELD
    assert await sb.claim_post(gid, 3, "recap", loser, 60) == WON  # each kind and version on its own
    assert await sb.claim_post(gid, 4, "board", loser, 60) == WON
    clock.t += 61  # the winner stopped mid-post: its lease lapses, the other may post it
    assert await sb.claim_post(gid, 3, "board", loser, 60) == WON
    assert await sa.claim_post(gid, 3, "board", winner, 60) == HELD
    await sb.post_done(gid, 3, "board", loser)
    clock.t += 1000
    assert await sa.claim_post(gid, 3, "board", winner, 60) == DONE  # posted once, for good
    await sa.release_post(gid, 4, "board", winner)  # not the winner's: left alone
    assert await sa.claim_post(gid, 4, "board", winner, 60) == WON  # (its lease lapsed meanwhile)
    await sa.release_post(gid, 4, "board", winner)  # given back: anyone claims it now
    assert await sb.claim_post(gid, 4, "board", loser, 60) == WON
    assert await sb.post_state(gid, 4, "board") == (loser, clock.t + 60, False)
