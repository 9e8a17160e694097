"""A crash in the gaps of publishing and of the AI's answers, repaired once on restart: a board
Discord shows but the bot had not recorded (posted, or edited in place) is kept, not posted
again; AI seats the last run left awaited (it died between a person's move and the AI's answer,
separate transactions) play when the bot comes back. (tests/e2e/test_kill_burst.py finds these
gaps at random with a real process and SIGKILL; here each is hit on purpose.)"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.host.live import LiveGame
from bot.surface.delivery import Delivery
from engines import base
from tests.e2e.bazaar_harness import Table, hang_the_ai, make_table, no_controls
from tests.fakediscord import Channel, FakeDiscord, Interaction, Message, RunBot


def _boards(table: Table, place: Channel, gid: int, version: int) -> list[Message]:
    """Messages in ``place`` showing the board of ``gid`` at ``version`` now."""
    head = f"**Pralaya #{gid}** · move {version}"
    return [m for m in table.fake.messages(place) if m.text.split("\n", 1)[0] == head]


def _answered_or_set(h: Interaction, hit: asyncio.Event) -> Callable[[], bool]:
    """A wait's condition: ``h`` has its final answer, or ``hit`` is set."""
    return lambda: hit.is_set() or h.done


async def _hang_on(table: Table, kind: str, method: str) -> asyncio.Event:
    """Make the store's ``method`` (add_message / set_message_version) never return for a turn
    board (``kind``); returns an event set when that happens (the bot then "dies" there)."""
    store, hit = table.bot.service.store, asyncio.Event()
    real = getattr(store, method)

    async def hang(*args: Any, **kwargs: Any) -> Any:
        if method == "set_message_version" or kwargs.get("kind") == kind:
            hit.set()
            await asyncio.Event().wait()
        return await real(*args, **kwargs)

    setattr(store, method, hang)
    return hit


async def test_a_board_posted_but_not_recorded_is_not_posted_again(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 0)
    await table.play_one(gid, thread, "move")
    game = await table.bot.service.get(gid)
    seat = game.awaited()[0]
    # a move after which someone else must act, so that its board is a new message
    action = next(
        a
        for a in game.engine.legal_actions(game.state, seat)
        if seat not in game.engine.to_move(base.play(game.engine, game.state, seat, a).state)
    )
    version = game.row.version
    hit = await _hang_on(table, "turn", "add_message")
    await fake.slash(table.user_of(game, seat), thread, "move", action=action, wait=False)
    await asyncio.wait_for(hit.wait(), 10)
    [posted] = _boards(table, thread, gid, version + 1)  # Discord shows it; the bot never recorded it
    await table.running.kill(release=table.bot.service.store.close)

    await table.boot(sync=False)
    await table.settle()
    assert _boards(table, thread, gid, version + 1) == [posted]  # kept, not posted a second time
    rows = await table.bot.service.store.messages(gid, kind="turn")
    assert rows[-1].message_id == posted.id and rows[-1].version == version + 1 and rows[-1].live
    assert [m.id for m in fake.messages(thread) if not no_controls(m) and "· move" in m.text] == [posted.id]
    before = (await table.stored(gid)).version
    await table.play_one(gid, thread, "button")  # its buttons play on
    assert (await table.stored(gid)).version > before


async def test_a_board_edited_in_place_but_not_recorded_is_not_posted_again(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 0)
    for _ in range(30):  # find a step after which the same person goes on (a Pralaya take)
        game = await table.bot.service.get(gid)
        seat = game.awaited()[0]
        engine = game.engine
        same = [
            a
            for a in engine.legal_actions(game.state, seat)
            if engine.to_move(base.play(engine, game.state, seat, a).state) == (seat,)
        ]
        if same and table.last_turn(thread).text.startswith(f"**Pralaya #{gid}** · move {game.row.version}"):
            break
        await table.play_one(gid, thread, "move")
    else:
        raise AssertionError("no step where the same person goes on")
    version = game.row.version
    board = table.last_turn(thread)
    hit = await _hang_on(table, "turn", "set_message_version")
    await fake.slash(table.user_of(game, seat), thread, "move", action=same[0], wait=False)
    await asyncio.wait_for(hit.wait(), 10)
    assert _boards(table, thread, gid, version + 1) == [
        board
    ]  # edited in place; the bot died before recording it
    await table.running.kill(release=table.bot.service.store.close)

    await table.boot(sync=False)
    await table.settle()
    assert _boards(table, thread, gid, version + 1) == [board]  # kept, not posted a second time
    rows = await table.bot.service.store.messages(gid, kind="turn")
    assert rows[-1].message_id == board.id and rows[-1].version == version + 1
    await table.play_one(gid, thread, "move")  # and the game goes on


