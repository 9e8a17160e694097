"""Confirm before what cannot be taken back, with ``BAZAAR_CONFIRM`` on: in every game, a move
the engine names irreversible (an escape on a Dhoni, a last sun bid, a Kathai bribe or first
offer, ending a Phraya turn early) is answered with a private question and Confirm/Cancel instead
of being played. Cancel plays nothing; a forged Confirm (a move that needs no confirmation) is
refused; a Confirm survives a restart of the bot and plays the move; a second Confirm asked at
the same version is then stale and refused. With the setting off, the same move plays at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.surface import confirm
from engines import base
from tests.e2e.bazaar_harness import Table, make_table
from tests.fakediscord import Channel, FakeDiscord, Interaction, Message, RunBot

AI_SEATS = {"pralaya": 1, "ra": 1, "kathai": 2, "phraya": 1}  # beside ann, the one person


def _irreversible(engine: base.Engine, state: object, seat: int) -> tuple[str, str | None]:
    """A legal move of ``seat`` the engine names irreversible (a bribe first, where there is one;
    "" if none) and an ordinary one (None if every move is irreversible)."""
    legal = engine.legal_actions(state, seat)
    marked = [a for a in legal if engine.irreversible(state, seat, a)]
    plain = next((a for a in legal if not engine.irreversible(state, seat, a)), None)
    bribes = [a for a in marked if a.startswith("bribe ")]
    return ((bribes or marked or [""])[0], plain)


async def _until_irreversible(table: Table, gid: int, place: Channel) -> tuple[int, str, str | None]:
    """Play the person's ordinary moves (the AI's picks, which are never irreversible here, or
    the step would have stopped) until they may play an irreversible one; returns the seat,
    that move and an ordinary one."""
    for _ in range(400):
        game = await table.bot.service.get(gid)
        seat = next(s for s in game.awaited() if not game.ai_plays(s))
        marked, plain = _irreversible(game.engine, game.state, seat)
        if marked:
            return seat, marked, plain
        await table.play_one(gid, place, "move")
    raise AssertionError("no irreversible move came up")


async def _ask(table: Table, place: Channel, user_name: str, action: str) -> tuple[Interaction, Message]:
    """Type ``action`` as ``user_name``; returns the handle and the private question."""
    h = await table.fake.slash(table.players[user_name], place, "move", action=action)
    await table.settle()
    question = h.messages[-1]
    assert question.ephemeral and "⚠️" in question.content, question.content
    return h, question


@pytest.mark.parametrize("game_kind", sorted(AI_SEATS))
async def test_confirm_cancel_forged_restart_and_stale(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, game_kind: str
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    table.confirm = True
    await table.boot()
    gid, place = await table.start_game("ann", (), AI_SEATS[game_kind], game=game_kind)
    seat, action, plain = await _until_irreversible(table, gid, place)
    game = await table.bot.service.get(gid)
    assert game.seats[seat].user_id == table.players["ann"].id
    warning = game.engine.irreversible(game.state, seat, action)
    assert warning
    before = await table.db_state(gid)
    v = before[0]

    # asked, not played: the engine's warning, the move, Confirm and Cancel
    _, first = await _ask(table, place, "ann", action)
    assert game.fmt(warning) in first.content and f"Play `{action}`?" in first.content
    assert first.custom_ids == [confirm.confirm_id(gid, v, action), confirm.cancel_id(gid, v)]
    assert await table.db_state(gid) == before

    # Cancel plays nothing and takes the buttons away
    cancel = await fake.click(table.players["ann"], first, confirm.cancel_id(gid, v))
    await table.settle()
    assert cancel.callback_type == 7 and fake.message(first.id).content == confirm.CANCELLED
    assert fake.message(first.id).custom_ids == [] and await table.db_state(gid) == before

    # a forged Confirm of a move that needs none is refused, and nothing changes
    if plain is not None:
        forged = await fake.click_raw(table.players["ann"], first, confirm.confirm_id(gid, v, plain))
        await table.settle()
        assert forged.messages[-1].content == confirm.NOTHING
        assert await table.db_state(gid) == before

    # a Cancel forged onto the public board never edits the board
    board = table.last_turn(place)
    shown = (board.content, board.custom_ids)
    h = await fake.click_raw(table.players["ann"], board, confirm.cancel_id(gid, v))
    await table.settle()
    assert h.messages[-1].ephemeral and h.messages[-1].content == confirm.CANCELLED
    assert (fake.message(board.id).content, fake.message(board.id).custom_ids) == shown

    # asked twice at the same version; the bot restarts in between; the first Confirm plays
    _, second = await _ask(table, place, "ann", action)
    _, third = await _ask(table, place, "ann", action)
    await table.running.stop()
    await table.boot()
    ok = await fake.click(table.players["ann"], second, confirm.confirm_id(gid, v, action))
    await table.settle()
    moves = await table.db_moves(gid)
    assert moves[before[2]] == (seat, action, "player")
    assert fake.message(second.id).content.startswith(f"✅ Played `{action}`")
    assert fake.message(second.id).custom_ids == [] and ok.callback_type == 6

    # the other Confirm, asked at the same version, is now stale: refused, nothing played
    after = await table.db_state(gid)
    stale = await fake.click(table.players["ann"], third, confirm.confirm_id(gid, v, action))
    await table.settle()
    assert "out of date" in stale.messages[-1].content and "Nothing was played" in stale.messages[-1].content
    assert await table.db_state(gid) == after


async def test_with_the_setting_off_the_move_plays_at_once(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    table = make_table(fake_discord, run_bot, tmp_path)
    await table.boot()  # the harness's default: BAZAAR_CONFIRM off
    gid, place = await table.start_game("ann", (), 2, game="kathai")
    seat, action, _ = await _until_irreversible(table, gid, place)
    n = len(await table.db_moves(gid))
    h = await fake_discord.slash(table.players["ann"], place, "move", action=action)
    await table.settle()
    assert h.content.startswith("✅ Played"), h.content
    assert (await table.db_moves(gid))[n] == (seat, action, "player")


async def test_a_confirm_forged_onto_the_board_answers_privately_and_leaves_the_board(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    table = make_table(fake_discord, run_bot, tmp_path)
    table.confirm = True
    await table.boot()
    gid, place = await table.start_game("ann", (), 1, game="phraya")
    seat, action, _ = await _until_irreversible(table, gid, place)
    v, _, n = await table.db_state(gid)
    board = table.last_turn(place)
    h = await fake_discord.click_raw(table.players["ann"], board, confirm.confirm_id(gid, v, action))
    await table.settle()
    # the move was the caller's own to confirm: played, and said privately, not on the board
    assert (await table.db_moves(gid))[n] == (seat, action, "player")
    assert h.messages[-1].ephemeral and h.messages[-1].content.startswith(f"✅ Played `{action}`")
    assert not fake_discord.message(board.id).content.startswith("✅")
