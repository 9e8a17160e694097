"""``/rules game:<g>``: the game's rules card (a picture drawn by the renderer from the engine's
data, :mod:`render.rulescard`), its text summary and options, and a button that opens the guided
game (:mod:`.learning`). The games offered are those registered when the cog is loaded."""

from __future__ import annotations

import io
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import render.rulescard
from engines import base

from . import inputs, text
from .choices import Choice, game_choices
from .handling import bot_of, defer, guard, reply
from .learning import learn_view

log = logging.getLogger(__name__)


async def rules(interaction: discord.Interaction, kind: str) -> None:
    """/rules: the card, the summary and options, the guided game's button."""
    bot = bot_of(interaction)
    async with guard(interaction, "/rules"):
        await defer(interaction)
        engine = base.get(kind)
        file = None
        try:
            data = await bot.workers.run(render.rulescard.png, engine.name)
            file = discord.File(io.BytesIO(data), filename=f"rules-{engine.name}.png")
        except KeyError:
            pass  # a game without a card: the text alone
        except Exception:
            log.exception("Drawing the rules card of %s failed", engine.name)
        await reply(interaction, text.rules(engine), file=file, view=learn_view(engine.name))


def rules_command(choices: list[Choice[str]]) -> app_commands.Command[Any, ..., None]:
    """``/rules``, offering ``choices`` as the games."""

    @app_commands.command(name="rules", description="A game's rules summary and options")
    @app_commands.describe(game="which game")
    @app_commands.choices(game=choices)
    async def rules_(interaction: discord.Interaction, game: str) -> None:
        await rules(interaction, inputs.game_kind(game))

    return rules_


class Rules(commands.Cog):
    """``/rules``: its games are a fixed list, made when the cog is loaded."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.tree.add_command(rules_command(game_choices()))

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command("rules")


async def setup(bot: commands.Bot) -> None:
    """Add ``/rules`` to ``bot``."""
    await bot.add_cog(Rules(bot))
