"""The turn clock fired by an injected clock (never by sleeping), and the fallback for a player
whose DMs are closed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.e2e.bazaar_harness import make_table, moved_past, poke
from tests.fakediscord import FakeDiscord, RunBot


async def test_closed_dms_are_told_once_and_the_button_still_works(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    ann, bob = table.players["ann"], table.players["bob"]
    fake.close_dms(bob)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 1)
    for i in range(10):
        await table.play_one(gid, thread, "button" if i % 2 else "move")

    notices = [m for m in fake.messages(thread) if "cannot send you direct messages" in m.text]
    assert len(notices) == 1 and bob.id in notices[0].pinged_ids
    assert "My hand" in notices[0].text
    seats = {s.name: s for s in await table.bot.service.store.seats(gid)}
    assert seats["bob"].dm_closed and not seats["ann"].dm_closed
    dm_bob = fake.dm_channel(bob)
    attempts = [r for r in fake.requests if dm_bob and r.path.endswith(f"/channels/{dm_bob.id}/messages")]
    assert len(attempts) == 1  # remembered: no DM is tried again
    assert fake.dms(bob) == [] and len(fake.dms(ann)) >= 2
    h = await fake.click(bob, table.last_turn(thread), label="My hand")
    await table.settle()
    reply = h.followups[-1]
    assert reply.ephemeral and reply.visible_to == bob.id and "your private view as bob" in reply.text
    assert reply.attachments


async def test_turn_clock_reminds_plays_and_hands_over_with_an_injected_clock(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 0, clock="1m")
    bot = table.bot
    game = await bot.service.get(gid)
    late = table.user_of(game, game.awaited()[0])  # this player never moves
    late_seat = next(s.seat for s in game.seats if s.user_id == late.id)
    punctual = next(u for u in (table.players["ann"], table.players["bob"]) if u is not late)

    async def wait_for_clock(predicate: Callable[[], object]) -> None:
        poke(bot)  # wake the scheduler: it reads the injected time, nothing sleeps
        await fake.wait_for(predicate)
        await table.settle()

    # half time: a reminder that pings the awaited player
    mark = fake.mark()
    table.now.advance(30)
    await wait_for_clock(
        lambda: any("half of your turn time" in m.text for m in fake.messages(thread) if m.id > mark)
    )
    reminder = next(m for m in fake.messages(thread) if "half of your turn time" in m.text)
    assert late.id in reminder.pinged_ids and punctual.id not in reminder.pinged_ids

    for k in (1, 2, 3):
        while game.awaited() and game.awaited()[0] != late_seat:
            await table.play_one(gid, thread, "move")  # the punctual player plays their own turns
        version = game.row.version
        table.now.advance(60)
        await wait_for_clock(moved_past(game, version))
        assert game.seats[late_seat].expiries == k
        moves = await table.bot.service.store.moves(gid)
        assert moves[version].by == "clock" and moves[version].seat == late_seat
        turn = table.last_turn(thread)
        assert "Time ran out for" in turn.text and "the AI played their turn" in turn.text
    assert game.seats[late_seat].ai_takeover
    assert "missed 3 turns in a row" in table.last_turn(thread).text

    # handed over: the AI now plays that seat at once, without waiting for the clock
    for _ in range(20):
        moves = await table.bot.service.store.moves(gid)
        if any(m.seat == late_seat and m.by == "ai" for m in moves):
            break
        await table.play_one(gid, thread, "move")
    assert any(m.seat == late_seat and m.by == "ai" for m in moves)
    assert game.awaited() != (late_seat,)
    # the owner takes the seat back with /move, even though it is not their turn
    mark = fake.mark()
    h = await fake.slash(late, thread, "move", action="done")
    assert h.ephemeral and "back in control" in h.text
    assert not game.seats[late_seat].ai_takeover and game.seats[late_seat].expiries == 0
    while game.awaited() != (late_seat,):
        await table.play_one(gid, thread, "move")
    assert any(
        "is back: the AI no longer plays their seat" in m.text for m in fake.messages(thread) if m.id > mark
    )  # told with the next board
    await table.play_one(gid, thread, "move")  # and plays their own turn again
    last = [m for m in await table.bot.service.store.moves(gid) if m.seat == late_seat][-1]
    assert last.by == "player"


async def test_a_deadline_that_ran_out_while_the_bot_was_down_gets_a_grace(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    """The player could not move while the bot was down, so an outage never costs a turn or counts
    towards the AI takeover: the overdue turn gets half a clock more, and the player is told."""
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 0, clock="10m")
    game = await table.bot.service.get(gid)
    seat = game.awaited()[0]
    late = table.user_of(game, seat)
    version = game.row.version
    await table.running.kill(release=table.bot.service.store.close)
    table.now.advance(3600)  # down for an hour: the 10-minute turn ran out meanwhile

    mark = fake.mark()
    await table.boot(sync=False)
    await table.settle()
    bot = table.bot
    game = await bot.service.get(gid)
    assert game.row.version == version and game.seats[seat].expiries == 0
    assert game.row.deadline == table.now() + 300
    notice = await fake.wait_message(thread, lambda m: "offline" in m.text, after=mark)
    assert late.id in notice.pinged_ids and "5m" in notice.text
    assert not any("half of your turn time" in m.text for m in fake.messages(thread) if m.id > mark)

    table.now.advance(300)  # the grace runs out: now the clock plays that turn
    poke(bot)
    await fake.wait_for(lambda: game.row.version > version)
    await table.settle()
    assert (await bot.service.store.moves(gid))[version].by == "clock" and game.seats[seat].expiries == 1


async def test_a_dm_refused_for_another_reason_does_not_mark_dms_closed(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    """Only 403 / 50007 means "this player's DMs are closed"; another refusal (here a 403 about
    the bot itself) is logged and the DM is tried again next time, with no notice to the player."""
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    bob = table.players["bob"]
    bob.dm_error = (403, 20026, "The bot has been flagged by our anti-spam system")
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 1)
    for _ in range(6):
        await table.play_one(gid, thread, "move")
    assert not any("cannot send you direct messages" in m.text for m in fake.messages(thread))
    seats = {s.name: s for s in await table.bot.service.store.seats(gid)}
    assert not seats["bob"].dm_closed
    bob.dm_error = None  # the problem goes away: DMs flow again
    game = await table.bot.service.get(gid)
    while game.row.status == "active" and not fake.dms(bob):
        await table.play_one(gid, thread, "move")
    assert fake.dms(bob)
