"""One message per turn in Components V2: the turn message's container (accent, text, mention,
gallery, controls, footer), and what the bot does where Discord refuses: an edit bringing new
pictures into a V2 message (400, discord-api-docs#7529) or an edit of an hour-old message (30046)
posts the turn anew and takes the older message's controls away; a channel refusing V2 gets
the classic shape at once and keeps it across a restart (the store remembers it, on SQLite and
on PostgreSQL)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from PIL import Image

import render
from bot.surface.held import HOLD
from bot.surface.mediaedits import IN_A_ROW
from tests.e2e.bazaar_harness import Table, make_table, no_controls
from tests.fakediscord import CREATE_PUBLIC_THREADS, DEFAULT_BOT_PERMISSIONS, FakeDiscord, Message, RunBot

MOVE = re.compile(r"· move (\d+)")


def _version(msg: Message) -> int:
    found = MOVE.search(msg.text)
    assert found is not None, msg.text
    return int(found.group(1))


def _size(data: bytes) -> tuple[int, int]:
    size: tuple[int, int] = Image.open(io.BytesIO(data)).size
    return size


async def _play_until(table: Table, gid: int, thread: object, done: object, limit: int = 40) -> None:
    """Play moves (typed, then clicked in turn) until ``done()`` or the game ends."""
    for i in range(limit):
        if done() or (await table.stored(gid)).status != "active":  # type: ignore[operator]
            return
        await table.play_one(gid, thread, "button" if i % 2 else "move")  # type: ignore[arg-type]


async def test_a_turn_message_is_one_container_in_the_colour_of_the_seat_to_act(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 0)
    for _ in range(3):
        board = table.last_turn(thread)
        game = await table.bot.service.get(gid)
        seat = game.awaited()[0]
        user = table.user_of(game, seat)
        assert board.v2 and board.content == "" and board.embeds == []
        assert board.accent_color == render.seat_colour(seat)
        said = board.text_displays
        assert said[0].startswith(f"**{game.title}** · move {game.row.version}\n")
        assert f"<@{user.id}>" in said[0] and user.id in board.pinged_ids  # the mention pings
        assert said[-1].startswith(f"-# Pralaya — move {game.row.version}")
        # the board in the gallery, drawn without its caption strip (the text says it)
        assert [a.filename for a in board.images] == [a.filename for a in board.attachments]
        assert _size(board.images[0].data) == (1000, render.get("pralaya").board_height(2))
        assert f"bz:{gid}:0:!hand" in board.custom_ids
        await table.play_one(gid, thread)
    older = [m for m in fake.messages(thread) if "· move " in m.text][:-1]
    assert older and all(no_controls(m) and m.v2 and m.images for m in older)  # text and board kept


async def test_a_refused_v2_picture_edit_posts_the_turn_anew(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    """Editing the board in place (one player going on) brings new pictures into a V2 message:
    Discord may refuse that with 400; the bot then posts the turn as a new message and the
    board it could not edit loses its controls, its text and picture staying."""
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 0)
    refused = fake.faults.refuse_v2_media_edits()
    await _play_until(table, gid, thread, lambda: bool(refused.hits))
    assert refused.hits, "no edit in place was tried"
    edited = int(refused.hits[0].path.rstrip("/").split("/")[-1])
    row = await table.stored(gid)
    new = table.last_turn(thread)
    assert new.id != edited and _version(new) == row.version and new.v2 and new.images
    assert not no_controls(new) and f"bz:{gid}:0:!hand" in new.custom_ids
    old = fake.message(edited)
    assert no_controls(old) and old.v2 and old.images and _version(old) < row.version


async def test_an_hour_old_board_refused_an_edit_is_posted_anew(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    """Discord refuses edits of messages over an hour old beyond a rate (429 / 30046): the turn
    is posted anew; once the limit lifts the old board's controls are taken away."""
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 0)
    refused = fake.faults.refuse_old_edits(3600, times=1)
    for i in range(40):
        if refused.hits or (await table.stored(gid)).status != "active":
            break
        fake.age_messages(4000, thread)
        await table.play_one(gid, thread, "button" if i % 2 else "move")
    assert refused.hits and "/channels/" in refused.hits[0].path, refused.hits
    edited = int(refused.hits[0].path.rstrip("/").split("/")[-1])
    new = table.last_turn(thread)
    assert new.id != edited and _version(new) == (await table.stored(gid)).version
    assert no_controls(fake.message(edited)) and not no_controls(new)


