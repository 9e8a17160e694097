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
# every table ``bazaar db copy`` moves (export_rows / import_rows): its name, its columns and its
# key order; a game's tables after ``games`` (they refer to it), then the tables kept per channel
# or server. tests/test_db_commands.py fails if a migration adds a table missing here.
_COPY_GAMES = (
    "id, kind, seed, options, guild_id, channel_id, thread_id, creator_id, status, version, "
    "clock_seconds, deadline, reminded, attention, created_at, updated_at, claim_owner, claim_until"
)
COPIED: tuple[tuple[str, str, str], ...] = (
    ("games", _COPY_GAMES, "id"),
    (
        "seats",
        "game_id, seat, user_id, name, is_ai, dm_closed, dm_hash, expiries, ai_takeover, ai_level",
        "game_id, seat",
    ),
    ("moves", "game_id, version, seat, action, by, user_id, at", "game_id, version"),
    ("snapshots", "game_id, version, state, fingerprint", "game_id"),
    ("messages", "id, game_id, kind, seat, channel_id, message_id, version, live, posted_at", "id"),
    ("drafts", "game_id, seat, form, version, data", "game_id, seat, form"),
    ("posts", "game_id, version, kind, owner, lease_until, done", "game_id, version, kind"),
    ("game_hints", "game_id, hints", "game_id"),
    ("hints_taken", "game_id, seat, version, taken_at", "game_id, seat, version"),
    ("reviews", "game_id, seat, body, made_at", "game_id, seat"),
    ("rematches", "game_id, new_game_id, opened_at", "game_id"),
    ("outcomes", "game_id, outcome", "game_id"),
    ("unrated_games", "game_id", "game_id"),
    ("channel_shapes", "channel_id, shape, noted_at", "channel_id"),
    ("channel_media", "channel_id, refusals, noted_at", "channel_id"),
    ("guild_settings", "guild_id, confirm, updated_at", "guild_id"),
)
PER_PLACE = ("channel_shapes", "channel_media", "guild_settings")  # kept per channel or server
COPY_TABLES = tuple(name for name, _, _ in COPIED)
# the ratings' other tables are not copied: they are a function of the finished games, which the
# target's first start records and rates again (bot.host.ratings.Ratings.catch_up)
DERIVED = ("game_results", "ratings", "rating_changes")
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


async def _holds(h: Any) -> bool:
    """Whether the database of the open transaction ``h`` holds a game or a per-channel row."""
    if await h.sql_row("SELECT id FROM games LIMIT 1") is not None:
        return True
    return (
        await h.sql_row("SELECT channel_id FROM channel_shapes LIMIT 1") is not None
        or await h.sql_row("SELECT channel_id FROM channel_media LIMIT 1") is not None
        or await h.sql_row("SELECT guild_id FROM guild_settings LIMIT 1") is not None
    )


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
        order: what :meth:`import_rows` writes into another database (``bazaar db copy`` migrates
        its source first)."""
        async with self._read() as h:
            return {
                name: await h.sql_rows(f"SELECT {columns} FROM {name} ORDER BY {key}")
                for name, columns, key in COPIED
            }

    async def is_empty(self) -> bool:
        """Whether the database holds no game (and so nothing else) and nothing per channel or
        server."""
        async with self._read() as h:
            return not await _holds(h)

    async def import_rows(self, rows: Mapping[str, list[tuple[Any, ...]]]) -> None:
        """Write the rows :meth:`export_rows` read (from any backend) into this database, ids
        kept, in one transaction (all or nothing); on PostgreSQL the id sequences then continue
        after the highest id. Raises :class:`StoreError` if this database holds a game already."""
        async with self._tx() as h:
            if await _holds(h):
                raise StoreError(
                    f"the database {self.describe()} is not empty (it holds games, or settings "
                    "of channels or servers): copy into a new, empty database"
                )
            for name, columns, _key in COPIED:
                marks = ", ".join("?" * (columns.count(",") + 1))
                await h.sql_many(f"INSERT INTO {name} ({columns}) VALUES ({marks})", rows[name])
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
