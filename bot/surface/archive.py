"""Looking back: ``/history [user]`` (a person's last games here, each with a button to replay
it), ``/replay game:<n> [move]`` (the public board at any move, stepped through with buttons and
a jump menu: :mod:`.archive_show`) and ``/stats game:<g>`` (this server's figures of a game, as
text and as a picture of bars: :mod:`render.stats`).
Every answer is private."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from engines import base
from render import stats as render_stats

from ..host import gamestats
from . import archive_show, archive_text, drawn, inputs
from .archive_views import history_view
from .choices import game_choices
from .handling import bot_of, defer, guard, reply, sees

log = logging.getLogger(__name__)


class Archive(commands.Cog):
    """``/history``, ``/replay``, and ``/stats`` offering the games registered when the cog is
    loaded."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.tree.add_command(stats_command(game_choices()))

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command("stats")

    @app_commands.command(name="history", description="A player's last games on this server, to replay")
    @app_commands.describe(user="whose games (default: yours)")
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        await history(interaction, user)

    @app_commands.command(name="replay", description="Step through a game's public board, move by move")
    @app_commands.describe(game="the game's number (see /history)", move="the move to show (default: last)")
    @app_commands.guild_only()
    async def replay(
        self,
        interaction: discord.Interaction,
        game: int,
        move: app_commands.Range[int, 0, 100000] | None = None,
    ) -> None:
        await archive_show.on_replay(interaction, game, move, new=True)


def stats_command(choices: list[app_commands.Choice[str]]) -> app_commands.Command[Any, ..., None]:
    """``/stats``, offering ``choices`` as the games."""

    @app_commands.command(name="stats", description="This server's figures for a game")
    @app_commands.describe(game="which game")
    @app_commands.choices(game=choices)
    @app_commands.guild_only()
    async def stats_(interaction: discord.Interaction, game: str) -> None:
        await stats(interaction, game)

    return stats_


async def setup(bot: commands.Bot) -> None:
    """Add ``/history``, ``/replay`` and ``/stats`` to ``bot``."""
    await bot.add_cog(Archive(bot))


async def history(interaction: discord.Interaction, user: object) -> None:
    """/history: ``user``'s (else the caller's) last games here that the caller may see."""
    bot = bot_of(interaction)
    async with guard(interaction, "/history"):
        await defer(interaction)
        who = user if isinstance(user, discord.User | discord.Member) else interaction.user
        games = await bot.service.archive.history(interaction.guild_id, who.id, sees(interaction))
        name = (getattr(who, "display_name", None) or who.name)[:60]
        await reply(interaction, archive_text.history(name, games), view=history_view(games))


async def stats(interaction: discord.Interaction, kind: object) -> None:
    """/stats: the figures of game ``kind`` on this server."""
    bot = bot_of(interaction)
    async with guard(interaction, "/stats"):
        await defer(interaction)
        engine = base.get(inputs.game_kind(kind))
        figures = await gamestats.stats(bot.service.archive, interaction.guild_id, engine.name)
        file = None
        if figures.counted:  # the bars of what the results say, drawn in a worker
            try:
                png = await drawn.job(
                    interaction.client,
                    render_stats.png,
                    engine.title,
                    archive_text.stats_summary(figures),
                    gamestats.counts(figures),
                    gamestats.levels(figures),
                )
                file = drawn.file_of(png, f"{engine.name}-stats.png")
            except Exception:
                log.exception("Drawing the /stats picture of %s failed", engine.name)
        await reply(interaction, archive_text.stats(engine.title, figures), file=file)
