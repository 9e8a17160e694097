"""Self-tests of the fake Discord's Components V2: layout messages sent by a real discord.py client,
each of Discord's rules refused with its error, media references, the edit refusals, modals with
labels, and application emojis."""

from __future__ import annotations

import io
import json
from typing import Any

import aiohttp
import discord
import pytest
from PIL import Image

from tests.fakediscord import FakeDiscord, FakeDiscordError

V2 = 1 << 15


def png(width: int = 3, height: int = 2) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(out, "PNG")
    return out.getvalue()


BOARD = png(3, 2)


class CardView(discord.ui.LayoutView):
    """One turn's message: a container with text, the board, a section with a button, a select."""

    def __init__(self, bot: V2Bot, *, image: str = "board.png", accent: int = 0x3366FF) -> None:
        super().__init__(timeout=None)
        self.bot = bot
        play: discord.ui.Button[CardView] = discord.ui.Button(label="Play", custom_id="v2:play")
        play.callback = self.on_play  # type: ignore[method-assign]
        pick: discord.ui.Select[CardView] = discord.ui.Select(
            custom_id="v2:pick", options=[discord.SelectOption(label=x, value=x) for x in "abc"]
        )
        pick.callback = self.on_pick  # type: ignore[method-assign]
        self.pick = pick
        self.add_item(
            discord.ui.Container(
                discord.ui.TextDisplay("## Turn 3\nalice to move"),
                discord.ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{image}")),
                discord.ui.Section(discord.ui.TextDisplay("Your hand"), accessory=play),
                discord.ui.Separator(),
                discord.ui.ActionRow(pick),
                accent_colour=accent,
            )
        )

    async def on_play(self, interaction: discord.Interaction) -> None:
        self.bot.events.append(("play", interaction.user.id))
        await interaction.response.send_message("played", ephemeral=True)

    async def on_pick(self, interaction: discord.Interaction) -> None:
        self.bot.events.append(("pick", self.pick.values))
        await interaction.response.defer()


class FormModal(discord.ui.Modal, title="New game"):
    """A modal of labelled fields of every kind discord.py 2.7 sends."""

    def __init__(self, bot: V2Bot) -> None:
        super().__init__()
        self.bot = bot
        self.name: discord.ui.TextInput[FormModal] = discord.ui.TextInput(custom_id="f:name", max_length=20)
        self.game: discord.ui.Select[FormModal] = discord.ui.Select(
            custom_id="f:game", options=[discord.SelectOption(label=g, value=g) for g in ("ra", "kathai")]
        )
        self.seats: discord.ui.RadioGroup[FormModal] = discord.ui.RadioGroup(
            custom_id="f:seats",
            options=[discord.RadioGroupOption(label=str(n), value=str(n)) for n in (2, 3, 4)],
        )
        self.extras: discord.ui.CheckboxGroup[FormModal] = discord.ui.CheckboxGroup(
            custom_id="f:extras",
            required=False,
            options=[discord.CheckboxGroupOption(label=x, value=x) for x in ("clock", "ai", "hints")],
        )
        self.ranked: discord.ui.Checkbox[FormModal] = discord.ui.Checkbox(custom_id="f:ranked")
        for text, item in (
            ("Name", self.name),
            ("Game", self.game),
            ("Seats", self.seats),
            ("Extras", self.extras),
            ("Ranked", self.ranked),
        ):
            self.add_item(discord.ui.Label(text=text, component=item))

    async def on_submit(self, interaction: discord.Interaction) -> None:
        self.bot.forms.append(
            (self.name.value, self.game.values, self.seats.value, self.extras.values, self.ranked.value)
        )
        await interaction.response.send_message("created", ephemeral=True)


class PickModal(discord.ui.Modal, title="Offer"):
    """A modal opened from a button, with user and role selects; it updates the clicked message."""

    def __init__(self, bot: V2Bot) -> None:
        super().__init__()
        self.bot = bot
        self.who: discord.ui.UserSelect[PickModal] = discord.ui.UserSelect(custom_id="p:who")
        self.role: discord.ui.RoleSelect[PickModal] = discord.ui.RoleSelect(
            custom_id="p:role", required=False
        )
        self.add_item(discord.ui.Label(text="To whom", component=self.who))
        self.add_item(discord.ui.Label(text="Which role", component=self.role))

    async def on_submit(self, interaction: discord.Interaction) -> None:
        self.bot.forms.append(([u.id for u in self.who.values], [r.id for r in self.role.values]))
        await interaction.response.edit_message(content="offered", view=None)


