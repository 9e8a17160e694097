"""Active games not loaded yet: a mixin of :class:`~bot.host.service.GameService`.

Loading a game replays its whole log, so start-up does not: it reads the games table only
(:meth:`GameService.load_all`) and a game loads on first use (a click, a command, its turn clock
coming due). What loading at start-up used to do for every game runs afterwards, in the
background, one game at a time (:meth:`Dormant.check_dormant`): its replay is checked against
the snapshot (a game that fails is flagged and its players told) and AI seats the last run left
awaited get to play. A game that needs neither is dropped again, so memory holds only the games
in use.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from . import clock as clk
from .live import LiveGame
from .store import GameRow

log = logging.getLogger("bot.host.service")


class Dormant:
    """The active games known by their rows only (see the module docstring). Uses what
    ``GameService`` has: ``_games``, ``_dormant``, ``_load_lock`` and ``_load``."""

    _games: dict[int, LiveGame]
    _dormant: dict[int, GameRow]
    _load_lock: asyncio.Lock
    _load: Any

    def dormant(self) -> list[int]:
        """Ids of the active games not loaded yet."""
        return list(self._dormant)

    def clock_entries(self) -> list[clk.Entry]:
        """Clock entries of every active game: the loaded ones (their live rows) and the dormant
        ones (their stored deadlines; a game flagged as needing attention has none)."""
        loaded: list[clk.Entry] = super().clock_entries()  # type: ignore[misc]
        return loaded + [
            clk.Entry.of(r.id, r.deadline, r.clock_seconds, r.reminded)
            for r in self._dormant.values()
            if r.deadline is not None and r.attention is None and r.id not in self._games
        ]

    async def check_dormant(self) -> tuple[list[LiveGame], int]:
        """Load each dormant game in turn (yielding to the loop between games) and keep it only
        when it needs something: its history no longer checks out (it is flagged now), or AI
        seats are awaited (the last run stopped between a person's move and the AI's answers;
        :meth:`resume_ai` plays them). Returns the newly flagged games and how many games were
        checked. A game loaded meanwhile by a player is skipped (it was checked as it loaded)."""
        flagged: list[LiveGame] = []
        checked = 0
        for gid in list(self._dormant):
            async with self._load_lock:
                row = self._dormant.get(gid)
                if row is None or gid in self._games:
                    continue
                game = await self._load(gid, keep=False)
                checked += 1
                if game is None:
                    self._dormant.pop(gid, None)
                    continue
                newly = bool(game.row.attention) and not row.attention
                owed = any(game.ai_plays(s) for s in game.awaited())
                if newly or owed or game.row.status != "active":
                    self._games[gid] = game
                    self._dormant.pop(gid, None)
                    if newly:
                        flagged.append(game)
                else:
                    self._dormant[gid] = game.row
            await asyncio.sleep(0)
        return flagged, checked
