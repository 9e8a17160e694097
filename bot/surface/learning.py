"""``/learn game:<g>``: the guided first game, played in a private thread of the player's own
(or, where the channel allows no private thread, by DM) through the normal turn messages.

The host deals and runs it (:mod:`bot.host.learning`, :mod:`bot.host.guides`); the guide's words
reach the player as the notes of the turn messages. Asking again while the guided game runs
resumes it: its turn message is posted anew where it is played, with the guide's words for the
step.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from engines import base

from ..host.learning import has_guide
from ..host.live import LiveGame, Refusal
from . import inputs, text
from .handling import QUIET, bot_of, defer, display_name, guard, remember, reply

log = logging.getLogger(__name__)


def guide_choices() -> list[app_commands.Choice[str]]:
    """The games that have a guided game, as ``/learn`` offers them."""
    return [app_commands.Choice(name=e.title, value=e.name) for e in base.games() if has_guide(e.name)][:25]


async def _private_thread(interaction: discord.Interaction, title: str) -> int | None:
    """A private thread of the interaction's channel with the player in it, or None where Discord
    refuses one (no such channel, no permission, a thread or a DM already)."""
    bot = bot_of(interaction)
    channel = interaction.channel
    if interaction.guild_id is None or interaction.channel_id is None:
        return None
    if getattr(channel, "type", None) not in (discord.ChannelType.text, None):
        return None
    try:
        data = await bot.http.start_thread_without_message(
            interaction.channel_id,
            name=f"{title} — {display_name(interaction)}"[:100],
            auto_archive_duration=10080,  # a week quiet before it is archived
            type=discord.ChannelType.private_thread.value,
            invitable=False,
        )
        thread_id = int(data["id"])
    except discord.HTTPException as err:
        log.info("/learn: no private thread in channel %s (%s)", interaction.channel_id, err.status)
        return None
    try:
        await bot.http.add_user_to_thread(thread_id, interaction.user.id)
    except discord.HTTPException as err:
        log.info("/learn: could not add the player to thread %s (%s)", thread_id, err.status)
        return None
    return thread_id


async def learn(interaction: discord.Interaction, kind: str) -> None:
    """/learn: resume the player's guided game of ``kind``, or open one."""
    bot = bot_of(interaction)
    svc = bot.service
    async with guard(interaction, "/learn"):
        await defer(interaction)
        engine = base.get(kind)

        async def open_place() -> tuple[int | None, int, int | None]:
            return await _open_place(interaction, engine.title)

        game, box = await svc.learning.learn_in(
            engine.name, interaction.user.id, display_name(interaction), open_place
        )
        remember(interaction, game)
        if box is None:
            lines = await svc.learning.resume(game)
            place = bot.get_partial_messageable(game.row.place_id, guild_id=game.row.guild_id)
            await place.send(text.clip("\n".join(lines)), allowed_mentions=QUIET)
            await reply(interaction, f"Your guided game of {engine.title} goes on in {_where(game)}.")
            return
        thread_id, guild_id = game.row.thread_id, game.row.guild_id
        if thread_id is not None:
            await bot.get_partial_messageable(thread_id, guild_id=guild_id).send(
                f"<@{interaction.user.id}>, this private thread is your guided game of {engine.title}.",
                allowed_mentions=discord.AllowedMentions(users=True),
            )
        await bot.publisher.publish(box)
        await reply(
            interaction,
            f"Your guided game of {engine.title} has started in {_where(game)}: the guide speaks "
            f"before each of your steps. `/learn game:{engine.name}` again brings you back to it.",
        )


async def _open_place(interaction: discord.Interaction, title: str) -> tuple[int | None, int, int | None]:
    """Where a new guided game of ``title`` is played: ``(guild id, channel id, thread id)`` of a
    private thread of the asker's own, else their DMs (``(None, dm id, None)``)."""
    thread_id = await _private_thread(interaction, f"Learn {title}")
    guild_id, channel_id = interaction.guild_id, interaction.channel_id
    if thread_id is None:
        try:
            dm = await interaction.user.create_dm()
            await dm.send(f"📘 Your guided game of {title} is played here.", allowed_mentions=QUIET)
        except discord.HTTPException as err:
            log.info("/learn: no DM to user %s either (%s)", interaction.user.id, err.status)
            raise Refusal(
                "I can open no private thread in this channel and cannot DM you: allow direct "
                "messages from this server's members, or use `/learn` in another channel."
            ) from None
        guild_id, channel_id = None, dm.id
    if channel_id is None:
        raise Refusal("A guided game is opened from a channel.")
    return guild_id, channel_id, thread_id


def _where(game: LiveGame) -> str:
    return f"<#{game.row.thread_id}>" if game.row.thread_id else "your DMs"


class LearnButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"bzlearn:(?P<game>[a-z_]+)",
):
    """ "Play the guided game": ``/learn`` from a button (the rules card's)."""

    def __init__(self, game: str) -> None:
        super().__init__(
            discord.ui.Button(
                label="Play the guided game",
                style=discord.ButtonStyle.primary,
                emoji="📘",
                custom_id=f"bzlearn:{game}",
            )
        )
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LearnButton:
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            kind = inputs.game_kind(self.game)
        except (Refusal, base.BadOption):  # an old or forged button: game_kind refuses it
            await reply(interaction, "That game is not known here any more.")
            return
        await learn(interaction, kind)


def learn_view(game: str) -> discord.ui.View | None:
    """A view with the button opening ``game``'s guided game, or None when it has none."""
    if not has_guide(game):
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(LearnButton(game))
    return view


class Learning(commands.Cog):
    """The ``/learn`` command and the button opening a guided game."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(LearnButton)

    @app_commands.command(name="learn", description="Play a guided first game of a game, with a guide")
    @app_commands.describe(game="which game to learn")
    @app_commands.choices(game=guide_choices())
    async def learn(self, interaction: discord.Interaction, game: str) -> None:
        await learn(interaction, inputs.game_kind(game))


async def setup(bot: commands.Bot) -> None:
    """Add ``/learn`` to ``bot``."""
    await bot.add_cog(Learning(bot))
