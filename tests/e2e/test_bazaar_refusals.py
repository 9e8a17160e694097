"""Bad input, out-of-turn and stale actions, races and handler errors: each answered with a clear
ephemeral message, and nothing changes in the database."""

from __future__ import annotations

import asyncio
import copy
import logging
from pathlib import Path
from typing import Any

import pytest

from bot.host.live import LiveGame
from engines import base
from tests.e2e.bazaar_harness import Table, make_table, no_controls
from tests.fakediscord import Channel, FakeDiscord, RunBot, User


async def _db(table: Table, gid: int) -> tuple[Any, ...]:
    return (*(await table.db_state(gid)), await table.bot.service.store.snapshot(gid))


async def _awaited(table: Table, gid: int) -> tuple[LiveGame, int, User]:
    game = await table.bot.service.get(gid)
    seat = game.awaited()[0]
    return game, seat, table.user_of(game, seat)


async def test_autocomplete_offers_only_the_callers_legal_actions(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 1)
    game, seat, user = await _awaited(table, gid)
    other = next(u for n, u in table.players.items() if n in ("ann", "bob") and u is not user)
    legal = game.engine.legal_actions(game.state, seat)
    choices = await fake.autocomplete(user, thread, "move", focused="action", action="")
    assert [c.value for c in choices] == legal[:25]
    typed = legal[-1].split()[-1]
    filtered = await fake.autocomplete(user, thread, "move", focused="action", action=typed)
    assert filtered and {c.value for c in filtered} <= set(legal)
    assert all(typed in (c.value + c.name).lower() for c in filtered)
    assert await fake.autocomplete(other, thread, "move", focused="action", action="") == []
    assert await fake.autocomplete(table.players["cy"], thread, "move", focused="action", action="") == []
    # never more than 25
    monkeypatch.setattr(
        table.bot.service, "complete_for", lambda g, u, p: [(f"take x{i}", f"take x{i}") for i in range(40)]
    )
    assert len(await fake.autocomplete(user, thread, "move", focused="action", action="take")) == 25
    # the game and option autocompletes
    # the game is a fixed choice of the registered games (Discord refuses anything else)
    synced = {c["name"]: c for c in fake.commands[None]}
    new = next(o for o in synced["game"]["options"] if o["name"] == "new")
    for options in (new["options"], synced["rules"]["options"]):
        game_opt = next(o for o in options if o["name"] == "game")
        assert [c["value"] for c in game_opt["choices"]] == [e.name for e in base.games()]
        assert not game_opt.get("autocomplete")
    opts = await fake.autocomplete(
        user, table.channel, "game new", focused="options", options={"game": "pralaya", "options": "open"}
    )
    assert [c.value for c in opts] == ["open", "open_hands=false"]


