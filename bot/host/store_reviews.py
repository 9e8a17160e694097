"""Hints and reviews in the store (migration 0011). A mixin of :class:`~bot.host.store_base.Store`.

* ``game_hints``: a game created with hints off (``/game new hints:off``); no row means on;
* ``hints_taken``: the hint each seat took in a turn (by the version the turn began at), so that
  a seat gets at most one a turn, also across a restart (:meth:`Reviews.take_hint` is a
  compare-and-set: one insert);
* ``reviews``: each seat's review of a finished game (JSON made by :mod:`bot.host.coaching`),
  so asking again reads it instead of computing it anew.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import AbstractAsyncContextManager
from typing import Any


class Reviews:
    """The hints and reviews of a store (see the module docstring)."""

    now: Callable[[], float]

    def _tx(self) -> AbstractAsyncContextManager[Any]:
        raise NotImplementedError

    async def _one(self, sql: str, args: Iterable[Any] = ()) -> tuple[Any, ...] | None:
        raise NotImplementedError

    async def set_hints(self, game_id: int, on: bool) -> None:
        """Turn hints on or off for game ``game_id``."""
        async with self._tx() as h:
            await h.sql_run(
                "INSERT INTO game_hints (game_id, hints) VALUES (?, ?) "
                "ON CONFLICT (game_id) DO UPDATE SET hints = excluded.hints",
                (game_id, 1 if on else 0),
            )

    async def hints_on(self, game_id: int) -> bool:
        """Whether game ``game_id`` allows hints (it does unless created with hints off)."""
        row = await self._one("SELECT hints FROM game_hints WHERE game_id = ?", (game_id,))
        return row is None or bool(row[0])

    async def take_hint(self, game_id: int, seat: int, version: int) -> bool:
        """Record ``seat``'s hint in its turn that began at ``version``; False when it took one
        in that turn already."""
        async with self._tx() as h:
            changed = await h.sql_run(
                "INSERT INTO hints_taken (game_id, seat, version, taken_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (game_id, seat, version) DO NOTHING",
                (game_id, seat, version, self.now()),
            )
        return int(changed) == 1

    async def hint_taken(self, game_id: int, seat: int, version: int) -> bool:
        """Whether ``seat`` took its hint in its turn that began at ``version``."""
        row = await self._one(
            "SELECT 1 FROM hints_taken WHERE game_id = ? AND seat = ? AND version = ?",
            (game_id, seat, version),
        )
        return row is not None

    async def give_back_hint(self, game_id: int, seat: int, version: int) -> None:
        """Forget ``seat``'s hint at ``version`` (it could not be computed: the seat may ask again)."""
        async with self._tx() as h:
            await h.sql_run(
                "DELETE FROM hints_taken WHERE game_id = ? AND seat = ? AND version = ?",
                (game_id, seat, version),
            )

    async def review(self, game_id: int, seat: int) -> str | None:
        """The stored review of ``seat`` in game ``game_id`` (JSON), or None."""
        row = await self._one("SELECT body FROM reviews WHERE game_id = ? AND seat = ?", (game_id, seat))
        return str(row[0]) if row else None

    async def save_review(self, game_id: int, seat: int, body: str) -> None:
        """Store ``seat``'s review of game ``game_id`` (a second save of the same keeps the first)."""
        async with self._tx() as h:
            await h.sql_run(
                "INSERT INTO reviews (game_id, seat, body, made_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (game_id, seat) DO NOTHING",
                (game_id, seat, body, self.now()),
            )
