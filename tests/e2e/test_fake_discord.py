"""Self-tests of the fake Discord, driving a tiny discord.py bot defined here."""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any, Literal

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import FakeDiscord, FakeDiscordError, FakeDiscordTimeout

PNG = b"\x89PNG\r\n\x1a\n" + b"fake-image-bytes"


class JoinButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"tiny:join:(?P<game>[a-z]+)"
):
    """A restart-proof button: its state lives in the custom_id."""

    def __init__(self, game: str) -> None:
        super().__init__(
            discord.ui.Button(label="Join", style=discord.ButtonStyle.primary, custom_id=f"tiny:join:{game}")
        )
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> JoinButton:
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = interaction.client
        assert isinstance(bot, TinyBot), bot
        bot.joins.append((bot.name, self.game, interaction.user.id))
        await interaction.response.edit_message(content=f"{interaction.user.name} joined {self.game}")


class LobbyView(discord.ui.View):
    """A classic view: a callback button and a select menu."""

    def __init__(self, bot: TinyBot) -> None:
        super().__init__(timeout=None)
        self.bot = bot
        self.add_item(JoinButton("pralaya"))

    @discord.ui.button(label="Ping", custom_id="tiny:ping", style=discord.ButtonStyle.secondary)
    async def ping(self, interaction: discord.Interaction, button: discord.ui.Button[LobbyView]) -> None:
        self.bot.pings += 1
        await interaction.response.send_message("pong", ephemeral=True)

    @discord.ui.select(
        custom_id="tiny:seat",
        options=[discord.SelectOption(label=f"Seat {i}", value=str(i)) for i in range(3)],
    )
    async def seat(self, interaction: discord.Interaction, select: discord.ui.Select[LobbyView]) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content=f"seat {select.values[0]}")


