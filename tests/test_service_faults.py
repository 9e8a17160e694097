"""The host when the database fails, and the "needs attention" flag made safe.

A write the database refuses (a full disk, simulated by :class:`dbfaults.FaultyDB`) raises
:class:`StoreUnavailable` and leaves the live game exactly as it was (state, version, seats,
pending batch) and the database unchanged; the next move works once the fault is gone. The AI
and the turn clock try again later instead of losing their move. A flag whose cause has gone is
cleared when the game is loaded again; a really inconsistent game stays flagged."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.host.duties import STORE_RETRY
from bot.host.live import LiveGame, Refusal
from bot.host.service import GameService
from bot.host.store import StoreUnavailable
from tests.dbfaults import FaultyDB, live_fields
from tests.store_internals import row_of, sqlite_of
from tests.test_service import ToyHost, _db, _started, host_fixture, start_up, toy  # noqa: F401  (fixtures)


def _taken_over(game: LiveGame, seat: int) -> bool:
    """Whether the AI plays ``seat`` for its person now (read afresh each time)."""
    return game.seats[seat].ai_takeover


async def test_a_move_the_database_refuses_changes_nothing_and_the_next_works(host: ToyHost) -> None:
    gid = await _started(host)
    game = await host.get(gid)
    host.take_batch(game)
    live, stored = live_fields(game), await _db(host, gid)
    faults = FaultyDB.install(host.store)
    for where in ("COMMIT", "INSERT INTO moves", "UPDATE seats"):
        faults.fail(where)
        with pytest.raises(StoreUnavailable, match="disk is full"):
            await host.move(gid, 10, "take 2")
        faults.heal()
        assert live_fields(game) == live and await _db(host, gid) == stored, where
    await host.move(gid, 10, "take 2")
    assert game.row.version == 1 and (await _db(host, gid))[1] == [(0, "take 2")]


async def test_a_reclaimed_seat_is_reclaimed_only_with_its_saved_move(host: ToyHost) -> None:
    gid = await _started(host)
    game = await host.get(gid)
    await host.store.update_seat(gid, 0, ai_takeover=True, expiries=3)
    game.seats = await host.store.seats(gid)
    faults = FaultyDB.install(host.store)
    faults.fail("COMMIT")
    with pytest.raises(StoreUnavailable):
        await host.move(gid, 10, "take 1")
    assert _taken_over(game, 0) and (await host.store.seats(gid))[0].ai_takeover
    assert game.notes == []
    faults.heal()
    box = await host.move(gid, 10, "take 1")
    assert not game.seats[0].ai_takeover and game.seats == await host.store.seats(gid)
    assert any("is back" in n for n in box.batch.notes)


async def test_lobby_operations_the_database_refuses_change_nothing(host: ToyHost) -> None:
    faults = FaultyDB.install(host.store)
    faults.fail("COMMIT")
    with pytest.raises(StoreUnavailable):
        await host.create(
            kind="toynim", options=None, clock=None, guild_id=1, channel_id=100, user_id=10, name="Ann"
        )
    assert await host.store.games() == []
    faults.heal()
    g = await host.create(
        kind="toynim", options=None, clock=None, guild_id=1, channel_id=100, user_id=10, name="Ann"
    )
    await host.join(g.id, 11, "Bob")
    ops: tuple[Callable[[], Awaitable[Any]], ...] = (
        lambda: host.join(g.id, 12, "Cy"),
        lambda: host.add_ai(g.id, 10),
        lambda: host.leave(g.id, 11),
        lambda: host.start(g.id, 10, thread_id=555),
    )
    for op in ops:
        before = live_fields(g)
        faults.fail("COMMIT")
        with pytest.raises(StoreUnavailable):
            await op()
        faults.heal()
        assert live_fields(g) == before
        assert g.seats == await host.store.seats(g.id) and g.row == await host.store.game(g.id)
    await host.start(g.id, 10, thread_id=555)
    assert g.row.status == "active" and g.row.thread_id == 555 and g.state is not None


async def test_the_last_person_leaving_ends_the_lobby_in_the_same_write(host: ToyHost) -> None:
    g = await host.create(
        kind="toynim", options=None, clock=None, guild_id=1, channel_id=100, user_id=10, name="Ann"
    )
    await host.add_ai(g.id, 10)
    await host.leave(g.id, 10)
    assert g.row.status == "ended" and (await row_of(host.store, g.id)).status == "ended"
    assert g.seats == await host.store.seats(g.id)


async def test_an_ai_move_the_database_refuses_is_played_again_later(host: ToyHost) -> None:
    gid = await _started(host, humans=1, ais=1)
    game = await host.get(gid)
    host.take_batch(game)
    faults = FaultyDB.install(host.store)
    # the person's move is saved; the AI's answer is refused: the move still stands
    real_record = host.store.record_move
    calls: list[str] = []

    async def refuse_the_second(*args: Any, **kwargs: Any) -> Any:
        calls.append(kwargs["by"])
        if kwargs["by"] == "ai" and calls.count("ai") == 1:
            faults.fail("COMMIT")
        try:
            return await real_record(*args, **kwargs)
        finally:
            faults.heal()

    host.store.record_move = refuse_the_second  # type: ignore[method-assign]
    await host.move(gid, 10, "take 1")
    assert game.row.version == 1 and game.awaited() == (1,)  # the AI's turn, not yet played
    assert game.ai_at == host.clock.t + STORE_RETRY
    assert [e.ai_at for e in host.clock_entries()] == [game.ai_at]
    assert await host.ai_due(gid) is None  # not before the retry time
    host.clock.t += STORE_RETRY
    assert await host.ai_due(gid) is not None
    assert game.row.version == 2 and [m.by for m in await host.store.moves(gid)] == ["player", "ai"]


async def test_an_expiry_the_database_refuses_is_not_lost(host: ToyHost) -> None:
    gid = await _started(host, clock="10m")
    game = await host.get(gid)
    host.take_batch(game)
    stored = await _db(host, gid)
    host.clock.t += 600
    faults = FaultyDB.install(host.store)
    faults.fail("COMMIT")
    assert await host.expire(gid) is None
    assert await _db(host, gid) == stored and game.notes == [] and game.pending == []
    assert game.seats[0].expiries == 0 and game.row.version == 0
    assert host.clock_entries()[0].deadline == host.clock.t + STORE_RETRY  # due again soon, no busy loop
    assert await host.expire(gid) is None  # not due before then
    faults.heal()
    host.clock.t += STORE_RETRY
    box = await host.expire(gid)
    assert box is not None
    moves = await host.store.moves(gid)
    assert [m.by for m in moves] == ["clock"] and (await host.store.seats(gid))[0].expiries == 1
    assert any("Time ran out" in n for n in box.batch.notes)


async def test_a_reminder_the_database_cannot_record_is_sent_once(host: ToyHost) -> None:
    gid = await _started(host, clock="10m")
    host.clock.t += 301
    faults = FaultyDB.install(host.store)
    faults.fail("COMMIT")
    assert await host.remind(gid) == [0]
    assert await host.remind(gid) == []  # no reminder storm while the disk is full
    assert not (await row_of(host.store, gid)).reminded


async def test_a_load_the_database_refuses_leaves_nothing_half_loaded(host: ToyHost) -> None:
    gid = await _started(host)
    await host.move(gid, 10, "take 2")
    fresh = GameService(host.store, now=host.clock, ai_level="easy")
    faults = FaultyDB.install(host.store)
    faults.fail("FROM moves", "disk I/O error")
    with pytest.raises(StoreUnavailable, match="I/O error"):
        await fresh.get(gid)
    assert list(fresh.loaded()) == []
    # a stale flag whose clearing cannot be written: nothing is held, the next load clears it
    faults.heal()
    await host.store.update_game(gid, attention="its setup no longer replays (boom)", deadline=None)
    faults.fail("COMMIT")
    with pytest.raises(StoreUnavailable):
        await fresh.get(gid)
    assert list(fresh.loaded()) == [] and fresh.take_recovered() == []
    faults.heal()
    game = await fresh.get(gid)
    assert game.state is not None and game.row.attention is None and game.row.version == 1


# ---------------------------------------------------------------------- the flag


async def test_a_stale_flag_is_cleared_at_restart_and_the_game_moves_on(host: ToyHost) -> None:
    gid = await _started(host, clock="10m")
    await host.move(gid, 10, "take 2")
    # a flag left by an earlier run whose cause has gone (an engine missing then, a replay that raised)
    await host.store.update_game(gid, attention="move 1 (`take 2`) no longer replays (boom)", deadline=None)
    fresh = GameService(host.store, now=host.clock, ai_level="easy")
    assert await start_up(fresh) == []
    game = await fresh.get(gid)
    assert game.row.attention is None and (await row_of(host.store, gid)).attention is None
    assert game.row.deadline == host.clock.t + 600 and game.state is not None
    assert fresh.take_recovered() == [game] and fresh.take_recovered() == []
    assert [e.game_id for e in fresh.clock_entries()] == [gid]
    await fresh.move(gid, 11, "take 1")
    assert [m.action for m in await host.store.moves(gid)] == ["take 2", "take 1"]


async def test_a_really_inconsistent_game_stays_flagged_at_every_restart(host: ToyHost) -> None:
    gid = await _started(host)
    await host.move(gid, 10, "take 2")
    await sqlite_of(host.store).execute("UPDATE snapshots SET fingerprint = 'x' WHERE game_id = ?", (gid,))
    first = GameService(host.store, now=host.clock, ai_level="easy")
    assert [g.id for g in await start_up(first)] == [gid]
    second = GameService(host.store, now=host.clock, ai_level="easy")
    assert await start_up(second) == [] and second.take_recovered() == []
    game = await second.get(gid)
    assert "snapshot" in (game.row.attention or "") and game.state is None
    with pytest.raises(Refusal, match="needs attention"):
        await second.move(gid, 11, "take 1")
