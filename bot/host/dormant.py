"""Active games not loaded yet: a part of the game service (see :mod:`bot.host.core`).

Loading a game replays its whole log, so start-up does not: it reads the games table only
(:meth:`.Games.load_all`) and a game loads on first use (a click, a command, its turn clock
coming due). What loading at start-up used to do for every game runs afterwards, in the
background, one game at a time (:meth:`Dormant.check_dormant`): its replay is checked against
the snapshot (a game that fails is flagged and its players told) and AI seats the last run left
awaited get to play. A game that needs neither is dropped again, so memory holds only the games
in use.
"""

from __future__ import annotations

import asyncio
import logging

from . import clock as clk
from .core import Core
from .live import LiveGame
from .loading import Games

log = logging.getLogger("bot.host.service")


class Dormant:
    """The active games known by their rows only (``core.dormant``, see the module docstring)."""

    def __init__(self, core: Core, games: Games) -> None:
        self.core = core
        self.games = games

    def dormant(self) -> list[int]:
        """Ids of the active games not loaded yet."""
        return list(self.core.dormant)

    def clock_entries(self) -> list[clk.Entry]:
        """Clock entries of the dormant games (their stored deadlines; a game flagged as needing
        attention has none)."""
        return [
            clk.Entry.of(r.id, r.deadline, r.clock_seconds, r.reminded)
            for r in self.core.dormant.values()
            if r.deadline is not None and r.attention is None and r.id not in self.core.games
        ]

    async def check_dormant(self) -> tuple[list[LiveGame], int]:
        """Load each dormant game in turn (yielding to the loop between games) and keep it only
        when it needs something: its history no longer checks out (it is flagged now), or AI
        seats are awaited (the last run stopped between a person's move and the AI's answers;
        :meth:`.Duties.resume_ai` plays them). Returns the newly flagged games and how many games were
        checked. A game loaded meanwhile by a player is skipped (it was checked as it loaded)."""
        flagged: list[LiveGame] = []
        checked = 0
        for gid in list(self.core.dormant):
            async with self.core.load_lock:
                row = self.core.dormant.get(gid)
                if row is None or gid in self.core.games:
                    continue
                game = await self.games.load(gid, keep=False)
                checked += 1
                if game is None:
                    self.core.dormant.pop(gid, None)
                    continue
                newly = bool(game.row.attention) and not row.attention
                owed = any(game.ai_plays(s) for s in game.awaited())
                if newly or owed or game.row.status != "active":
                    self.core.games[gid] = game
                    self.core.dormant.pop(gid, None)
                    if newly:
                        flagged.append(game)
                else:
                    self.core.dormant[gid] = game.row
            await asyncio.sleep(0)
        return flagged, checked
