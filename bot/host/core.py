"""What the parts of the game service share (:class:`Core`): the store, the clock, the settings,
the games held in memory and the rows of those not loaded, and the writes every part makes (one
applied move, the end of a game) and the bound on games held.

The service (:class:`~bot.host.service.GameService`) is a composition of parts, one file each,
each holding this core and the parts it calls, all typed: :class:`~bot.host.loading.Games`
(loading, reloading, the "needs attention" flag and its recovery), :class:`~bot.host.dormant.Dormant`
(active games known by their rows only), :class:`~bot.host.duties.Duties` (AI seats and the turn
clock), :class:`~bot.host.lobbies.Lobbies` and :class:`~bot.host.moves.Moves` (moves, resigning,
ending, the log). ``GameService`` keeps the public API by delegating to them.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any

from engines import base, search

from . import clock as clk
from . import commit, holding, rating_note
from .guides import Guides
from .live import LiveGame, Refusal
from .quotas import Quotas
from .ratings import Ratings
from .store import GameRow, Store, VersionConflict
from .workers import Workers

log = logging.getLogger(__name__)

AI_GRACE = 20.0  # seconds AI seats wait for the people awaited beside them (a trade reply)


class Core:
    """The shared state of the service's parts. ``now`` is the clock (Unix seconds),
    ``seed_source`` makes game seeds, ``on_clock_change`` is called whenever a deadline may have
    moved (to wake the scheduler), ``holds(guild_id)`` says whether this process serves a
    guild's games at start-up (its Discord shards, see :mod:`bot.host.shards`)."""

    def __init__(
        self,
        store: Store,
        *,
        now: Callable[[], float] = time.time,
        seed_source: Callable[[], int] | None = None,
        default_clock: int = clk.DEFAULT_CLOCK,
        ai_grace: float = AI_GRACE,
        on_clock_change: Callable[[], None] | None = None,
        workers: Workers | None = None,
        ai_level: str | None = None,
        holds: Callable[[int | None], bool] | None = None,
        quotas: Quotas | None = None,
    ) -> None:
        if ai_level is not None and ai_level not in search.LEVELS:
            raise ValueError(f"unknown AI level {ai_level!r}")
        self.store = store
        self.ratings = Ratings(store)
        self.quotas = quotas or Quotas()
        self.workers = workers or Workers(0)
        self.default_ai_level = ai_level  # the host's default level (BAZAAR_AI_LEVEL), else the game's
        self.now = now
        self.seed_source: Callable[[], int] = seed_source or (lambda: secrets.randbelow(2**62))
        self.default_clock = default_clock
        self.ai_grace = ai_grace
        self.on_clock_change: Callable[[], None] = on_clock_change or (lambda: None)
        self.holds: Callable[[int | None], bool] = holds or (lambda guild_id: True)
        # (owner, lease seconds) of this process's turn clock claims on a shared database
        self.claims: tuple[str, float] | None = None
        self.games: dict[int, LiveGame] = {}  # the games held in memory, least recently used first
        self.dormant: dict[int, GameRow] = {}  # active games not loaded yet: their rows
        self.load_lock = asyncio.Lock()  # one LiveGame (and so one lock) per game id
        # game id -> (version, seat, action) of a write that failed in a way that may have committed
        self.unsure: commit.Unsure = {}
        self.guides = Guides(store, self.workers)  # the guided games' part (bot/host/guides.py)

    def trim(self) -> None:
        """Keep at most ``quotas.held_games`` games in memory: drop the least recently used that
        nothing is using (no lock held, nothing to publish, no AI thinking); a running game goes
        back to the dormant rows its clock is kept from, and any of them is loaded again on use."""
        holding.trim(self.games, self.dormant, self.quotas.held_games)

    async def commit(
        self,
        game: LiveGame,
        seat: int,
        played: base.Played,
        *,
        by: str,
        user_id: int | None = None,
        seat_updates: Mapping[int, Mapping[str, Any]] | None = None,
    ) -> None:
        """Write one applied move and update the live game (see :func:`.commit.commit`); in a
        guided game, the guide's words follow (:mod:`.guides`)."""
        note = await self.guides.before_commit(game, seat, played.action, by)
        await commit.commit(
            self.store,
            game,
            seat,
            played,
            now=self.now,
            unsure=self.unsure,
            games=self.games,
            by=by,
            user_id=user_id,
            seat_updates=seat_updates,
        )
        stop = await self.guides.after_commit(game, seat, played.action, note)
        if stop is not None:  # the guided game reached its guide's end
            await self.close(game, stop)
        if game.row.status == "finished":
            await self.rate(game)

    async def rate(self, game: LiveGame) -> None:
        """Rate a game that just finished and note the changes for its final sheet. A failure
        is logged, never the move's: the next start rates it (:meth:`.Ratings.catch_up`)."""
        try:
            changes = await self.ratings.game_over(game, self.ai_level_of(game))
        except Exception:
            log.exception("Game %s: rating it failed; the next start rates it", game.id)
            return
        note = rating_note.note(changes, game.row.guild_id)
        if note:
            game.notes.append(note)

    def ai_level_of(self, game: LiveGame) -> Callable[[int], str]:
        """The level each AI seat of ``game`` plays at (as :meth:`.Duties.ai_level` says)."""

        def level(seat: int) -> str:
            return game.seats[seat].ai_level or self.default_ai_level or game.engine.default_ai_level

        return level

    async def close(self, game: LiveGame, note: str) -> None:
        """End a lobby or running game (the caller holds its lock); one that finished meanwhile
        (another process's last move) is left finished, with its result: the caller is told it
        is over."""
        try:
            game.row = await self.store.update_game(
                game.id, expect_status=("lobby", "active"), status="ended", deadline=None
            )
        except VersionConflict:
            self.games.pop(game.id, None)  # reloaded as it is stored on next use
            raise Refusal(f"{game.title} is already over.") from None
        game.notes.append(note)
        game.closed = True