@pytest.mark.both_backends
async def test_a_channel_refusing_v2_gets_the_classic_shape_and_keeps_it_after_a_restart(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, e2e_db: str
) -> None:
    """Where a V2 post is refused with 400 the turn is posted at once in the classic shape (text,
    the board with its caption strip, rows of controls); the store remembers the channel, so
    the bot does not try V2 there again, after a restart either."""
    fake = fake_discord
    table = make_table(
        fake,
        run_bot,
        tmp_path,
        bot_permissions=DEFAULT_BOT_PERMISSIONS & ~CREATE_PUBLIC_THREADS,  # the game plays in #games
        everyone_permissions=0x400 | 0x800 | 0x8000 | 0x10000 | (1 << 31),
    )
    await table.boot()
    assert table.bot.service.store.dialect == e2e_db  # the store of this run's backend
    fake.faults.refuse_v2(table.channel)
    gid, place = await table.start_game("ann", ("bob",), 0)
    assert place.id == table.channel.id
    board = table.last_turn(place)
    assert not board.v2 and board.content.startswith("**Pralaya #") and "· move 0\n" in board.content
    assert _size(board.attachments[0].data) == (1000, render.canvas_height("pralaya", 2))  # with its strip
    assert f"bz:{gid}:0:!hand" in board.custom_ids
    assert await table.bot.service.store.message_shape(place.id) == "classic"

    def v2_posts() -> int:
        return sum(
            1
            for r in fake.requests
            if r.method == "POST"
            and r.path == f"/channels/{place.id}/messages"  # not the DMs: they take V2
            and isinstance(r.json, dict)
            and int(r.json.get("flags") or 0) & 32768
        )

    tried = v2_posts()
    await table.play_one(gid, place)
    await table.play_one(gid, place, "button")
    assert v2_posts() == tried  # known classic: no V2 tried again
    await table.running.kill(release=table.bot.service.store.close)
    await table.boot(sync=False)
    await table.settle()
    await _play_until(table, gid, place, lambda: v2_posts() > tried, limit=4)
    assert v2_posts() == tried
    boards = [m for m in fake.messages(place) if "· move " in m.text]
    assert len(boards) >= 2 and not any(m.v2 for m in boards)
    assert all(no_controls(m) for m in boards[:-1]) and not no_controls(boards[-1])


async def test_a_dm_channel_refusing_v2_gets_classic_dms(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    """A player's DM channel that refuses V2: their next DM comes in the classic shape (text,
    the hand picture, its controls), and the channel is remembered as classic."""
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 0)
    ann = table.players["ann"]
    first = fake.dms(ann)[-1]
    assert first.v2 and first.images and first.accent_color is not None
    dm_channel = fake.channel(first.channel_id)
    fake.faults.refuse_v2(dm_channel)
    before = len(fake.dms(ann))
    await _play_until(table, gid, thread, lambda: len(fake.dms(ann)) > before)
    later = fake.dms(ann)[before:]
    assert later and all(not m.v2 and m.content and m.attachments for m in later)
    assert await table.bot.service.store.message_shape(dm_channel.id) == "classic"