class TinyBot(commands.Bot):
    """Slash commands covering every response style the fake must support."""

    def __init__(self, name: str = "tiny", intents: discord.Intents | None = None) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents or discord.Intents.default(),
            help_command=None,
        )
        self.name = name
        self.joins: list[tuple[str, str, int]] = []
        self.pings = 0
        self.dm_results: list[Any] = []
        self.late_result: list[Any] = []
        self.seen_messages: list[discord.Message] = []
        self.resumed = 0
        self._define()

    async def setup_hook(self) -> None:
        self.add_dynamic_items(JoinButton)
        self.ticker = asyncio.create_task(self._tick())  # a background job, like a turn clock
        self.closed_cleanly = False

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(0.01)

    async def close(self) -> None:
        self.closed_cleanly = True
        await super().close()

    async def on_message(self, message: discord.Message) -> None:
        self.seen_messages.append(message)

    async def on_resumed(self) -> None:
        self.resumed += 1

    def _define(self) -> None:
        tree = self.tree

        @tree.command(description="Repeat some text")
        @app_commands.describe(text="what to say", times="how often")
        async def echo(
            inter: discord.Interaction, text: str, times: app_commands.Range[int, 1, 3] = 1
        ) -> None:
            await inter.response.send_message(" ".join([text] * times))

        @tree.command(description="Only you can see this")
        async def secret(inter: discord.Interaction) -> None:
            await inter.response.send_message("for your eyes only", ephemeral=True)

        @tree.command(description="Think, then answer with a picture")
        async def slow(inter: discord.Interaction) -> None:
            await inter.response.defer(thinking=True)
            await inter.followup.send("here is the board", file=discord.File(io.BytesIO(PNG), "board.png"))

        @tree.command(description="Answer with a file at once")
        async def picture(inter: discord.Interaction) -> None:
            await inter.response.send_message(
                file=discord.File(io.BytesIO(PNG), "pic.png"),
                embed=discord.Embed(title="Board", description="turn 1"),
            )

        game = app_commands.Group(name="game", description="Games")

        @game.command(name="new", description="Open a lobby")
        async def game_new(
            inter: discord.Interaction,
            game: Literal["pralaya", "kathai"],
            players: app_commands.Range[int, 2, 5] = 3,
        ) -> None:
            await inter.response.send_message(f"lobby {game} for {players}", view=LobbyView(self))

        tree.add_command(game)

        @tree.command(description="Make a move")
        async def move(inter: discord.Interaction, action: str) -> None:
            await inter.response.send_message(f"played {action}", ephemeral=True)

        @move.autocomplete("action")
        async def move_ac(inter: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            legal = ["take 1", "take 2", "take 3", "pass"]
            return [app_commands.Choice(name=a, value=a) for a in legal if a.startswith(current)]

        @tree.command(description="DM me")
        async def dm(inter: discord.Interaction) -> None:
            try:
                view = discord.ui.View(timeout=None).add_item(JoinButton("dm"))
                await inter.user.send("your hand: 3 cards", view=view)
            except discord.Forbidden as exc:
                self.dm_results.append(exc)
                await inter.response.send_message(f"cannot DM you ({exc.code})", ephemeral=True)
            else:
                self.dm_results.append("sent")
                await inter.response.send_message("check your DMs", ephemeral=True)

        @tree.command(description="Play in a thread")
        async def table(inter: discord.Interaction) -> None:
            await inter.response.defer(ephemeral=True)
            assert isinstance(inter.channel, discord.TextChannel), inter.channel
            thread = await inter.channel.create_thread(name="table-1", type=discord.ChannelType.public_thread)
            await thread.send("game on")
            await thread.edit(archived=True)
            await inter.edit_original_response(content=f"played in {thread.mention}")

        @tree.command(description="Resolved options")
        async def who(
            inter: discord.Interaction,
            member: discord.Member,
            where: discord.TextChannel,
            file: discord.Attachment | None = None,
        ) -> None:
            size = len(await file.read()) if file else 0
            await inter.response.send_message(
                f"{member.name}/{member.guild_permissions.manage_guild} in {where.name} {size}"
            )

        @tree.command(description="Moderators only")
        @app_commands.default_permissions(manage_guild=True)
        async def admin(inter: discord.Interaction) -> None:
            await inter.response.defer(ephemeral=True)
            note = await inter.followup.send("step 1", ephemeral=True, wait=True)
            await note.edit(content="step 2", attachments=[discord.File(io.BytesIO(PNG), "p.png")])
            await inter.followup.send("public note")

        @tree.command(description="Answer too late")
        async def late(inter: discord.Interaction) -> None:
            await asyncio.sleep(0.15)
            try:
                await inter.response.send_message("too late")
            except discord.NotFound as exc:
                self.late_result.append(exc.code)


@pytest.fixture
async def world(fake_discord: FakeDiscord) -> dict[str, Any]:
    fake = fake_discord
    guild = fake.add_guild("Test Guild", channels=["games", "lounge"])
    return {
        "fake": fake,
        "guild": guild,
        "chan": guild.channel("games"),
        "alice": fake.add_user("alice", guild=guild),
        "bob": fake.add_user("bob", guild=guild),
    }


async def started(run_bot: Any, world: dict[str, Any], bot: TinyBot | None = None) -> Any:
    runner = await run_bot(bot or TinyBot())
    target = discord.Object(world["guild"].id)
    runner.client.tree.copy_global_to(guild=target)
    await runner.client.tree.sync(guild=target)
    return runner


async def test_connects_ready_with_guilds(world: dict[str, Any], run_bot: Any) -> None:
    fake, guild = world["fake"], world["guild"]
    runner = await run_bot(TinyBot())
    client = runner.client
    assert client.user.id == fake.bot_user.id and client.application_id == fake.application_id
    [g] = client.guilds
    assert g.id == guild.id and sorted(c.name for c in g.text_channels) == ["games", "lounge"]
    assert (
        g.me is not None and g.me.guild_permissions.send_messages and not g.me.guild_permissions.administrator
    )
    [session] = fake.sessions
    conn = session.connection
    # discord.py asks for zlib-stream transport compression; the fake answers plain text frames it accepts.
    assert conn.query["v"] == "10" and conn.query["encoding"] == "json"
    assert conn.query["compress"] in (
        "zlib-stream",
        "zstd-stream",
    )  # zstd when the zstandard module is present
    assert session.intents == discord.Intents.default().value
    await fake.wait_for(lambda: conn.heartbeats >= 1 and client.latency != float("inf"))
    assert [r.route for r in fake.requests[:2]] == ["GET /users/@me", "GET /oauth2/applications/@me"]
    new = fake.add_text_channel(guild, "late-channel")
    await fake.wait_for(lambda: client.get_channel(new.id) is not None)


async def test_command_tree_sync(world: dict[str, Any], run_bot: Any) -> None:
    fake, guild = world["fake"], world["guild"]
    runner = await run_bot(TinyBot())
    runner.client.tree.copy_global_to(guild=discord.Object(guild.id))
    synced = await runner.client.tree.sync(guild=discord.Object(guild.id))
    names = sorted(c["name"] for c in fake.commands[guild.id])
    assert (
        names
        == sorted(c.name for c in synced)
        == ["admin", "dm", "echo", "game", "late", "move", "picture", "secret", "slow", "table", "who"]
    )
    game = next(c for c in fake.commands[guild.id] if c["name"] == "game")
    assert (
        game["options"][0]["name"] == "new"
        and game["options"][0]["options"][0]["choices"][0]["value"] == "pralaya"
    )
    fetched = await runner.client.tree.fetch_commands(guild=discord.Object(guild.id))
    assert {c.id for c in fetched} == {c.id for c in synced}
    await runner.client.tree.sync()  # global
    assert len(fake.commands[None]) == 11 and fake.command_syncs[-1][0] is None


async def test_slash_plain_and_ephemeral(world: dict[str, Any], run_bot: Any) -> None:
    fake, chan, alice = world["fake"], world["chan"], world["alice"]
    await started(run_bot, world)
    h = await fake.slash(alice, chan, "echo", text="hi", times=2)
    assert h.callback_type == 4 and h.content == "hi hi" and not h.ephemeral
    assert h.ack_latency is not None and h.ack_latency < 3
    assert fake.messages(chan)[-1] is h.response and h.response.interaction_id == h.id
    h2 = await fake.slash(alice, chan, "secret")
    assert h2.ephemeral and h2.content == "for your eyes only"
    assert h2.response not in fake.messages(chan) and h2.response in fake.messages(
        chan, include_ephemeral=True
    )


async def test_slash_deferred_followup_and_files(world: dict[str, Any], run_bot: Any) -> None:
    fake, chan, alice = world["fake"], world["chan"], world["alice"]
    await started(run_bot, world)
    h = await fake.slash(alice, chan, "slow")
    assert h.callback_type == 5 and h.done and h.content == "here is the board"
    assert [a.filename for a in h.attachments] == ["board.png"] and h.attachments[0].data == PNG
    assert h.followups == [h.response] and not h.response.loading
    upload = fake.requests_to("POST /webhooks/{app_id}/{token}")[0]
    assert upload.files[0].filename == "board.png" and upload.json["content"] == "here is the board"
    h2 = await fake.slash(alice, chan, "picture")
    assert h2.callback_type == 4 and h2.embeds[0]["title"] == "Board" and h2.attachments[0].data == PNG
    callback = fake.requests_to("POST /interactions/{interaction_id}/{token}/callback")[-1]
    assert callback.query.get("with_response") in ("1", "true") and callback.files[0].field == "files[0]"


async def test_slash_option_checks(world: dict[str, Any], run_bot: Any) -> None:
    fake, chan, alice = world["fake"], world["chan"], world["alice"]
    await started(run_bot, world)
    with pytest.raises(FakeDiscordError, match="no slash command /nope"):
        await fake.slash(alice, chan, "nope")
    with pytest.raises(FakeDiscordError, match="unknown option"):
        await fake.slash(alice, chan, "echo", text="x", loud=True)
    with pytest.raises(FakeDiscordError, match="missing required option 'text'"):
        await fake.slash(alice, chan, "echo")
    with pytest.raises(FakeDiscordError, match="outside 1..3"):
        await fake.slash(alice, chan, "echo", text="x", times=9)
    with pytest.raises(FakeDiscordError, match="needs a subcommand"):
        await fake.slash(alice, chan, "game")
    with pytest.raises(FakeDiscordError, match="not one of the choices"):
        await fake.slash(alice, chan, "game new", game="chess")
    h = await fake.slash(alice, chan, "game new", game="kathai", players=4)
    assert h.content == "lobby kathai for 4"
    sent = h.payload["data"]["options"][0]
    assert sent["type"] == 1 and sent["name"] == "new"
    assert sent["options"][1] == {"type": 4, "name": "players", "value": 4}


async def test_autocomplete(world: dict[str, Any], run_bot: Any) -> None:
    fake, chan, alice = world["fake"], world["chan"], world["alice"]
    await started(run_bot, world)
    choices = await fake.autocomplete(alice, chan, "move", focused="action", action="ta")
    assert [c.value for c in choices] == ["take 1", "take 2", "take 3"] and choices[0].name == "take 1"
    assert await fake.autocomplete(alice, chan, "move", focused="action") != []
    with pytest.raises(FakeDiscordError, match="no autocomplete"):
        await fake.autocomplete(alice, chan, "echo", focused="text")


async def test_view_dynamic_item_and_select(world: dict[str, Any], run_bot: Any) -> None:
    fake, chan, alice, bob = world["fake"], world["chan"], world["alice"], world["bob"]
    runner = await started(run_bot, world)
    lobby = (await fake.slash(alice, chan, "game new", game="pralaya")).response
    assert sorted(lobby.custom_ids) == ["tiny:join:pralaya", "tiny:ping", "tiny:seat"]
    click = await fake.click(bob, lobby, label="Join")
    assert click.callback_type == 7 and lobby.content == "bob joined pralaya" and lobby.versions
    assert runner.client.joins == [("tiny", "pralaya", bob.id)]
    ping = await fake.click(alice, lobby, "tiny:ping")
    assert ping.ephemeral and ping.content == "pong" and runner.client.pings == 1
    pick = await fake.select(alice, lobby, "tiny:seat", ["2"])
    assert pick.callback_type == 6 and pick.done  # a deferred update is final; the edit may follow
    assert (await pick.wait_edits()) is lobby and lobby.content == "seat 2"
    with pytest.raises(FakeDiscordError, match="no option"):
        await fake.select(alice, lobby, "tiny:seat", ["9"])
    with pytest.raises(FakeDiscordError, match="no component"):
        await fake.click(alice, lobby, "tiny:missing")
    with pytest.raises(FakeDiscordError, match="cannot see ephemeral"):
        await fake.click(bob, ping.response, "x")


async def test_dm_and_closed_dms(world: dict[str, Any], run_bot: Any) -> None:
    fake, chan, alice, bob = world["fake"], world["chan"], world["alice"], world["bob"]
    runner = await started(run_bot, world)
    await fake.slash(alice, chan, "dm")
    assert [m.content for m in fake.dms(alice)] == ["your hand: 3 cards"]
    fake.close_dms(bob)
    h = await fake.slash(bob, chan, "dm")
    exc = runner.client.dm_results[-1]
    assert isinstance(exc, discord.Forbidden) and exc.code == 50007 and exc.status == 403
    assert h.content == "cannot DM you (50007)" and fake.dms(bob) == []


async def test_thread_created_and_archived(world: dict[str, Any], run_bot: Any) -> None:
    fake, chan, alice = world["fake"], world["chan"], world["alice"]
    runner = await started(run_bot, world)
    h = await fake.slash(alice, chan, "table")
    [thread] = fake.threads
    assert thread.name == "table-1" and thread.parent_id == chan.id and thread.archived and thread.type == 11
    assert [m.content for m in fake.messages(thread)] == ["game on"]
    assert h.content == f"played in <#{thread.id}>" and not h.response.loading
    await fake.wait_for(
        lambda: runner.client.get_channel(thread.id) is None
    )  # archived threads leave the cache


async def test_permissions_enforced(fake_discord: FakeDiscord, run_bot: Any) -> None:
    fake = fake_discord
    guild = fake.add_guild("Perms")
    closed = fake.add_text_channel(
        guild,
        "closed",
        overwrites={
            fake.bot_user: discord.PermissionOverwrite(send_messages=False, create_public_threads=False)
        },
    )
    runner = await run_bot(TinyBot())
    channel = runner.client.get_channel(closed.id)
    assert not channel.permissions_for(channel.guild.me).send_messages
    with pytest.raises(discord.Forbidden) as info:
        await channel.send("hello")
    assert info.value.code == 50013
    with pytest.raises(discord.Forbidden):
        await channel.create_thread(name="t", type=discord.ChannelType.public_thread)
    with pytest.raises(discord.HTTPException) as too_long:
        await channel.send("x" * 2001)
    assert too_long.value.status == 403  # still no send permission: permissions are checked before the body


async def test_message_limits_and_edits(world: dict[str, Any], run_bot: Any) -> None:
    fake, chan = world["fake"], world["chan"]
    runner = await run_bot(TinyBot())
    channel = runner.client.get_channel(chan.id)
    with pytest.raises(discord.HTTPException) as info:
        await channel.send("x" * 2001)
    assert info.value.status == 400 and info.value.code == 50035
    msg = await channel.send("v1", file=discord.File(io.BytesIO(PNG), "a.png"))
    await msg.edit(content="v2")
    record = fake.message(msg.id)
    assert record.content == "v2" and record.versions[0]["content"] == "v1"
    assert record.attachments[0].filename == "a.png"
    fetched = await channel.fetch_message(msg.id)
    assert fetched.content == "v2" and await fetched.attachments[0].read() == PNG
    history = [m.id async for m in channel.history(limit=5)]
    assert history[0] == msg.id
    await msg.delete()
    assert record.deleted and fake.messages(chan) == []
    with pytest.raises(discord.NotFound) as info:
        await channel.fetch_message(msg.id)
    assert info.value.code == 10008
    with pytest.raises(discord.NotFound) as info:
        await runner.client.http.send_message(123, params=discord.http.handle_message_parameters(content="x"))
    assert info.value.code == 10003


async def test_user_messages_reach_on_message(world: dict[str, Any], run_bot: Any) -> None:
    fake, chan, alice = world["fake"], world["chan"], world["alice"]
    runner = await run_bot(TinyBot())
    fake.send_as(alice, chan, "hello there")
    fake.send_as(alice, chan, f"{fake.bot_user.mention} hi bot")
    await fake.wait_for(lambda: len([m for m in runner.client.seen_messages if m.author.id == alice.id]) == 2)
    seen = [m.content for m in runner.client.seen_messages if m.author.id == alice.id]
    assert seen == ["", f"<@{fake.bot_user.id}> hi bot"]  # no message_content intent


async def test_unknown_route_is_detected(world: dict[str, Any], run_bot: Any) -> None:
    fake = world["fake"]
    runner = await run_bot(TinyBot())
    with pytest.raises(discord.NotFound):
        await runner.client.http.request(discord.http.Route("GET", "/nope/{x}", x=1))
    assert fake.unknown_routes == ["GET /api/v10/nope/1"]
    with pytest.raises(FakeDiscordError, match="unknown routes"):
        fake.assert_clean()
    fake.unknown_routes.clear()


async def test_ack_deadline(world: dict[str, Any], run_bot: Any) -> None:
    fake, chan, alice = world["fake"], world["chan"], world["alice"]
    runner = await started(run_bot, world)
    fake.ack_deadline = 0.05
    with pytest.raises(FakeDiscordError, match="did not respond within 0.05 s"):
        await fake.slash(alice, chan, "late")
    await fake.wait_for(lambda: runner.client.late_result)
    assert runner.client.late_result == [10062]


async def test_second_response_rejected(world: dict[str, Any], run_bot: Any) -> None:
    fake, chan, alice = world["fake"], world["chan"], world["alice"]
    await started(run_bot, world)
    h = await fake.slash(alice, chan, "echo", text="once")
    runner_http = [r for r in fake.requests if r.route and "callback" in r.route]
    assert len(runner_http) == 1 and h.callbacks == [runner_http[0].json]
    import aiohttp

    async with aiohttp.ClientSession() as session:
        url = f"{fake.base_url}/api/v10/interactions/{h.id}/{h.token}/callback"
        async with session.post(url, json={"type": 4, "data": {"content": "twice"}}) as resp:
            assert resp.status == 400 and resp.headers["Content-Type"] == "application/json"
            assert (await resp.json())["code"] == 40060


async def test_resume_after_dropped_connection(world: dict[str, Any], run_bot: Any) -> None:
    fake, chan, alice = world["fake"], world["chan"], world["alice"]
    runner = await started(run_bot, world)
    assert fake.drop_gateway() == 1
    # Sent while the bot is disconnected: buffered in the session and replayed on RESUME.
    h = await fake.slash(alice, chan, "echo", text="after drop", wait=False)
    await runner.wait_until_resumed()
    await h.wait_done()
    await fake.wait_for(lambda: runner.client.resumed == 1)
    assert h.content == "after drop" and len(fake.sessions) == 1
    assert fake.sessions[0].connection.path == "/resume"


class QuickReidentifyBot(TinyBot):
    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py waits 5 s before a non-initial IDENTIFY (rate limit); not needed against the fake."""


async def test_invalid_session_reidentifies(world: dict[str, Any], run_bot: Any) -> None:
    fake, chan, alice = world["fake"], world["chan"], world["alice"]
    runner = await started(run_bot, world, QuickReidentifyBot())
    fake.drop_gateway(resumable=False)
    await fake.wait_for(lambda: len(fake.sessions) == 2 and fake.sessions[1].connected)
    await fake.wait_for(runner.client.is_ready)
    h = await fake.slash(alice, chan, "echo", text="fresh session")
    assert h.content == "fresh session"


async def test_second_client_after_abrupt_death(world: dict[str, Any], run_bot: Any) -> None:
    fake, chan, alice, bob = world["fake"], world["chan"], world["alice"], world["bob"]
    first = await started(run_bot, world, TinyBot("first"))
    lobby = (await fake.slash(alice, chan, "game new", game="pralaya")).response
    await first.kill()
    assert first.task.done() and not fake.sessions[0].connected
    assert first.client.ticker.cancelled() and not first.client.closed_cleanly  # no shutdown code ran
    with pytest.raises(FakeDiscordTimeout):  # nobody answers while no bot runs
        await fake.click(bob, lobby, label="Join", timeout=0.2)
    second = await run_bot(TinyBot("second"))  # no re-sync: commands persist on Discord's side
    click = await fake.click(bob, lobby, label="Join")
    assert click.callback_type == 7 and second.client.joins == [("second", "pralaya", bob.id)]
    assert first.client.joins == [] and fake.sessions[-1].connected and len(fake.sessions) == 2
    h = await fake.slash(alice, chan, "echo", text="still here")
    assert h.content == "still here"


async def test_privileged_intents_refused(fake_discord: FakeDiscord, run_bot: Any) -> None:
    fake_discord.add_guild("G")
    intents = discord.Intents.default()
    intents.message_content = True
    with pytest.raises(FakeDiscordError, match="PrivilegedIntentsRequired"):
        await run_bot(TinyBot(intents=intents))


async def test_clean_stop(world: dict[str, Any], run_bot: Any) -> None:
    fake = world["fake"]
    runner = await run_bot(TinyBot())
    conn = runner.session.connection
    await runner.stop()
    assert runner.task.done() and runner.client.is_closed() and runner.client.closed_cleanly
    await fake.wait_for(lambda: conn.closed and not fake.sessions[0].connected)
    # discord.py's close() races its own reader, which closes first with 4000: the session stays resumable.
    assert conn.close_code in (1000, 4000)
    again = await run_bot(TinyBot("again"))
    assert again.client.is_ready() and len(fake.sessions) == 2


async def test_resolved_options_permissions_and_followups(world: dict[str, Any], run_bot: Any) -> None:
    fake, guild, chan, alice = world["fake"], world["guild"], world["chan"], world["alice"]
    mod = fake.add_user("mod", guild=guild, permissions=discord.Permissions(manage_guild=True))
    await started(run_bot, world)
    h = await fake.slash(
        alice, chan, "who", member=mod, where=guild.channel("lounge"), file=("f.bin", b"12345")
    )
    assert h.content == "mod/True in lounge 5"
    with pytest.raises(FakeDiscordError, match="hides /admin"):
        await fake.slash(alice, chan, "admin")
    h = await fake.slash(mod, chan, "admin")
    public = await h.wait_followups(2)
    note = h.response  # the first follow-up after a defer fills the "thinking" message
    assert (
        h.ephemeral
        and note is public[0]
        and note.content == "step 2"
        and note.versions[-1]["content"] == "step 1"
    )
    assert [a.filename for a in note.attachments] == ["p.png"]
    assert (
        public[1].content == "public note"
        and not public[1].ephemeral
        and fake.last_message(chan) is public[1]
    )


async def test_dm_interactions(world: dict[str, Any], run_bot: Any) -> None:
    fake, chan, alice = world["fake"], world["chan"], world["alice"]
    runner = await started(run_bot, world)
    await runner.client.tree.sync()  # global commands may be used in DMs
    await fake.slash(alice, chan, "dm")
    [hand] = fake.dms(alice)
    click = await fake.click(alice, hand, label="Join")
    assert click.callback_type == 7 and hand.content == "alice joined dm"
    assert runner.client.joins == [("tiny", "dm", alice.id)]
    h = await fake.slash(alice, fake.open_dm(alice), "echo", text="in private")
    assert h.payload["context"] == 1 and "guild_id" not in h.payload and h.response in fake.dms(alice)
    with pytest.raises(FakeDiscordError, match="cannot see DM"):
        await fake.click(world["bob"], hand, label="Join")


async def test_threads_members_and_replies(world: dict[str, Any], run_bot: Any) -> None:
    fake, chan, alice = world["fake"], world["chan"], world["alice"]
    runner = await run_bot(TinyBot())
    msg = await runner.client.get_channel(chan.id).send("board")
    thread = await msg.create_thread(name="from-message")
    assert thread.id == msg.id and fake.message(msg.id).thread_id == thread.id
    await thread.add_user(discord.Object(alice.id))
    assert alice.id in fake.channel(thread.id).member_ids
    reply = await msg.reply("noted")
    assert fake.message(reply.id).type == 19 and fake.message(reply.id).message_reference[
        "message_id"
    ] == str(msg.id)
    await fake.wait_for(lambda: runner.client.get_channel(thread.id) is not None)


async def test_members_intent_chunking_and_reconnect_op(fake_discord: FakeDiscord, run_bot: Any) -> None:
    fake = fake_discord
    guild = fake.add_guild("Big", channels=["a"])
    alice = fake.add_user("alice", guild=guild)
    fake.privileged_intents = discord.Intents(members=True).value
    runner = await run_bot(TinyBot(intents=discord.Intents(guilds=True, members=True)))
    assert runner.client.get_guild(guild.id).get_member(alice.id) is not None
    fake.request_reconnect()
    await runner.wait_until_resumed()
    await fake.wait_for(lambda: runner.client.resumed == 1)
