"""Edges found in the audit: a player who leaves the server mid-game, commands from DMs and from
another server, and things happening at once (a move and the clock, a move and /game end, two
Start clicks). Each keeps the database consistent and answers everyone."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from engines import base
from tests.e2e.bazaar_harness import Table, make_table, moved_past, no_controls, poke, replay_states
from tests.fakediscord import FakeDiscord, FakeDiscordError, RunBot


async def _consistent(table: Table, gid: int) -> None:
    """The stored snapshot is the replay of the stored log, and the version counts the moves."""
    row = await table.stored(gid)
    moves = await table.db_moves(gid)
    engine = base.get(row.kind)
    state = replay_states(
        engine, row.seed, len(await table.bot.service.store.seats(gid)), row.options, moves
    )[-1]
    assert row.version == len(moves)
    snapshot = await table.bot.service.store.snapshot(gid)
    assert snapshot is not None and snapshot[1] == base.state_fingerprint(state)


async def test_a_player_who_leaves_the_server_does_not_wedge_the_game(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 0, clock="1m")
    bob = table.players["bob"]
    fake.remove_member(table.guild, bob)
    game = await table.bot.service.get(gid)
    bob_seat = next(s.seat for s in game.seats if s.user_id == bob.id)
    for _ in range(60):
        if game.seats[bob_seat].ai_takeover or game.row.status != "active":
            break
        if game.awaited()[0] == bob_seat:  # he cannot act any more: his clock runs out
            version = game.row.version
            table.now.advance(60)
            poke(table.bot)
            await fake.wait_for(moved_past(game, version))
            await table.settle()
        else:
            await table.play_one(gid, thread, "move")
    assert game.seats[bob_seat].ai_takeover or game.row.status == "finished"
    notices = [m for m in fake.messages(thread) if "cannot send you direct messages" in m.text]
    assert len(notices) == 1 and bob.id in notices[0].pinged_ids and game.seats[bob_seat].dm_closed
    await _consistent(table, gid)


async def test_dms_offer_only_rules_and_another_servers_game_is_not_found(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    other = fake.add_guild("Elsewhere", channels=["play"])
    zed = fake.add_user("zed", guild=other)
    fake.add_member(other, table.players["ann"])
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 1)
    before = await table.db_state(gid)
    dm = fake.open_dm(table.players["ann"])
    h = await fake.slash(table.players["ann"], dm, "rules", game="ra")
    assert h.ephemeral and "Ra" in h.text
    for command in ("move", "hand", "game status"):  # server-only: Discord does not offer them here
        try:
            values: dict[str, Any] = {"action": "done"} if command == "move" else {}
            await fake.slash(table.players["ann"], dm, command, **values)
        except FakeDiscordError as err:
            assert "guild-only" in str(err)
        else:
            raise AssertionError(f"/{command} was offered in a DM")
    for who, command, values in (
        (zed, "move", {"action": "done", "game": gid}),
        (zed, "hand", {"game": gid}),
        (table.players["ann"], "game end", {"game": gid}),
        (zed, "game join", {"game": gid}),
    ):
        h = await fake.slash(who, fake.channel("play"), command, options=values)
        assert h.ephemeral and f"no game #{gid} here" in h.text.lower(), (command, h.text)
    h = await fake.slash(table.players["ann"], table.channel, "game new", game="pralaya", clock="0")
    assert h.ephemeral and "at least 1 minute" in h.text
    assert await table.db_state(gid) == before and len(await table.bot.service.store.games()) == 1


async def test_a_move_and_the_clock_at_once_play_one_turn(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 0, clock="1m")
    game = await table.bot.service.get(gid)
    seat = game.awaited()[0]
    user = table.user_of(game, seat)
    action = game.engine.legal_actions(game.state, seat)[0]
    version = game.row.version
    table.now.advance(61)  # the deadline has passed, and the player moves right then
    h = await fake.slash(user, thread, "move", action=action, wait=False)
    poke(table.bot)
    await h.wait_done()
    await fake.wait_for(lambda: game.row.version > version)
    await table.settle()
    first = (await table.bot.service.store.moves(gid))[version]
    if h.text.startswith("✅ Played"):
        assert (first.by, first.action) == ("player", action)
    else:
        assert first.by == "clock" and h.ephemeral
    clocked = sum(m.by == "clock" for m in await table.bot.service.store.moves(gid))
    assert clocked <= 1 + 50 * (first.by == "clock")
    await _consistent(table, gid)


async def test_a_move_during_game_end_is_either_played_before_or_refused(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 0)
    game = await table.bot.service.get(gid)
    seat = game.awaited()[0]
    user = table.user_of(game, seat)
    action = game.engine.legal_actions(game.state, seat)[0]
    version = game.row.version
    move = await fake.slash(user, thread, "move", action=action, wait=False)
    end = await fake.slash(table.players["mod"], thread, "game end", wait=False)
    await asyncio.gather(move.wait_done(), end.wait_done())
    await table.settle()
    assert "has been ended" in end.text
    row = await table.stored(gid)
    moves = await table.db_moves(gid)
    assert row.status == "ended"
    if move.text.startswith("✅ Played"):
        assert moves[version] == (seat, action, "player")
    else:
        assert "over" in move.text and len(moves) == version
    last = fake.last_message(thread)
    assert last is not None and "has been ended" in last.text
    assert all(no_controls(m) for m in fake.messages(thread)) and fake.channel(thread.id).archived
    await _consistent(table, gid)


async def test_two_start_clicks_at_once_start_one_game_in_one_thread(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, lobby = await table.new_game("ann", "pralaya")
    await fake.click(table.players["bob"], lobby, label="Join")
    await table.settle()
    http = table.bot.http
    opened = http.start_thread_with_message
    calls: list[int] = []

    async def slow_first(*args: Any, **kwargs: Any) -> Any:  # the first thread's answer is slow to come back
        calls.append(1)
        data = await opened(*args, **kwargs)
        if len(calls) == 1:
            await asyncio.sleep(0.3)
        return data

    monkeypatch.setattr(http, "start_thread_with_message", slow_first)
    clicks = [await fake.click(table.players["ann"], lobby, label="Start", wait=False) for _ in range(2)]
    await asyncio.gather(*(c.wait_done() for c in clicks))
    await table.settle()
    answers = sorted(c.followups[-1].text for c in clicks)
    assert sum("has started" in a for a in answers) == 1, answers
    row = await table.stored(gid)
    assert row.status == "active" and len(fake.threads) == 1 and row.thread_id == fake.threads[0].id
    assert table.last_turn(fake.threads[0]).attachments
    await _consistent(table, gid)
