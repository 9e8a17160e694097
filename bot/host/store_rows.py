"""The rows of the store as values: a game, a seat, a move, a game read whole, the turn-clock
stamp of a game held in memory, and the digest of stored texts; how a row read from SQL (either
dialect) becomes one. Import them from :mod:`bot.host.store`."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class GameRow:
    """One row of ``games``; ``options`` is decoded from JSON."""

    id: int
    kind: str
    seed: int
    options: dict[str, Any]
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    creator_id: int
    status: str
    version: int
    clock_seconds: int
    deadline: float | None
    reminded: bool
    attention: str | None
    created_at: float
    updated_at: float

    @property
    def place_id(self) -> int:
        """The channel where the game is played: its thread if it has one, else the channel."""
        return self.thread_id or self.channel_id


@dataclass(frozen=True)
class SeatRow:
    """One row of ``seats``."""

    game_id: int
    seat: int
    user_id: int | None
    name: str
    is_ai: bool
    dm_closed: bool
    dm_hash: str | None
    expiries: int
    ai_takeover: bool
    ai_level: str | None = None  # an AI seat's level (engines.search.LEVELS); None: the default


def seat_flags(seats: Iterable[SeatRow]) -> int:
    """The number :data:`~bot.host.store_base._SEAT_FLAGS` sums in the database, of ``seats``
    held in memory."""
    return sum((s.is_ai + 2 * s.ai_takeover + 4 * s.dm_closed) << (3 * s.seat) for s in seats)


def stamp_of(row: GameRow, seats: Iterable[SeatRow]) -> tuple[int, str, int, int]:
    """What :meth:`Store.stamp` returns for a game stored as ``row`` and ``seats``."""
    seats = list(seats)
    return (row.version, row.status, len(seats), seat_flags(seats))


@dataclass(frozen=True)
class MoveRow:
    """One entry of the append-only move log."""

    game_id: int
    version: int
    seat: int
    action: str
    by: str
    user_id: int | None
    at: float


@dataclass(frozen=True)
class GameRecord:
    """A game as stored, read at one instant: its row, seats, move log and snapshot
    ``(version, state_json, fingerprint)`` (None before the start)."""

    row: GameRow
    seats: list[SeatRow]
    moves: list[MoveRow]
    snapshot: tuple[int, str, str] | None


def game_row(row: Any) -> GameRow:
    """A ``games`` row (its columns in :data:`~bot.host.store_base._GAME_COLS` order) as a value."""
    (
        gid,
        kind,
        seed,
        options,
        guild,
        channel,
        thread,
        creator,
        status,
        version,
        clock,
        deadline,
        reminded,
        attention,
        created,
        updated,
    ) = row
    return GameRow(
        gid,
        kind,
        seed,
        json.loads(options),
        guild,
        channel,
        thread,
        creator,
        status,
        version,
        clock,
        deadline,
        bool(reminded),
        attention,
        created,
        updated,
    )


def seat_row(row: Any) -> SeatRow:
    """A ``seats`` row (its columns in :data:`~bot.host.store_base._SEAT_COLS` order) as a value."""
    gid, seat, user, name, is_ai, dm_closed, dm_hash, expiries, takeover, level = row
    return SeatRow(
        gid, seat, user, name, bool(is_ai), bool(dm_closed), dm_hash, expiries, bool(takeover), level
    )


def stored(v: Any) -> Any:
    """A value as stored: flags are 0/1 integers in both dialects."""
    return int(v) if isinstance(v, bool) else v


def digest(text: str) -> str:
    """The sha256 hex digest of ``text`` (used for snapshot and private-view fingerprints)."""
    return hashlib.sha256(text.encode()).hexdigest()


async def insert_lobby(
    h: Any,
    at: float,
    kind: str,
    seed: int,
    options: Mapping[str, Any],
    guild_id: int | None,
    channel_id: int,
    creator_id: int,
    clock_seconds: int,
) -> int:
    """Insert a game in the lobby state in the open transaction ``h`` (no seats yet); its id."""
    return int(
        await h.sql_insert(
            "INSERT INTO games (kind, seed, options, guild_id, channel_id, creator_id, status, "
            "clock_seconds, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'lobby', ?, ?, ?)",
            (kind, seed, json.dumps(dict(options), sort_keys=True), guild_id, channel_id, creator_id)
            + (clock_seconds, at, at),
        )
    )
