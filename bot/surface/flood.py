"""The flood guard at the edge: every interaction passes the user's bucket (``host.throttle``)
before any handler runs. A command or a click over the limit is answered "slow down" privately
and does nothing; an autocomplete over its own, larger limit gets no suggestions. The check runs
in the command tree (``BazaarTree.interaction_check``) and in every persistent component
(``Throttled.interaction_check``), so no handler can forget it."""

from __future__ import annotations

import contextlib
import logging

import discord
from discord import app_commands

from . import text
from .context import bazaar

log = logging.getLogger(__name__)


async def admitted(interaction: discord.Interaction) -> bool:
    """True if the user may go on; otherwise the interaction is answered and False returned."""
    bot = bazaar(interaction.client)
    user = interaction.user.id
    if interaction.type is discord.InteractionType.autocomplete:
        if bot.suggest_throttle.allow(user):
            return True
        with contextlib.suppress(discord.HTTPException):
            await interaction.response.autocomplete([])
        return False
    throttle = bot.throttle
    if throttle.allow(user):
        return True
    wait = throttle.wait(user)
    if throttle.refused % 50 == 1:
        log.info("Slowing down user %s (%d interaction(s) refused so far)", user, throttle.refused)
    try:
        await interaction.response.send_message(
            text.slow_down(wait), ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )
    except discord.HTTPException as err:
        log.info("Could not answer a throttled interaction %s: %r", interaction.id, err)
    return False


class BazaarTree(app_commands.CommandTree):
    """The command tree with the flood guard in front of every command and autocomplete."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return await admitted(interaction)


class Throttled:
    """Mixin for the persistent components: the flood guard before the callback."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return await admitted(interaction)
