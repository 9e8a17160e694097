"""The fake Discord routes by shard as Discord does: two real discord.py clients, shards 0 and 1
of 2, each get only the guilds of ``(guild_id >> 22) % 2 == shard`` (READY, GUILD_CREATE and
later guild events), a click in a guild reaches that guild's shard, a click in a DM reaches
shard 0, ``GET /gateway/bot`` recommends the fake's shard count, and a shard id out of range is
refused with close code 4010."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord
import pytest

from tests.fakediscord import BotRunner, FakeDiscord, FakeDiscordError
from tests.fakediscord.gateway import INVALID_SHARD


class Client(discord.Client):
    def __init__(self, shard_id: int) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(intents=intents, shard_id=shard_id, shard_count=2)
        self.clicks: list[str] = []

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        data: Mapping[str, Any] = interaction.data or {}
        self.clicks.append(str(data.get("custom_id")))
        await interaction.response.defer()


def _view(custom_id: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Go", custom_id=custom_id))
    return view


async def test_guilds_events_and_interactions_go_to_their_shard_and_dms_to_shard_0() -> None:
    fake = FakeDiscord(shard_count=2)
    await fake.start()
    runners: list[BotRunner] = []
    try:
        with fake.patch_discord():
            g0 = fake.add_guild("Zero", channels=["games"], shard=(0, 2))
            g1 = fake.add_guild("One", channels=["games"], shard=(1, 2))
            ann = fake.add_user("ann", guild=[g0, g1])
            for shard in (0, 1):
                runners.append(await BotRunner(fake, Client(shard)).start())
            c0, c1 = (r.client for r in runners)
            assert isinstance(c0, Client) and isinstance(c1, Client)
            assert [g.id for g in c0.guilds] == [g0.id] and [g.id for g in c1.guilds] == [g1.id]
            assert [s.shard for s in fake.sessions] == [(0, 2), (1, 2)]
            assert (
                fake.gateway.target(None) is fake.sessions[0]
                and fake.gateway.target(g1.id) is fake.sessions[1]
            )

            late = fake.add_text_channel(g1, "late")
            await fake.wait_for(lambda: c1.get_channel(late.id) is not None)
            assert c0.get_channel(late.id) is None  # another shard's guild event

            # a click in each guild reaches its shard; a click in a DM reaches shard 0
            for client, guild, cid in ((c0, g0, "in-zero"), (c1, g1, "in-one")):
                channel = client.get_channel(next(iter(guild.channels)))
                assert isinstance(channel, discord.TextChannel), channel
                sent = await channel.send("buttons", view=_view(cid))
                await fake.click(ann, fake.message(sent.id), cid)
            user = await c1.fetch_user(ann.id)
            dm = await (await user.create_dm()).send(
                "in a DM", view=_view("in-dm")
            )  # sent by shard 1's process
            await fake.click(ann, fake.message(dm.id), "in-dm")
            assert c0.clicks == ["in-zero", "in-dm"] and c1.clicks == ["in-one"]

            data = await c0.http.get_bot_gateway()
            assert data[0] == 2
    finally:
        for r in reversed(runners):
            await r.stop()
        await fake.close()
    fake.assert_clean()


async def test_a_shard_id_out_of_range_is_refused_with_4010() -> None:
    fake = FakeDiscord(shard_count=2)
    await fake.start()
    try:
        with fake.patch_discord():
            client = discord.Client(intents=discord.Intents.none(), shard_id=2, shard_count=2)
            with pytest.raises(FakeDiscordError, match="closed with 4010") as err:
                await BotRunner(fake, client).start()
            assert (
                isinstance(err.value.__cause__, discord.ConnectionClosed)
                and err.value.__cause__.code == INVALID_SHARD
            )
    finally:
        await fake.close()
