"""The ratings' tables (migration 0010), as a mixin of :class:`~bot.host.store_base.Store`: the
lobbies opened unrated, each finished game's result (its ranks and ladder), the ratings and the
change each game made. Every method is one transaction, in SQL both dialects accept; what the
numbers are is decided by :mod:`bot.host.ratings` and :mod:`bot.host.rating_math`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, NamedTuple

RATING_COLS = (
    "kind, scope, ladder, player, user_id, name, mu, sigma, rating, games, wins, best, best_game, last_at"
)
CHANGE_COLS = "game_id, scope, player, kind, ladder, user_id, seat, players, place, was, now, new_best, at"
RESULT_COLS = "game_id, kind, guild_id, finished_at, ranks, players, ladder"
PEOPLE, AI, UNRATED = "people", "ai", "unrated"
"""The ladders: games between people, games with an AI seat, games that count on neither."""
GLOBAL = 0
"""The scope of the tables across all servers (guild ids are never 0)."""
RATING_LOCK = 0x0BA2AA2  # PostgreSQL advisory lock: one process rates at a time


class RatingRow(NamedTuple):
    """One player's standing on one table: ``scope`` is a guild id (0: all servers), ``ladder``
    ``people`` or ``ai`` (the table of games against the AI), ``player`` ``u<id>`` or ``ai:<level>``."""

    kind: str
    scope: int
    ladder: str
    player: str
    user_id: int | None
    name: str
    mu: float
    sigma: float
    rating: int
    games: int
    wins: int
    best: int
    best_game: int
    last_at: float


class ChangeRow(NamedTuple):
    """What one game did to one player's rating on one table (``was`` None: their first game)."""

    game_id: int
    scope: int
    player: str
    kind: str
    ladder: str
    user_id: int | None
    seat: int
    players: int
    place: int
    was: int | None
    now: int
    new_best: bool
    at: float


class ResultRow(NamedTuple):
    """A finished game's result: the engine's rank of each seat, each seat's rated player
    (``u<user id>``, ``ai:<level>`` at the level it played, None: not rated) and which table
    it counts on."""

    game_id: int
    kind: str
    guild_id: int | None
    finished_at: float
    ranks: tuple[int, ...]
    players: tuple[str | None, ...]
    ladder: str


def rating_row(r: Sequence[Any]) -> RatingRow:
    return RatingRow(
        str(r[0]), int(r[1]), str(r[2]), str(r[3]), r[4], str(r[5]), float(r[6]), float(r[7]),
        int(r[8]), int(r[9]), int(r[10]), int(r[11]), int(r[12]), float(r[13]),
    )  # fmt: skip


def change_row(r: Sequence[Any]) -> ChangeRow:
    return ChangeRow(
        int(r[0]), int(r[1]), str(r[2]), str(r[3]), str(r[4]), r[5], int(r[6]), int(r[7]), int(r[8]),
        r[9], int(r[10]), bool(r[11]), float(r[12]),
    )  # fmt: skip


def result_row(r: Sequence[Any]) -> ResultRow:
    return ResultRow(
        int(r[0]), str(r[1]), r[2], float(r[3]), tuple(json.loads(r[4])), tuple(json.loads(r[5])), str(r[6])
    )


def _rating_args(r: RatingRow) -> tuple[Any, ...]:
    return (r.kind, r.scope, r.ladder, r.player, r.user_id, r.name, r.mu, r.sigma, r.rating, r.games,
            r.wins, r.best, r.best_game, r.last_at)  # fmt: skip


def _change_args(c: ChangeRow) -> tuple[Any, ...]:
    return (c.game_id, c.scope, c.player, c.kind, c.ladder, c.user_id, c.seat, c.players, c.place, c.was,
            c.now, int(c.new_best), c.at)  # fmt: skip


def _result_args(r: ResultRow) -> tuple[Any, ...]:
    ranks, players = json.dumps(list(r.ranks)), json.dumps(list(r.players))
    return (r.game_id, r.kind, r.guild_id, r.finished_at, ranks, players, r.ladder)


Compute = Callable[[dict[tuple[int, str], RatingRow]], tuple[list[RatingRow], list[ChangeRow]]]
"""Given the stored rows of a game's players (by scope and player), the rows to write and the
changes to record."""


