"""What looking back at stored games reads, and the rematch a finished game opens. A mixin of
:class:`~bot.host.store_base.Store`.

:meth:`StoreArchive.games_of_user` gives a person's last games on a server (``/history``),
:meth:`StoreArchive.finished_of_kind` a server's finished games of one kind with the time of
their first and last move (``/stats``). :meth:`StoreArchive.open_rematch` opens the lobby of a
rematch and notes it (the table ``rematches``, migration 0014) in one transaction, so that of
two clicks, in one process or two, the second finds the lobby the first opened.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any

from .store_rows import GameRow, game_row, insert_lobby, stored
from .storefail import ConstraintViolation

_COLS = (
    "g.id, g.kind, g.seed, g.options, g.guild_id, g.channel_id, g.thread_id, g.creator_id, g.status, "
    "g.version, g.clock_seconds, g.deadline, g.reminded, g.attention, g.created_at, g.updated_at"
)


@dataclass(frozen=True)
class NewSeat:
    """A seat of a rematch's lobby: a person (``user_id``) or an AI at ``ai_level``."""

    user_id: int | None
    name: str
    ai_level: str | None = None


@dataclass(frozen=True)
class Timed:
    """A finished game and the times of its first and last move (None: no move)."""

    row: GameRow
    first: float | None
    last: float | None


class StoreArchive:
    """The archive's reads and the rematches of a store (see the module docstring)."""

    now: Callable[[], float]

    def _tx(self) -> AbstractAsyncContextManager[Any]:
        raise NotImplementedError

    def _read(self) -> AbstractAsyncContextManager[Any]:
        raise NotImplementedError

    async def _all(self, sql: str, args: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    async def _one(self, sql: str, args: Iterable[Any] = ()) -> tuple[Any, ...] | None:
        raise NotImplementedError

    async def games_of_user(self, guild_id: int | None, user_id: int, *, limit: int) -> list[GameRow]:
        """The last ``limit`` games (started: running, finished or ended) of server ``guild_id``
        where ``user_id`` holds a seat, the most recently changed first."""
        where = "g.guild_id IS NULL" if guild_id is None else "g.guild_id = ?"
        args: list[Any] = [] if guild_id is None else [guild_id]
        rows = await self._all(
            # the person's seats first (seats_by_user), then each game by its id
            f"SELECT {_COLS} FROM seats s CROSS JOIN games g WHERE g.id = s.game_id AND s.user_id = ? "
            f"AND {where} AND g.status IN ('active', 'finished', 'ended') "
            "AND g.version > 0 ORDER BY g.updated_at DESC, g.id DESC LIMIT ?",
            [user_id, *args, limit],
        )
        return [game_row(r) for r in rows]

    async def finished_of_kind(self, guild_id: int | None, kind: str) -> list[Timed]:
        """The finished games of ``kind`` on server ``guild_id``, by id, each with the time of
        its first and last move."""
        where = "g.guild_id IS NULL" if guild_id is None else "g.guild_id = ?"
        args: list[Any] = [] if guild_id is None else [guild_id]
        rows = await self._all(
            f"SELECT {_COLS}, (SELECT at FROM moves m WHERE m.game_id = g.id AND m.version = 1), "
            "(SELECT at FROM moves m WHERE m.game_id = g.id AND m.version = g.version) "  # by the key
            f"FROM games g WHERE {where} AND g.kind = ? AND g.status = 'finished' ORDER BY g.id",
            [*args, kind],
        )
        return [Timed(game_row(r[:16]), r[16], r[17]) for r in rows]

    async def outcomes_of(self, game_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
        """The kept results (``Outcome.as_dict()``) of those of ``game_ids`` that have one."""
        ids = list(game_ids)
        out: dict[int, dict[str, Any]] = {}
        for i in range(0, len(ids), 500):  # a bounded IN list per statement
            chunk = ids[i : i + 500]
            rows = await self._all(
                f"SELECT game_id, outcome FROM outcomes WHERE game_id IN ({', '.join('?' * len(chunk))})",
                chunk,
            )
            out.update({int(r[0]): json.loads(r[1]) for r in rows})
        return out

    async def keep_outcome(self, game_id: int, outcome: Mapping[str, Any]) -> None:
        """Keep the result of the finished game ``game_id`` (a second keep changes nothing)."""
        async with self._tx() as h:
            await h.sql_run(
                "INSERT INTO outcomes (game_id, outcome) VALUES (?, ?) ON CONFLICT (game_id) DO NOTHING",
                (game_id, json.dumps(dict(outcome), sort_keys=True)),
            )

    async def rematch_of(self, game_id: int) -> int | None:
        """The game opened as the rematch of ``game_id``, or None."""
        row = await self._one("SELECT new_game_id FROM rematches WHERE game_id = ?", (game_id,))
        return int(row[0]) if row else None

    async def open_rematch(
        self,
        game_id: int,
        *,
        kind: str,
        seed: int,
        options: Mapping[str, Any],
        guild_id: int | None,
        channel_id: int,
        creator_id: int,
        clock_seconds: int,
        seats: Sequence[NewSeat],
    ) -> tuple[int, bool]:
        """Open the lobby of the rematch of ``game_id`` with ``seats`` in order (one
        transaction), unless one was opened already: ``(its id, whether it is new)``."""
        found = await self.rematch_of(game_id)
        if found is not None:
            return found, False
        at = self.now()
        try:
            async with self._tx() as h:
                if row := await h.sql_row("SELECT new_game_id FROM rematches WHERE game_id = ?", (game_id,)):
                    return int(row[0]), False
                gid = await insert_lobby(
                    h, at, kind, seed, options, guild_id, channel_id, creator_id, clock_seconds
                )
                await h.sql_many(
                    "INSERT INTO seats (game_id, seat, user_id, name, is_ai, ai_level) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        (gid, i, s.user_id, s.name, stored(s.user_id is None), s.ai_level)
                        for i, s in enumerate(seats)
                    ],
                )
                await h.sql_run(
                    "INSERT INTO rematches (game_id, new_game_id, opened_at) VALUES (?, ?, ?)",
                    (game_id, gid, at),
                )
        except ConstraintViolation:  # another process noted its rematch first: that one stands
            found = await self.rematch_of(game_id)
            if found is None:
                raise
            return found, False
        return gid, True
