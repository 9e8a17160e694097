"""Ratings, the host's part: which table a finished game counts on, rating it when it ends, rating
every stored game again from scratch (``bazaar db rate``, and the first start after migration
0010), and what ``/leaderboard``, ``/profile`` and the final sheet read.

Each game has, per server and across all servers (scope 0), two tables: the people's ladder
(games between people only) and the table against the AI (games with an AI seat, where each AI
level is a rated player of its own). A game counts on neither when it was opened with
``rated:false``, or when a person's seat was abandoned to the AI (resigned, or still played by
the AI for its owner at the end); a game stopped with ``/game end`` never finishes, so never
counts. The ranks are the engine's own (:class:`engines.outcome.Outcome`: ties share a rank).

Ratings are a function of the recorded results in finish order (the last move's time, then the
game id): rating one game at its end applies exactly the step :meth:`Ratings.rerate` applies to
it, so rating everything again gives the same numbers (:mod:`bot.host.rating_math`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engines import base
from render.ratings.cards import Board, Profile

from . import rating_math as rm
from . import standings
from .guides import GUIDE
from .live import LiveGame, Refusal
from .store import GameRecord, Store
from .store_ratings import AI, GLOBAL, PEOPLE, UNRATED, ChangeRow, RatingRow, ResultRow

__all__ = ["AI", "GLOBAL", "PEOPLE", "UNRATED", "Entrant", "Ratings", "ladder_of", "recompute", "step"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Entrant:
    """A rated seat: its player key (``u<user id>`` or ``ai:<level>``), user id and name."""

    seat: int
    player: str
    user_id: int | None
    name: str


def ladder_of(seats: Iterable[Any], unrated: bool) -> str:
    """The table a finished game with these seats (``user_id``, ``is_ai``, ``ai_takeover``)
    counts on: ``people``, ``ai`` or ``unrated`` (see the module docstring)."""
    seats = list(seats)
    if unrated or any(s.user_id is not None and (s.is_ai or s.ai_takeover) for s in seats):
        return UNRATED
    if any(s.is_ai and getattr(s, "ai_level", None) == GUIDE for s in seats):
        return UNRATED  # a guided game (/learn): its AI seats play a script
    people = {s.user_id for s in seats if s.user_id is not None}
    if any(s.is_ai for s in seats):
        return AI if people else UNRATED
    return PEOPLE if len(people) >= 2 else UNRATED


def players_of(seats: Iterable[Any], level: Callable[[int], str]) -> tuple[str | None, ...]:
    """Each seat's rated player: ``u<user id>`` for a person, ``ai:<level>`` for an AI seat at
    the level it plays (``level(seat)``), None for a seat abandoned to the AI."""
    out: list[str | None] = []
    for s in seats:
        if s.user_id is not None and not s.is_ai:
            out.append(f"u{s.user_id}")
        elif s.is_ai and s.user_id is None:
            out.append(f"ai:{level(s.seat)}")
        else:
            out.append(None)
    return tuple(out)


def entrants(players: Sequence[str | None], names: Sequence[str]) -> list[Entrant | None]:
    """The rated players of a result's seats, with the seats' ``names`` (an AI level is named
    for its level)."""
    out: list[Entrant | None] = []
    for seat, p in enumerate(players):
        if p is None:
            out.append(None)
        elif p.startswith("ai:"):
            out.append(Entrant(seat, p, None, f"AI ({p[3:]})"))
        elif p.startswith(GONE):  # a forgotten person (bazaar db forget-user)
            out.append(Entrant(seat, p, None, "a former player"))
        else:
            out.append(Entrant(seat, p, int(p[1:]), names[seat] if seat < len(names) else p))
    return out


def scopes_of(guild_id: int | None) -> list[int]:
    return [GLOBAL] if not guild_id else [guild_id, GLOBAL]


def _first_seats(players: Sequence[Entrant | None], ranks: Sequence[int]) -> dict[str, Entrant]:
    """Each player's best-ranked seat (an AI level on two seats counts once)."""
    first: dict[str, Entrant] = {}
    for e in players:
        if e is not None and (e.player not in first or ranks[e.seat] < ranks[first[e.player].seat]):
            first[e.player] = e
    return first


def step(
    result: ResultRow,
    players: Sequence[Entrant | None],
    current: dict[tuple[int, str], RatingRow],
) -> tuple[list[RatingRow], list[ChangeRow]]:
    """One rated game applied to its players' ``current`` rows (scope, player): the rows after
    it and the changes it made, per scope (the server's table and the global one, each rated on
    its own). The one rating step both the end of a game and the recomputation take."""
    places = rm.places_of([e.player if e else None for e in players], result.ranks)
    first = _first_seats(players, result.ranks)
    rows: list[RatingRow] = []
    changes: list[ChangeRow] = []
    for scope in scopes_of(result.guild_id):
        held = {p: current[(scope, p)] for p in places if (scope, p) in current}
        before = {p: rm.Skill(r.mu, r.sigma) for p, r in held.items()}
        after = rm.rate(before, places)
        for p in sorted(places):
            row, change = _after(
                result, scope, first[p], current.get((scope, p)), before.get(p), after[p], places[p]
            )
            rows.append(row)
            changes.append(change)
    return rows, changes


