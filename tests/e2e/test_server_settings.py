"""``/settings confirm``: a server's own switch for Confirm before irreversible moves, stored per
server. Unset, the bot's ``BAZAAR_CONFIRM`` holds; ``off`` plays such a move at once although the
bot asks by default, ``on`` asks although the bot does not, ``default`` goes back to the bot's.
Only Manage Server changes it (anyone may read it); a forged value is refused, nothing changed."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.bazaar_harness import Table, make_table
from tests.e2e.test_confirm import _until_irreversible
from tests.fakediscord import Channel, FakeDiscord, RunBot


async def _settings(table: Table, who: str, confirm: str | None = None) -> str:
    values = {} if confirm is None else {"confirm": confirm}
    h = await table.fake.slash(table.players[who], table.channel, "settings", options=values)
    await table.settle()
    assert h.ephemeral, h
    return h.text


async def _irreversible_move(table: Table, gid: int, place: Channel) -> tuple[str, int, int]:
    """Ann types an irreversible move; returns what she was answered, and the moves before/after."""
    _, action, _ = await _until_irreversible(table, gid, place)
    n = len(await table.db_moves(gid))
    h = await table.fake.slash(table.players["ann"], place, "move", action=action)
    await table.settle()
    return h.text, n, len(await table.db_moves(gid))


async def test_a_server_turns_confirm_off_and_back_to_the_bots_default(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    table = make_table(fake_discord, run_bot, tmp_path)
    table.confirm = True  # BAZAAR_CONFIRM on
    await table.boot()
    guild = table.guild.id
    said = await _settings(table, "ann")
    assert "**on** here (the bot's default)" in said, said
    # a member without Manage Server cannot change it; a forged value is refused
    said = await _settings(table, "ann", confirm="off")
    assert "Manage Server" in said and await table.bot.service.store.guild_confirm(guild) is None, said
    h = await fake_discord.slash(
        table.players["mod"],
        table.channel,
        "settings",
        raw_options=[{"type": 3, "name": "confirm", "value": "maybe"}],
    )
    await table.settle()
    assert (
        "is not a confirm setting" in h.text and await table.bot.service.store.guild_confirm(guild) is None
    ), h.text
    said = await _settings(table, "mod", confirm="off")
    assert (
        said.startswith("Changed.")
        and "**off** here (this server's setting; the bot's default is **on**)" in said
    )
    assert await table.bot.service.store.guild_confirm(guild) is False
    gid, place = await table.start_game("ann", (), 2, game="kathai")
    answer, before, after = await _irreversible_move(table, gid, place)
    assert answer.startswith("✅ Played") and after > before, answer  # not asked: played
    said = await _settings(table, "mod", confirm="default")
    assert (
        "**on** here (the bot's default)" in said
        and await table.bot.service.store.guild_confirm(guild) is None
    )
    answer, before, after = await _irreversible_move(table, gid, place)
    assert "⚠️" in answer and after == before, answer  # asked again, nothing played


async def test_a_server_turns_confirm_on_where_the_bot_does_not_ask_and_keeps_it(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    table = make_table(fake_discord, run_bot, tmp_path)  # BAZAAR_CONFIRM off
    await table.boot()
    said = await _settings(table, "mod", confirm="on")
    assert "**on** here (this server's setting; the bot's default is **off**)" in said, said
    await table.running.kill(release=table.bot.service.store.close)
    await table.boot(sync=False)  # the setting is the store's, not the process's
    gid, place = await table.start_game("ann", (), 2, game="kathai")
    answer, before, after = await _irreversible_move(table, gid, place)
    assert "⚠️" in answer and after == before, answer
