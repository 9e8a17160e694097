"""Each server's own settings, as a mixin of :class:`~bot.host.store_base.Store` (the table
``guild_settings``, migration 0012), read by every process: today whether moves that cannot be
taken back are confirmed first (``/settings confirm``; unset, the bot's ``BAZAAR_CONFIRM``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import AbstractAsyncContextManager
from typing import Any


class GuildSettings:
    """A server's settings (see the module docstring)."""

    now: Callable[[], float]

    def _tx(self) -> AbstractAsyncContextManager[Any]:
        raise NotImplementedError

    async def _one(self, sql: str, args: Iterable[Any] = ()) -> tuple[Any, ...] | None:
        raise NotImplementedError

    async def guild_confirm(self, guild_id: int) -> bool | None:
        """Whether server ``guild_id`` asks before irreversible moves (None: not set there)."""
        row = await self._one("SELECT confirm FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return None if row is None or row[0] is None else bool(row[0])

    async def set_guild_confirm(self, guild_id: int, confirm: bool | None) -> None:
        """Set (or with None, unset) whether server ``guild_id`` asks before irreversible moves."""
        value = None if confirm is None else int(confirm)
        async with self._tx() as h:
            await h.sql_run(
                "INSERT INTO guild_settings (guild_id, confirm, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET confirm = excluded.confirm, "
                "updated_at = excluded.updated_at",
                (guild_id, value, self.now()),
            )