class RatingTables:
    """The ratings' tables (see the module docstring); the store provides the transactions."""

    dialect: str

    def _tx(self) -> AbstractAsyncContextManager[Any]:
        raise NotImplementedError

    def _read(self) -> AbstractAsyncContextManager[Any]:
        raise NotImplementedError

    async def _all(self, sql: str, args: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    async def _lock_ratings(self, h: Any) -> None:
        if self.dialect == "postgres":
            await h.sql_row("SELECT pg_advisory_xact_lock(?)", (RATING_LOCK,))

    async def mark_unrated(self, game_id: int) -> None:
        """The game was opened with ``rated:false``: it never counts on any table."""
        async with self._tx() as h:
            await h.sql_run(
                "INSERT INTO unrated_games (game_id) VALUES (?) ON CONFLICT (game_id) DO NOTHING", (game_id,)
            )

    async def unrated(self, game_ids: Iterable[int]) -> set[int]:
        """Which of ``game_ids`` were opened unrated."""
        ids = sorted(set(game_ids))
        out: set[int] = set()
        for at in range(0, len(ids), 500):
            chunk = ids[at : at + 500]
            rows = await self._all(
                f"SELECT game_id FROM unrated_games WHERE game_id IN ({','.join('?' * len(chunk))})",
                tuple(chunk),
            )
            out.update(int(r[0]) for r in rows)
        return out

    async def finished_at(self, game_id: int) -> float | None:
        """When a game's last move was stored (its place in the rating order)."""
        rows = await self._all("SELECT MAX(at) FROM moves WHERE game_id = ?", (game_id,))
        return float(rows[0][0]) if rows and rows[0][0] is not None else None

    async def unresulted(self) -> list[int]:
        """Finished games whose result is not recorded yet (games finished before migration
        0010, or whose rating write failed), by id."""
        rows = await self._all(
            "SELECT id FROM games WHERE status = 'finished' AND id NOT IN (SELECT game_id FROM game_results) "
            "ORDER BY id"
        )
        return [int(r[0]) for r in rows]

    async def put_results(self, results: Iterable[ResultRow]) -> None:
        """Record results (a game's already recorded is left as it is)."""
        async with self._tx() as h:
            await h.sql_many(
                f"INSERT INTO game_results ({RESULT_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (game_id) DO NOTHING",
                [_result_args(r) for r in results],
            )

    async def rate_one(
        self, result: ResultRow, keys: Iterable[tuple[int, str]], compute: Compute
    ) -> list[ChangeRow] | None:
        """Record one finished game's result and, for a rated one, its players' new ratings, in
        one transaction: the stored rows of ``keys`` (scope, player) of this game's kind and
        ladder are read and ``compute`` says what to write. Returns the changes written, or
        None (and nothing written) when the game's result was recorded already."""
        async with self._tx() as h:
            await self._lock_ratings(h)
            if await h.sql_row("SELECT 1 FROM game_results WHERE game_id = ?", (result.game_id,)):
                return None
            await h.sql_run(
                f"INSERT INTO game_results ({RESULT_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?)", _result_args(result)
            )
            if result.ladder == UNRATED:
                return []
            wanted = set(keys)
            scopes = sorted({s for s, _ in wanted})
            players = sorted({p for _, p in wanted})
            found = await h.sql_rows(
                f"SELECT {RATING_COLS} FROM ratings WHERE kind = ? AND ladder = ? "
                f"AND scope IN ({','.join('?' * len(scopes))}) "
                f"AND player IN ({','.join('?' * len(players))})",
                (result.kind, result.ladder, *scopes, *players),
            )
            current = {
                (r.scope, r.player): r for r in map(rating_row, found) if (r.scope, r.player) in wanted
            }
            rows, changes = compute(current)
            await self._write_ratings(h, rows, changes)
        return changes

    async def _write_ratings(self, h: Any, rows: Iterable[RatingRow], changes: Iterable[ChangeRow]) -> None:
        await h.sql_many(
            f"INSERT INTO ratings ({RATING_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (kind, scope, ladder, player) DO UPDATE SET "
            "user_id = excluded.user_id, name = excluded.name, mu = excluded.mu, sigma = excluded.sigma, "
            "rating = excluded.rating, games = excluded.games, wins = excluded.wins, best = excluded.best, "
            "best_game = excluded.best_game, last_at = excluded.last_at",
            [_rating_args(r) for r in rows],
        )
        await h.sql_many(
            f"INSERT INTO rating_changes ({CHANGE_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [_change_args(c) for c in changes],
        )

    async def rating_inputs(self) -> tuple[list[ResultRow], dict[int, list[str]]]:
        """Every recorded result in rating order (finish time, then game id) and the seats'
        names of the rated ones (game id -> names by seat), read together."""
        async with self._read() as h:
            results = [
                result_row(r)
                for r in await h.sql_rows(
                    f"SELECT {RESULT_COLS} FROM game_results ORDER BY finished_at, game_id"
                )
            ]
            seats: dict[int, list[str]] = {}
            for r in await h.sql_rows(
                "SELECT s.game_id, s.name FROM seats s "
                "JOIN game_results g ON g.game_id = s.game_id WHERE g.ladder <> 'unrated' "
                "ORDER BY s.game_id, s.seat"
            ):
                seats.setdefault(int(r[0]), []).append(str(r[1]))
        return results, seats

    async def replace_ratings(self, rows: Sequence[RatingRow], changes: Sequence[ChangeRow]) -> None:
        """Every rating and change replaced by these (``bazaar db rate``), in one transaction."""
        async with self._tx() as h:
            await self._lock_ratings(h)
            await h.sql_run("DELETE FROM rating_changes")
            await h.sql_run("DELETE FROM ratings")
            await h.sql_copy("ratings", RATING_COLS.split(", "), [_rating_args(r) for r in rows])
            await h.sql_copy("rating_changes", CHANGE_COLS.split(", "), [_change_args(c) for c in changes])

    async def forget_rated(self, user_id: int, pseudonym: str) -> int:
        """Replace a person's player key in every recorded result by ``pseudonym`` (so the
        games they played still count the same for the others) and delete their ratings and
        changes; ``bazaar db forget-user`` then rates everything again. Returns how many results
        named them."""
        key = json.dumps(f"u{user_id}")
        async with self._tx() as h:
            await self._lock_ratings(h)
            rows = await h.sql_rows(
                "SELECT game_id, players FROM game_results WHERE players LIKE ?", (f"%{key}%",)
            )
            for gid, players in rows:
                named = [pseudonym if p == f"u{user_id}" else p for p in json.loads(players)]
                await h.sql_run(
                    "UPDATE game_results SET players = ? WHERE game_id = ?", (json.dumps(named), gid)
                )
            await h.sql_run("DELETE FROM rating_changes WHERE user_id = ?", (user_id,))
            await h.sql_run("DELETE FROM ratings WHERE user_id = ?", (user_id,))
        return len(rows)

    async def rating_changes_of(self, game_id: int) -> list[ChangeRow]:
        """What a game did to its players' ratings, by scope then seat."""
        rows = await self._all(
            f"SELECT {CHANGE_COLS} FROM rating_changes WHERE game_id = ? ORDER BY scope, seat, player",
            (game_id,),
        )
        return [change_row(r) for r in rows]

    async def top_ratings(self, kind: str, scope: int, ladder: str, limit: int) -> list[RatingRow]:
        """A table's best ``limit`` rows (rating, then games, then the player, high to low)."""
        rows = await self._all(
            f"SELECT {RATING_COLS} FROM ratings WHERE kind = ? AND scope = ? AND ladder = ? "
            "AND player NOT LIKE 'gone:%' ORDER BY rating DESC, games DESC, player LIMIT ?",
            (kind, scope, ladder, limit),
        )
        return [rating_row(r) for r in rows]

    async def rating_place(
        self, kind: str, scope: int, ladder: str, player: str
    ) -> tuple[RatingRow, int, int] | None:
        """A player's row on a table, their place (1 + how many rate higher: ties share) and how
        many are on the table; None if they have no rating there."""
        async with self._read() as h:
            row = await h.sql_row(
                f"SELECT {RATING_COLS} FROM ratings WHERE kind = ? AND scope = ? AND ladder = ? "
                "AND player = ?",
                (kind, scope, ladder, player),
            )
            if row is None:
                return None
            mine = rating_row(row)
            above = await h.sql_row(
                "SELECT COUNT(*) FROM ratings WHERE kind = ? AND scope = ? AND ladder = ? AND rating > ? "
                "AND player NOT LIKE 'gone:%'",
                (kind, scope, ladder, mine.rating),
            )
            total = await h.sql_row(
                "SELECT COUNT(*) FROM ratings WHERE kind = ? AND scope = ? AND ladder = ? "
                "AND player NOT LIKE 'gone:%'",
                (kind, scope, ladder),
            )
        return mine, int(above[0]) + 1 if above else 1, int(total[0]) if total else 1

    async def ratings_of(self, user_id: int, scope: int) -> list[RatingRow]:
        """A person's rows on every game's tables in ``scope``."""
        rows = await self._all(
            f"SELECT {RATING_COLS} FROM ratings WHERE user_id = ? AND scope = ? ORDER BY kind, ladder",
            (user_id, scope),
        )
        return [rating_row(r) for r in rows]

    async def changes_of(self, user_id: int, scope: int, limit: int) -> list[ChangeRow]:
        """A person's last ``limit`` rating changes in ``scope``, newest first."""
        rows = await self._all(
            f"SELECT {CHANGE_COLS} FROM rating_changes WHERE user_id = ? AND scope = ? "
            "ORDER BY at DESC, game_id DESC LIMIT ?",
            (user_id, scope, limit),
        )
        return [change_row(r) for r in rows]
