"""Persistence across a crash: a new bot on the same database file resumes every game, buttons
posted before the restart keep working, turn clocks restart; a history that no longer matches
its snapshot is flagged and players are told; a corrupt file stops the bot from starting."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from pathlib import Path

import discord
import pytest

from bot.host.config import Config
from bot.host.store import CorruptDatabase, StoreError
from bot.surface import launch
from bot.surface.app import BazaarBot
from engines import base
from tests.e2e.bazaar_harness import db_query, make_table, moved_past, never_publish, no_controls, poke
from tests.fakediscord import FakeDiscord, FakeDiscordError, RunBot


async def test_a_crashed_bot_is_replaced_and_old_buttons_continue_the_game(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 1, clock="10m")
    for i in range(5):
        await table.play_one(gid, thread, "button" if i % 2 else "move")
    old = table.bot
    game = await old.service.get(gid)
    state_before = base.state_fingerprint(game.state)
    seat = game.awaited()[0]
    user = table.user_of(game, seat)
    action = game.engine.legal_actions(game.state, seat)[0]
    version = game.row.version
    board = await table.control(user, thread, gid, version, action)  # posted by the first bot

    await table.running.kill(release=old.service.store.close)  # no shutdown code runs
    await table.boot(sync=False)  # a new process on the same file
    new = table.bot
    assert new is not old
    resumed = await new.service.get(gid)
    assert base.state_fingerprint(resumed.state) == state_before and resumed.row.attention is None
    assert [e.game_id for e in new.service.clock_entries()] == [gid]

    await table.use(user, board, gid, version, action)
    await table.settle()
    moves = await table.db_moves(gid)
    assert moves[version] == (seat, action, "player")
    assert f"move {resumed.row.version}" in table.last_turn(thread).text
    if not board.ephemeral:
        assert table.last_turn(thread).id != board.id
        assert no_controls(fake.message(board.id))  # the new bot cleared the old board's buttons

    # the restarted turn clock fires in the new bot
    version = resumed.row.version
    table.now.advance(600)
    poke(new)
    await fake.wait_for(moved_past(resumed, version))
    await table.settle()
    assert (await new.service.store.moves(gid))[version].by == "clock"


async def test_a_history_that_disagrees_with_its_snapshot_is_flagged(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 0)
    await table.play_one(gid, thread, "move")
    await table.running.kill(release=table.bot.service.store.close)
    await db_query(table.db_path, "UPDATE snapshots SET fingerprint = 'tampered' WHERE game_id = ?", gid)
    before = await db_query(table.db_path, "SELECT COUNT(*) FROM moves")

    await table.boot(sync=False)
    notice = await fake.wait_message(thread, lambda m: "needs attention" in m.text)
    ann, bob = table.players["ann"], table.players["bob"]
    assert {ann.id, bob.id} <= set(notice.pinged_ids)
    h = await fake.slash(ann, thread, "move", action="done")
    assert h.ephemeral and "needs attention" in h.text
    assert await db_query(table.db_path, "SELECT COUNT(*) FROM moves") == before
    h = await fake.slash(ann, thread, "game end")
    assert "has been ended" in h.text
    assert (await table.stored(gid)).status == "ended"

    # told once: another restart does not repeat the notice
    await table.running.stop()
    await table.boot(sync=False)
    await table.settle()
    assert len([m for m in fake.messages(thread) if "needs attention" in m.text]) == 1


@pytest.mark.sqlite_only
async def test_a_corrupt_database_stops_the_bot_before_it_serves(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    fake = fake_discord
    path = tmp_path / "bazaar.sqlite3"
    junk = b"definitely not sqlite " * 100
    path.write_bytes(junk)
    bot = BazaarBot(Config(token=fake.token, db_path=path))
    with pytest.raises(FakeDiscordError, match="CorruptDatabase"):
        await run_bot(bot)
    assert path.read_bytes() == junk  # nothing was overwritten
    assert fake.interactions == [] and not fake.requests_to("POST /channels/{channel_id}/messages")


@pytest.mark.sqlite_only
def test_run_bot_exit_codes_and_log_lines(
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    cfg = Config(token="secret-token-xyz", db_path=tmp_path / "x.sqlite3")

    def failing(exc: BaseException) -> Callable[[Config], Awaitable[None]]:
        async def run(config: Config) -> None:
            raise exc

        return run

    monkeypatch.setattr(launch, "_setup_logging", lambda config: None)
    caplog.set_level(logging.INFO)
    monkeypatch.setattr(launch, "_run", failing(CorruptDatabase("the database x is unreadable")))
    assert launch.run_bot(cfg) == 1
    assert capsys.readouterr().err == "bazaar: not starting: the database x is unreadable\n"
    monkeypatch.setattr(launch, "_run", failing(StoreError("schema too new")))
    assert launch.run_bot(cfg) == 1
    assert capsys.readouterr().err == "bazaar: not starting: schema too new\n"
    monkeypatch.setattr(launch, "_run", failing(discord.LoginFailure("bad")))
    assert launch.run_bot(cfg) == 2
    err = capsys.readouterr().err
    assert err.startswith("bazaar: ") and "rejected the token" in err and err.count("\n") == 1
    monkeypatch.setattr(launch, "_run", failing(KeyboardInterrupt()))
    assert launch.run_bot(cfg) == 0
    assert "secret-token-xyz" not in caplog.text + err


async def test_a_crash_between_the_move_and_its_board_is_repaired_on_restart(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The move is stored, then the process dies before posting: the next bot posts the board of
    the stored version (with that move's events) and pings whoever must act, so the game goes on."""

    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 0)
    await table.play_one(gid, thread, "move")
    game = await table.bot.service.get(gid)
    seat = game.awaited()[0]
    user = table.user_of(game, seat)
    action = game.engine.legal_actions(game.state, seat)[0]
    version = game.row.version
    old_board = table.last_turn(thread)
    events = [e for e in base.play(game.engine, game.state, seat, action).events if e.public]
    assert events

    never_publish(monkeypatch, table.bot)
    await fake.slash(user, thread, "move", action=action, wait=False)
    await fake.wait_for(lambda: game.row.version > version)
    await table.running.kill(release=table.bot.service.store.close)
    assert table.last_turn(thread).id == old_board.id  # nothing was posted for the stored move

    await table.boot(sync=False)
    await table.settle()
    resumed = await table.bot.service.get(gid)
    board = table.last_turn(thread)
    assert board.id != old_board.id and f"move {resumed.row.version}" in board.text
    names = [s.name for s in resumed.seats]
    for event in events:  # the stored move's public events are on the repaired board
        assert base.format_text(event.text, names) in board.text
    nxt = table.user_of(resumed, resumed.awaited()[0])
    assert nxt.id in board.pinged_ids
    assert no_controls(fake.message(old_board.id))  # the stale board lost its buttons
    before = resumed.row.version
    await table.play_one(gid, thread, "move")  # and the game goes on
    assert (await table.stored(gid)).version > before


