"""A board another process stored and never posted (it stopped between a move's transaction and
its post, e.g. after a DM click for a game of this process's shard) is posted by the game's own
process once ``BAZAAR_REPOST_AFTER`` has passed (``BazaarBot.sweep_unposted``, run in the
background with a database other processes share). PostgreSQL only: a SQLite file has one
process, which posts its own boards."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.host.live import LiveGame
from bot.host.service import UNPOSTED, GameService
from bot.host.store import Store
from bot.surface.postclaims import POST_LEASE, RECAP_LEASE
from tests.e2e.bazaar_harness import Table, make_table
from tests.e2e.test_discord_faults import POST, Backoff, boards_in
from tests.e2e.test_discord_faults import backoff_fixture as backoff_fixture  # noqa: F401  (the fixture)
from tests.fakediscord import FakeDiscord, Message, RunBot
from tests.store_internals import row_of


async def test_a_board_another_process_stored_but_never_posted_is_posted(
    pg_url: str, fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    table.db_path = pg_url
    await table.boot()
    bot = table.bot
    assert bot.service.store.shared and bot._sweeping is not None  # the sweep runs in the background
    gid, thread = await table.start_game("ann", ("bob",), 0, clock="10m")
    await table.play_one(gid, thread)
    held = await bot.service.get(gid)
    version = held.row.version

    await _move_elsewhere(
        pg_url, table, gid, monkeypatch
    )  # another process plays the next move, stops before posting
    boards = [m for m in fake.messages(thread) if "· move " in m.text]

    assert await bot.sweep_unposted() == 0  # too soon: the other process may still be posting it
    table.now.advance(bot.config.repost_after + 1)
    assert await bot.sweep_unposted() == 1
    await table.settle()
    new = [m for m in fake.messages(thread) if "· move " in m.text][len(boards) :]
    assert len(new) == 1 and f"move {version + 1}" in new[0].text and UNPOSTED in new[0].text
    assert held.row.version == version + 1  # the held game caught up with the other process's move
    assert await bot.sweep_unposted() == 0  # posted once
    await table.play_one(gid, thread)  # and the game goes on from the board posted
    assert (await row_of(bot.service.store, gid)).version == version + 2


async def test_the_ai_seats_a_stopped_process_left_owing_play_after_the_post(
    pg_url: str, fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    table.db_path = pg_url
    await table.boot()
    bot = table.bot
    gid, thread = await table.start_game("ann", (), 1, clock="10m")  # Ann and an AI seat
    held = await bot.service.get(gid)
    while held.ai_plays(held.awaited()[0]):
        await table.settle()
    version = held.row.version
    await _move_elsewhere(
        pg_url, table, gid, monkeypatch, ai_answers=False
    )  # Ann's move; the AI's answer never came

    table.now.advance(bot.config.repost_after + 1)
    assert await bot.sweep_unposted() == 1
    await table.settle()
    game = await bot.service.get(gid)
    await fake.wait_for(lambda: not game.ai_plays(game.awaited()[0]), what="the AI's answer")  # Ann's turn
    await table.settle()
    moves = await bot.service.store.moves(gid)
    assert moves[version].by == "player" and moves[-1].by == "ai"
    assert f"move {game.row.version}" in table.last_turn(thread).text  # the AI's moves are posted too


async def _move_elsewhere(
    pg_url: str, table: Table, gid: int, monkeypatch: pytest.MonkeyPatch, *, ai_answers: bool = True
) -> None:
    """Another process (a service with its own pool on the same schema) plays the awaited
    person's first legal move and stops before posting it; without ``ai_answers``, it plays on
    until an AI seat is awaited and stops before the AI's answer (a transaction of its own)."""
    store = await Store.open(pg_url, now=table.now)
    try:
        other = GameService(store, now=table.now, seed_source=lambda: table.seed)
        if not ai_answers:

            async def stopped(game: LiveGame, **_: Any) -> None:
                return None

            monkeypatch.setattr(other.duties, "advance_ai", stopped)
        game = await other.get(gid)
        while True:
            seat = game.awaited()[0]
            action = game.engine.legal_actions(game.state, seat)[0]
            user_id = game.seats[seat].user_id
            assert user_id is not None  # a person's seat
            await other.move(gid, user_id, action)
            if ai_answers or game.ai_plays(game.awaited()[0]):
                break  # without ai_answers: on until an AI seat is owed its answer (a turn of steps)
    finally:
        await store.close()


