"""Where a refused post, a lost answer and a failing database meet the board marks, the once-only
posts and the recap: a board posted again marks what changed since the last board players saw; a
post Discord made but whose answer was lost is not made twice; the final sheet goes out though the
recap could not be built."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.host.store import MoveRow, StoreUnavailable
from tests.e2e.bazaar_harness import Table, board_pngs, make_table
from tests.e2e.bazaar_harness import shown as _shown
from tests.e2e.test_discord_faults import (
    POST,
    QUICK,
    Backoff,
    assert_every_board_once,
    backoff_fixture,  # noqa: F401  (the fixture)
    boards_in,
    latest_board,
    play_until,
    setup_game,
)
from tests.fakediscord import Channel, FakeDiscord, RunBot
from tests.store_internals import row_of


async def _posted_boards_match(table: Table, gid: int, thread: Channel) -> tuple[list[int], list[int]]:
    fake = table.fake
    row = await table.stored(gid)
    seats = await table.bot.service.store.seats(gid)
    names = [s.name for s in seats]
    moves = await table.db_moves(gid)
    boards = [m for m in fake.messages(thread) if "· move " in m.text]
    posted = [
        (m, int(c.split("· move ")[1].split()[0].split("\n")[0]), png)
        for m in boards
        for c, png in _shown(fake, m)
    ]
    expected = board_pngs(
        row.game if hasattr(row, "game") else row.kind,
        row.seed,
        len(seats),
        row.options,
        moves,
        names,
        [v for _, v, _ in posted],
        [m.id for m, _, _ in posted],
    )
    bad = [v for (m, v, png), want in zip(posted, expected, strict=True) if png != want]
    return bad, [v for _, v, _ in posted]


async def test_a_reposted_board_marks_changes_since_the_last_posted_board(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, backoff: Backoff
) -> None:
    fake = fake_discord
    table, gid, thread = await setup_game(fake, run_bot, tmp_path)
    fault = fake.faults.fail(POST, 502, times=5, where=boards_in(thread))
    await play_until(table, gid, thread, lambda: fault.spent)
    game = await table.bot.service.get(gid)
    await fake.wait_for(lambda: latest_board(fake, thread) == game.row.version, what="the board posted again")
    await table.settle()
    await table.play_one(gid, thread)  # one more board after the repost
    bad, versions = await _posted_boards_match(table, gid, thread)
    assert bad == [], (bad, versions)


async def test_a_board_post_that_broke_after_discord_made_it_is_not_posted_twice(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table, gid, thread = await setup_game(fake, run_bot, tmp_path)
    fault = fake.faults.disconnect(POST, after=True, where=boards_in(thread))
    await play_until(table, gid, thread, lambda: fault.spent)
    await fake.wait_for(lambda: not table.bot.publisher.retry.waiting(gid), what="the retry to end")
    await table.settle()
    await assert_every_board_once(table, gid, thread)


async def test_a_database_hiccup_while_building_the_recap_still_posts_the_final_sheet(
    fake_discord: FakeDiscord,
    run_bot: RunBot,
    tmp_path: Path,
    backoff: Backoff,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.e2e.bazaar_harness import install_toy_secret

    remove = install_toy_secret()
    try:
        fake = fake_discord
        table = make_table(fake, run_bot, tmp_path)
        await table.boot(repost_delays=QUICK)
        gid, thread = await table.start_game("ann", ("bob",), 0, game="toysecret")
        store = table.bot.service.store
        real = store.moves
        calls: list[int] = []

        async def moves(game_id: int, *, last: int | None = None) -> list[MoveRow]:
            g = await row_of(store, game_id)
            if g.status == "finished" and not calls:
                calls.append(1)
                raise StoreUnavailable("the database x is locked (simulated)")
            return await real(game_id, last=last)

        monkeypatch.setattr(store, "moves", moves)
        for _ in range(8):
            g = await table.bot.service.get(gid)
            if g.row.status != "active":
                break
            await table.play_one(gid, thread, "move")
        game = await table.bot.service.get(gid)
        await table.recaps_posted()
        assert game.row.status == "finished" and calls
        finals = [m for m in fake.messages(thread) if "is over" in m.text]
        assert len(finals) == 1, [m.text[:60] for m in fake.messages(thread)][-4:]
        last = fake.last_message(thread)
        assert last is not None and last.id == finals[0].id  # no recap: it could not be built
        assert [m.message_id for m in await store.messages(gid, kind="final")] == [finals[0].id]
        assert fake.channel(thread.id).archived and await store.unposted() == []
    finally:
        remove()


async def test_a_board_discord_refuses_for_good_is_not_retried_and_the_next_move_posts(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, backoff: Backoff
) -> None:
    """A 403 Missing Access on a board (a permission taken away): logged, not retried forever;
    the game goes on and the next move's board is posted."""
    fake = fake_discord
    fake.allow_bot_errors = True  # the refusal is logged at ERROR by design
    table, gid, thread = await setup_game(fake, run_bot, tmp_path)
    fault = fake.faults.fail(POST, 403, code=50001, message="Missing Access", where=boards_in(thread))
    await play_until(table, gid, thread, lambda: fault.spent)
    await table.settle()
    assert not table.bot.publisher.retry.waiting(gid)
    game = await table.bot.service.get(gid)
    refused = game.row.version
    shown = latest_board(fake, thread)
    assert shown is not None and shown < refused  # that board never came
    await table.play_one(gid, thread)
    assert latest_board(fake, thread) == (await table.bot.service.get(gid)).row.version > refused


async def test_an_epoch_sheet_discord_refused_is_posted_later_above_its_board(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, backoff: Backoff
) -> None:
    """Ra's epoch sheet fails all of discord.py's tries: neither it nor the board below it is
    lost or doubled; both go up again later, the sheet first, once each."""
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot(repost_delays=QUICK)
    gid, place = await table.start_game("ann", (), 2, game="ra")
    fault = fake.faults.fail(
        POST,
        502,
        times=5,
        where=lambda r: (
            r.path == f"/channels/{place.id}/messages"
            and any(f.filename.endswith("-sheet.png") for f in r.files)
        ),
    )
    for _ in range(300):
        if fault.spent:
            break
        game = await table.bot.service.get(gid)
        assert game.row.status == "active"
        await table.play_one(gid, place)
    assert fault.spent, "no epoch was scored"
    await fake.wait_for(lambda: not table.bot.publisher.retry.waiting(gid), what="the retry to end")
    await table.settle()
    messages = fake.messages(place)
    sheets = [i for i, m in enumerate(messages) if "Epoch 1 scoring" in m.text]
    assert len(sheets) == 1, [m.text[:50] for m in messages[-6:]]
    version = (await table.stored(gid)).version
    boards = [i for i, m in enumerate(messages) if "· move " in m.text]
    assert boards[-1] > sheets[0] and latest_board(fake, place) == version
    await assert_every_board_once(table, gid, place)