async def _stale_click(table: Table, user: object, msg: Message, gid: int) -> str:
    """Click an action of the old message ``msg`` as ``user``; returns what the bot answered."""
    fake = table.fake
    version = _version(msg)
    button = next(
        (c for c in msg.custom_ids if c.startswith(f"bz:{gid}:{version}:") and not c.endswith(":!hand")),
        None,
    )
    if button is not None:
        h = await fake.click(user, msg, button)  # type: ignore[arg-type]
    else:
        menu = next(c for c in msg.custom_ids if c.startswith(f"bzs:{gid}:{version}"))
        first = msg.component(menu)["options"][0]["value"]
        h = await fake.select(user, msg, menu, [first])  # type: ignore[arg-type]
    await table.settle()
    return h.followups[-1].text if h.followups else h.text


async def test_hour_old_controls_discord_will_not_take_away_are_held_tried_again_or_deleted(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    """Discord's limit on edits of hour-old messages (30046) may refuse the edit that takes an old
    turn's controls away too: the message stays live and is remembered; the game's next turn
    after the hold tries again, and a click on such controls meanwhile is refused as stale and
    the message, whose edit is still refused, is deleted (not an edit: Discord allows it)."""
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 0)
    publisher = table.bot.publisher
    refused = fake.faults.refuse_old_edits(3600)
    before = table.last_turn(thread)
    fake.age_messages(4000, thread)
    await table.play_one(gid, thread)
    assert refused.hits and table.last_turn(thread).id != before.id
    assert not no_controls(fake.message(before.id)) and before.id in publisher.held
    live = {m.message_id for m in await table.bot.service.store.messages(gid, kind="turn", live=True)}
    assert before.id in live  # remembered in the store too: the next run tries again
    # a click on its controls: refused as stale, and the message goes (its edit still refused)
    game = await table.bot.service.get(gid)
    said = await _stale_click(table, table.user_of(game, game.awaited()[0]), fake.message(before.id), gid)
    assert "out of date" in said, said
    assert fake.message(before.id).deleted and before.id not in publisher.held
    assert before.id not in {m.message_id for m in await table.bot.service.store.messages(gid, live=True)}
    # another one held; once the limit lifts, the game's next turn after the hold takes its controls
    second = table.last_turn(thread)
    fake.age_messages(4000, thread)
    await table.play_one(gid, thread)
    assert second.id in publisher.held and not no_controls(fake.message(second.id))
    fake.faults.clear()
    await table.play_one(gid, thread)
    assert not no_controls(fake.message(second.id))  # not due yet: not tried again at once
    table.now.advance(HOLD + 1)
    await table.play_one(gid, thread)
    kept = fake.message(second.id)
    assert (
        no_controls(kept) and not kept.deleted and kept.v2 and kept.images and second.id not in publisher.held
    )


@pytest.mark.both_backends
async def test_a_channel_refusing_every_v2_media_edit_gets_turns_posted_anew_at_once(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, e2e_db: str
) -> None:
    """Where Discord refuses every edit bringing new pictures into a V2 message, after
    ``IN_A_ROW`` such refusals in a row in the channel the bot stops trying the edit first and
    posts each turn anew at once; the store remembers it (after a restart too)."""
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 0)
    refused = fake.faults.refuse_v2_media_edits()

    def in_thread() -> int:
        return sum(1 for r in refused.hits if f"/channels/{thread.id}/" in r.path)

    await _play_until(table, gid, thread, lambda: in_thread() >= IN_A_ROW, limit=80)
    assert in_thread() == IN_A_ROW
    assert (await table.bot.service.store.media_edits(thread.id))[0] == IN_A_ROW
    await table.running.kill(release=table.bot.service.store.close)
    await table.boot(sync=False)
    await table.settle()
    # the same people going on (an edit in place before) now get a new message each, untried
    moves = len(await table.bot.service.store.moves(gid))
    await _play_until(table, gid, thread, lambda: False, limit=12)
    log = [m.seat for m in await table.bot.service.store.moves(gid)][moves - 1 :]
    assert any(a == b for a, b in zip(log, log[1:], strict=False)), log  # a seat went on
    assert in_thread() == IN_A_ROW
    row = await table.stored(gid)
    boards = [m for m in fake.messages(thread) if "· move " in m.text and not m.deleted]
    assert _version(boards[-1]) == row.version and not no_controls(boards[-1])
