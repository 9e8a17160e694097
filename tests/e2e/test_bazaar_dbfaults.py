"""The database failing while people play, through the real discord.py client and the fake
Discord: a move, a click, a lobby button, a form's draft and the turn clock's AI play that the
database refuses (a full disk, simulated by :class:`dbfaults.FaultyDB`; a write lock really held
by another process) get a private "could not save" answer, post nothing, change neither the
live game nor the database, and work once the fault is gone; a lock at start-up stops the bot
before it serves; a stale "needs attention" flag is cleared at restart and the players are told."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.host.duties import STORE_RETRY
from bot.host.store import Store
from tests.dbfaults import FaultyDB, live_fields, write_lock
from tests.e2e import toy_parley
from tests.e2e.bazaar_harness import Table, make_table, poke
from tests.fakediscord import Channel, FakeDiscord, FakeDiscordError, RunBot, User

NOT_SAVED = "Could not save your move"


def sqlite_file(table: Table) -> Path:
    """The table's SQLite file (these tests hold its write lock)."""
    assert isinstance(table.db_path, Path), table.db_path
    return table.db_path


def _seen(fake: FakeDiscord, place: Channel, *users: User) -> list[tuple[int, str, tuple[str, ...]]]:
    """Every message in ``place`` and in the users' DMs, with its content (what anyone saw)."""
    out = [(m.id, m.text, tuple(m.custom_ids)) for m in fake.messages(place)]
    for u in users:
        out += [(m.id, m.text, tuple(m.custom_ids)) for m in fake.dms(u)]
    return out


async def test_a_move_the_database_refuses_is_answered_privately_and_changes_nothing(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 0)
    game = await table.bot.service.get(gid)
    seat = game.awaited()[0]
    user = table.user_of(game, seat)
    action = game.engine.choose(
        game.engine.view(game.state, seat), game.engine.legal_actions(game.state, seat)
    )
    board = await table.control(user, thread, gid, game.row.version, action)
    live, stored = live_fields(game), await table.db_state(gid)
    seen = _seen(fake, thread, *table.players.values())
    faults = FaultyDB.install(table.bot.service.store)
    faults.fail("COMMIT")

    h = await fake.slash(user, thread, "move", action=action)
    await table.settle()
    assert h.ephemeral and NOT_SAVED in h.text and "Nothing changed" in h.text, h.text
    h = await table.use(user, board, gid, game.row.version, action)  # the same move from its control
    await table.settle()
    answer = h.followups[-1]
    assert answer.ephemeral and answer.visible_to == user.id and NOT_SAVED in answer.text
    assert "Traceback" not in answer.text and "sqlite" not in answer.text.lower()
    assert live_fields(game) == live and await table.db_state(gid) == stored
    assert _seen(fake, thread, *table.players.values()) == seen  # nothing posted, edited or DMed

    faults.heal()
    await table.play_one(gid, thread, "move")
    assert (await table.db_state(gid))[0] == stored[0] + 1


async def test_a_write_lock_held_by_another_process_is_waited_out_then_refused(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Store, "BUSY_TIMEOUT_MS", 200)
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 0)
    game = await table.bot.service.get(gid)
    seat = game.awaited()[0]
    action = game.engine.legal_actions(game.state, seat)[0]
    stored = await table.db_state(gid)
    with write_lock(sqlite_file(table)):
        h = await fake.slash(table.user_of(game, seat), thread, "move", action=action)
        await table.settle()
        assert h.ephemeral and NOT_SAVED in h.text, h.text
        assert await table.db_state(gid) == stored
    await table.play_one(gid, thread, "move")
    assert (await table.db_state(gid))[0] == stored[0] + 1


