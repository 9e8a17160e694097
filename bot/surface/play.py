"""Playing a game by slash command: ``/move`` (its autocomplete lists the caller's moves),
``/hand`` (the caller's private view), ``/resign`` and ``/log``. The work is in ``actions.py``."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from . import actions, inputs
from .choices import GAME_NUMBER, game_number_autocomplete, move_autocomplete


class Play(commands.Cog):
    """``/move``, ``/hand``, ``/resign`` and ``/log``."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="move", description="Play your move (autocomplete lists your legal moves)")
    @app_commands.describe(action="your move, e.g. take b4", game=GAME_NUMBER)
    @app_commands.autocomplete(action=move_autocomplete)
    @app_commands.autocomplete(game=game_number_autocomplete)
    @app_commands.guild_only()
    async def move(self, interaction: discord.Interaction, action: str, game: int | None = None) -> None:
        await actions.move(interaction, inputs.action(action), inputs.game_ref(game))

    @app_commands.command(name="hand", description="See your private view (only you see the answer)")
    @app_commands.describe(game=GAME_NUMBER)
    @app_commands.autocomplete(game=game_number_autocomplete)
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await actions.hand(interaction, inputs.game_ref(game))

    @app_commands.command(name="resign", description="Leave the game; the AI plays your seat")
    @app_commands.describe(game=GAME_NUMBER)
    @app_commands.autocomplete(game=game_number_autocomplete)
    @app_commands.guild_only()
    async def resign(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await actions.resign(interaction, inputs.game_ref(game))

    @app_commands.command(name="log", description="The last moves of the game here")
    @app_commands.describe(game=GAME_NUMBER, count="how many moves (default 15, at most 50)")
    @app_commands.autocomplete(game=game_number_autocomplete)
    @app_commands.guild_only()
    async def log(
        self,
        interaction: discord.Interaction,
        game: int | None = None,
        count: app_commands.Range[int, 1, 50] = 15,
    ) -> None:
        await actions.move_log(interaction, inputs.game_ref(game), inputs.number(count, "count", lo=1, hi=50))


async def setup(bot: commands.Bot) -> None:
    """Add ``/move``, ``/hand``, ``/resign`` and ``/log`` to ``bot``."""
    await bot.add_cog(Play(bot))
