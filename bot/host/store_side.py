"""The store's tables beside the games themselves, as a mixin of
:class:`~bot.host.store_base.Store`: the turn clocks' claims across processes, copying a whole
database (``bazaar db copy``), the messages the bot posted for a game, and the drafts of a
player's forms. Every method is one transaction, in SQL both dialects accept (see
:mod:`bot.host.store_base`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, cast

from .storefail import StoreError

_MESSAGE_COLS = "id, game_id, kind, seat, channel_id, message_id, version, live, posted_at"
# every column of every table, in the order the copy (export_rows / import_rows) moves them
_COPY_GAMES = (
    "id, kind, seed, options, guild_id, channel_id, thread_id, creator_id, status, version, "
    "clock_seconds, deadline, reminded, attention, created_at, updated_at, claim_owner, claim_until"
)
_COPY_SEATS = "game_id, seat, user_id, name, is_ai, dm_closed, dm_hash, expiries, ai_takeover, ai_level"
_COPY_MOVES = "game_id, version, seat, action, by, user_id, at"
_COPY_SNAPSHOTS = "game_id, version, state, fingerprint"
_COPY_MESSAGES = "id, game_id, kind, seat, channel_id, message_id, version, live, posted_at"
_COPY_DRAFTS = "game_id, seat, form, version, data"
COPY_TABLES = ("games", "seats", "moves", "snapshots", "messages", "drafts", "unrated_games")
# the ratings' other tables are not copied: the target's first start records and rates them again
# due: the deadline has passed, or the half-time reminder is owed (see bot.host.clock.due)
_DUE = (
    "status = 'active' AND deadline IS NOT NULL AND (deadline <= ? OR "
    "(reminded = 0 AND deadline - clock_seconds / 2.0 <= ?)) AND (claim_until IS NULL OR claim_until <= ?)"
)


@dataclass(frozen=True)
class MessageRow:
    """A message the bot posted for a game (so it can edit it or clear its buttons later)."""

    id: int
    game_id: int
    kind: str
    seat: int | None
    channel_id: int
    message_id: int
    version: int
    live: bool
    posted_at: float


def _message(r: Any) -> MessageRow:
    return MessageRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6], bool(r[7]), r[8])


class SideTables:
    """Clock claims, the database copy, posted messages and form drafts (see the module
    docstring); :class:`~bot.host.store_base.Store` provides the transactions."""

    dialect: str
    now: Callable[[], float]

    def _tx(self) -> AbstractAsyncContextManager[Any]:
        raise NotImplementedError

    def _read(self) -> AbstractAsyncContextManager[Any]:
        raise NotImplementedError

    async def _all(self, sql: str, args: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    async def _one(self, sql: str, args: Iterable[Any] = ()) -> tuple[Any, ...] | None:
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError

    # ------------------------------------------------------------------ turn clocks across processes

    async def claim_due(self, now: float, owner: str, lease_seconds: float, *, limit: int = 100) -> list[int]:
        """Claim the active games whose turn clock is due at ``now`` (the deadline passed, or the
        half-time reminder owed) and that no one holds a live claim on; returns their ids, by
        deadline. Each claim is ``owner``'s until ``now + lease_seconds``: release it with
        :meth:`release_claim` once handled; a process that dies holding claims loses nothing,
        as they lapse at the end of the lease and another process claims them then. On
        PostgreSQL the rows are taken ``FOR UPDATE SKIP LOCKED``, so processes claiming at the
        same time never wait for each other and never get the same game."""
        until = now + lease_seconds
        async with self._tx() as h:
            if self.dialect == "postgres":
                rows = await h.sql_rows(
                    "UPDATE games SET claim_owner = ?, claim_until = ? "
                    "WHERE id IN (SELECT id FROM games WHERE "
                    + _DUE
                    + " ORDER BY deadline, id LIMIT ? FOR UPDATE SKIP LOCKED) RETURNING id, deadline",
                    (owner, until, now, now, now, limit),
                )
                return [r[0] for r in sorted(rows, key=lambda r: (r[1], r[0]))]
            rows = await h.sql_rows(
                "SELECT id FROM games WHERE " + _DUE + " ORDER BY deadline, id LIMIT ?",
                (now, now, now, limit),
            )
            ids = [r[0] for r in rows]
            for gid in ids:
                await h.sql_run(
                    "UPDATE games SET claim_owner = ?, claim_until = ? WHERE id = ?", (owner, until, gid)
                )
        return ids

    async def release_claim(self, game_id: int, owner: str) -> bool:
        """Give back ``owner``'s claim on a game (its due clock handled, or given up): the game
        can be claimed again as soon as it is due. Returns whether ``owner`` held the claim (a
        claim that lapsed and was taken by another process is left alone)."""
        async with self._tx() as h:
            changed = await h.sql_run(
                "UPDATE games SET claim_owner = NULL, claim_until = NULL WHERE id = ? AND claim_owner = ?",
                (game_id, owner),
            )
        return bool(changed == 1)

    async def release_claims(self, owner: str) -> int:
        """Give back every claim ``owner`` holds (a process shutting down); returns how many."""
        async with self._tx() as h:
            changed = await h.sql_run(
                "UPDATE games SET claim_owner = NULL, claim_until = NULL WHERE claim_owner = ?", (owner,)
            )
        return int(changed)

    async def claims(self, game_id: int) -> tuple[str | None, float | None]:
        """``(owner, until)`` of the claim on a game's clock (Nones when unclaimed)."""
        row = await self._one("SELECT claim_owner, claim_until FROM games WHERE id = ?", (game_id,))
        return (row[0], row[1]) if row else (None, None)

    # ------------------------------------------------------------------ copying a whole database

    async def export_rows(self) -> dict[str, list[tuple[Any, ...]]]:
        """Every row of every table (:data:`COPY_TABLES`), read in one read transaction, in key
        order: what :meth:`import_rows` writes into another database (a database older than
        migration 0010 has no unrated games)."""
        rated = await self.schema_version() >= 10
        async with self._read() as h:
            return {
                "games": await h.sql_rows(f"SELECT {_COPY_GAMES} FROM games ORDER BY id"),
                "seats": await h.sql_rows(f"SELECT {_COPY_SEATS} FROM seats ORDER BY game_id, seat"),
                "moves": await h.sql_rows(f"SELECT {_COPY_MOVES} FROM moves ORDER BY game_id, version"),
                "snapshots": await h.sql_rows(f"SELECT {_COPY_SNAPSHOTS} FROM snapshots ORDER BY game_id"),
                "messages": await h.sql_rows(f"SELECT {_COPY_MESSAGES} FROM messages ORDER BY id"),
                "drafts": await h.sql_rows(f"SELECT {_COPY_DRAFTS} FROM drafts ORDER BY game_id, seat, form"),
                "unrated_games": (
                    await h.sql_rows("SELECT game_id FROM unrated_games ORDER BY game_id") if rated else []
                ),
            }

    async def schema_version(self) -> int:
        raise NotImplementedError

    async def is_empty(self) -> bool:
        """Whether the database holds no game (and so nothing else)."""
        return await self._one("SELECT id FROM games LIMIT 1") is None

    async def import_rows(self, rows: Mapping[str, list[tuple[Any, ...]]]) -> None:
        """Write the rows :meth:`export_rows` read (from any backend) into this database, ids
        kept, in one transaction (all or nothing); on PostgreSQL the id sequences then continue
        after the highest id. Raises :class:`StoreError` if this database holds a game already."""
        async with self._tx() as h:
            if await h.sql_row("SELECT id FROM games LIMIT 1") is not None:
                raise StoreError(
                    f"the database {self.describe()} is not empty (it holds games): "
                    "copy into a new, empty database"
                )
            await h.sql_many(
                f"INSERT INTO games ({_COPY_GAMES}) VALUES ({', '.join('?' * 18)})", rows["games"]
            )
            await h.sql_many(
                f"INSERT INTO seats ({_COPY_SEATS}) VALUES ({', '.join('?' * 10)})", rows["seats"]
            )
            await h.sql_many(
                f"INSERT INTO moves ({_COPY_MOVES}) VALUES ({', '.join('?' * 7)})", rows["moves"]
            )
            await h.sql_many(
                f"INSERT INTO snapshots ({_COPY_SNAPSHOTS}) VALUES ({', '.join('?' * 4)})", rows["snapshots"]
            )
            await h.sql_many(
                f"INSERT INTO messages ({_COPY_MESSAGES}) VALUES ({', '.join('?' * 9)})", rows["messages"]
            )
            await h.sql_many(
                f"INSERT INTO drafts ({_COPY_DRAFTS}) VALUES ({', '.join('?' * 5)})", rows["drafts"]
            )
            await h.sql_many("INSERT INTO unrated_games (game_id) VALUES (?)", rows.get("unrated_games", []))
            if self.dialect == "postgres":
                await h.sql_row(
                    "SELECT setval(pg_get_serial_sequence('games', 'id'), "
                    "COALESCE((SELECT MAX(id) FROM games), 0) + 1, false)"
                )
                await h.sql_row(
                    "SELECT setval(pg_get_serial_sequence('messages', 'id'), "
                    "COALESCE((SELECT MAX(id) FROM messages), 0) + 1, false)"
                )

    # ------------------------------------------------------------------ posted messages

    async def add_message(
        self,
        game_id: int,
        *,
        kind: str,
        channel_id: int,
        message_id: int,
        version: int,
        live: bool = False,
        seat: int | None = None,
    ) -> None:
        """Remember a message the bot posted for ``game_id``."""
        async with self._tx() as h:
            await h.sql_run(
                "INSERT INTO messages (game_id, kind, seat, channel_id, message_id, version, live, "
                "posted_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, kind, seat, channel_id, message_id, version, int(live), self.now()),
            )

    async def messages(
        self, game_id: int, *, kind: str | None = None, live: bool | None = None
    ) -> list[MessageRow]:
        """Messages posted for a game, oldest first, filtered by kind and liveness."""
        where: list[str] = ["game_id = ?"]
        args: list[Any] = [game_id]
        if kind is not None:
            where.append("kind = ?")
            args.append(kind)
        if live is not None:
            where.append("live = ?")
            args.append(int(live))
        rows = await self._all(
            f"SELECT {_MESSAGE_COLS} FROM messages WHERE {' AND '.join(where)} ORDER BY id", args
        )
        return [_message(r) for r in rows]

    async def unposted(self, between: tuple[float, float] | None = None) -> list[tuple[int, int | None]]:
        """``(game id, newest version posted)`` of every active or finished game whose current
        version has no board (``turn``) or score sheet (``final``) message: a process stopped
        between storing a move and posting it. The version is None when nothing was posted.
        With ``between`` (two times), only the games last changed then (an index range read:
        the running sweep of :meth:`bot.surface.app.BazaarBot.sweep_unposted`)."""
        window, args = "", cast(tuple[float, ...], ())
        if between is not None:
            window, args = " AND g.updated_at >= ? AND g.updated_at <= ?", between
        rows = await self._all(
            "SELECT g.id, g.version, (SELECT MAX(m.version) FROM messages m WHERE m.game_id = g.id "
            "AND m.kind IN ('turn', 'final')) AS posted FROM games g "
            f"WHERE g.status IN ('active', 'finished'){window} ORDER BY g.id",
            args,
        )
        return [(gid, posted) for gid, version, posted in rows if posted is None or posted < version]

    async def set_message_version(self, message_id: int, version: int) -> None:
        """Record that the posted message ``message_id`` now shows ``version`` (after an edit)."""
        async with self._tx() as h:
            await h.sql_run("UPDATE messages SET version = ? WHERE message_id = ?", (version, message_id))

    async def retire_messages(self, ids: Iterable[int]) -> None:
        """Mark messages as no longer carrying buttons."""
        ids = list(ids)
        if not ids:
            return
        async with self._tx() as h:
            await h.sql_run(f"UPDATE messages SET live = 0 WHERE id IN ({','.join('?' * len(ids))})", ids)

    # ------------------------------------------------------------------ form drafts

    async def draft(self, game_id: int, seat: int, form: str, version: int) -> dict[str, list[str]]:
        """The values ``seat`` has picked so far in ``form`` at game ``version`` ({} when none, or
        when the draft was made at another version)."""
        row = await self._one(
            "SELECT version, data FROM drafts WHERE game_id = ? AND seat = ? AND form = ?",
            (game_id, seat, form),
        )
        if row is None or row[0] != version:
            return {}
        try:
            data = json.loads(row[1])
        except ValueError:
            return {}
        return {str(k): [str(v) for v in vs] for k, vs in data.items() if isinstance(vs, list)}

    async def save_draft(
        self, game_id: int, seat: int, form: str, version: int, values: Mapping[str, list[str]]
    ) -> dict[str, list[str]]:
        """Set the picks ``values`` (pick key -> values) in ``seat``'s draft of ``form`` at
        ``version`` (a draft of another version is dropped first); returns the whole draft."""
        async with self._tx() as h:
            row = await h.sql_row(
                "SELECT version, data FROM drafts WHERE game_id = ? AND seat = ? AND form = ?",
                (game_id, seat, form),
            )
            draft: dict[str, list[str]] = {}
            if row is not None and row[0] == version:
                try:
                    draft = {str(k): list(v) for k, v in json.loads(row[1]).items()}
                except ValueError:
                    draft = {}
            draft.update({k: list(v) for k, v in values.items()})
            await h.sql_run(
                "INSERT INTO drafts (game_id, seat, form, version, data) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (game_id, seat, form) DO UPDATE SET version = excluded.version, "
                "data = excluded.data",
                (game_id, seat, form, version, json.dumps(draft, sort_keys=True)),
            )
        return draft

    async def drop_drafts(self, game_id: int, seat: int | None = None) -> None:
        """Forget the drafts of a game (of one seat when ``seat`` is given)."""
        async with self._tx() as h:
            if seat is None:
                await h.sql_run("DELETE FROM drafts WHERE game_id = ?", (game_id,))
            else:
                await h.sql_run("DELETE FROM drafts WHERE game_id = ? AND seat = ?", (game_id, seat))