async def test_bad_input_is_refused_ephemerally_and_changes_nothing(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    fake.add_text_channel(table.guild, "elsewhere")
    await table.boot()
    ann, bob, cy, mod = (table.players[n] for n in ("ann", "bob", "cy", "mod"))
    gid, thread = await table.start_game("ann", ("bob",), 1)
    await table.play_one(gid, thread, "move")  # so there is an older board
    game, seat, user = await _awaited(table, gid)
    other = bob if user is ann else ann
    before = await _db(table, gid)

    cases: list[tuple[User, Channel, str, dict[str, Any], str]] = [
        (other, thread, "move", {"action": game.engine.legal_actions(game.state, seat)[0]}, "not your turn"),
        (user, thread, "move", {"action": "xyzzy"}, "xyzzy"),
        (user, thread, "move", {"action": "take"}, "take"),
        (cy, thread, "move", {"action": "done"}, "not playing"),
        (user, fake.channel("elsewhere"), "move", {"action": "done"}, "no game in this channel"),
        (user, fake.channel("elsewhere"), "hand", {}, "no game in this channel"),
        (user, thread, "move", {"action": "done", "game": 999}, "no game #999"),
        (cy, table.channel, "game join", {"game": gid}, "already started"),
        (ann, thread, "game leave", {}, "/resign"),
        (ann, table.channel, "game start", {"game": gid}, "already started"),
        (ann, table.channel, "game new", {"game": "pralaya", "options": "veda_price=99"}, "between 1 and 10"),
        (ann, table.channel, "game new", {"game": "pralaya", "options": "colour=red"}, "no option `colour`"),
        (ann, table.channel, "game new", {"game": "pralaya", "options": "open_hands"}, "name=value"),
        (ann, table.channel, "game new", {"game": "pralaya", "clock": "5s"}, "at least 1 minute"),
        (ann, table.channel, "game new", {"game": "pralaya", "clock": "soon"}, "not a duration"),
        (bob, thread, "game end", {}, "Only the creator"),
        (cy, thread, "resign", {}, "not playing"),
    ]
    for who, where, command, values, needle in cases:
        h = await fake.slash(who, where, command, options=values)  # (`options` is also a command option)
        assert h.ephemeral, (command, values, h.text)
        assert needle.lower() in h.text.lower(), (command, values, h.text)
        assert "{s" not in h.text  # seat tokens are replaced by names
    await table.settle()
    assert await _db(table, gid) == before
    # no lobby was opened by the refused /game new
    assert len(await table.bot.service.store.games()) == 1


async def test_a_click_on_an_old_board_is_stale(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 1)
    first = table.last_turn(thread)
    shown = copy.deepcopy(first.components)  # what a slow client still shows
    shown_ids = list(first.custom_ids)
    game, seat, user = await _awaited(table, gid)
    action = game.engine.legal_actions(game.state, seat)[0]
    await table.play_one(gid, thread, "move")
    if table.last_turn(thread).id == first.id:  # the same player went on: the board was edited
        assert first.custom_ids and not [
            c
            for c in first.custom_ids
            if c.startswith(f"bz:{gid}:0:") and not c.endswith("!hand") or c == f"bzs:{gid}:0"
        ]
    else:
        assert no_controls(fake.message(first.id))  # the bot cleared the old buttons
    fake.message(first.id).components = shown
    before = await _db(table, gid)
    version = game.row.version
    game, seat, user2 = await _awaited(table, gid)
    if f"bz:{gid}:0:{action}" in shown_ids:
        h = await fake.click(user2, fake.message(first.id), f"bz:{gid}:0:{action}")
    else:
        h = await fake.select(user2, fake.message(first.id), f"bzs:{gid}:0", [action])
    await table.settle()
    assert h.followups and h.followups[-1].ephemeral and "out of date" in h.followups[-1].text
    assert await _db(table, gid) == before and game.row.version == version


async def test_two_moves_at_once_exactly_one_applies(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 1)
    game, seat, user = await _awaited(table, gid)
    action = game.engine.legal_actions(game.state, seat)[0]
    version, _, moves, _ = await _db(table, gid)
    a = await fake.slash(user, thread, "move", action=action, wait=False)
    b = await fake.slash(user, thread, "move", action=action, wait=False)
    await asyncio.gather(a.wait_done(), b.wait_done())
    await table.settle()
    played = [h for h in (a, b) if h.text.startswith("✅ Played")]
    assert len(played) == 1, [a.text, b.text]
    assert all(h.ephemeral for h in (a, b))
    new_moves = (await table.db_moves(gid))[moves:]
    assert [m for m in new_moves if m[2] == "player"] == [(seat, action, "player")]

    # two clicks on the same button at once: one applies, the other is stale
    game, seat, user = await _awaited(table, gid)
    action = game.engine.legal_actions(game.state, seat)[0]
    turn = await table.control(user, thread, gid, game.row.version, action)
    moves = len(await table.db_moves(gid))
    clicks = [await table.use(user, turn, gid, game.row.version, action, wait=False) for _ in range(2)]
    await asyncio.gather(*(c.wait_done() for c in clicks))
    await table.settle()
    new_moves = (await table.db_moves(gid))[moves:]
    assert [m for m in new_moves if m[2] == "player"] == [(seat, action, "player")]
    refusals = [f.text for c in clicks for f in c.followups]
    assert len(refusals) == 1 and "out of date" in refusals[0]


async def test_a_failing_handler_is_logged_with_the_game_and_answered(
    fake_discord: FakeDiscord,
    run_bot: RunBot,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 0)

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(table.bot.service, "history", broken)
    with caplog.at_level(logging.ERROR, logger="bot"):
        h = await fake.slash(table.players["ann"], thread, "log")
    assert h.ephemeral and "Sorry" in h.text and f"game #{gid}" in h.text
    assert f"Error in /log (game {gid}" in caplog.text and "disk on fire" in caplog.text


async def test_the_token_never_reaches_the_log(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 1)
    await table.play_one(gid, thread, "move")
    assert caplog.records and fake.token not in caplog.text
    assert fake.token not in repr(table.bot.config)


async def test_a_channel_the_bot_cannot_post_in_gets_a_clear_answer(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    from tests.fakediscord import SEND_MESSAGES

    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    quiet = fake.add_text_channel(table.guild, "quiet", overwrites={fake.bot_user: (0, SEND_MESSAGES)})
    await table.boot()
    h = await fake.slash(table.players["ann"], quiet, "game new", game="pralaya")
    assert h.ephemeral and "I cannot post in this channel" in h.text
    assert [g.status for g in await table.bot.service.store.games()] == ["ended"]
    assert fake.messages(quiet) == []


async def test_without_attach_files_the_game_plays_on_with_a_clear_note(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    """No Attach Files: the board is posted as text saying what is missing and how to see the
    picture (`/game status` answers privately with it); the game goes on."""
    from tests.fakediscord import ATTACH_FILES, DEFAULT_BOT_PERMISSIONS, DEFAULT_EVERYONE_PERMISSIONS

    fake = fake_discord
    table = make_table(
        fake,
        run_bot,
        tmp_path,
        bot_permissions=DEFAULT_BOT_PERMISSIONS & ~ATTACH_FILES,
        everyone_permissions=DEFAULT_EVERYONE_PERMISSIONS & ~ATTACH_FILES,
    )
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 1)
    opened = next(i for i in fake.interactions if i.label == "/game new")
    assert "Attach Files" in opened.text  # told when the lobby opens
    board = table.last_turn(thread)
    assert board.attachments == [] and "Attach Files" in board.text and "/game status" in board.text
    for i in range(3):
        await table.play_one(gid, thread, "button" if i % 2 else "move")
    assert (await table.stored(gid)).version >= 3
    assert "Attach Files" in table.last_turn(thread).text
    h = await fake.slash(table.players["ann"], thread, "game status")
    assert h.ephemeral and h.attachments  # an interaction answer needs no Attach Files