async def test_the_sweep_leaves_a_board_another_process_is_posting(
    pg_url: str, fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process that stored the move has claimed its board and is posting it (slowly: its
    Discord retries, a slow render): the sweep leaves it alone, however late it looks (today it
    posted a second board). Once that claim's lease lapses (the process stopped mid-post) the
    sweep posts the board, once."""
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    table.db_path = pg_url
    await table.boot()
    bot = table.bot
    gid, thread = await table.start_game("ann", ("bob",), 0, clock="10m")
    await table.play_one(gid, thread)
    version = (await bot.service.get(gid)).row.version
    await _move_elsewhere(pg_url, table, gid, monkeypatch)
    assert (
        await bot.service.store.claim_post(gid, version + 1, "board", "the-other-process", POST_LEASE)
        == "won"
    )
    boards = [m for m in fake.messages(thread) if "· move " in m.text]

    table.now.advance(bot.config.repost_after + 1)
    assert await bot.sweep_unposted() == 0  # the other process is posting it
    await table.settle()
    assert [m for m in fake.messages(thread) if "· move " in m.text] == boards
    table.now.advance(POST_LEASE)  # it stopped before posting: its claim lapsed
    assert await bot.sweep_unposted() == 1
    await table.settle()
    new = [m for m in fake.messages(thread) if "· move " in m.text][len(boards) :]
    assert len(new) == 1 and f"move {version + 1}" in new[0].text
    state = await bot.service.store.post_state(gid, version + 1, "board")
    assert state is not None and state[2]  # done: nobody posts it again


async def test_a_board_another_process_posted_is_not_posted_again_by_a_retry(
    pg_url: str, fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, backoff: Backoff
) -> None:
    """This process's board post failed (Discord 502s) and waits for its retry; meanwhile the
    game's own process (its sweep) posted that board and recorded it as done in the database:
    the retry posts nothing (today it posted the same board a second time)."""
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    table.db_path = pg_url
    await table.boot(repost_delays=(3600.0,))
    bot = table.bot
    gid, thread = await table.start_game("ann", ("bob",), 0, clock="10m")
    await table.play_one(gid, thread)
    boards = [m for m in fake.messages(thread) if "· move " in m.text]
    fault = fake.faults.fail(POST, 502, times=5, where=boards_in(thread))
    await table.play_one(gid, thread)
    await fake.wait_for(lambda: fault.spent, what="the refused board")
    await table.settle()
    game = await bot.service.get(gid)
    assert bot.publisher.retry.waiting(gid) and bot.service.has_pending(game)
    claim = await bot.service.store.post_state(gid, game.row.version, "board")
    assert claim is None  # its claim was given back
    other = await Store.open(pg_url, now=table.now)
    try:  # the other process claims it, posts it (not shown here) and records it as done
        assert (
            await other.claim_post(gid, game.row.version, "board", "the-other-process", POST_LEASE) == "won"
        )
        await other.post_done(gid, game.row.version, "board", "the-other-process")
    finally:
        await other.close()
    await bot.publisher.flush(game)  # the retry
    await table.settle()
    assert [m for m in fake.messages(thread) if "· move " in m.text] == boards
    assert not bot.service.has_pending(game)  # dropped, not put back


async def test_a_recap_another_process_is_drawing_is_posted_once(
    pg_url: str, fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    """The game's last move posts its final sheet here, but another process holds the claim on
    its recap (it is drawing it): this process draws and posts none (today: a second recap).
    That process stops before posting it: once its lease lapses, this process's sweep finds the
    final sheet on Discord and posts the recap, once."""
    from tests.e2e.bazaar_harness import install_toy_secret

    remove = install_toy_secret()
    try:
        fake = fake_discord
        table = make_table(fake, run_bot, tmp_path)
        table.db_path = pg_url
        await table.boot()
        bot = table.bot
        gid, thread = await table.start_game("ann", ("bob",), 0, game="toysecret", clock="10m")
        assert await bot.service.store.claim_post(gid, 6, "recap", "the-other-process", RECAP_LEASE) == "won"
        while (await bot.service.get(gid)).row.status == "active":
            await table.play_one(gid, thread, "move")
        await table.recaps_posted()

        def films() -> list[Message]:
            return [m for m in fake.messages(thread) if m.text.startswith("🎞️")]

        assert len([m for m in fake.messages(thread) if "is over" in m.text]) == 1 and films() == []

        table.now.advance(RECAP_LEASE + 1)
        assert await bot.sweep_unposted() == 1
        await table.recaps_posted()
        assert len(films()) == 1 and len([m for m in fake.messages(thread) if "is over" in m.text]) == 1
        assert await bot.sweep_unposted() == 0 and await bot.service.store.unposted() == []
        await table.recaps_posted()
        assert len(films()) == 1
    finally:
        remove()
