"""Games load lazily: start-up reads the games table only (the turn clock runs from the stored
deadlines), a game is loaded on its first use and not before, and the background check of the
others keeps only the games that need something (a broken history, AI seats owed a move)."""

from __future__ import annotations

from bot.host.service import GameService
from bot.host.store import digest
from engines import base
from tests.store_internals import row_of, sqlite_of
from tests.test_service import ToyHost, _started, host_fixture, toy  # noqa: F401  (fixtures)


def _fresh(host: ToyHost) -> GameService:
    return GameService(host.store, now=host.clock, seed_source=lambda: 42)


async def test_a_game_is_loaded_on_first_use_and_not_before(host: ToyHost) -> None:
    ids = [await _started(host, clock="10m") for _ in range(3)]
    await host.move(ids[0], 10, "take 2")
    fresh = _fresh(host)
    assert await fresh.load_all() == []
    assert list(fresh.loaded()) == [] and sorted(fresh.dormant()) == ids
    # the clock knows every deadline without a game loaded
    deadlines = {e.game_id: e.deadline for e in fresh.clock_entries()}
    assert deadlines == {gid: (await row_of(host.store, gid)).deadline for gid in ids}
    assert list(fresh.loaded()) == []
    game = await fresh.get(ids[0])
    assert [g.id for g in fresh.loaded()] == [ids[0]] and sorted(fresh.dormant()) == ids[1:]
    assert game.state == (await host.get(ids[0])).state and game.row.version == 1
    assert await fresh.get(ids[0]) is game  # loaded once
    assert sorted(e.game_id for e in fresh.clock_entries()) == ids  # each game once
    # the background check replays the others but keeps none (nothing is owed, nothing is broken)
    flagged, checked = await fresh.check_dormant()
    assert (flagged, checked) == ([], 2)
    assert [g.id for g in fresh.loaded()] == [ids[0]] and sorted(fresh.dormant()) == ids[1:]
    await fresh.move(ids[1], 10, "take 1")  # a dormant game plays on its first use
    assert (await row_of(host.store, ids[1])).version == 1 and ids[1] not in fresh.dormant()


async def test_start_up_loads_only_games_overdue_or_flagged(host: ToyHost) -> None:
    due, flagged, idle = [await _started(host, clock="10m") for _ in range(3)]
    await host.store.update_game(due, deadline=host.clock.t - 5)
    await host.store.update_game(flagged, attention="its setup no longer replays (boom)", deadline=None)
    fresh = _fresh(host)
    assert await fresh.load_all() == []
    assert sorted(g.id for g in fresh.loaded()) == [due, flagged] and fresh.dormant() == [idle]
    assert [g.id for g in fresh.take_recovered()] == [flagged]  # the stale flag is cleared
    assert [g for g, *_ in await fresh.rearm_overdue()] == [await fresh.get(due)]


async def test_the_check_keeps_a_broken_game_and_one_whose_ai_is_owed(host: ToyHost) -> None:
    broken = await _started(host)
    owed = await _started(host, humans=1, ais=1)
    fine = await _started(host)
    await sqlite_of(host.store).execute("UPDATE snapshots SET fingerprint = 'x' WHERE game_id = ?", (broken,))
    # the last run stopped between the person's move and the AI's answer: the AI seat is awaited
    g = await host.get(owed)
    await host.store.record_move(
        owed,
        expected_version=0,
        seat=0,
        action="take 1",
        by="player",
        user_id=10,
        state_json="{}",
        deadline=g.row.deadline,
    )
    state = base.replay(g.engine, g.row.seed, 2, g.row.options, [(0, "take 1")])  # its snapshot as stored
    text = base.state_fingerprint(state)
    await sqlite_of(host.store).execute(
        "UPDATE snapshots SET state = ?, fingerprint = ? WHERE game_id = ?", (text, digest(text), owed)
    )
    fresh = _fresh(host)
    assert await fresh.load_all() == []
    assert list(fresh.loaded()) == []
    flagged, checked = await fresh.check_dormant()
    assert [x.id for x in flagged] == [broken] and checked == 3
    assert "snapshot" in (flagged[0].row.attention or "")
    assert sorted(x.id for x in fresh.loaded()) == [broken, owed] and fresh.dormant() == [fine]
    moved = await fresh.resume_ai()  # handed to the background (fresh.ai), played there
    assert [x.id for x in moved] == [owed]
    await fresh.ai.settle()
    assert [m.by for m in await host.store.moves(owed)] == ["player", "ai"]
    assert broken not in {e.game_id for e in fresh.clock_entries()}


async def test_listing_a_servers_open_games_loads_none_of_them(host: ToyHost) -> None:
    ids = [await _started(host, clock="10m") for _ in range(3)]
    lobby = await host.create(
        kind="toynim", options=None, clock=None, guild_id=1, channel_id=100, user_id=20, name="Zed"
    )
    await host.create(
        kind="toynim", options=None, clock=None, guild_id=2, channel_id=200, user_id=30, name="Elsewhere"
    )  # another server's game is not listed
    await host.move(ids[0], 10, "take 2")
    fresh = _fresh(host)
    assert await fresh.load_all() == []
    listed = await fresh.list_games(1)
    assert [g.id for g in listed] == ids + [lobby.id]
    assert [g.names for g in listed] == [["Ann", "P1"]] * 3 + [["Zed"]]
    assert [g.row.status for g in listed] == ["active"] * 3 + ["lobby"]
    assert listed[0].row.version == 1 and listed[0].title == f"Toy Nim #{ids[0]}"
    assert list(fresh.loaded()) == []  # nothing replayed to list them