def _after(
    result: ResultRow,
    scope: int,
    e: Entrant,
    old: RatingRow | None,
    was_skill: rm.Skill | None,
    skill: rm.Skill,
    place: int,
) -> tuple[RatingRow, ChangeRow]:
    """A player's row on one table after the game, and the change it made. Their best is the
    highest rating they reached after a game (their first game's, else higher); a new best is a
    rating above the one before (the start, for a first game)."""
    was = (was_skill or rm.Skill()).shown
    now = skill.shown
    new_best = now > (old.best if old else was)
    higher = old is None or now > old.best
    best, best_game = (now, result.game_id) if higher or old is None else (old.best, old.best_game)
    games, wins = (old.games, old.wins) if old else (0, 0)
    row = RatingRow(
        result.kind, scope, result.ladder, e.player, e.user_id, e.name, skill.mu, skill.sigma, now, games + 1,
        wins + int(place == 1), best, best_game, result.finished_at,
    )  # fmt: skip
    change = ChangeRow(
        result.game_id, scope, e.player, result.kind, result.ladder, e.user_id, e.seat, len(result.ranks),
        place, was, now, new_best, result.finished_at,
    )  # fmt: skip
    return row, change


def result_of(record: GameRecord, state: Any, unrated: bool) -> ResultRow:
    """The result of a finished game from its record and final state (no outcome: unrated); an
    AI seat stored without a level counts at the game's default level."""
    engine = base.get(record.row.kind)
    outcome = engine.outcome(state)
    row = record.row
    at = max((m.at for m in record.moves), default=row.updated_at)
    if outcome is None:
        return ResultRow(row.id, row.kind, row.guild_id, at, (), (), UNRATED)
    players = players_of(record.seats, lambda s: record.seats[s].ai_level or engine.default_ai_level)
    ladder = ladder_of(record.seats, unrated)
    return ResultRow(row.id, row.kind, row.guild_id, at, tuple(outcome.ranks), players, ladder)


def replayed(record: GameRecord) -> Any:
    """The final state of a stored game (its log replayed; CPU only)."""
    row = record.row
    moves = [(m.seat, m.action) for m in record.moves]
    state = None
    for after, _ in base.replay_steps(base.get(row.kind), row.seed, len(record.seats), row.options, moves):
        state = after
    return state


COMPUTING = (
    "📈 The ratings are being computed from every finished game (the first start after an upgrade); "
    "try again in a minute."
)

GONE = "gone:"
"""The player key prefix of a forgotten person: ``gone:<random token>``, the same in all their
games (so the others' ratings stay as they were) and never linked to their id again."""


