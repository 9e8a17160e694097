"""Every game played to its end through Components V2 messages (moves typed and clicked in turn),
Phraya with a restart in the middle; and the My hand answer as an ephemeral V2 message, sent in
the classic shape where Discord refuses the V2 one."""

from __future__ import annotations

from pathlib import Path

import pytest

import render
from bot.host import wording
from tests.e2e.bazaar_harness import Table, make_table, no_controls
from tests.fakediscord import Channel, FakeDiscord, RunBot

GAMES = [
    # game, joiners, AI seats, options
    ("pralaya", ("bob",), 0, ""),
    ("ra", ("bob",), 0, ""),
    ("kathai", ("bob",), 1, ""),
    ("phraya", ("bob",), 1, "round_limit=8"),
]


async def _play_to_the_end(table: Table, gid: int, place: Channel, *, restart_at: int | None = None) -> int:
    """Play the awaited people's moves until the game is over; kill the bot and start it again
    after ``restart_at`` moves. Returns the moves played by people."""
    for i in range(600):
        if (await table.stored(gid)).status != "active":
            return i
        if i == restart_at:
            await table.running.kill(release=table.bot.service.store.close)
            await table.boot(sync=False)
            await table.settle()
        await table.play_one(gid, place, "button" if i % 2 else "move")
    raise AssertionError("the game did not end in 600 moves")


@pytest.mark.parametrize("game,joiners,ais,options", GAMES)
async def test_a_whole_game_through_v2_messages(
    fake_discord: FakeDiscord,
    run_bot: RunBot,
    tmp_path: Path,
    game: str,
    joiners: tuple[str, ...],
    ais: int,
    options: str,
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    extra = {"options": options} if options else {}
    gid, place = await table.start_game("ann", joiners, ais, game=game, **extra)
    played = await _play_to_the_end(table, gid, place, restart_at=12 if game == "phraya" else None)
    await table.settle()
    assert played > 0 and (await table.stored(gid)).status == "finished"
    mine = [m for m in fake.messages(place) if m.author.id == fake.bot_user.id]
    boards = [m for m in mine if "· move " in m.text]
    assert len(boards) >= 2 and all(m.v2 and m.images and m.accent_color is not None for m in boards)
    # the game is over: no controls left but the final sheet's Rematch and Replay
    assert all(no_controls(m) for m in mine if "is over" not in m.text)
    final = next(m for m in mine if "is over" in m.text)
    assert final.custom_ids == [f"bzm:{gid}", f"bzv:{gid}", f"bzrev:{gid}"]
    assert final.v2 and final.images and "Winner" in final.text and final.text_displays[-1].endswith("final")
    # each board's picture is the board alone (its caption is in the text), at the game's size
    extra_images = 2 if game == "phraya" else 1
    n = len(await table.bot.service.store.seats(gid))
    height = render.get(game).board_height(n)
    for m in boards[-3:]:
        assert len(m.images) == extra_images
        assert m.images[0].data[16:24] == (1000).to_bytes(4, "big") + height.to_bytes(4, "big")
    sheets = [m for m in mine if m.text.startswith(wording.sheet_head("")[:2])]  # "📊 …"
    assert game != "ra" or (sheets and all(m.v2 and m.images for m in sheets))  # an epoch's sheet
    dms = fake.dms(table.players["ann"])
    assert dms and any(m.v2 and m.images for m in dms)


async def test_my_hand_is_an_ephemeral_v2_answer_or_a_classic_one_where_refused(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, place = await table.start_game("ann", ("bob",), 0)
    game = await table.bot.service.get(gid)
    seat = game.awaited()[0]
    user = table.user_of(game, seat)
    panel = await table.open_hand(user, place, gid)
    assert panel.v2 and panel.images and panel.accent_color == render.seat_colour(seat)
    assert "your private view" in panel.text and panel.custom_ids  # its moves, to click
    # Discord refusing the picture in the deferred answer: the classic answer comes instead
    refused = fake.faults.refuse_v2_media_edits()
    panel = await table.open_hand(user, place, gid)
    assert refused.hits and not panel.v2 and panel.attachments and "your private view" in panel.content
    assert panel.custom_ids and all(
        c.startswith((f"bz:{gid}:", f"bzs:{gid}:", f"bzhint:{gid}:")) for c in panel.custom_ids
    )


async def test_a_move_from_my_hand_whose_edit_is_refused_answers_anew_and_clears_the_old_answer(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    """A move played from the My hand answer refreshes that answer in place; where Discord
    refuses the edit (new pictures in a V2 message, 400) the new view comes as a new ephemeral
    answer, and the old one keeps no controls nor its outdated picture (a click there would only
    be refused as stale)."""
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, place = await table.start_game("ann", ("bob",), 0)
    game = await table.bot.service.get(gid)
    seat = game.awaited()[0]
    user = table.user_of(game, seat)
    version = game.row.version
    panel = await table.open_hand(user, place, gid)
    legal = [str(a) for a in game.engine.legal_actions(game.state, seat)]
    action = next(a for a in legal if f"bz:{gid}:{version}:{a}" in panel.custom_ids)
    refused = fake.faults.refuse_v2_media_edits()  # the board's edit in place too
    h = await table.use(user, panel, gid, version, action)
    await table.settle()
    assert (await table.stored(gid)).version == version + 1  # the move was played
    assert any(r.path.endswith("/messages/@original") for r in refused.hits), refused.hits
    fresh = h.followups[-1]
    assert fresh.id != panel.id and fresh.ephemeral and fresh.visible_to == user.id
    assert fresh.v2 and fresh.images and "your private view" in fresh.text
    assert f"move {version + 1}" in fresh.text_displays[-1]
    old = fake.message(panel.id)
    assert no_controls(old) and not old.attachments and not old.deleted
    assert "below" in old.text  # it points to the new answer
