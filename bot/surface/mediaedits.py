"""Channels where Discord refuses every edit that brings new pictures into a Components V2
message (400, discord-api-docs#7529): after :data:`IN_A_ROW` such refusals in a row the bot posts
a turn (or a DM) anew there at once instead of trying the edit first, which only doubled the
requests of each turn. The count is the store's (``service.posts.media_edits``, migration 0012:
every process and restart); an edit that goes through starts it again, and after :data:`RETRY_AFTER`
seconds the edit is tried once more (Discord may have fixed it). A mixin of
:class:`~bot.surface.publish.Publisher`, which provides the bot and ``service.posts``.
"""

from __future__ import annotations

import logging

from discord.ext import commands

from ..host.posts import Posts
from ..host.store import StoreUnavailable
from .context import bazaar

log = logging.getLogger("bot.surface.publish")
IN_A_ROW = 3  # refused V2 media edits in a row after which a channel's edits are not tried
RETRY_AFTER = 86400.0  # seconds after the last refusal before an edit there is tried again


class MediaMemory:
    """Whether to try a V2 media edit in a channel (see the module docstring)."""

    bot: commands.Bot
    media: dict[int, tuple[int, float]]  # channel id -> (refusals in a row, when noted), as stored

    @property
    def posts(self) -> Posts:
        raise NotImplementedError

    async def _media(self, channel_id: int) -> tuple[int, float]:
        if channel_id not in self.media:
            try:
                self.media[channel_id] = await self.posts.media_edits(channel_id)
            except StoreUnavailable as err:
                log.warning("Reading the media edits of channel %s: %s", channel_id, err)
                return (0, 0.0)
        return self.media[channel_id]

    async def edits_media(self, channel_id: int) -> bool:
        """Whether to try editing new pictures into a V2 message in ``channel_id``."""
        refusals, noted = await self._media(channel_id)
        return refusals < IN_A_ROW or bazaar(self.bot).now() - noted >= RETRY_AFTER

    async def media_edited(self, channel_id: int, refused: bool) -> None:
        """Note how a V2 media edit in ``channel_id`` went (refused with 400, or through)."""
        if not refused and (await self._media(channel_id))[0] == 0:
            return  # nothing to start again
        try:
            count = await self.posts.note_media_edit(channel_id, refused=refused)
        except StoreUnavailable as err:
            log.warning("Noting a media edit in channel %s: %s", channel_id, err)
            return
        self.media[channel_id] = (count, bazaar(self.bot).now())
        if count == IN_A_ROW:
            log.info("Channel %s refused %s V2 media edits in a row: posting anew there", channel_id, count)
