"""Private views by DM: after each publish, every person gets what is new for them (their
view when it changed, private events, the controls of a private prompt), editing their DM of the
turn in place when that is all; and the ephemeral "My hand" answer. A mixin of
:class:`~bot.surface.publish.Publisher`, which provides the host's post records, the service, rendering,
editing and clearing old controls.

Only ``view(state, seat)`` of the recipient reaches a DM or an ephemeral answer.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from typing import Any

import discord
from discord.ext import commands

import render
from engines.prompt import Prompt

from ..host import wording
from ..host.live import Batch, LiveGame, Posted
from ..host.outbox import Letter
from ..host.posts import Posts
from ..host.service import GameService
from . import coaching, controls, drawn, layout, posting, text
from .delivery import Delivery
from .posting import SEND_ERRORS as SEND_ERRORS  # re-exported: the publisher's modules read it here

log = logging.getLogger("bot.surface.publish")


def link(guild_id: int | None, channel_id: int, message_id: int | None = None) -> str:
    """A jump link to a channel or message."""
    base = f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"
    return f"{base}/{message_id}" if message_id else base


class PrivateViews:
    """DMs and the "My hand" answer (see the module docstring)."""

    bot: commands.Bot
    notice: Any  # Publisher.notice
    retire: Any  # Publisher.retire
    _edit: Any  # Publisher._edit
    shape_of: Any  # TurnPosts.shape_of
    v2_refused: Any  # TurnPosts.v2_refused
    noted: Any  # TurnPosts.noted
    edits_media: Any  # MediaMemory.edits_media
    media_edited: Any  # MediaMemory.media_edited

    @property
    def posts(self) -> Posts:
        raise NotImplementedError

    @property
    def service(self) -> GameService:
        raise NotImplementedError

    async def send_dms(self, game: LiveGame, d: Delivery, posted: discord.Message | None) -> None:
        """Send the DMs the outbox says are due (its :class:`~bot.host.outbox.Letter` s, decided
        by the host: :func:`bot.host.outbox.mail`): each person's private view with their
        private events and the controls of a private prompt awaiting them, editing their DM of
        the turn in place when the letter replaces one; the DMs of turns going on with nothing
        new are kept for the next edit. Then the controls left on the DMs of seats that no
        prompt awaits any more are taken away."""
        batch, private = d.batch, d.plan[2]
        where = link(
            batch.row.guild_id,
            posted.channel.id if posted else batch.row.place_id,
            posted.id if posted else None,
        )
        d.dms.clear()
        d.dms.update(d.box.kept)
        jobs = [self._dm(game, d, letter, where) for letter in d.box.letters]
        if jobs:
            await asyncio.gather(*jobs)
        await self.retire(
            game.id,
            kinds=("dm",),
            seats=[s.seat for s in batch.seats if s.seat not in private],
            upto=batch.version,
        )

    async def _dm(self, game: LiveGame, d: Delivery, letter: Letter, where: str) -> None:
        """Send the letter's seat its private view, with the controls of its prompt (a private
        prompt awaiting it), or edit the DM of this turn it replaces to show them; with ``keep``
        (it is still awaited) that DM is remembered for the next edit. A DM carrying controls is
        stored as live, so its controls are cleared once it is outdated. A DM refused with 403 /
        50007 marks the seat's DMs closed and tells the player once; other failures are logged
        and the DM is tried again when the view next changes."""
        batch, seat, prompt, turn_dm = d.batch, letter.seat, letter.prompt, letter.replaces
        view = batch.seat_view(seat)
        body = await drawn.view_text(self.bot, game.id, batch.engine.name, view, batch.text_names)
        png = await drawn.png(self.bot, game.id, batch.engine.name, "hand", view, batch.names)
        name = f"{batch.engine.name}-{game.id}-hand-{batch.version}.png"
        fits = prompt is None or controls.fits(prompt, hand=False)
        content = text.dm(letter.words, batch.engine.name, batch.text_names, where, body, fits=fits)
        dm = layout.Shown(
            content,
            footer=letter.words.footer,
            accent=render.seat_colour(seat),
            pngs=[png] if png is not None else [],
            filename=name,
            controls=await self._dm_controls(game, batch.version, seat, prompt),
        )
        msg = None
        if turn_dm is not None and await self.edits_media(turn_dm.channel_id):
            shape = await self.shape_of(turn_dm.channel_id)
            none = discord.AllowedMentions.none()
            edit = posting.edit_shown(self.bot, turn_dm, dm, shape, mentions=none, on_media=self.media_edited)
            msg = self.noted(await edit, dm)
        if msg is not None:
            await self.posts.restamp_posted(msg.id, batch.version)
        else:
            msg = await self._new_dm(game, batch, seat, letter.user_id, dm, live=prompt is not None)
            if msg is None:
                return
        if letter.keep:
            d.dms[seat] = Posted(msg.channel.id, msg.id, frozenset((seat,)), letter.shown_lines)
        await self.service.note_dm(game.id, seat, dm_hash=letter.digest)

    async def _dm_controls(
        self, game: LiveGame, version: int, seat: int, prompt: Prompt | None
    ) -> Callable[[], discord.ui.View] | None:
        """The controls of a DM awaiting ``prompt`` (none without one), with the Hint button
        where the game gives hints."""
        if prompt is None:
            return None
        drafts = await self.service.clicks.drafts(game.id, seat, version, prompt)
        made = lambda: controls.view(game.id, version, prompt, hand=False, drafts=drafts)  # noqa: E731
        if await self.service.coaching.hint_left(game, seat):
            return coaching.with_hint(made, game.id, version)
        return made

    async def _new_dm(
        self,
        game: LiveGame,
        batch: Batch,
        seat: int,
        user_id: int,
        shown: layout.Shown,
        *,
        live: bool,
    ) -> discord.Message | None:
        """Send ``seat`` a new DM of ``shown`` in its DM channel's shape (classic from then on
        where V2 is refused) with controls when ``live`` (its older DMs' controls cleared) and
        record it; None when it failed: a DM refused with 403 / 50007 marks the seat's DMs
        closed and tells the player once, other failures are logged."""
        try:
            channel = await self.bot.create_dm(discord.Object(id=user_id))
            msg = await self._send_dm(channel, shown)
        except discord.Forbidden as err:
            if err.code != 50007:  # not the player's settings: try again next time
                log.warning("DM to user %s (game %s) refused: %s %s", user_id, game.id, err.code, err.text)
                return None
            log.info("DMs closed for user %s (game %s): %s", user_id, game.id, err.code)
            if await self.service.note_dm(game.id, seat, closed=True):
                await self.notice(game, text.dm_closed(user_id, batch.title))
            return None
        except SEND_ERRORS as err:
            log.warning("DM to user %s (game %s) failed: %s", user_id, game.id, err)
            return None
        await self.retire(game.id, kinds=("dm",), seat=seat, upto=batch.version)
        await self.posts.record_posted(
            game.id,
            kind="dm",
            seat=seat,
            channel_id=msg.channel.id,
            message_id=msg.id,
            version=batch.version,
            live=live,
        )
        return msg

    async def _send_dm(self, channel: discord.DMChannel, shown: layout.Shown) -> discord.Message:
        """Post ``shown`` in ``channel``'s shape; a V2 refusal (400) makes the channel classic."""
        none = discord.AllowedMentions.none()
        if await self.shape_of(channel.id) == layout.V2:
            try:
                sent: discord.Message = await channel.send(allowed_mentions=none, **layout.v2(shown))
                self.noted(sent, shown)
                return sent
            except discord.HTTPException as err:
                if err.status != 400 or isinstance(err, discord.Forbidden):
                    raise
                log.warning("DM channel %s refused a V2 message: %s %s", channel.id, err.code, err.text)
                await self.v2_refused(channel.id)
        kwargs = layout.classic(shown)
        classic: discord.Message = await channel.send(allowed_mentions=none, **kwargs)
        return classic

    async def hand(self, game: LiveGame, seat: int, view: Mapping[str, Any]) -> tuple[str, bytes | None, str]:
        """Content, image and its file name of an ephemeral private view."""
        body = await drawn.view_text(self.bot, game.id, game.engine.name, view, game.text_names)
        png = await drawn.png(self.bot, game.id, game.engine.name, "hand", view, game.names)
        head = wording.hand_head(game, seat)
        filename = f"{game.engine.name}-{game.id}-hand.png"
        return text.clip(head + (f"\n{body}" if body else "")), png, filename
