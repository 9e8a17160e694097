"""Confirm before what cannot be taken back: a move the engine names irreversible
(:mod:`bot.host.confirming`) is not played at once but answered privately with the engine's
warning and two buttons, **Confirm** and **Cancel**, as the terminal asks "[y/N]".

The buttons are persistent (:class:`discord.ui.DynamicItem`), so they work after a restart:
Confirm's custom id carries the game, the version the question was asked at and the canonical
move (``bzc:<game>:<version>:<action>``), Cancel's the game and version (``bzx:<game>:<version>``).
A Confirm whose game moved on since, or whose move is no longer one to confirm (a forged or
outdated id), is refused with the reason and nothing is played. The question is skipped where
it is turned off: a server's own setting (``/settings confirm``, :mod:`.serversettings`), else
the bot's ``BAZAAR_CONFIRM`` (:attr:`bot.host.config.Config.confirm`).
"""

from __future__ import annotations

import logging
import re
from typing import Any, Self

import discord

from engines import base

from ..host import confirming
from ..host.live import LiveGame, Refusal
from ..host.store import StoreUnavailable
from . import inputs, text
from .flood import Throttled
from .handling import QUIET, bot_of, checked, defer, guard, reply, target
from .playing import play_and_publish

log = logging.getLogger(__name__)

MAX_ID = 100  # Discord's limit of a custom id's characters

NOTHING = "There is no such move to confirm now: nothing was played. Choose your move again."
"""The answer to a Confirm whose move is not one the engine asks to confirm (a forged id)."""

CANCELLED = "Not played. Choose again."


def confirm_id(game_id: int, version: int, action: str) -> str:
    return f"bzc:{game_id}:{version}:{action}"


def cancel_id(game_id: int, version: int) -> str:
    return f"bzx:{game_id}:{version}"


async def enabled(interaction: discord.Interaction, game: LiveGame) -> bool:
    """Whether the bot asks in ``game``'s server: the server's own setting (``/settings
    confirm``), else the bot's (``BAZAAR_CONFIRM``), which also stands when the store fails."""
    bot = bot_of(interaction)
    if game.row.guild_id is None:
        return bot.config.confirm
    try:
        own = await bot.service.posts.guild_confirm(game.row.guild_id)
    except StoreUnavailable as err:
        log.warning("Reading the confirm setting of server %s: %s", game.row.guild_id, err)
        own = None
    return bot.config.confirm if own is None else own


async def ask(interaction: discord.Interaction, game: LiveGame, action: str, *, version: int | None) -> bool:
    """Put ``action`` to the caller as a private Confirm/Cancel when the engine names it
    irreversible (and the setting is on); True when asked (nothing is played then). A click
    made at another ``version`` than the game's is not asked about: the move refuses it as stale."""
    if version is not None and version != game.row.version:
        return False
    q = confirming.question(game, interaction.user.id, action)
    if q is None or not await enabled(interaction, game):
        return False
    if len(confirm_id(game.id, q.version, q.action)) > MAX_ID:
        log.info("Game %s: a move too long to confirm by a button is played at once", game.id)
        return False
    await reply(interaction, ask_text(q), view=view(game.id, q))
    return True


def ask_text(q: confirming.Question) -> str:
    """The question: the warning, then the move."""
    return text.clip(f"⚠️ {q.warning}\nPlay `{q.action}`?")


def view(game_id: int, q: confirming.Question) -> discord.ui.View:
    """Confirm and Cancel for ``q``."""
    out = discord.ui.View(timeout=None)
    out.add_item(ConfirmButton(game_id, q.version, q.action))
    out.add_item(CancelButton(game_id, q.version))
    return out


async def on_confirm(interaction: discord.Interaction, game_id: int, version: int, action: str) -> None:
    """Play the confirmed move if the game is still where it was asked and the move is still
    one to confirm; the question's message then says what was played (without buttons)."""
    sent = await checked(interaction, lambda: (*inputs.ids(game_id, version), inputs.action(action)))
    if sent is None:
        return
    game_id, version, action = sent
    interaction.extras["game_id"] = game_id
    async with guard(interaction, "confirm"):
        own = _question_message(interaction)
        await defer(interaction, component=own)
        game = await _where_asked(interaction, game_id)
        if version != game.row.version:
            raise base.StaleState(
                "This confirmation is out of date: the game has moved on since. Nothing was played."
            )
        q = confirming.question(game, interaction.user.id, action)
        if q is None or q.action != action:
            raise Refusal(NOTHING)
        played, mine = await play_and_publish(interaction, game, action, version=version)
        if not own:
            await reply(interaction, text.played(played, mine))
            return
        try:
            await interaction.edit_original_response(
                content=text.played(played, mine), view=None, allowed_mentions=QUIET
            )
        except discord.HTTPException as err:
            log.info("Showing the confirmed move of game %s failed: %s", game.id, err)


async def _where_asked(interaction: discord.Interaction, game_id: int) -> LiveGame:
    """The game of a Confirm click. The question is an ephemeral answer in the game's channel or
    thread (checked as any click there), or in a DM the bot sent the player (a click from the
    DM's controls), where the clicker must hold a seat."""
    if interaction.guild_id is not None:
        return await target(interaction, game_id, component=True)
    game = await bot_of(interaction).service.get(game_id)
    interaction.extras["names"] = game.names
    if game.seat_of(interaction.user.id) is None:
        raise Refusal(f"You are not playing in {game.title}.")
    return game


def _question_message(interaction: discord.Interaction) -> bool:
    """Whether the button was used on a private answer (the question as the bot asks it), which
    may then be edited; a forged id on another message (a public board) never edits that."""
    msg = interaction.message
    return msg is not None and msg.flags.ephemeral


async def on_cancel(interaction: discord.Interaction) -> None:
    """Nothing is played; the question's message says so, without buttons."""
    async with guard(interaction, "cancel"):
        if _question_message(interaction):
            await interaction.response.edit_message(content=CANCELLED, view=None)
        else:
            await reply(interaction, CANCELLED)


class ConfirmButton(
    Throttled,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"bzc:(?P<game>[0-9]+):(?P<version>[0-9]+):(?P<action>.+)",
):
    """Confirm: plays the move of its custom id (see :func:`on_confirm`)."""

    def __init__(self, game_id: int, version: int, action: str) -> None:
        super().__init__(
            discord.ui.Button(
                label="Confirm",
                style=discord.ButtonStyle.danger,
                custom_id=confirm_id(game_id, version, action),
            )
        )
        self.game_id, self.version, self.action = game_id, version, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["game"]), int(match["version"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await on_confirm(interaction, self.game_id, self.version, self.action)


class CancelButton(
    Throttled,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"bzx:(?P<game>[0-9]+):(?P<version>[0-9]+)",
):
    """Cancel: nothing is played (see :func:`on_cancel`)."""

    def __init__(self, game_id: int, version: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Cancel", style=discord.ButtonStyle.secondary, custom_id=cancel_id(game_id, version)
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await on_cancel(interaction)


ITEMS = (ConfirmButton, CancelButton)
"""The persistent components of this module (registered by the bot at start-up)."""
