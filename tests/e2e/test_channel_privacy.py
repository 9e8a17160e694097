"""Games in a channel a member cannot see stay out of that member's reach: `game:<number>`,
`/game list`, `/game status`, `/log` and join answer with the one "no such game here" refusal,
the same as for a number no game has."""

from __future__ import annotations

from pathlib import Path

import discord

from tests.e2e.bazaar_harness import make_table, title_id
from tests.fakediscord import FakeDiscord, RunBot


async def test_a_game_in_a_hidden_channel_is_no_game_for_those_who_cannot_see_it(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    mod = table.players["mod"]
    staff = fake.add_text_channel(
        table.guild,
        "staff",
        overwrites={
            table.guild.roles[table.guild.id]: discord.PermissionOverwrite(view_channel=False),
            mod: discord.PermissionOverwrite(view_channel=True),
            fake.bot_user: discord.PermissionOverwrite(view_channel=True),
        },
    )
    await table.boot()
    mark = fake.mark()
    h = await fake.slash(mod, staff, "game new", options={"game": "pralaya"})
    assert h.ephemeral and "Opened" in h.text, h.text
    lobby = await fake.wait_message(staff, lambda m: "lobby" in m.text, after=mark)
    gid = title_id(lobby.text)
    ann = table.players["ann"]
    hidden: list[str] = []
    nowhere: list[str] = []
    for command, values in (
        ("game status", {}),
        ("log", {}),
        ("game join", {}),
        ("move", {"action": "done"}),
    ):
        for number, out in ((gid, hidden), (gid + 1000, nowhere)):
            h = await fake.slash(ann, table.channel, command, options={**values, "game": number})
            assert h.ephemeral, (command, h.text)
            out.append(h.text.replace(f"#{number}", "#N"))
    assert hidden == nowhere and all("no game #N here" in t for t in hidden), hidden
    h = await fake.slash(ann, table.channel, "game list")
    assert f"#{gid}" not in h.text
    h = await fake.slash(mod, table.channel, "game list")
    assert f"#{gid}" in h.text  # the moderator sees the staff channel, so the game too
    assert [s.user_id for s in await table.bot.service.store.seats(gid)] == [mod.id]  # ann did not join
