"""``/rules game:<g>``: the game's rules card (a picture drawn by the renderer from the engine's
data, :mod:`render.rulescard`), its text summary and options, and a button that opens the guided
game (:mod:`.learning`)."""

from __future__ import annotations

import io
import logging

import discord

import render.rulescard
from engines import base

from . import text
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
