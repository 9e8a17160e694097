"""A board another process stored and never posted (it stopped between a move's transaction and
its post, e.g. after a DM click for a game of this process's shard) is posted by the game's own
process once ``BAZAAR_REPOST_AFTER`` has passed (``BazaarBot.sweep_unposted``, run in the
background with a database other processes share). PostgreSQL only: a SQLite file has one
process, which posts its own boards."""
from __future__ import annotations

from bazaar_harness import make_table
from bot.host.service import UNPOSTED, GameService
from bot.host.store import Store


async def test_a_board_another_process_stored_but_never_posted_is_posted(pg_url, fake_discord, run_bot, tmp_path):
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    table.db_path = pg_url
    await table.boot()
    bot = table.bot
    assert bot.store.shared and bot._sweeping is not None  # the sweep runs in the background
    gid, thread = await table.start_game("ann", ("bob",), 0, clock="10m")
    await table.play_one(gid, thread)
    held = await bot.service.get(gid)
    version = held.row.version

    # another process (its own pool on the same schema) plays the next move and stops before posting
    store = await Store.open(pg_url, now=table.now)
    try:
        other = GameService(store, now=table.now, seed_source=lambda: table.seed)
        game = await other.get(gid)
        seat = game.awaited()[0]
        action = game.engine.legal_actions(game.state, seat)[0]
        await other.move(gid, game.seats[seat].user_id, action)
    finally:
        await store.close()
    boards = [m for m in fake.messages(thread) if "· move " in m.content]

    assert await bot.sweep_unposted() == 0  # too soon: the other process may still be posting it
    table.now.advance(bot.config.repost_after + 1)
    assert await bot.sweep_unposted() == 1
    await table.settle()
    new = [m for m in fake.messages(thread) if "· move " in m.content][len(boards):]
    assert len(new) == 1 and f"move {version + 1}" in new[0].content and UNPOSTED in new[0].content
    assert held.row.version == version + 1  # the held game caught up with the other process's move
    assert await bot.sweep_unposted() == 0  # posted once
    await table.play_one(gid, thread)  # and the game goes on from the board posted
    assert (await bot.store.game(gid)).version == version + 2
