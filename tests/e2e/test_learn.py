"""``/learn``: the guided first game through the bot, in a private thread of the player's own
(by DM where the channel refuses private threads), its AI seats playing the guide's script, the
guide's words before each of the player's steps, why the suggestion is better when the player
plays something else, and resuming after a restart."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.host.guides import GUIDE
from engines import guide as guides
from tests.e2e.bazaar_harness import Table, make_table
from tests.fakediscord import Channel, FakeDiscord, RunBot, User
from tests.fakediscord.world import CREATE_PRIVATE_THREADS, DEFAULT_BOT_PERMISSIONS

SUGGESTED = re.compile(r"Suggested: `([^`]+)`")
STEP = re.compile(r"Guide, step (\d+):")


async def _learn(table: Table, user: User, game: str, channel: Channel | None = None) -> tuple[int, str]:
    """``/learn game:<game>`` by ``user``; returns the guided game's id and the answer."""
    # dealing Ra's prepared position writes its 78 moves first: a loaded machine takes seconds
    h = await table.fake.slash(user, channel or table.channel, "learn", options={"game": game}, timeout=60)
    await table.settle()
    assert h.ephemeral, h.text
    rows = [r for r in await table.bot.service.store.games(statuses=["active"]) if r.kind == game]
    mine = [r for r in rows if r.creator_id == user.id]
    assert len(mine) == 1, rows
    return mine[0].id, h.text


def _last_words(table: Table, place: Channel) -> tuple[int, str]:
    """The step number and the suggestion of the guide's newest words in ``place``."""
    said = [m for m in table.fake.messages(place) if STEP.search(m.text)]
    assert said, [m.text[:80] for m in table.fake.messages(place)]
    text = said[-1].text
    step, suggested = STEP.findall(text)[-1], SUGGESTED.findall(text)[-1]
    return int(step), suggested


async def _follow(
    table: Table, gid: int, user: User, place: Channel, steps: int, *, click: bool = False
) -> None:
    """Play the guide's suggestion ``steps`` times (typed with /move, or with ``click`` the turn
    message's controls), checking the game follows the script."""
    guide = guides.guide_for((await table.stored(gid)).kind)
    for _ in range(steps):
        row = await table.stored(gid)
        if row.status != "active":
            return
        step, suggested = _last_words(table, place)
        log = [(s, a) for s, a, _ in await table.db_moves(gid)]
        assert step == guide.step(guides.Position.of(log, guide.seat))
        if click:
            msg = await table.control(user, place, gid, row.version, suggested)
            await table.use(user, msg, gid, row.version, suggested)
        else:
            h = await table.fake.slash(user, place, "move", action=suggested)
            assert h.text.startswith("✅ Played"), h.text
        await table.settle()
        moves = [(s, a) for s, a, _ in await table.db_moves(gid)]
        assert moves == guide.moves()[: len(moves)], "the game left the script"


