"""What the bot learned per channel about Discord's refusals of Components V2 media edits, as a
mixin of :class:`~bot.host.store_base.Store` (the table ``channel_media``, migration 0012).

Discord may refuse an edit that brings new pictures into a V2 message (400,
discord-api-docs#7529). Where it refuses every such edit, trying each first only doubles the
requests of a turn, so the store counts the refusals in a row per channel
(:meth:`MediaEdits.note_media_edit`), one that goes through resets the count, and
:meth:`MediaEdits.media_edits` says what is known, for every process and restart.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import AbstractAsyncContextManager
from typing import Any


class MediaEdits:
    """The per-channel count of refused V2 media edits (see the module docstring)."""

    now: Callable[[], float]

    def _tx(self) -> AbstractAsyncContextManager[Any]:
        raise NotImplementedError

    async def _one(self, sql: str, args: Iterable[Any] = ()) -> tuple[Any, ...] | None:
        raise NotImplementedError

    async def media_edits(self, channel_id: int) -> tuple[int, float]:
        """``(refusals in a row, when last noted)`` of V2 media edits in ``channel_id``
        (``(0, 0.0)`` when nothing is noted)."""
        row = await self._one(
            "SELECT refusals, noted_at FROM channel_media WHERE channel_id = ?", (channel_id,)
        )
        return (int(row[0]), float(row[1])) if row else (0, 0.0)

    async def note_media_edit(self, channel_id: int, *, refused: bool) -> int:
        """Note a V2 media edit in ``channel_id``: refused (one more in a row) or gone through
        (the count starts again). Returns the refusals in a row now."""
        async with self._tx() as h:
            if not refused:
                await h.sql_run("DELETE FROM channel_media WHERE channel_id = ?", (channel_id,))
                return 0
            await h.sql_run(
                "INSERT INTO channel_media (channel_id, refusals, noted_at) VALUES (?, 1, ?) "
                "ON CONFLICT (channel_id) DO UPDATE SET refusals = channel_media.refusals + 1, "
                "noted_at = excluded.noted_at",
                (channel_id, self.now()),
            )
            row = await h.sql_row("SELECT refusals FROM channel_media WHERE channel_id = ?", (channel_id,))
        return int(row[0]) if row else 1
