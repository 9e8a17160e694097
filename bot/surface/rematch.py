"""**Rematch** on a final sheet: the host opens (once) a lobby with the same seats and options
(:mod:`bot.host.rematch`); the bot posts it in the game's channel with its lobby buttons, every
person of it mentioned once, in that one message. A second click is told where the lobby is
(or, when Discord refused the first post, posts it)."""

from __future__ import annotations

import asyncio
import logging

import discord

from ..host.live import LiveGame
from ..host.store import StoreUnavailable
from . import components, inputs, text
from .handling import bot_of, checked, defer, guard, reply

log = logging.getLogger(__name__)
POSTING = asyncio.Lock()
"""One rematch click at a time in this process: a second click waits for the first one's post."""


async def on_rematch(interaction: discord.Interaction, game: object) -> None:
    """Rematch of game ``game`` (its custom id's number), asked by the clicker."""
    sent = await checked(interaction, lambda: inputs.ids(game, 0))
    if sent is None:
        return
    game_id = sent[0]
    bot = bot_of(interaction)
    async with guard(interaction, "Rematch"), POSTING:
        interaction.extras["game_id"] = game_id
        await defer(interaction)
        lobby, new = await bot.service.rematches.rematch(game_id, interaction.user.id, interaction.guild_id)
        unposted = await bot.service.rematches.unposted(lobby)
        if not new and not unposted:
            await reply(interaction, f"The rematch of game #{game_id} is open already: **{lobby.title}**.")
            return
        if not await post(
            interaction, lobby, game_id
        ):  # a lobby whose post failed is posted by the next click
            await reply(interaction, text.NO_POST)
            return
        await reply(
            interaction, f"Opened **{lobby.title}**, the rematch of game #{game_id}: the lobby is below."
        )


def invitation(lobby: LiveGame, old_id: int) -> str:
    """The rematch lobby's first post: the lobby, then each person mentioned once."""
    people = list(dict.fromkeys(f"<@{s.user_id}>" for s in lobby.seats if s.user_id is not None))
    return text.clip(f"{text.lobby(lobby)}\n🔁 Rematch of game #{old_id}: " + " ".join(people))


async def post(interaction: discord.Interaction, lobby: LiveGame, old_id: int) -> bool:
    """Post the rematch's lobby where the old game's lobby was; False if Discord refused."""
    bot = bot_of(interaction)
    row = lobby.row
    people = [discord.Object(s.user_id) for s in lobby.seats if s.user_id is not None]
    channel = bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
    try:
        msg = await channel.send(
            invitation(lobby, old_id),
            view=components.lobby_view(lobby.id),
            allowed_mentions=discord.AllowedMentions(users=people, roles=False, everyone=False),
        )
    except discord.HTTPException as err:
        log.warning("Posting the rematch lobby of game %s failed: %s", lobby.id, err)
        return False
    try:
        await bot.service.rematches.posted(lobby, msg.channel.id, msg.id)
    except StoreUnavailable:
        log.warning("The rematch lobby of game %s was posted but not recorded", lobby.id)
    return True
