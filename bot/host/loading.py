"""Loading games: a part of the game service (see :mod:`bot.host.core`).

Loading a game is setup plus the replay of its move log (in a worker thread), checked against
the stored snapshot (all read in one read transaction); a game whose replay fails or disagrees is
flagged as needing attention instead of crashing anything, and a flagged game whose history
checks out at a later load is cleared (:meth:`Games.take_recovered`). Games load lazily, on
first use: at start-up only the games table is read (:meth:`Games.load_all`; the turn clock runs
from its deadlines). With a store other processes write too, a held game is caught up before
use and reloaded in place when another process moved it on.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from . import replay
from .core import Core
from .live import LiveGame, Refusal
from .parsing import game_number, no_game_here
from .store import GameRecord, stamp_of

log = logging.getLogger("bot.host.service")


class Games:
    """The games held in memory, loaded on first use (see the module docstring)."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self.recovered: list[LiveGame] = []  # flags cleared by loads, for take_recovered()

    async def load_all(self) -> list[LiveGame]:
        """Start-up: read the rows of the active games (their deadlines run the turn clock, see
        :meth:`.GameService.clock_entries`) and load only those start-up must act on now: games flagged as
        needing attention (a flag whose cause has gone is cleared, see :meth:`take_recovered`)
        and games whose deadline passed while the bot was down (see :meth:`.Duties.rearm_overdue`).
        Every other game loads on first use; :meth:`.Dormant.check_dormant` checks them in the background.
        Returns the games this load newly marked as needing attention (their players should be
        told)."""
        flagged: list[LiveGame] = []
        await self.core.ratings.start()  # games finished before migration 0010: in the background
        # another process's shard: its games are loaded only if a DM click or a clock asks
        rows = [r for r in await self.core.store.games(statuses=["active"]) if self.core.holds(r.guild_id)]
        self.core.dormant.update({r.id: r for r in rows if r.id not in self.core.games})
        for row in rows:
            if row.id in self.core.games or not (
                row.attention or (row.deadline is not None and row.deadline <= self.core.now())
            ):
                continue
            had = row.attention
            game = await self.load(row.id)
            if game is not None and game.row.attention and not had:
                flagged.append(game)
        return flagged

    def take_recovered(self) -> list[LiveGame]:
        """Take (and clear) the games whose "needs attention" flag a load has cleared because
        their stored history checks out (their players should be told they can play again)."""
        out, self.recovered = self.recovered, []
        return out

    async def get(self, game_id: int | str) -> LiveGame:
        """The live game ``game_id`` (loaded on first use; one live game per id, however the id
        arrives: ``1`` and ``"1"`` are the same game). Raises :class:`Refusal` if unknown or not
        a game number at all."""
        game_id = game_number(game_id)
        game = self.core.games.get(game_id)
        if game is not None:
            self.core.games[game_id] = self.core.games.pop(game_id)  # the most recently used, last
            if self.core.store.shared:
                await self.catch_up(game)
            return game
        async with self.core.load_lock:
            game = self.core.games.get(game_id)  # loaded meanwhile by another task
            if game is not None:
                return game
            game = await self.load(game_id)
            if game is None:
                raise Refusal(no_game_here(game_id))
            return game

    async def catch_up(self, game: LiveGame) -> None:
        """With a store other processes write too (PostgreSQL): before this process acts on a
        game it holds, compare the stored version, status and seat count (one indexed read) with
        its own, and reload the game in place when another process has moved it on, so locks
        and references to it stay valid. A game this process is acting on right now (its lock
        held) is left alone: its next write is version-checked anyway."""
        if game.lock.locked():
            return
        stamp = await self.core.store.stamp(game.id)
        if stamp is None or stamp == stamp_of(game.row, game.seats):
            return
        async with game.lock:
            await self.reload(game)

    async def reload(self, game: LiveGame) -> None:
        """Replace a held game's row, seats and state by what is stored (another process wrote
        it), in place; the caller holds its lock. The board this process would edit in place is
        forgotten: another process may have posted below it."""
        record = await self.core.store.record(game.id)
        if record is None:
            return
        fresh = await self.from_record(record)
        if fresh.row.version != game.row.version:
            log.info(
                "Game %s was moved on by another process (version %s -> %s): reloaded",
                game.id,
                game.row.version,
                fresh.row.version,
            )
        game.row, game.seats, game.engine, game.state = fresh.row, fresh.seats, fresh.engine, fresh.state
        game.recent = fresh.recent
        game.board = None
        game.dms.clear()

    async def reread(self, game: LiveGame) -> None:
        """With a shared store, bring a held game's row up to date (its deadline and reminder
        too, which other processes change without a move), reloading the whole game if its
        version, status or seats changed; the caller holds its lock. Nothing on a store only this
        process writes."""
        if not self.core.store.shared:
            return
        row = await self.core.store.game(game.id)
        if row is None:
            return
        stamp = await self.core.store.stamp(game.id)
        if stamp != stamp_of(game.row, game.seats) or row.version != game.row.version:
            await self.reload(game)
        else:
            game.row = row

    async def load(self, game_id: int, *, keep: bool = True) -> LiveGame | None:
        """Load a game from one consistent read of its row, seats, moves and snapshot; None if
        there is no such game. The game is held in memory only once loaded (a database error
        while loading leaves nothing half-loaded behind), and only with ``keep`` (the caller
        holds ``core.load_lock``, see :meth:`.Dormant.check_dormant`, when it does not keep it)."""
        record = await self.core.store.record(game_id)
        if record is None:
            return None
        game = await self.from_record(record)
        if keep:
            self.core.games[game.id] = game
            self.core.dormant.pop(game.id, None)
            self.core.trim()
        return game

    async def from_record(self, record: GameRecord) -> LiveGame:
        """The live game a stored record gives (its replay checked against its snapshot)."""
        row = record.row
        engine = replay.engine_of(row.kind)
        game = LiveGame(row=row, seats=record.seats, engine=engine)
        game.rated = not await self.core.store.unrated([row.id])
        if row.status in ("active", "finished") and not isinstance(engine, replay.Missing):
            await self.replay(game, record)
        elif isinstance(engine, replay.Missing) and row.status == "active":
            await self.flag(game, f"the game `{row.kind}` is not installed on this bot")
        return game

    async def replay(self, game: LiveGame, record: GameRecord) -> None:
        """Set the game's state by replaying its log, checked against the snapshot of the same
        read. A game that fails the check is flagged; a flagged game that passes is cleared."""
        replayed = await replay.replay_checked(game, record)
        if isinstance(replayed, str):
            await self.flag(game, replayed)
            return
        if record.row.attention and record.row.status == "active":
            await self.unflag(game)
        game.state, game.recent = replayed

    async def unflag(self, game: LiveGame) -> None:
        """Clear the "needs attention" flag of a game whose history checks out again (the flag
        was raised by a failure that has gone: an engine missing then, a replay that raised): its
        turn clock starts afresh, and the game is queued for :meth:`take_recovered`."""
        log.warning(
            "Game %s: its history checks out now; clearing its flag (%s)", game.id, game.row.attention
        )
        game.row = await self.core.store.update_game(
            game.id,
            expect_status="active",
            attention=None,
            deadline=self.core.now() + game.row.clock_seconds,
            reminded=False,
        )
        self.recovered.append(game)

    async def flag(self, game: LiveGame, why: str) -> None:
        log.error("Game %s needs attention: %s", game.id, why)
        game.state = None
        if game.row.attention != why:
            game.row = await self.core.store.update_game(game.id, attention=why, deadline=None)

    def forget(self, game_id: int) -> None:
        """Drop a game from memory (it is reloaded from the store on next use; its turn clock
        stops until then)."""
        self.core.games.pop(game_id, None)

    def loaded(self) -> Iterable[LiveGame]:
        """The games held in memory."""
        return list(self.core.games.values())

    def held(self, game_id: int) -> LiveGame | None:
        """The game ``game_id`` if it is held in memory (nothing is loaded)."""
        return self.core.games.get(game_id)
