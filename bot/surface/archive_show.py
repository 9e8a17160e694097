"""Showing a replay: ``/replay`` and the history's buttons answer with a new private message, a
replay's own buttons and jump menu edit that message in place (sent anew where Discord refuses
the edit). A replay is a :class:`~.layout.Shown` of the host's :class:`~bot.host.archive.Frame`:
the public board at that move drawn in a worker (kept for the last :data:`DRAWN` moves drawn),
what a spectator read of the move, and the controls of :func:`.archive_views.replay_view`."""

from __future__ import annotations

import logging
from collections import OrderedDict

import discord

import render

from ..host import drawing
from ..host.archive import Frame
from ..host.live import Refusal
from ..host.parsing import game_number
from . import archive_text, drawn, inputs, layout
from .archive_views import replay_view
from .handling import QUIET, bot_of, checked, defer, guard, reply_shown, sees

log = logging.getLogger(__name__)

MAX_MOVE = 100_000
"""The largest move number a replay is asked for (a longer game shows its last move)."""
DRAWN = 64
"""How many replay boards (the pictures of one move) are kept, drawn."""
_drawn: OrderedDict[tuple[int, int, tuple[str, ...]], list[bytes]] = OrderedDict()


BAD_MOVE = "That replay control sent a move number it does not have: use `/replay` again."


def move_number(value: object) -> int:
    """A move number as a custom id, a menu or ``/replay`` carries it (digits, or an int), at most
    :data:`MAX_MOVE`. Raises :class:`Refusal`."""
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 9:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_MOVE:
        raise Refusal(BAD_MOVE)
    return value


async def on_replay(
    interaction: discord.Interaction, game: object, move: object | None, *, new: bool = False
) -> None:
    """A replay's button (``move``: the one it shows; None: the newest), or a history's or a
    final sheet's Replay (``new``: a new private message)."""
    sent = await checked(
        interaction, lambda: (game_number(game), None if move is None else move_number(move))
    )
    if sent is not None:
        await show(interaction, sent[0], sent[1], edit=not new)


async def on_jump(interaction: discord.Interaction, game: object, values: object) -> None:
    """A replay's jump menu: the move chosen."""

    def check() -> tuple[int, int]:
        picked = inputs.values(values)
        if len(picked) != 1:
            raise Refusal("Choose one move to jump to.")
        return game_number(game), move_number(picked[0])

    sent = await checked(interaction, check)
    if sent is not None:
        await show(interaction, sent[0], sent[1], edit=True)


async def show(interaction: discord.Interaction, game_id: int, move: int | None, *, edit: bool) -> None:
    """Answer with the replay of ``game_id`` at ``move`` (None: the newest): a new private
    message, or the clicked one edited (``edit``)."""
    bot = bot_of(interaction)
    async with guard(interaction, "/replay"):
        interaction.extras["game_id"] = game_id
        await defer(interaction, component=edit)
        frame = await bot.service.archive.frame(game_id, move, interaction.guild_id, sees(interaction))
        shown = await shown_of(interaction.client, frame)
        if not edit:
            await reply_shown(interaction, shown)
            return
        try:
            kwargs = layout.v2(shown)
            await interaction.edit_original_response(
                attachments=kwargs.pop("files", []), allowed_mentions=QUIET, **kwargs
            )
        except discord.HTTPException as err:
            log.info("Editing the replay of game %s failed (%r): sending it anew", game_id, err)
            await reply_shown(interaction, shown)


async def shown_of(bot: discord.Client, frame: Frame) -> layout.Shown:
    """The replay message of ``frame``."""
    return layout.Shown(
        archive_text.replay(frame),
        footer=archive_text.replay_footer(frame),
        accent=accent(frame),
        pngs=await pictures(bot, frame),
        filename=f"{frame.kind}-{frame.game_id}-replay-{frame.move}.png",
        controls=lambda: replay_view(frame),
    )


async def pictures(bot: discord.Client, frame: Frame) -> list[bytes]:
    """The board (and second picture) of ``frame``: its public view, what the move changed
    marked; drawn in a worker, kept for the last :data:`DRAWN` moves; none if drawing failed."""
    key = (frame.game_id, frame.move, frame.names)
    if key in _drawn:
        _drawn.move_to_end(key)
        return _drawn[key]
    try:
        pngs: list[bytes] = await drawn.job(
            bot, drawing.boards, frame.kind, frame.view, list(frame.names), [], frame.previous, False
        )
    except Exception:
        log.exception("Drawing the replay of game %s at move %s failed", frame.game_id, frame.move)
        return []
    _drawn[key] = pngs
    while len(_drawn) > DRAWN:
        _drawn.popitem(last=False)
    return pngs


def accent(frame: Frame) -> int | None:
    """The colour of the seat who played the move shown (None for the setup)."""
    by = frame.lines[0].by if frame.lines else None
    return render.seat_colour(by) if by is not None else None
