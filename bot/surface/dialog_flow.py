"""What happens when a prompt's dialog is opened and sent (:mod:`dialogs` draws it as a modal)."""

from __future__ import annotations

from collections.abc import Mapping

import discord

from . import dialogs, inputs
from .actions import play_move
from .handling import bot_of, checked, defer, guard, target


async def open_dialog(interaction: discord.Interaction, game_id: int, version: int, key: str) -> None:
    """A dialog's button: the modal, as the first answer (nothing is deferred before it)."""
    sent = await checked(interaction, lambda: inputs.ids(game_id, version))
    if sent is None:
        return
    game_id, version = sent
    interaction.extras["game_id"] = game_id
    async with guard(interaction, "dialog"):
        game = await target(interaction, game_id, component=True)
        d = bot_of(interaction).service.clicks.dialog(game, interaction.user.id, version, key)
        await interaction.response.send_modal(dialogs.modal(game.id, version, d, game.fmt))


async def submit_dialog(
    interaction: discord.Interaction, game_id: int, version: int, key: str, answers: Mapping[str, object]
) -> None:
    """A dialog sent: its values build the action through the caller's prompt as it is now (the
    values are checked against its choices), which is played like any move; the engine's reason
    answers a move it refuses, and nothing changes."""
    sent = await checked(
        interaction,
        lambda: (*inputs.ids(game_id, version), {k: inputs.values(v) for k, v in answers.items()}),
    )
    if sent is None:
        return
    game_id, version, values = sent
    interaction.extras["game_id"] = game_id
    async with guard(interaction, "dialog"):
        await defer(interaction)
        game = await target(interaction, game_id, component=True)
        action = await bot_of(interaction).service.clicks.dialog_action(
            game, interaction.user.id, version, key, values
        )
        await play_move(interaction, game, action, version=version, component=False)
