"""Posting and editing one message on Discord, for the publisher: the nonce that makes a retried
post land once, a board's picture uploads, a send that leaves the picture out where files may not
be attached (and tells whether Discord refused for good), an edit in place, whether a message is
still its channel's newest, and recording a post the database may refuse.

A :class:`~.layout.Shown` message goes out in its channel's shape (:func:`send_shown`,
:func:`edit_shown`): Components V2, or the classic shape where Discord refused V2 (a 400 on a
V2 post: the caller remembers the channel as classic and the message is posted classic at once).
:func:`take_controls` removes an older message's controls in either shape."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
from discord.ext import commands

from ..host.live import LiveGame, Posted
from ..host.store import StoreUnavailable
from . import emojis, layout, text

log = logging.getLogger(__name__)
#: Failures of a request to Discord: its answer (after discord.py's own retries), a connection
#: that broke or a request that timed out.
SEND_ERRORS = (discord.HTTPException, aiohttp.ClientError, asyncio.TimeoutError)
PINGS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)


@dataclass
class Refused:
    """What the poster of a message is told of Discord's refusals: :func:`send` and
    :func:`send_shown` set ``for_good`` when Discord refused a post for good (4xx: the channel
    is gone, access or a permission is missing). The publisher keeps one per publish (in its
    :class:`~bot.surface.delivery.Delivery`), the recaps one per try: such a post is not
    retried."""

    for_good: bool = False


def nonce(game_id: int, version: int, kind: str) -> str:
    """The nonce of a game's post of ``kind`` at ``version`` (≤ 25 characters): sent with
    ``enforce_nonce``, so a post retried after Discord made it but the answer was lost (a broken
    connection, a timeout, a 5xx after the work) returns that message instead of a second one."""
    return f"bz{game_id}.{version}{kind}"[-25:]


def files_of(pngs: Sequence[bytes] | None, filename: str) -> list[discord.File]:
    """Fresh uploads of a board's pictures: ``filename``, then ``-2`` before its suffix for the
    second picture (one message carries both)."""
    stem, dot, ext = filename.rpartition(".")
    names = [filename] + [f"{stem}-{i}{dot}{ext}" for i in range(2, len(pngs or []) + 1)]
    return [discord.File(io.BytesIO(p), filename=n) for p, n in zip(pngs or [], names, strict=False)]


async def send(
    channel: Any, content: str, *, refused: Refused | None = None, **kwargs: Any
) -> discord.Message | None:
    """Post ``content`` (with ``file``/``view`` when given); returns the message, or None
    (logged) when Discord refuses (for good: noted in ``refused``). Without Attach Files the
    picture is left out and the message says so (and how to see it) instead of the whole post
    being lost."""
    kwargs = {k: v for k, v in kwargs.items() if v is not None}
    try:
        sent: discord.Message = await channel.send(content, allowed_mentions=PINGS, **kwargs)
        return sent
    except discord.Forbidden as err:
        if not ("file" in kwargs or "files" in kwargs) or err.code != 50013:
            log.error("Posting to channel %s failed: %s %s", channel.id, err.status, err.text)
            _for_good(refused)
            return None
        log.warning("No Attach Files in channel %s: posting the board without its picture", channel.id)
        kwargs.pop("file", None)
        kwargs.pop("files", None)
        return await send(channel, text.clip(f"{content}\n{text.NO_FILES}"), refused=refused, **kwargs)
    except discord.HTTPException as err:
        if emojis.refused(err) and "view" in kwargs and emojis.drop(kwargs["view"]):
            log.warning("Discord no longer knows the bot's emojis: posting with text labels")
            _rewind(kwargs.get("file"), kwargs.get("files"))
            return await send(channel, content, refused=refused, **kwargs)
        log.error("Posting to channel %s failed: %s %s", channel.id, err.status, err.text)
        if 400 <= err.status < 500 and err.status != 429:
            _for_good(refused)  # a deleted channel, missing access: retrying cannot help
        return None
    except SEND_ERRORS as err:
        log.error("Posting to channel %s failed: %r", channel.id, err)
        return None


def _for_good(refused: Refused | None) -> None:
    if refused is not None:
        refused.for_good = True


def _rewind(*uploads: discord.File | list[discord.File] | None) -> None:
    """Rewind pictures already read by a refused request, to send them again."""
    for up in uploads:
        for f in up if isinstance(up, list) else [up] if up is not None else []:
            f.reset()


async def edit(
    bot: commands.Bot,
    posted: Posted,
    content: str,
    file: discord.File | list[discord.File] | None,
    view: discord.ui.View | None = None,
    *,
    mentions: discord.AllowedMentions = PINGS,
) -> discord.Message | None:
    """Replace ``posted``'s text, pictures (``file``: one, several or none; every picture
    it had is replaced) and components (when ``view`` is given: an empty view clears them);
    returns the edited message, or None (logged) if Discord refuses."""
    msg = bot.get_partial_messageable(posted.channel_id).get_partial_message(posted.message_id)
    files = file if isinstance(file, list) else [file] if file else []
    kwargs: dict[str, Any] = {"attachments": files}
    if view is not None:
        kwargs["view"] = view
    try:
        return await msg.edit(content=content, allowed_mentions=mentions, **kwargs)
    except discord.HTTPException as err:
        if view is not None and emojis.refused(err) and emojis.drop(view):
            log.warning("Discord no longer knows the bot's emojis: editing with text labels")
            _rewind(files)
            return await edit(bot, posted, content, file, view, mentions=mentions)
        log.info("Editing message %s failed: %r", posted.message_id, err)
        return None
    except SEND_ERRORS as err:
        log.info("Editing message %s failed: %r", posted.message_id, err)
        return None


async def is_latest(bot: commands.Bot, posted: Posted) -> bool:
    """Whether ``posted`` is still the newest message of its channel (nobody wrote below it);
    False when that cannot be read."""
    try:
        data = await bot.http.get_channel(posted.channel_id)
    except SEND_ERRORS as err:
        log.info("Reading channel %s failed: %s", posted.channel_id, err)
        return False
    return str(data.get("last_message_id") or "") == str(posted.message_id)


async def note(game: LiveGame, write: Awaitable[Any]) -> None:
    """Record a post (``write``, the store call) that Discord already made; if the database
    refuses, log it and go on (the post stands, the DMs and the rest still go out; a restart
    finds the post in the channel: see :meth:`~bot.surface.publish.Publisher.landed`)."""
    try:
        await write
    except StoreUnavailable as err:
        log.warning("Game %s: a post could not be recorded: %s", game.id, err)


class V2Refused(Exception):
    """Discord refused a Components V2 post with 400 (V2 is not available where it was sent)."""


async def send_shown(
    channel: Any,
    shown: layout.Shown,
    shape: str,
    nonce_: str | None = None,
    *,
    refused: Refused | None = None,
) -> discord.Message | None:
    """Post ``shown`` in ``shape`` (:data:`~.layout.V2` or :data:`~.layout.CLASSIC`) as
    :func:`send` does (the pictures left out where files may not be attached; a refusal for
    good noted in ``refused``); raises :class:`V2Refused` when a V2 post is refused with 400."""
    if shape == layout.CLASSIC:
        kwargs = layout.classic(shown)
        return await send(channel, kwargs.pop("content"), nonce=nonce_, refused=refused, **kwargs)
    try:
        sent: discord.Message = await channel.send(allowed_mentions=PINGS, nonce=nonce_, **layout.v2(shown))
        return sent
    except discord.HTTPException as err:
        if err.status == 400:
            log.warning("Channel %s refused a V2 message: %s %s", channel.id, err.code, err.text)
            raise V2Refused(str(err.text)) from err
        if not (isinstance(err, discord.Forbidden) and err.code == 50013 and shown.pngs):
            log.error("Posting to channel %s failed: %s %s", channel.id, err.status, err.text)
            if 400 <= err.status < 500 and err.status != 429:
                _for_good(refused)
            return None
        log.warning("No Attach Files in channel %s: posting the board without its picture", channel.id)
        return await send_shown(
            channel, shown.without_pictures(text.NO_FILES), shape, nonce_, refused=refused
        )
    except SEND_ERRORS as err:
        log.error("Posting to channel %s failed: %r", channel.id, err)
        return None


async def edit_shown(
    bot: commands.Bot,
    posted: Posted,
    shown: layout.Shown,
    shape: str,
    *,
    pictures: bool = True,
    mentions: discord.AllowedMentions = PINGS,
    on_media: Callable[[int, bool], Awaitable[None]] | None = None,
) -> discord.Message | None:
    """Edit ``posted`` to show ``shown`` in ``shape`` (every picture replaced; none without
    ``pictures``); the edited message, or None (logged) if Discord refuses: a V2 edit bringing
    new pictures can be refused with 400 (discord-api-docs#7529), an edit of a message over an
    hour old with 30046; the caller then posts the message anew. ``on_media(channel, refused)``
    hears how a V2 edit bringing new pictures went (:mod:`.mediaedits`)."""
    if shape == layout.CLASSIC:
        kwargs = layout.classic(shown)
        return await edit(
            bot, posted, kwargs["content"], kwargs.get("files", []) if pictures else [], kwargs.get("view")
        )
    msg = bot.get_partial_messageable(posted.channel_id).get_partial_message(posted.message_id)
    kwargs = layout.v2(shown, pictures=pictures)
    media = on_media if pictures and shown.pngs else None  # told how an edit of new pictures went
    try:
        edited = await msg.edit(allowed_mentions=mentions, attachments=kwargs.pop("files", []), **kwargs)
    except SEND_ERRORS as err:
        log.info("Editing message %s failed: %r", posted.message_id, err)
        if media is not None and isinstance(err, discord.HTTPException) and err.status == 400:
            await media(posted.channel_id, True)
        return None
    if media is not None:
        await media(posted.channel_id, False)
    return edited


async def take_controls(
    bot: commands.Bot, channel_id: int, message_id: int, *, v2: bool = True, shown: layout.Shown | None = None
) -> None:
    """Remove the controls of a message of the bot: ``view=None`` for a classic one; a V2 one
    keeps its text and pictures without its rows (the flag cannot be dropped): rebuilt from
    ``shown`` (:func:`~.layout.bare`: what this run posted there) when given, else read first
    (unless not ``v2``) and patched without its rows. Raises what Discord raises (the caller
    logs it)."""
    message = bot.get_partial_messageable(channel_id).get_partial_message(message_id)
    if shown is not None:  # kept attachments, named again by their files (attachment://)
        await message.edit(view=layout.layout(shown))
        return
    kept = layout.strip_controls(dict(await bot.http.get_message(channel_id, message_id))) if v2 else None
    if kept is None:
        await message.edit(view=None)
        return
    payload = {"components": kept, "flags": layout.FLAG}  # an edit pings nobody again
    await bot.http.edit_message(
        channel_id,
        message_id,
        params=discord.http.MultipartParameters(payload=payload, multipart=None, files=None),
    )
