"""Answering an interaction, the same way in every flow of :mod:`actions` and :mod:`lobby`:
acknowledge at once (a deferral, so Discord's 3-second limit is never at risk), turn refusals and
rule errors into ephemeral replies and anything unexpected into a logged apology
(:func:`guard`), and find the game the interaction is about (:func:`resolve`, :func:`target`).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import discord

from engines import base
from engines.base import RuleError

from ..host.clock import BadDuration
from ..host.live import LiveGame, Refusal
from ..host.store import GameRow, StoreUnavailable
from . import layout, text
from .context import Bazaar, bazaar

log = logging.getLogger(__name__)
T = TypeVar("T")
QUIET = discord.AllowedMentions.none()


def bot_of(interaction: discord.Interaction) -> Bazaar:
    return bazaar(interaction.client)


async def reply(
    interaction: discord.Interaction,
    content: str,
    *,
    file: discord.File | None = None,
    view: discord.ui.View | None = None,
    ephemeral: bool = True,
) -> None:
    """Answer the interaction (or follow up if already answered); errors are logged."""
    kwargs: dict[str, Any] = {
        "content": text.clip(content),
        "ephemeral": ephemeral,
        "allowed_mentions": QUIET,
    }
    if file is not None:
        kwargs["file"] = file
    if view is not None:
        kwargs["view"] = view
    try:
        if answered(interaction):
            await interaction.followup.send(**kwargs)
        else:
            await interaction.response.send_message(**kwargs)
    except Exception as err:  # an expired token, or a client shutting down
        log.warning("Could not answer interaction %s: %r", interaction.id, err)


async def reply_shown(interaction: discord.Interaction, shown: layout.Shown) -> None:
    """Answer privately with ``shown`` as a V2 message; where Discord refuses it (a deferred
    ephemeral answer carrying a picture can be refused with 400) the classic shape is sent
    instead; errors are logged."""
    for shape in (layout.v2, layout.classic):
        kwargs = shape(shown)
        try:
            if answered(interaction):
                await interaction.followup.send(ephemeral=True, allowed_mentions=QUIET, **kwargs)
            else:
                await interaction.response.send_message(ephemeral=True, allowed_mentions=QUIET, **kwargs)
            return
        except discord.HTTPException as err:
            if err.status != 400 or not isinstance(kwargs.get("view"), discord.ui.LayoutView):
                log.warning("Could not answer interaction %s: %r", interaction.id, err)
                return
            log.info(
                "Interaction %s: the V2 answer was refused (%s); answering in the classic shape",
                interaction.id,
                err.code,
            )
        except Exception as err:  # an expired token, or a client shutting down
            log.warning("Could not answer interaction %s: %r", interaction.id, err)
            return


def answered(interaction: discord.Interaction) -> bool:
    """Whether the interaction has its initial response (so answers are follow-ups)."""
    return interaction.response.is_done() or bool(interaction.extras.get("acknowledged"))


async def defer(interaction: discord.Interaction, *, component: bool = False) -> None:
    """Acknowledge at once: silently for a component, as an ephemeral "thinking" otherwise.

    When Discord took the acknowledgement but its answer was lost (a 5xx that discord.py
    retried, to hear 400 / 40060 "already acknowledged"), the interaction is acknowledged all
    the same: the flow goes on and answers with follow-ups."""
    if answered(interaction):
        return
    try:
        if component:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
    except discord.HTTPException as err:
        if err.code != 40060:
            raise
        log.info("Interaction %s was acknowledged, though Discord's answer was lost", interaction.id)
        interaction.extras["acknowledged"] = True


def remember(interaction: discord.Interaction, game: LiveGame) -> LiveGame:
    """Note the game on the interaction (for error logs and seat names in reasons)."""
    interaction.extras["game_id"] = game.id
    interaction.extras["names"] = game.names
    return game


@asynccontextmanager
async def guard(interaction: discord.Interaction, what: str) -> AsyncIterator[None]:
    """Turn refusals into ephemeral replies, the database failing (:class:`StoreUnavailable`:
    nothing was changed) into the private "could not save" answer, and unexpected errors into a
    log line with the game id plus an apology. Counts the handler as in flight (the bot waits for
    those when closing)."""
    bot = bot_of(interaction)
    bot.inflight += 1
    try:
        yield
    except (Refusal, RuleError, BadDuration) as err:
        reason = getattr(err, "reason", None) or str(err)
        await reply(interaction, base.format_text(reason, interaction.extras.get("names")))
    except StoreUnavailable as err:
        log.warning(
            "Database failure in %s (game %s, interaction %s): %s",
            what,
            interaction.extras.get("game_id"),
            interaction.id,
            err,
        )
        await reply(interaction, text.store_down(what))
    except Exception:
        gid = interaction.extras.get("game_id")
        log.exception("Error in %s (game %s, interaction %s)", what, gid, interaction.id)
        await reply(interaction, text.apology(gid))
    finally:
        bot.inflight -= 1


def display_name(interaction: discord.Interaction) -> str:
    user = interaction.user
    return (getattr(user, "display_name", None) or user.name)[:60]


def can_manage(interaction: discord.Interaction) -> bool:
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.administrator)


def sees(interaction: discord.Interaction) -> Callable[[GameRow], bool] | None:
    """Whether the member of ``interaction`` may see where a game is played: its thread, else
    (an archived thread the bot no longer holds) its channel, by the member's permissions there.
    A place the bot cannot see at all counts as hidden. None outside a server (no channels)."""
    guild, member = interaction.guild, interaction.user
    if guild is None or not isinstance(member, discord.Member):
        return None

    def can(row: GameRow) -> bool:
        for place in (row.thread_id, row.channel_id):
            channel = guild.get_channel_or_thread(place) if place else None
            if channel is not None:
                return bool(channel.permissions_for(member).view_channel)
        return False

    return can


async def resolve(interaction: discord.Interaction, game_id: int | None = None) -> LiveGame:
    """The game this interaction is about (see :meth:`GameService.find`), among the games the
    member may see."""
    svc = bot_of(interaction).service
    game = await svc.find(
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id or 0,
        user_id=interaction.user.id,
        game_id=game_id,
        sees=sees(interaction),
    )
    return remember(interaction, game)


async def target(interaction: discord.Interaction, game_id: int | None, *, component: bool) -> LiveGame:
    """The game a command (see :func:`resolve`) or a component click is about. A click names its
    game by number, and must come from where that game lives (its channel or thread): a button
    left on an old message whose number now belongs to another game (a lost and recreated
    database) is refused. Raises :class:`Refusal`."""
    if not component or game_id is None:
        return await resolve(interaction, game_id)
    bot = bot_of(interaction)
    game = remember(interaction, await bot.service.get(game_id))
    row = game.row
    if interaction.guild_id is None and row.guild_id is not None:
        # a click in a DM: only on a DM the bot sent this player for this very game
        seat = game.seat_of(interaction.user.id)
        msg = interaction.message
        sent = {
            m.message_id
            for m in await bot.service.posts.posted_messages(game.id, kind="dm")
            if seat is not None and m.seat == seat.seat
        }
        if seat is None or msg is None or msg.id not in sent:
            raise Refusal("This button belongs to a game that no longer exists here.")
        return game
    if interaction.guild_id != row.guild_id or interaction.channel_id not in (row.channel_id, row.thread_id):
        raise Refusal("This button belongs to a game that no longer exists here.")
    return game


async def checked(interaction: discord.Interaction, check: Callable[[], T]) -> T | None:
    """``check()`` (one of :mod:`inputs`' checks of what the interaction sent), or None once its
    refusal has been answered privately."""
    try:
        return check()
    except (Refusal, RuleError) as err:
        await reply(interaction, getattr(err, "reason", None) or str(err))
        return None
