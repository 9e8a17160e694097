"""Playing one move for the caller and publishing what follows: shared by the moves of
:mod:`actions` and the Confirm button of :mod:`confirm`."""

from __future__ import annotations

import discord

from ..host.live import LiveGame
from .handling import bot_of


async def play_and_publish(
    interaction: discord.Interaction, game: LiveGame, action: str, *, version: int | None
) -> tuple[str, list[str]]:
    """Play ``action`` for the caller (refused as stale when ``version`` is given and the game
    moved on), publish, and return the move as played (canonical) and the caller's private
    lines of what happened, both read from the move's own outbox. Raises what
    :meth:`GameService.move` raises."""
    bot = bot_of(interaction)
    seat = game.seat_of(interaction.user.id)
    box = await bot.service.move(game.id, interaction.user.id, action, expected_version=version)
    await bot.publisher.publish(box)
    if seat is None:
        return action, []
    return box.played(seat.seat) or action, box.private_lines(seat.seat)
