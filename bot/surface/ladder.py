"""``/leaderboard`` and ``/profile``: the ratings (:mod:`bot.host.ratings`) as a picture
(:mod:`render.ratings`, drawn in a thread) and the same as text, answered in the channel."""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands
from discord.ext import commands

from engines import base
from render.png import to_png
from render.ratings import leaderboard, profile

from ..host.live import Refusal
from ..host.ratings import AI, GLOBAL, PEOPLE
from ..host.standings import board_text, profile_text
from . import inputs
from .handling import bot_of, display_name, guard, reply

Choice = app_commands.Choice
SCOPES = [Choice(name="this server", value="server"), Choice(name="all servers", value="global")]
TABLES = [Choice(name="people (no AI seat)", value=PEOPLE), Choice(name="against the AI", value=AI)]


async def game_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """The registered games whose name or title starts with what was typed."""
    typed = inputs.typed(current).strip().lower()
    return [
        Choice(name=e.title or e.name, value=e.name)
        for e in base.games()
        if e.name.startswith(typed) or (e.title or "").lower().startswith(typed)
    ][:25]


def scope_of(interaction: discord.Interaction, scope: str | None) -> int:
    """The ratings' scope asked for: this server (the default in a server) or all servers."""
    if scope not in (None, "server", "global"):
        raise Refusal(f"`{str(scope)[:20]}` is not a scope: choose `server` or `global`.")
    if scope == "global" or interaction.guild_id is None:
        return GLOBAL
    return interaction.guild_id


def as_file(img: object, name: str) -> discord.File:
    return discord.File(io.BytesIO(to_png(img)), filename=name)  # type: ignore[arg-type]


class Ladder(commands.Cog):
    """``/leaderboard`` and ``/profile``."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard", description="A game's best rated players, and your place")
    @app_commands.describe(
        game="which game",
        scope="this server's ratings (default) or across all servers",
        table="games between people (default) or games against the AI",
    )
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.choices(scope=SCOPES, table=TABLES)
    async def leaderboard(
        self, interaction: discord.Interaction, game: str, scope: str | None = None, table: str | None = None
    ) -> None:
        async with guard(interaction, "/leaderboard"):
            kind = inputs.game_kind(game)
            ladder = AI if table == AI else PEOPLE
            where = scope_of(interaction, scope)
            shown = await bot_of(interaction).service.ratings.board(
                kind, where, interaction.user.id, ladder=ladder
            )
            file = await asyncio.to_thread(
                lambda: as_file(leaderboard.draw(shown), f"leaderboard-{kind}.png")
            )
            await reply(interaction, board_text(shown), file=file, ephemeral=False)

    @app_commands.command(name="profile", description="A player's ratings, trend and last rated games")
    @app_commands.describe(
        user="whose profile (default: yours)", scope="this server (default) or all servers"
    )
    @app_commands.choices(scope=SCOPES)
    async def profile(
        self, interaction: discord.Interaction, user: discord.User | None = None, scope: str | None = None
    ) -> None:
        async with guard(interaction, "/profile"):
            who = user or interaction.user
            name = display_name(interaction) if who.id == interaction.user.id else who.display_name
            where = scope_of(interaction, scope)
            card = await bot_of(interaction).service.ratings.profile(who.id, where, name)
            file = await asyncio.to_thread(lambda: as_file(profile.draw(card), f"profile-{who.id}.png"))
            await reply(interaction, profile_text(card), file=file, ephemeral=False)


async def setup(bot: commands.Bot) -> None:
    """Add ``/leaderboard`` and ``/profile`` to ``bot``."""
    await bot.add_cog(Ladder(bot))