class AskView(discord.ui.View):
    def __init__(self, bot: V2Bot) -> None:
        super().__init__(timeout=None)
        self.bot = bot

    @discord.ui.button(label="Offer", custom_id="v2:offer")
    async def offer(self, interaction: discord.Interaction, button: discord.ui.Button[AskView]) -> None:
        await interaction.response.send_modal(PickModal(self.bot))


class V2Bot(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = discord.app_commands.CommandTree(self)
        self.events: list[Any] = []
        self.forms: list[Any] = []

        @self.tree.command(description="post a turn card")
        async def card(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(
                view=CardView(self), file=discord.File(io.BytesIO(BOARD), "board.png")
            )

        @self.tree.command(description="open the new-game form")
        async def form(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(FormModal(self))

        @self.tree.command(description="post a turn card after thinking")
        async def late_card(interaction: discord.Interaction) -> None:
            await interaction.response.defer()
            board = discord.File(io.BytesIO(BOARD), "board.png")
            try:
                await interaction.followup.send(view=CardView(self), file=board)
            except discord.HTTPException as exc:
                self.events.append(("refused", exc.status, exc.code))

        @self.tree.command(description="never answers")
        async def noop(interaction: discord.Interaction) -> None:
            return None


@pytest.fixture
async def world(fake_discord: FakeDiscord) -> dict[str, Any]:
    fake = fake_discord
    guild = fake.add_guild("G", channels=["games", "plain"])
    return {
        "fake": fake,
        "guild": guild,
        "chan": guild.channel("games"),
        "alice": fake.add_user("alice", guild=guild),
    }


async def start(run_bot: Any, world: dict[str, Any]) -> Any:
    runner = await run_bot(V2Bot())
    target = discord.Object(world["guild"].id)
    runner.client.tree.copy_global_to(guild=target)
    await runner.client.tree.sync(guild=target)
    return runner


async def rest(
    fake: FakeDiscord, method: str, path: str, body: Any = None, files: dict[str, bytes] | None = None
) -> tuple[int, Any]:
    """A raw request to the fake's API as the bot; returns (status, JSON body or None)."""
    headers = {"Authorization": f"Bot {fake.token}"}
    data: Any = None
    if files:
        data = aiohttp.FormData()
        data.add_field("payload_json", json.dumps(body), content_type="application/json")
        for i, (name, blob) in enumerate(files.items()):
            data.add_field(f"files[{i}]", blob, filename=name, content_type="application/octet-stream")
    async with (
        aiohttp.ClientSession() as http,
        http.request(
            method, f"{fake.base_url}/api/v10{path}", json=None if files else body, data=data, headers=headers
        ) as r,
    ):
        return r.status, (await r.json() if r.content_type == "application/json" else None)


def error_code(body: dict[str, Any]) -> str:
    """The innermost ``_errors`` code of a 50035 body."""
    node = body["errors"]
    while "_errors" not in node:
        node = next(iter(node.values()))
    return str(node["_errors"][0]["code"])


def text(content: str) -> dict[str, Any]:
    return {"type": 10, "content": content}


def button(cid: str) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": cid, "custom_id": cid}


def row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


def gallery(*urls: str) -> dict[str, Any]:
    return {"type": 12, "items": [{"media": {"url": u}} for u in urls]}


# --------------------------------------------------------------------- layout messages, real client
async def test_layout_view_posted_clicked_and_edited(world: dict[str, Any], run_bot: Any) -> None:
    fake, chan, alice = world["fake"], world["chan"], world["alice"]
    runner = await start(run_bot, world)
    h = await fake.slash(alice, chan, "card")
    msg = h.response
    assert msg is not None and msg.v2 and msg.content == "" and msg.accent_color == 0x3366FF
    assert "alice to move" in msg.text and msg.text_displays == ["## Turn 3\nalice to move", "Your hand"]
    assert msg.images == [msg.attachment("board.png")] and msg.images[0].data == BOARD
    [media] = [c for c in msg.all_components() if c["type"] == 12][0]["items"]
    board = msg.attachment("board.png")
    assert media["media"]["url"] == board.url and media["media"]["attachment_id"] == str(board.id)
    assert (media["media"]["width"], media["media"]["height"]) == (3, 2)
    ids = [c["id"] for c in msg.all_components()]
    assert (
        len(ids) == len(set(ids)) == 9
    )  # container, 2 texts, gallery, section, button, separator, row, select
    assert msg.button_labels == ["Play"] and [s["custom_id"] for s in msg.selects] == ["v2:pick"]
    await fake.click(alice, msg, "v2:play")
    await fake.select(alice, msg, "v2:pick", ["b"])
    assert runner.client.events == [("play", alice.id), ("pick", ["b"])]
    channel = runner.client.get_channel(chan.id)
    fetched = await channel.fetch_message(msg.id)
    assert fetched.flags.components_v2 and type(fetched.components[0]).__name__ == "Container"
    sent = await channel.send(
        view=CardView(runner.client, accent=0xAA0000), file=discord.File(io.BytesIO(BOARD), "board.png")
    )
    record = fake.message(sent.id)
    await sent.edit(view=CardView(runner.client, accent=0x00AA00))  # the board is kept, not re-sent
    assert record.accent_color == 0x00AA00 and [a.filename for a in record.images] == ["board.png"]
    with pytest.raises(discord.HTTPException) as info:
        await sent.edit(view=CardView(runner.client, image="missing.png"))
    assert info.value.status == 400 and info.value.code == 50035
    assert record.accent_color == 0x00AA00 and len(record.versions) == 1  # refused: nothing changed


async def test_v2_rules_refused_with_discords_errors(world: dict[str, Any]) -> None:
    fake, chan = world["fake"], world["chan"]
    path = f"/channels/{chan.id}/messages"
    container = {"type": 17, "components": [text("hi")]}
    bad: list[tuple[dict[str, Any], str]] = [
        (
            {"flags": V2, "content": "x", "components": [text("a")]},
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
        ),
        (
            {"flags": V2, "embeds": [{"title": "t"}], "components": [text("a")]},
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
        ),
        ({"components": [text("no flag")]}, "UNION_TYPE_CHOICES"),
        ({"flags": V2, "components": [text("a")] * 41}, "BASE_TYPE_MAX_LENGTH"),
        (
            {"flags": V2, "components": [text("a" * 2000), text("b" * 2001)]},
            "MAX_TEXT_DISPLAY_CONTENT_LENGTH_EXCEEDED",
        ),
        (
            {"flags": V2, "components": [{**text("a"), "id": 7}, {**text("b"), "id": 7}]},
            "COMPONENT_ID_DUPLICATED",
        ),
        (
            {
                "flags": V2,
                "components": [{"type": 9, "components": [text("a")] * 4, "accessory": button("b")}],
            },
            "BASE_TYPE_MAX_LENGTH",
        ),
        ({"flags": V2, "components": [{"type": 9, "components": [text("a")]}]}, "BASE_TYPE_REQUIRED"),
        (
            {"flags": V2, "components": [{"type": 9, "components": [text("a")], "accessory": text("x")}]},
            "UNION_TYPE_CHOICES",
        ),
        ({"flags": V2, "components": [{"type": 17, "components": [container]}]}, "UNION_TYPE_CHOICES"),
        (
            {"flags": V2, "components": [{"type": 11, "media": {"url": "https://x/y.png"}}]},
            "UNION_TYPE_CHOICES",
        ),
        (
            {"flags": V2, "components": [row(*[button(f"b{i}") for i in range(6)])]},
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
        ),
        ({"flags": V2, "components": [row(text("a"))]}, "UNION_TYPE_CHOICES"),
        ({"flags": V2, "components": [row(button("a")), row(button("a"))]}, "COMPONENT_CUSTOM_ID_DUPLICATED"),
        ({"flags": V2, "components": [gallery(*["https://x/y.png"] * 11)]}, "BASE_TYPE_MAX_LENGTH"),
        (
            {"flags": V2, "components": [gallery("attachment://missing.png")]},
            "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
        ),
        ({"flags": V2, "components": [gallery("ftp://x/y.png")]}, "URL_TYPE_INVALID_URL"),
        (
            {"flags": V2, "components": [{"type": 13, "file": {"url": "https://x/y.txt"}}]},
            "UNFURLED_MEDIA_ITEM_URL_SCHEME_INVALID",
        ),
        ({"flags": V2, "components": [{**container, "accent_color": 0x1000000}]}, "NUMBER_TYPE_MAX"),
        ({"flags": V2, "components": [{"type": 14, "spacing": 3}]}, "BASE_TYPE_CHOICES"),
        ({"flags": V2, "components": [{"type": 17, "components": []}]}, "BASE_TYPE_MIN_LENGTH"),
        (
            {"flags": V2, "components": [row({**button("e"), "emoji": {"id": "x1", "name": "e"}})]},
            "BUTTON_COMPONENT_INVALID_EMOJI",
        ),
        (
            {"components": [row({**button("e"), "emoji": {"id": "99", "name": "e"}})]},
            "BUTTON_COMPONENT_INVALID_EMOJI",
        ),
    ]
    for body, code in bad:
        status, answer = await rest(fake, "POST", path, body)
        assert (status, answer["code"], error_code(answer)) == (400, 50035, code), body
    assert fake.messages(chan) == []
    most = [text("t")] * 37 + [row(button("a"), button("b"))]  # 37 texts, a row and 2 buttons: 40
    status, answer = await rest(fake, "POST", path, {"flags": V2, "components": most})
    assert status == 200 and len(fake.messages(chan)[-1].all_components()) == 40
    status, answer = await rest(fake, "POST", path, {"flags": V2, "components": [text("t"), *most]})
    assert (status, error_code(answer)) == (400, "BASE_TYPE_MAX_LENGTH")
    full = [text("a" * 3998), {**container, "accent_color": 0xFFFFFF, "spoiler": True}]  # 4000 characters
    status, answer = await rest(fake, "POST", path, {"flags": V2, "components": full})
    assert status == 200 and answer["flags"] & V2 and fake.message(int(answer["id"])).accent_color == 0xFFFFFF
    files = {"board.png": BOARD, "rules.txt": b"rules"}
    thumb = {
        "type": 9,
        "components": [text("t")],
        "accessory": {"type": 11, "media": {"url": "attachment://board.png"}},
    }
    body = {
        "flags": V2,
        "components": [
            thumb,
            {"type": 13, "file": {"url": "attachment://rules.txt"}},
            gallery("https://e.x/a.png"),
        ],
    }
    status, answer = await rest(fake, "POST", path, body, files)
    assert status == 200, answer
    msg = fake.message(int(answer["id"]))
    assert [a.filename for a in msg.images] == ["board.png"]
    file_comp = msg.components[1]
    assert (
        file_comp["name"] == "rules.txt"
        and file_comp["size"] == 5
        and file_comp["file"]["url"].endswith("/rules.txt")
    )
    assert msg.components[2]["items"][0]["media"] == {"url": "https://e.x/a.png"}


async def test_v2_edits_keep_the_flag_and_their_media(world: dict[str, Any]) -> None:
    fake, chan = world["fake"], world["chan"]
    path = f"/channels/{chan.id}/messages"
    status, answer = await rest(
        fake, "POST", path, {"flags": V2, "components": [gallery("attachment://b.png")]}, {"b.png": BOARD}
    )
    assert status == 200
    mid = answer["id"]
    edit = f"{path}/{mid}"
    for body, code in [
        ({"flags": 0}, "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG"),
        ({"content": "back to text"}, "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"),
        (
            {"attachments": [], "components": [gallery("attachment://b.png")]},
            "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
        ),
        ({"attachments": []}, "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND"),  # the stored gallery shows it
    ]:
        status, answer = await rest(fake, "PATCH", edit, body)
        assert (status, error_code(answer)) == (400, code), body
    msg = fake.message(int(mid))
    assert msg.v2 and msg.versions == [] and msg.images[0].filename == "b.png"
    status, _ = await rest(fake, "PATCH", edit, {"components": [text("kept"), gallery("attachment://b.png")]})
    assert status == 200 and msg.text_displays == ["kept"] and msg.images[0].filename == "b.png"
    status, legacy = await rest(fake, "POST", path, {"content": "old style"})
    status, answer = await rest(
        fake, "PATCH", f"{path}/{legacy['id']}", {"flags": V2, "components": [text("new")]}
    )
    assert (status, error_code(answer)) == (400, "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2")
    status, answer = await rest(
        fake, "PATCH", f"{path}/{legacy['id']}", {"flags": V2, "content": None, "components": [text("new")]}
    )
    assert status == 200 and answer["flags"] & V2 and fake.message(int(legacy["id"])).text == "new"


# --------------------------------------------------------------------- refusals
async def test_injected_edit_refusals(world: dict[str, Any], run_bot: Any) -> None:
    fake, chan, guild = world["fake"], world["chan"], world["guild"]
    runner = await run_bot(V2Bot())
    channel = runner.client.get_channel(chan.id)
    bot = runner.client
    sent = await channel.send(view=CardView(bot), file=discord.File(io.BytesIO(BOARD), "board.png"))
    media = fake.faults.refuse_v2_media_edits()
    with pytest.raises(discord.HTTPException) as info:
        await sent.edit(
            view=CardView(bot, image="b2.png"), attachments=[discord.File(io.BytesIO(BOARD), "b2.png")]
        )
    assert (info.value.status, info.value.code) == (400, 50035) and len(media.hits) == 1
    assert fake.message(sent.id).versions == []
    await sent.edit(view=CardView(bot, accent=1))  # no upload: allowed
    fake.faults.clear()
    old = fake.faults.refuse_old_edits(3600)
    fake.age_messages(3700, chan)
    young = await channel.send("young")
    with pytest.raises(discord.HTTPException) as info:
        await sent.edit(view=CardView(bot, accent=2))
    assert (info.value.status, info.value.code) == (429, 30046) and len(old.hits) == 1
    assert fake.message(sent.id).accent_color == 1
    await young.edit(content="still young")
    fake.faults.clear()
    fake.faults.refuse_v2(chan)
    with pytest.raises(discord.HTTPException) as info:
        await channel.send(view=CardView(bot), file=discord.File(io.BytesIO(BOARD), "board.png"))
    assert (info.value.status, info.value.code) == (400, 50035)
    await channel.send("plain text still works")
    await runner.client.get_channel(guild.channel("plain").id).send(
        view=CardView(bot), file=discord.File(io.BytesIO(BOARD), "board.png")
    )
    fake.faults.refuse_v2(chan, refuse=False)
    await channel.send(view=CardView(bot), file=discord.File(io.BytesIO(BOARD), "board.png"))


async def test_refusals_on_interaction_routes(world: dict[str, Any], run_bot: Any) -> None:
    fake, chan, alice = world["fake"], world["chan"], world["alice"]
    runner = await start(run_bot, world)
    bot = runner.client
    fake.faults.refuse_v2_media_edits()
    late = await fake.slash(alice, chan, "late_card", wait=False)
    await fake.wait_for(lambda: bot.events)
    assert bot.events == [("refused", 400, 50035)] and late.response is not None and late.response.loading
    first = await fake.slash(alice, chan, "card")  # a first response with its board is no edit
    assert [a.filename for a in first.images] == ["board.png"] and "alice to move" in first.text
    fake.faults.clear()
    fake.faults.refuse_old_edits()
    sent = await bot.get_channel(chan.id).send("make an offer", view=AskView(bot))
    fake.age_messages(4000)
    click = await fake.click(alice, fake.message(sent.id), "v2:offer")  # opening a modal is no edit
    fake.allow_bot_errors = True
    await fake.submit_modal(click, {"p:who": [alice]}, wait=False)
    await fake.wait_for(lambda: fake.bot_errors)
    assert "30046" in "\n".join(fake.bot_errors) and fake.message(sent.id).content == "make an offer"


# --------------------------------------------------------------------- modals
async def test_modal_with_labels_filled_and_submitted(world: dict[str, Any], run_bot: Any) -> None:
    fake, chan, alice = world["fake"], world["chan"], world["alice"]
    runner = await start(run_bot, world)
    h = await fake.slash(alice, chan, "form")
    assert h.callback_type == 9 and h.modal is not None and h.modal["title"] == "New game"
    assert [c["type"] for c in h.modal["components"]] == [18] * 5
    assert [c["component"]["type"] for c in h.modal["components"]] == [4, 3, 21, 22, 23]
    for answers, match in [
        ({"f:nope": "x"}, "has no field"),
        ({"f:name": "x", "f:game": ["go"], "f:seats": "2"}, "no option"),
        ({"f:name": "x", "f:game": ["ra"]}, "radio group 'f:seats' is required"),
        ({"f:name": "x" * 21, "f:game": ["ra"], "f:seats": "2"}, "1..20 characters"),
        ({"f:name": "x", "f:game": ["ra"], "f:seats": "2", "f:ranked": "yes"}, "True or False"),
    ]:
        with pytest.raises(FakeDiscordError, match=match):
            await fake.submit_modal(h, answers)
    answers = {
        "f:name": "Friday",
        "f:game": ["kathai"],
        "f:seats": "3",
        "f:extras": ["clock", "hints"],
        "f:ranked": True,
    }
    sub = await fake.submit_modal(h, answers)
    assert sub.kind == "modal" and sub.callback_type == 4 and sub.content == "created" and sub.ephemeral
    assert runner.client.forms == [("Friday", ["kathai"], "3", ["clock", "hints"], True)]
    sent = {c["component"]["custom_id"]: c["component"] for c in sub.payload["data"]["components"]}
    assert sent["f:seats"]["value"] == "3" and sent["f:extras"]["values"] == ["clock", "hints"]
    assert sent["f:ranked"]["value"] is True and all(isinstance(c["id"], int) for c in sent.values())
    with pytest.raises(FakeDiscordError, match="already submitted"):
        await fake.submit_modal(h, answers)


async def test_modal_from_a_button_updates_the_message(world: dict[str, Any], run_bot: Any) -> None:
    fake, chan, alice, guild = world["fake"], world["chan"], world["alice"], world["guild"]
    runner = await start(run_bot, world)
    bob = fake.add_user("bob", guild=guild)
    role = fake.add_role(guild, "players")
    sent = await runner.client.get_channel(chan.id).send("make an offer", view=AskView(runner.client))
    click = await fake.click(alice, fake.message(sent.id), "v2:offer")
    assert click.callback_type == 9
    sub = await fake.submit_modal(click, {"p:who": [bob], "p:role": [role]})
    assert sub.callback_type == 7 and fake.message(sent.id).content == "offered"
    assert fake.message(sent.id).components == []
    assert runner.client.forms == [([bob.id], [role.id])]
    assert sub.payload["data"]["resolved"]["users"][str(bob.id)]["username"] == "bob"


async def test_bad_modals_refused(world: dict[str, Any], run_bot: Any) -> None:
    fake, chan, alice = world["fake"], world["chan"], world["alice"]
    await start(run_bot, world)
    text_input = {"type": 4, "custom_id": "t", "style": 1}
    label = {"type": 18, "label": "L", "component": text_input}
    radio = {"type": 21, "custom_id": "r", "options": [{"label": "a", "value": "a"}]}
    bad = [
        ({"custom_id": "m", "title": "x" * 46, "components": [label]}, "BASE_TYPE_BAD_LENGTH"),
        ({"custom_id": "m", "title": "t", "components": [label] * 6}, "BASE_TYPE_BAD_LENGTH"),
        (
            {"custom_id": "m", "title": "t", "components": [{**label, "label": "x" * 46}]},
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            {"custom_id": "m", "title": "t", "components": [{**label, "component": button("b")}]},
            "UNION_TYPE_CHOICES",
        ),
        (
            {"custom_id": "m", "title": "t", "components": [{**label, "component": radio}]},
            "BASE_TYPE_BAD_LENGTH",
        ),
        ({"custom_id": "m", "title": "t", "components": [label, label]}, "COMPONENT_CUSTOM_ID_DUPLICATED"),
        (
            {"custom_id": "m", "title": "t", "components": [{"type": 17, "components": [text("x")]}]},
            "UNION_TYPE_CHOICES",
        ),
        ({"custom_id": "m", "title": "t", "components": [row(text_input)]}, "BASE_TYPE_BAD_LENGTH"),
        (
            {
                "custom_id": "m",
                "title": "t",
                "components": [{**label, "component": {**text_input, "style": 3}}],
            },
            "BASE_TYPE_CHOICES",
        ),
    ]
    h = await fake.slash(alice, chan, "noop", wait=False)
    url = f"/interactions/{h.id}/{h.token}/callback"
    for data, code in bad:
        status, answer = await rest(fake, "POST", url, {"type": 9, "data": data})
        assert (status, error_code(answer)) == (400, code), data
    assert not h.acked
    old_way = row({**text_input, "custom_id": "old", "label": "The old way"})
    modal = {"custom_id": "m", "title": "t", "components": [text("Read me"), old_way, label]}
    status, _ = await rest(fake, "POST", url, {"type": 9, "data": modal})
    assert status == 204 and h.modal is not None and [c["id"] for c in h.modal["components"]] == [1, 2, 4]
    sub = await fake.submit_modal(h, {"t": "new", "old": "kept"}, wait=False)  # the bot ignores it
    sent = sub.payload["data"]
    assert sent["custom_id"] == "m" and [c["type"] for c in sent["components"]] == [10, 1, 18]
    assert sent["components"][1]["components"][0] == {"type": 4, "id": 3, "custom_id": "old", "value": "kept"}
    assert sent["components"][2]["component"] == {"type": 4, "id": 5, "custom_id": "t", "value": "new"}


# --------------------------------------------------------------------- application emojis
async def test_application_emojis(world: dict[str, Any], run_bot: Any) -> None:
    fake, chan = world["fake"], world["chan"]
    runner = await run_bot(V2Bot())
    bot = runner.client
    silk = await bot.create_application_emoji(name="silk", image=BOARD)
    assert silk.name == "silk" and fake.app_emojis[silk.id]["name"] == "silk" and await silk.read() == BOARD
    assert [e.id for e in await bot.fetch_application_emojis()] == [silk.id]
    assert (await bot.fetch_application_emoji(silk.id)).name == "silk"
    for name, image, says in [
        ("s", BOARD, "between 2 and 32"),
        ("bad-name", BOARD, "alphanumeric"),
        ("silk", BOARD, "already exists"),
        ("huge", BOARD + b"\0" * (256 * 1024), "256.0 kb"),
    ]:
        with pytest.raises(discord.HTTPException) as info:
            await bot.create_application_emoji(name=name, image=image)
        assert (info.value.status, info.value.code) == (400, 50035) and says in info.value.text, name
    assert [e["name"] for e in fake.app_emojis.values()] == ["silk"]
    gold = await bot.create_application_emoji(name="gold", image=BOARD)
    with pytest.raises(discord.HTTPException):
        await gold.edit(name="silk")
    gold = await gold.edit(name="gold_coin")
    assert fake.app_emojis[gold.id]["name"] == "gold_coin"
    channel = bot.get_channel(chan.id)
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="Pay", emoji=gold, custom_id="pay"))
    paid = fake.message((await channel.send(f"pay {gold} or <:ghost:123>", view=view)).id)
    assert paid.custom_emojis == [("gold_coin", gold.id), ("ghost", 123), ("gold_coin", gold.id)]
    assert fake.unknown_emojis(paid) == [("ghost", 123)]
    await gold.delete()
    with pytest.raises(discord.NotFound) as info:
        await bot.fetch_application_emoji(gold.id)
    assert info.value.code == 10014
    with pytest.raises(discord.HTTPException) as info:
        await channel.send("pay", view=view)  # the emoji is gone
    assert info.value.code == 50035
    for i in range(2000 - len(fake.app_emojis)):
        fake.app_emojis[-i - 1] = {"id": -i - 1, "name": f"e{i}", "animated": False}
    with pytest.raises(discord.HTTPException) as info:
        await bot.create_application_emoji(name="one_more", image=BOARD)
    assert info.value.code == 30008
