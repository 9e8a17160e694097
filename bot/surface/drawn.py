"""Pictures and texts drawn for posts, DMs and replies: rendering and PNG encoding run in the
bot's worker pool (``bot.workers``: other processes, see :mod:`bot.host.drawing`), never on the
event loop; a renderer that fails is logged with the game id and gives nothing instead of
failing the post."""

from __future__ import annotations

import io
import logging
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from render import caption

from ..host import drawing
from ..host.live import Batch
from .context import bazaar

log = logging.getLogger(__name__)


def file_of(png: bytes | None, filename: str) -> discord.File | None:
    """A fresh upload of ``png`` (discord.py closes a File once sent, so each request needs one)."""
    return discord.File(io.BytesIO(png), filename=filename) if png is not None else None


def caption_of(batch: Batch) -> list[caption.Line]:
    """The caption strip of ``batch``'s board, from the engine's events of its moves: each
    player's action, then what the game did by itself (see :func:`render.caption.lines_of`)."""
    return caption.lines_of(((step.seat, step.events) for step in batch.steps), batch.names)


async def job(bot: discord.Client, fn: Any, *args: Any) -> Any:
    """``fn(*args)`` (a job of :mod:`bot.host.drawing`) in the bot's worker pool."""
    return await bazaar(bot).workers.run(fn, *args)


async def png(
    bot: discord.Client, game_id: int, kind: str, what: str, view: Mapping[str, Any], names: Sequence[str]
) -> bytes | None:
    """``render.<kind>.<what>(view, names)`` as PNG bytes, rendered off the event loop; None
    (logged with the game id) if the renderer fails."""
    try:
        found: bytes | None = await job(bot, drawing.picture, kind, what, view, list(names))
        return found
    except Exception:
        log.exception("Rendering %s failed for game %s", what, game_id)
        return None


async def board_pngs(
    bot: discord.Client,
    game_id: int,
    batch: Batch,
    view: Mapping[str, Any],
    previous: Mapping[str, Any] | None,
    lines: caption.Caption | None = None,
    *,
    with_strip: bool = True,
) -> list[bytes] | None:
    """The posted board of ``batch`` as PNG, then the game's second picture where it has one
    (:func:`render.board_images`): the public ``view`` with the caption strip of ``lines``
    (by default the batch's moves, :func:`caption_of`) on top (not without ``with_strip``: a V2
    message says it as text), and what changed since the
    board posted before it (``previous``, this run's last public view, see
    :attr:`bot.host.outbox.Outbox.previous`; None after a restart) marked. Rendered off the
    event loop; None (logged) if the renderer fails."""
    if lines is None:
        lines = caption_of(batch)
    try:
        pngs: list[bytes] = await job(
            bot, drawing.boards, batch.engine.name, view, list(batch.names), list(lines), previous, with_strip
        )
        return pngs
    except Exception:
        log.exception("Rendering the board failed for game %s", game_id)
        return None


async def image(
    bot: discord.Client,
    game_id: int,
    kind: str,
    what: str,
    view: Mapping[str, Any],
    names: Sequence[str],
    filename: str,
) -> discord.File | None:
    """:func:`png` as a ``discord.File`` called ``filename``, or None."""
    return file_of(await png(bot, game_id, kind, what, view, names), filename)


async def view_text(
    bot: discord.Client, game_id: int, kind: str, view: Mapping[str, Any], names: Sequence[str]
) -> str:
    """``render.<kind>.text(view, names)``; "" (logged) if it fails."""
    try:
        found: str = await job(bot, drawing.view_text, kind, view, list(names))
        return found
    except Exception:
        log.exception("Rendering text failed for game %s", game_id)
        return ""