@pytest.mark.sqlite_only
async def test_buttons_of_a_lost_database_do_not_act_on_new_games(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    """The database file is lost and a fresh one starts numbering games from 1 again: buttons
    still on old messages carry the old numbers, and must not join or play a different game that
    now has that number (in another channel)."""
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    elsewhere = fake.add_text_channel(table.guild, "elsewhere")
    await table.boot()
    old_gid, old_lobby = await table.new_game("ann", "pralaya")
    await table.running.kill(release=table.bot.service.store.close)
    assert isinstance(table.db_path, Path)  # (a test on the SQLite file only)
    table.db_path.unlink()
    await table.boot(sync=False)
    table.channel = elsewhere
    new_gid, _ = await table.new_game("cy", "pralaya")
    assert new_gid == old_gid  # the same number, another game
    h = await fake.click(table.players["bob"], old_lobby, label="Join")
    await table.settle()
    assert h.followups and h.followups[-1].ephemeral and "no longer" in h.followups[-1].text
    assert [s.name for s in await table.bot.service.store.seats(new_gid)] == ["cy"]


async def test_a_crash_before_the_final_sheet_is_repaired_on_restart(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last move is stored (the game finished), then the process dies before the score sheet:
    the next bot posts the sheet with that move's events, clears the buttons and archives."""

    from tests.e2e.bazaar_harness import install_toy_secret

    remove = install_toy_secret()
    try:
        fake = fake_discord
        table = make_table(fake, run_bot, tmp_path)
        await table.boot()
        gid, thread = await table.start_game("ann", ("bob",), 0, game="toysecret")
        for _ in range(5):
            await table.play_one(gid, thread, "move")
        game = await table.bot.service.get(gid)
        seat = game.awaited()[0]

        never_publish(monkeypatch, table.bot)
        await fake.slash(table.user_of(game, seat), thread, "move", action="draw", wait=False)
        await fake.wait_for(lambda: game.row.status == "finished")
        await table.running.kill(release=table.bot.service.store.close)
        assert not any("is over" in m.text for m in fake.messages(thread))

        await table.boot(sync=False)
        await table.recaps_posted()
        final = next(m for m in fake.messages(thread) if "is over" in m.text)
        assert "is over" in final.text and "Winner" in final.text and final.attachments
        assert "draws a card" in final.text  # the stored last move's event
        finals = [m.id for m in fake.messages(thread) if "is over" in m.text]  # Rematch and Replay stay
        assert all(no_controls(m) for m in fake.messages(thread) if m.id not in finals)
        assert fake.channel(thread.id).archived
        await table.running.stop()
        await table.boot(sync=False)  # posted once: another restart posts nothing more
        await table.recaps_posted()
        assert len([m for m in fake.messages(thread) if "is over" in m.text]) == 1
        assert len([m for m in fake.messages(thread) if "turn by turn" in m.text]) == 1  # the recap
    finally:
        remove()