async def test_lobby_buttons_and_new_games_the_database_refuses(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    ann, bob = table.players["ann"], table.players["bob"]
    gid, lobby = await table.new_game("ann", "pralaya")
    faults = FaultyDB.install(table.bot.service.store)
    faults.fail("COMMIT")
    before = _seen(fake, table.channel)
    for who, label in ((bob, "Join"), (ann, "Add AI")):
        h = await fake.click(who, lobby, label=label)
        await table.settle()
        assert h.followups and h.followups[-1].ephemeral and "Could not save that" in h.followups[-1].text, (
            label
        )
    h = await fake.slash(bob, table.channel, "game new", options={"game": "ra"})
    await table.settle()
    assert h.ephemeral and "Could not save that" in h.text, h.text
    assert _seen(fake, table.channel) == before
    game = await table.bot.service.get(gid)
    assert [s.user_id for s in game.seats] == [ann.id] and game.row.status == "lobby"

    # the lobby posted but its message not recorded: it is taken back
    faults.heal()
    faults.fail("INSERT INTO messages")
    h = await fake.slash(bob, table.channel, "game new", options={"game": "ra"})
    await table.settle()
    assert h.ephemeral and "Could not save that" in h.text, h.text
    assert _seen(fake, table.channel) == before
    faults.heal()
    await fake.click(bob, lobby, label="Join")
    await table.settle()
    assert [s.user_id for s in (await table.bot.service.get(gid)).seats] == [ann.id, bob.id]
    assert "bob" in fake.message(lobby.id).text
    faults.fail("COMMIT")  # Start: refused privately, still a lobby (a thread may have opened)
    h = await fake.click(ann, lobby, label="Start")
    await table.settle()
    assert h.followups and "Could not save that" in h.followups[-1].text
    assert game.row.status == "lobby" and (await table.stored(gid)).status == "lobby"
    faults.heal()
    h = await fake.click(ann, lobby, label="Start")
    await table.settle()
    assert "has started" in h.followups[-1].text and game.row.status == "active"


async def test_a_draft_pick_the_database_refuses_is_not_kept(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    remove = toy_parley.install()
    try:
        fake = fake_discord
        table = make_table(fake, run_bot, tmp_path)
        await table.boot()
        ann = table.players["ann"]
        gid, _ = await table.start_game("ann", ("bob", "cy"), 0, game="toyparley")
        dm = next(m for m in reversed(fake.dms(ann)) if f"bzfs:{gid}:0:offer" in m.custom_ids)
        faults = FaultyDB.install(table.bot.service.store)
        faults.fail("COMMIT")
        h = await fake.select(ann, dm, f"bzf:{gid}:0:offer:to", ["all"])
        await table.settle()
        answer = h.followups[-1] if h.followups else None
        content = answer.text if answer else h.text
        assert NOT_SAVED in content, (h.callbacks, content)
        assert await table.bot.service.store.draft(gid, 0, "offer", 0) == {}
        faults.heal()
        h = await fake.select(ann, dm, f"bzf:{gid}:0:offer:to", ["all"])
        await table.settle()
        assert h.callback_type == 7 and await table.bot.service.store.draft(gid, 0, "offer", 0) == {
            "to": ["all"]
        }
    finally:
        remove()


async def test_the_clock_tries_an_expiry_again_when_the_database_refused_it(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 0, clock="10m")
    bot = table.bot
    game = await bot.service.get(gid)
    stored, seen = await table.db_state(gid), _seen(fake, thread)
    faults = FaultyDB.install(bot.service.store)
    faults.fail("COMMIT")
    table.now.advance(600)
    poke(bot)
    await fake.wait_for(lambda: faults.failed, what="the clock to try the expiry")
    await table.settle()
    assert await table.db_state(gid) == stored and _seen(fake, thread) == seen and game.notes == []
    table.now.advance(STORE_RETRY / 2)
    poke(bot)
    await table.settle()
    assert _seen(fake, thread) == seen  # no reminder either while the expiry waits to be retried
    faults.heal()
    table.now.advance(STORE_RETRY)
    poke(bot)
    await fake.wait_for(lambda: game.row.version > stored[0], what="the expiry played")
    await table.settle()
    assert (await bot.service.store.moves(gid))[0].by == "clock"
    assert "Time ran out" in table.last_turn(thread).text


async def test_a_database_locked_at_start_up_stops_the_bot_before_it_serves(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Store, "BUSY_TIMEOUT_MS", 100)
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await (await Store.open(table.db_path)).close()
    with write_lock(sqlite_file(table)), pytest.raises(FakeDiscordError, match="StoreUnavailable"):
        await table.boot(sync=False)
    assert fake.interactions == [] and not fake.requests_to("POST /channels/{channel_id}/messages")


async def test_a_stale_attention_flag_is_cleared_at_restart_and_play_goes_on(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 0, clock="10m")
    await table.play_one(gid, thread, "move")
    await table.running.kill(release=table.bot.service.store.close)
    with sqlite3.connect(table.db_path) as db:  # a flag an earlier run raised, whose cause has gone
        db.execute(
            "UPDATE games SET attention = 'move 1 no longer replays (boom)', deadline = NULL WHERE id = ?",
            (gid,),
        )
    await table.boot(sync=False)
    notice = await fake.wait_message(thread, lambda m: "playable again" in m.text)
    assert {table.players["ann"].id, table.players["bob"].id} <= set(notice.pinged_ids)
    game = await table.bot.service.get(gid)
    assert game.row.attention is None and game.row.deadline is not None
    await table.play_one(gid, thread, "button")
    assert (await table.db_state(gid))[2] == 2
    await table.running.stop()
    await table.boot(sync=False)  # told once
    await table.settle()
    assert len([m for m in fake.messages(thread) if "playable again" in m.text]) == 1


async def test_a_move_saved_whose_board_cannot_be_recorded_still_counts_as_played(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    """Only the bookkeeping of the posted board fails: the player is told the move was played
    (it was saved), never "could not save", and the game goes on."""
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 0)
    stored = await table.db_state(gid)
    faults = FaultyDB.install(table.bot.service.store)
    faults.fail("messages")  # every read and write of the posted-message records
    await table.play_one(gid, thread, "move")  # asserts the "✅ Played" answer
    assert faults.failed and (await table.db_state(gid))[0] == stored[0] + 1
    assert f"move {stored[0] + 1}" in table.last_turn(thread).text
    faults.heal()
    await table.play_one(gid, thread, "move")
