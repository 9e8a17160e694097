"""``/settings``: a server's own Bazaar settings, shown to anyone and changed by members with
Manage Server. Today one: ``confirm`` (``on``, ``off`` or ``default``), whether moves that cannot be
taken back are put to their player as a private Confirm/Cancel first (:mod:`.confirm`); unset,
the bot's ``BAZAAR_CONFIRM`` holds. Kept in the store per server (``service.posts.guild_confirm``), so every
process of the bot reads the same."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from ..host.live import Refusal
from .handling import bot_of, can_manage, guard, reply

CONFIRM = {"on": True, "off": False, "default": None}


def _said(value: bool) -> str:
    return "**on**" if value else "**off**"


async def settings(interaction: discord.Interaction, confirm: object) -> None:
    """Show this server's settings, or change ``confirm`` (Manage Server only)."""
    async with guard(interaction, "/settings"):
        guild = interaction.guild_id
        if guild is None:
            raise Refusal("Settings belong to a server: use `/settings` in one of its channels.")
        bot = bot_of(interaction)
        if confirm is not None:
            if not isinstance(confirm, str) or confirm not in CONFIRM:
                raise Refusal(f"`{str(confirm)[:20]}` is not a confirm setting: choose on, off or default.")
            if not can_manage(interaction):
                raise Refusal("Only members with **Manage Server** can change this server's settings.")
            await bot.service.posts.set_guild_confirm(guild, CONFIRM[confirm])
        own = await bot.service.posts.guild_confirm(guild)
        default = bot.config.confirm
        said = _said(default if own is None else own)
        why = (
            f"this server's setting; the bot's default is {_said(default)}"
            if own is not None
            else "the bot's default"
        )
        head = "Changed. " if confirm is not None else ""
        await reply(
            interaction,
            f"{head}Confirm before a move that cannot be taken back: {said} here ({why}).\n"
            "Change it with `/settings confirm:` on, off or default (Manage Server).",
        )


class ServerSettings(commands.Cog):
    """``/settings`` (see the module docstring)."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(
        name="settings", description="This server's Bazaar settings (changed with Manage Server)"
    )
    @app_commands.describe(confirm="ask players to confirm moves that cannot be taken back")
    @app_commands.choices(
        confirm=[
            app_commands.Choice(name="on", value="on"),
            app_commands.Choice(name="off", value="off"),
            app_commands.Choice(name="default (the bot's BAZAAR_CONFIRM)", value="default"),
        ]
    )
    @app_commands.guild_only()
    async def settings(self, interaction: discord.Interaction, confirm: str | None = None) -> None:
        await settings(interaction, confirm)


async def setup(bot: commands.Bot) -> None:
    """Add ``/settings`` to ``bot``."""
    await bot.add_cog(ServerSettings(bot))
