"""What happens when a prompt's dialog is opened and sent (:mod:`dialogs` draws it as a modal)."""

from __future__ import annotations

from collections.abc import Mapping

import discord

from engines import prompt as pr

from ..host.live import LiveGame, Refusal
from . import dialogs, inputs
from .actions import awaited_prompt, play_move
from .handling import checked, defer, guard, target

OUT_OF_DATE = "That dialog is out of date: use the latest message."


def _dialog(interaction: discord.Interaction, game: LiveGame, version: int, key: str) -> pr.Dialog:
    """The dialog ``key`` of the caller's prompt now (see :func:`actions.awaited_prompt`)."""
    _, p = awaited_prompt(interaction, game, version)
    d = p.find(key)
    if not isinstance(d, pr.Dialog):
        raise Refusal(OUT_OF_DATE)
    return d


async def open_dialog(interaction: discord.Interaction, game_id: int, version: int, key: str) -> None:
    """A dialog's button: the modal, as the first answer (nothing is deferred before it)."""
    sent = await checked(interaction, lambda: inputs.ids(game_id, version))
    if sent is None:
        return
    game_id, version = sent
    interaction.extras["game_id"] = game_id
    async with guard(interaction, "dialog"):
        game = await target(interaction, game_id, component=True)
        d = _dialog(interaction, game, version, key)
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
        async with game.lock:
            d = _dialog(interaction, game, version, key)
            try:
                action = d.build(values)
            except pr.PromptError as err:
                raise Refusal(str(err)) from None
        await play_move(interaction, game, action, version=version, component=False)
