"""Complete games through real interactions: the lobby (join twice, add an AI, start), moves by
``/move`` and by the turn message's buttons/select, the final score sheet, the archived thread."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import render
from engines import base
from render.common import to_png
from tests.e2e.bazaar_harness import make_table, no_controls, replay_states
from tests.fakediscord import FakeDiscord, RunBot, User


def _png(kind: str, what: str, view: base.View, names: list[str]) -> bytes:
    return to_png(getattr(render.get(kind), what)(view, names))


async def test_full_pralaya_game_through_move_and_buttons(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    ann, bob, cy = (table.players[n] for n in ("ann", "bob", "cy"))
    gid, lobby = await table.new_game("ann", "pralaya", clock="2h")
    assert lobby.button_labels == ["Join", "Leave", "Add AI", "Start"]

    h = await fake.slash(bob, table.channel, "game join")  # join twice: a command and a button
    assert h.ephemeral and "You joined" in h.text
    await fake.click(cy, lobby, label="Join")
    h = await fake.slash(ann, table.channel, "game addbot")
    assert "Added an AI" in h.text
    await table.settle()
    assert all(n in fake.message(lobby.id).text for n in ("ann", "bob", "cy", "AI 1"))
    start = await fake.click(ann, lobby, label="Start")
    await table.settle()
    assert "has started" in start.followups[-1].text and start.followups[-1].ephemeral
    assert no_controls(fake.message(lobby.id)) and "Started" in fake.message(lobby.id).text

    thread = fake.threads[-1]
    assert thread.parent_id == table.channel.id and (thread.name or "").startswith("Pralaya #")
    first = table.last_turn(thread)
    # the start's board, or (when the game's seed seats AI 1 first) one already showing only its moves
    found = re.search(r"· move (\d+)", first.text)
    assert found is not None, first.text
    shown = int(found.group(1))
    before = await table.db_moves(gid)
    assert len(before) >= shown and all(by == "ai" for *_, by in before[:shown]), (shown, before)
    assert "My hand" in first.button_labels

    via = ["move", "button"]
    played = 0
    while (await table.stored(gid)).status == "active":
        await table.play_one(gid, thread, via[played % 2])
        played += 1
        assert played < 300
    await table.settle()

    # the end: score sheet image of the spectator view, ranking, thread archived, no live buttons
    row = await table.stored(gid)
    moves = await table.db_moves(gid)
    assert row.status == "finished" and row.version == len(moves) and row.deadline is None
    assert {by for _, _, by in moves} == {"player", "ai"} and played == sum(
        by == "player" for *_, by in moves
    )
    engine = base.get("pralaya")
    names = [s.name for s in await table.bot.service.store.seats(gid)]
    final_state = replay_states(engine, row.seed, 4, row.options, moves)[-1]
    outcome = engine.outcome(final_state)
    assert outcome is not None
    final = next(m for m in fake.messages(thread) if "is over" in m.text)
    assert "is over" in final.text and "Winner" in final.text
    winner = names[outcome.winners[0]]
    assert f"🥇 {winner}" in final.text
    assert final.attachments[0].data == _png("pralaya", "score_sheet", engine.view(final_state, None), names)
    await table.recaps_posted()  # the recap follows the sheet; then the thread is archived
    last = fake.last_message(thread)
    assert last is not None and last.attachments[0].filename == f"pralaya-{gid}-recap.gif"
    assert fake.channel(thread.id).archived
    assert all(no_controls(m) for m in fake.messages(thread) if m.id != final.id)
    assert fake.message(final.id).custom_ids == [
        f"bzm:{gid}",
        f"bzv:{gid}",
        f"bzrev:{gid}",
    ]  # Rematch, Replay, Review
    snap = await table.bot.service.store.snapshot(gid)
    assert snap is not None and snap[1] == base.state_fingerprint(final_state)


async def test_a_busy_channel_without_thread_permission_plays_in_the_channel(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    """No Create Public Threads: the game plays in the channel; two games share it."""
    from tests.fakediscord import CREATE_PUBLIC_THREADS, DEFAULT_BOT_PERMISSIONS

    fake = fake_discord
    table = make_table(
        fake,
        run_bot,
        tmp_path,
        bot_permissions=DEFAULT_BOT_PERMISSIONS & ~CREATE_PUBLIC_THREADS,
        everyone_permissions=0x400 | 0x800 | 0x8000 | 0x10000 | (1 << 31),
    )
    await table.boot()
    g1, place1 = await table.start_game("ann", ("bob",), 0)
    g2, place2 = await table.start_game("cy", (), 1)
    assert place1.id == place2.id == table.channel.id and fake.threads == []
    # /move in the shared channel goes to the caller's game
    game1 = await table.bot.service.get(g1)
    user = table.user_of(game1, game1.awaited()[0])
    other = next(u for u in (table.players["ann"], table.players["bob"]) if u is not user)
    h = await fake.slash(other, table.channel, "move", action="done")
    assert "not your turn" in h.text.lower()
    await table.play_one(g1, table.channel, "move")
    assert (await table.stored(g1)).version >= 1
    h = await fake.slash(table.players["mod"], table.channel, "game status")
    assert "Several games" in h.text and f"#{g1}" in h.text


@pytest.mark.parametrize("kind", [e.name for e in base.games()])
async def test_every_registered_game_plays_through_the_bot(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, kind: str
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    engine = base.get(kind)
    gid, place = await table.start_game("ann", ("bob",), 1 if engine.max_players > 2 else 0, game=kind)
    board = table.last_turn(place)
    assert board.attachments and board.attachments[0].filename.endswith(".png")
    for i in range(8):
        if (await table.stored(gid)).status != "active":
            break
        await table.play_one(gid, place, "button" if i % 2 else "move")
    assert (await table.stored(gid)).version >= 8
    assert fake.dms(table.players["ann"]) and fake.dms(table.players["bob"])


async def test_lobby_controls_resign_and_end_by_a_moderator(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    ann, bob, cy, mod = (table.players[n] for n in ("ann", "bob", "cy", "mod"))
    gid, lobby = await table.new_game("ann", "pralaya")

    async def click(user: User, label: str) -> str:
        h = await fake.click(user, lobby, label=label)
        await table.settle()
        return h.followups[-1].text if h.followups else ""

    assert "2–5 players" in await click(ann, "Start")
    assert await click(bob, "Join") == ""
    assert "bob" in fake.message(lobby.id).text
    assert await click(bob, "Leave") == ""
    assert "bob" not in fake.message(lobby.id).text
    assert "not in" in await click(cy, "Leave")
    await click(bob, "Join")
    assert "Only the creator" in await click(bob, "Start")
    assert "already in" in await click(bob, "Join")
    assert "has started" in await click(ann, "Start")
    thread = fake.threads[-1]

    h = await fake.slash(bob, thread, "resign")
    await table.settle()
    assert h.ephemeral and "You resigned" in h.text
    seats = await table.bot.service.store.seats(gid)
    assert seats[1].is_ai and seats[1].user_id == bob.id
    assert any("bob resigned" in m.text for m in fake.messages(thread))
    h = await fake.slash(bob, thread, "move", action="done")
    assert "You resigned" in h.text

    h = await fake.slash(mod, thread, "game end")
    await table.settle()
    assert "has been ended" in h.text
    assert (await table.stored(gid)).status == "ended"
    last = fake.last_message(thread)
    assert last is not None and "has been ended" in last.text and fake.channel(thread.id).archived
    assert all(no_controls(m) for m in fake.messages(thread))
    h = await fake.slash(ann, thread, "move", action="done")
    assert "is over" in h.text
    h = await fake.slash(ann, table.channel, "game list")
    assert "No games are open" in h.text
    h = await fake.slash(ann, thread, "log")
    assert "last moves" in h.text or "No moves" in h.text


async def test_a_game_opened_in_a_thread_plays_in_that_thread(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    own = fake.new_thread(table.channel, "our table", owner=table.players["ann"])
    table.channel = own
    await table.boot()
    gid, place = await table.start_game("ann", ("bob",), 0)
    assert place.id == own.id and [t.id for t in fake.threads] == [own.id]
    assert table.last_turn(own).attachments


async def test_a_ra_epoch_ends_with_its_score_sheet_above_the_next_board(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    """When a batch of moves scores an epoch (not the last), the renderer's interim sheet is posted
    as its own picture, and the next board comes below it."""
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, place = await table.start_game("ann", (), 2, game="ra")
    for _ in range(200):
        game = await table.bot.service.get(gid)
        if game.row.status != "active" or game.state.epoch > 1:
            break
        await table.play_one(gid, place, "move")
    assert game.state.epoch == 2
    messages = fake.messages(place)
    sheets = [i for i, m in enumerate(messages) if "Epoch 1 scoring" in m.text]
    assert len(sheets) == 1, [m.text[:60] for m in messages]
    sheet = messages[sheets[0]]
    assert sheet.attachments and sheet.attachments[0].filename.endswith("-sheet.png")
    assert sheet.attachments[0].data[:8] == b"\x89PNG\r\n\x1a\n"
    below = messages[sheets[0] + 1 :]
    assert below and "· move " in below[0].text and below[0].attachments  # the next board
    assert not any("Epoch 2 scoring" in m.text for m in messages)