class Ratings:
    """The host's ratings over a store (see the module docstring)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.computing: asyncio.Task[int] | None = None
        """The first start's catch-up running in the background (:meth:`start`), else None."""
        self._inflight = 0  # games finishing while it runs, their results being recorded
        self._meanwhile = 0  # how many such results were recorded

    async def game_over(self, game: LiveGame, level: Callable[[int], str]) -> list[ChangeRow]:
        """Record a game that just finished and rate it (``level(seat)``: the level an AI seat
        played at); the changes it made (none for an unrated game, or one recorded already).
        While the first start's catch-up runs (:attr:`computing`) the result is only recorded:
        the catch-up rates it with the rest, and the changes are none."""
        outcome = game.engine.outcome(game.state) if game.state is not None else None
        if outcome is None:
            return []
        if self.computing is not None:
            self._inflight += 1  # before any wait: the catch-up waits for it
            try:
                result, _ = await self._result(game, level, outcome.ranks)
                await self.store.put_results([result])
            finally:
                self._inflight -= 1
                self._meanwhile += 1
            return []
        result, players = await self._result(game, level, outcome.ranks)
        keys = [(scope, e.player) for scope in scopes_of(result.guild_id) for e in players if e is not None]
        changes = await self.store.rate_one(result, keys, lambda current: step(result, players, current))
        return changes or []

    async def _result(
        self, game: LiveGame, level: Callable[[int], str], ranks: Sequence[int]
    ) -> tuple[ResultRow, list[Entrant | None]]:
        """A finished game's result and its rated players."""
        unrated = bool(await self.store.unrated([game.id]))
        at = await self.store.finished_at(game.id) or game.row.updated_at
        row = game.row
        ladder = ladder_of(game.seats, unrated)
        result = ResultRow(
            row.id, row.kind, row.guild_id, at, tuple(ranks), players_of(game.seats, level), ladder
        )
        return result, entrants(result.players, [s.name for s in game.seats])

    async def start(self) -> bool:
        """At start-up: when ratings are due (:meth:`Store.rating_due`: games finished before
        migration 0010, or a catch-up cut short), :meth:`catch_up` in the background, so the bot
        starts at once; meanwhile :attr:`computing` is its task and the ratings' answers say they
        are being computed. Returns whether it started."""
        if self.computing is not None or not await self.store.rating_due():
            return False
        self.computing = asyncio.create_task(self._catching_up())
        return True

    async def _catching_up(self) -> int:
        try:
            recorded = await self.record_missing()
            while True:  # again if games finished (their results recorded) while it rated
                seen = self._meanwhile
                await self.rerate()
                while self._inflight:
                    await asyncio.sleep(0.05)
                if self._meanwhile == seen:
                    break
            log.info("Ratings computed: %d finished game(s) recorded and everything rated", recorded)
            return recorded
        except Exception:
            log.exception("Ratings: the catch-up failed (the next start tries again)")
            return 0
        finally:
            self.computing = None

    async def stop(self) -> None:
        """At shutdown: stop the catch-up if it runs (nothing half-written: each write is one
        transaction, and the next start sees the ratings are still due)."""
        task = self.computing
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self.computing = None

    def refuse_while_computing(self) -> None:
        """The ratings' answers while the catch-up runs: a clear refusal, not stale numbers."""
        if self.computing is not None:
            raise Refusal(COMPUTING)

    async def catch_up(self) -> int:
        """Record the results missing (:meth:`record_missing`) and, if there was any, rate
        everything again in order, waiting for it (the first start does this in the background,
        :meth:`start`). Returns how many were recorded."""
        recorded = await self.record_missing()
        if recorded:
            await self.rerate()
        return recorded

    async def record_missing(self) -> int:
        """Record the result of every finished game that has none (games finished before
        migration 0010, or whose rating failed), each replayed from its log; how many."""
        ids = await self.store.unresulted()
        if not ids:
            return 0
        unrated = await self.store.unrated(ids)
        results = []
        for gid in ids:
            record = await self.store.record(gid)
            if record is None:
                continue
            try:
                state = await asyncio.to_thread(replayed, record)
                results.append(result_of(record, state, gid in unrated))
            except Exception as err:  # a game that no longer replays counts on no table
                log.warning("Game %s: not rated, its log does not replay (%s)", gid, type(err).__name__)
                at = max((m.at for m in record.moves), default=record.row.updated_at)
                results.append(ResultRow(gid, record.row.kind, record.row.guild_id, at, (), (), UNRATED))
        await self.store.put_results(results)
        return len(results)

    async def board(self, kind: str, scope: int, user_id: int, *, ladder: str = PEOPLE) -> Board:
        """``/leaderboard``: a game's table in ``scope`` (a guild id, or :data:`GLOBAL`)."""
        self.refuse_while_computing()
        return await standings.board(self.store, kind, scope, user_id, ladder=ladder)

    async def profile(self, user_id: int, scope: int, name: str) -> Profile:
        """``/profile``: a person's card in ``scope``."""
        self.refuse_while_computing()
        return await standings.profile(self.store, user_id, scope, name)

    async def forget(self, user_id: int) -> int:
        """``bazaar db forget-user``: the person's key in every result becomes one random
        pseudonym (hidden from the leaderboards), their ratings and changes are deleted, and
        everything is rated again. Returns how many results named them."""
        named = await self.store.forget_rated(user_id, GONE + secrets.token_hex(8))
        if named:
            await self.rerate()
        return named

    async def rerate(self) -> tuple[int, int]:
        """Rate every recorded result again from scratch, in finish order; returns (rated
        games, rating rows)."""
        results, seats = await self.store.rating_inputs()
        rows, changes, rated = await asyncio.to_thread(recompute, results, seats)
        await self.store.replace_ratings(rows, changes)
        return rated, len(rows)


def _table_order(r: RatingRow) -> tuple[str, str, int, str]:
    return (r.kind, r.ladder, r.scope, r.player)


def recompute(
    results: Sequence[ResultRow], seats: dict[int, list[str]]
) -> tuple[list[RatingRow], list[ChangeRow], int]:
    """Every table from the results in order: the final rows (sorted), every change, and how
    many games were rated (CPU only)."""
    tables: dict[tuple[str, str], dict[tuple[int, str], RatingRow]] = {}
    changes: list[ChangeRow] = []
    rated = 0
    for result in results:
        if result.ladder == UNRATED:
            continue
        players = entrants(result.players, seats.get(result.game_id, []))
        table = tables.setdefault((result.kind, result.ladder), {})
        rows, done = step(result, players, table)
        for r in rows:
            table[(r.scope, r.player)] = r
        changes.extend(done)
        rated += 1
    rows = sorted((r for table in tables.values() for r in table.values()), key=_table_order)
    return rows, changes, rated