@pytest.mark.parametrize("game", ["pralaya", "ra", "kathai", "phraya"])
async def test_learn_opens_a_private_thread_and_guides_the_first_steps(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, game: str
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    ann = table.players["ann"]
    gid, answer = await _learn(table, ann, game)
    row = await table.stored(gid)
    assert row.thread_id is not None and f"<#{row.thread_id}>" in answer
    place = fake.channel(row.thread_id)
    assert place.type == 12 and ann.id in place.member_ids and not place.invitable  # private, ann's
    seats = await table.bot.service.store.seats(gid)
    assert [s.user_id for s in seats if not s.is_ai] == [ann.id]
    assert all(s.ai_level == GUIDE for s in seats if s.is_ai)
    first = [m for m in fake.messages(place) if "the guided first game" in m.text]
    assert first, "the guide's intro is shown"
    await _follow(table, gid, ann, place, 3)
    step, _ = _last_words(table, place)
    assert step == 4
    # the others cannot join: it is no lobby
    h = await fake.slash(table.players["bob"], table.channel, "game join", options={"game": gid})
    await table.settle()
    assert "started" in h.text or "not" in h.text.lower(), h.text


async def test_playing_off_the_script_is_explained_and_the_game_goes_on(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    ann = table.players["ann"]
    gid, _ = await _learn(table, ann, "pralaya")
    place = fake.channel((await table.stored(gid)).place_id)
    _, suggested = _last_words(table, place)
    live = await table.bot.service.get(gid)
    other = next(a for a in live.engine.legal_actions(live.state, 0) if a != suggested)
    h = await fake.slash(ann, place, "move", action=other)
    assert h.text.startswith("✅ Played"), h.text
    await table.settle()
    said = [m.text for m in fake.messages(place) if "rather than" in m.text]
    assert said and f"`{suggested}` rather than `{other}`" in said[-1] and "You left the script" in said[-1]
    assert (0, other) in [(s, a) for s, a, _ in await table.db_moves(gid)]
    step, _ = _last_words(table, place)  # the guide goes on advising
    assert step == 2 or (await table.stored(gid)).status != "active"


async def test_a_whole_guided_game_with_a_restart_in_the_middle(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    ann = table.players["ann"]
    gid, _ = await _learn(table, ann, "pralaya")
    place = fake.channel((await table.stored(gid)).place_id)
    await _follow(table, gid, ann, place, 10)
    await table.running.kill(release=table.bot.service.store.close)
    await table.boot(sync=False)
    await table.settle()
    again, answer = await _learn(table, ann, "pralaya")
    assert again == gid and "goes on" in answer
    assert any("Welcome back" in m.text for m in fake.messages(place))
    await _follow(table, gid, ann, place, 40)
    assert (await table.stored(gid)).status == "finished"
    guide = guides.guide_for("pralaya")
    assert [(s, a) for s, a, _ in await table.db_moves(gid)] == guide.moves()
    assert any("is over" in m.text for m in fake.messages(place))


async def test_ra_starts_from_the_guides_epoch_1_and_stops_at_epoch_2s_scoring(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    ann = table.players["ann"]
    gid, _ = await _learn(table, ann, "ra")
    place = fake.channel((await table.stored(gid)).place_id)
    guide = guides.guide_for("ra")
    first = next(m for m in fake.messages(place) if "· move " in m.text)
    assert guide.start_note.split(":")[0] in first.text and "Epoch 2" in first.text
    assert len(await table.db_moves(gid)) == guide.start
    await _follow(table, gid, ann, place, 40)
    assert (await table.stored(gid)).status == "ended"
    assert [(s, a) for s, a, _ in await table.db_moves(gid)] == guide.moves()[: guide.stop]
    end = [m.text for m in fake.messages(place) if "has been ended" in m.text]
    assert end and "Epoch 2 scores" in end[-1] and "end of the guided game" in end[-1]
    assert end[-1].index("Epoch 2 scores") < end[-1].index("end of the guided game")


async def test_a_channel_without_private_threads_gets_the_guided_game_by_dm(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(
        fake, run_bot, tmp_path, bot_permissions=DEFAULT_BOT_PERMISSIONS & ~CREATE_PRIVATE_THREADS
    )
    await table.boot()
    ann = table.players["ann"]
    gid, answer = await _learn(table, ann, "ra")
    assert "your DMs" in answer
    row = await table.stored(gid)
    assert row.thread_id is None and row.guild_id is None
    dm = fake.channel(row.channel_id)
    assert dm.is_dm
    step, suggested = _last_words(table, dm)
    assert step == 1 and suggested == guides.guide_for("ra").own_moves()[0]
    await _follow(table, gid, ann, dm, 2, click=True)


async def test_rules_show_the_card_and_its_button_opens_the_guided_game(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    ann = table.players["ann"]
    h = await fake.slash(ann, table.channel, "rules", options={"game": "pralaya"})
    await table.settle()
    answer = h.messages[-1]
    assert answer.ephemeral and "Pralaya" in answer.text
    (card,) = answer.images
    assert card.data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(card.data[16:20], "big"), int.from_bytes(card.data[20:24], "big")
    assert width <= 1000 and height <= 1100
    assert "bzlearn:pralaya" in answer.custom_ids
    forged = await fake.click_raw(ann, answer, "bzlearn:nosuchgame")  # old or forged: refused, nothing opened
    await table.settle()
    assert forged.messages and all(m.ephemeral for m in forged.messages), forged
    assert "not known here" in forged.text, forged.text
    assert not [r for r in await table.bot.service.store.games(statuses=["active"]) if r.creator_id == ann.id]
    click = await fake.click(ann, answer, "bzlearn:pralaya", timeout=60)
    await table.settle()
    assert "has started in" in click.text, click.text
    rows = [r for r in await table.bot.service.store.games(statuses=["active"]) if r.creator_id == ann.id]
    assert len(rows) == 1 and rows[0].kind == "pralaya" and rows[0].thread_id is not None