async def test_ai_seats_left_awaited_by_a_crash_play_on_restart(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", (), 1)
    game, seat, to_ai = await table.play_until_the_ai_is_next(gid, thread)  # ann's next move hands it over
    version = game.row.version
    hit = hang_the_ai(monkeypatch, table.bot)  # the person's move is stored; the process dies before the AI's
    await fake.slash(table.user_of(game, seat), thread, "move", action=to_ai[0], wait=False)
    await asyncio.wait_for(hit.wait(), 10)
    await table.running.kill(release=table.bot.service.store.close)

    await table.boot(sync=False)
    await table.settle()
    moves = await table.db_moves(gid)
    assert moves[version] == (seat, to_ai[0], "player")
    assert len(moves) > version + 1 and moves[version + 1][2] == "ai"  # the AI answered on restart
    resumed = await table.bot.service.get(gid)
    assert resumed.row.status != "active" or not any(resumed.ai_plays(s) for s in resumed.awaited())
    assert len(_boards(table, thread, gid, resumed.row.version)) == 1 or resumed.row.status == "finished"
    if resumed.row.status == "active":
        await table.play_one(gid, thread, "move")


async def test_an_epoch_sheet_posted_before_a_crash_is_not_posted_again(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ra's epoch score sheet goes up, then the process dies before the board below it: the
    next bot posts the board once and leaves the sheet alone (one sheet per epoch)."""
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, place = await table.start_game("ann", (), 2, game="ra")
    publisher, hit = table.bot.publisher, asyncio.Event()
    sheets: list[int] = []
    real_interim = publisher._post_interim

    async def interim(game: LiveGame, d: Delivery) -> bool:
        before = len(fake.messages(place))
        ok = await real_interim(game, d)
        if len(fake.messages(place)) > before:
            sheets.append(d.batch.version)
        return ok

    async def post_turn() -> None:
        hit.set()
        await asyncio.Event().wait()  # the process dies here, the sheet posted, not the board

    monkeypatch.setattr(publisher, "_post_interim", interim)
    real_post_turn = publisher._post_turn

    def post_or_die(*a: Any, **k: Any) -> Awaitable[Any]:
        return post_turn() if sheets else real_post_turn(*a, **k)

    monkeypatch.setattr(publisher, "_post_turn", post_or_die)
    for _ in range(200):
        game = await table.bot.service.get(gid)
        assert game.row.status == "active"
        seat = next(s for s in game.awaited() if not game.ai_plays(s))
        action = game.engine.choose(
            game.engine.view(game.state, seat), game.engine.legal_actions(game.state, seat)
        )
        h = await fake.slash(table.user_of(game, seat), place, "move", action=action, wait=False)
        await fake.wait_for(_answered_or_set(h, hit), 60)
        if hit.is_set():
            break
    else:
        raise AssertionError("no epoch was scored")
    version = (await table.stored(gid)).version
    assert [m for m in fake.messages(place) if "Epoch 1 scoring" in m.text]
    await table.running.kill(release=table.bot.service.store.close)

    await table.boot(sync=False)
    await table.settle()
    messages = fake.messages(place)
    at = [i for i, m in enumerate(messages) if "Epoch 1 scoring" in m.text]
    assert len(at) == 1, [m.text[:40] for m in messages]
    boards = [i for i, m in enumerate(messages) if m.text.startswith(f"**Ra #{gid}** · move {version}")]
    assert len(boards) == 1 and boards[0] > at[0]  # the board, once, below the sheet
