"""Controls left on an old message because Discord refused the edit taking them away: a message
over an hour old may be edited only so often (error 30046, "Maximum number of edits to messages
older than 1 hour reached. Try again later"; a rate, not a ban). A mixin of
:class:`~bot.surface.publish.Publisher`, which provides the bot, the host's records of posts
(``service.posts``) and the shapes.

Such a message is remembered (this run: :attr:`HeldControls.held`; its row stays live in the
store, so the next run tries again too) and its controls are taken away later, at the game's
next retiring after :data:`HOLD` seconds. A click on its controls meanwhile is refused as stale
as any old control is; the bot then tries the edit once more and, if Discord still refuses it,
deletes the message (its own: deleting is not an edit, so the limit does not apply), so nobody
is offered those controls again. Every edit counts against the limit (a flags-only edit too), so
there is no other way to take the controls away.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord.ext import commands

from ..host.posts import Posts
from . import layout, posting
from .context import bazaar
from .posting import SEND_ERRORS

log = logging.getLogger("bot.surface.publish")
OLD_EDITS = 30046  # Discord's code for the limit on edits of hour-old messages
HOLD = 300.0  # seconds before a held message's controls are tried again


def refused_old(err: BaseException) -> bool:
    """Whether ``err`` is Discord's limit on edits of hour-old messages."""
    return isinstance(err, discord.HTTPException) and err.code == OLD_EDITS


class HeldControls:
    """Messages whose controls Discord would not let the bot take away yet (see the module)."""

    bot: commands.Bot
    held: dict[int, float]  # message id -> when (bot clock) to try its controls again
    layouts: dict[int, layout.Shown]
    shape_of: Any  # TurnPosts.shape_of

    @property
    def posts(self) -> Posts:
        raise NotImplementedError

    def _clock(self) -> float:
        return bazaar(self.bot).now()

    def hold(self, message_id: int, shown: layout.Shown | None) -> None:
        """Remember that taking ``message_id``'s controls was refused (30046); ``shown`` (what it
        shows, bare) is kept for the next try."""
        self.held[message_id] = self._clock() + HOLD
        if shown is not None:
            self.layouts[message_id] = shown

    def waiting(self, message_id: int) -> bool:
        """Whether ``message_id`` is held and not yet due to be tried again."""
        due = self.held.get(message_id)
        return due is not None and self._clock() < due

    async def clear_stale(self, game_id: int, channel_id: int, message_id: int) -> None:
        """After a stale click on ``message_id``: if it is a held message of ``game_id``, take its
        controls away, or delete it if Discord still refuses the edit; errors are logged."""
        if message_id not in self.held:
            return
        rows = [m for m in await self.posts.posted_messages(game_id, live=True) if m.message_id == message_id]
        if not rows:
            self.held.pop(message_id, None)
            return
        try:
            v2 = await self.shape_of(channel_id) == layout.V2
            shown = self.layouts.get(message_id)
            await posting.take_controls(self.bot, channel_id, message_id, v2=v2, shown=shown)
        except SEND_ERRORS as err:
            if not refused_old(err):
                log.info("Clearing buttons of message %s (game %s) failed: %s", message_id, game_id, err)
                return
            try:
                await self.bot.get_partial_messageable(channel_id).get_partial_message(message_id).delete()
            except SEND_ERRORS as gone:
                log.info("Deleting stale message %s (game %s) failed: %s", message_id, game_id, gone)
                return
            log.info(
                "Game %s: deleted message %s, whose stale controls Discord would not let go",
                game_id,
                message_id,
            )
        self.held.pop(message_id, None)
        self.layouts.pop(message_id, None)
        await self.posts.retire_posted(m.id for m in rows)
