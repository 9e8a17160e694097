"""Rematch: the button on a final sheet opens a new lobby in the game's channel with the same seats
(the same people, each AI at its level, in the same order) and the same options and turn clock.
One rematch per game: a second click, in this process or another, finds the lobby the first one
opened (:meth:`~bot.host.store_archive.StoreArchive.open_rematch`). A part of the game service.

The rematch of a guided game (``/learn``) is an ordinary game: its AI seats play at the level the
guide plays once off its script (:data:`~bot.host.guides.PLAYS_AS`), never as the guide, whose
notes speak from the learner's view and so belong only in the learner's own game (the rematch is
an open lobby in the channel, which anyone may join)."""

from __future__ import annotations

import asyncio

from engines import base

from .core import Core
from .guides import GUIDE, PLAYS_AS
from .live import LiveGame, Refusal
from .loading import Games
from .lobbies import Lobbies
from .store_archive import NewSeat


class Rematches:
    """The rematches (see the module docstring)."""

    def __init__(self, core: Core, games: Games, lobbies: Lobbies) -> None:
        self.core = core
        self.games = games
        self.lobbies = lobbies
        self.lock = asyncio.Lock()  # one click at a time in this process (the store orders processes)

    async def rematch(self, game_id: int, user_id: int, guild_id: int | None) -> tuple[LiveGame, bool]:
        """The lobby of the rematch of ``game_id`` asked by ``user_id`` (one of its people), and
        whether it was opened now. Raises :class:`Refusal`."""
        store = self.core.store
        row = await store.game(game_id)
        if row is None or row.guild_id != guild_id:
            raise Refusal(f"There is no game #{game_id} on this server.")
        if row.status not in ("finished", "ended"):
            raise Refusal(f"Game #{game_id} is not over yet: a rematch opens once it ends.")
        seats = await store.seats(game_id)
        if not any(s.user_id == user_id for s in seats):
            raise Refusal(f"Only the players of game #{game_id} can ask for its rematch.")
        try:
            base.get(row.kind)
        except base.BadOption:
            raise Refusal(f"This bot no longer has {row.kind}: no rematch of game #{game_id}.") from None
        async with self.lock:
            found = await store.rematch_of(game_id)
            if found is None:
                await self.lobbies._check_quotas(row.guild_id, row.channel_id, user_id)
                found, new = await store.open_rematch(
                    game_id,
                    kind=row.kind,
                    seed=self.core.seed_source(),
                    options=row.options,
                    guild_id=row.guild_id,
                    channel_id=row.channel_id,
                    creator_id=user_id,
                    clock_seconds=row.clock_seconds,
                    seats=[  # a person who asked to be forgotten (no id, not an AI) is left out
                        NewSeat(s.user_id, s.name, None)
                        if s.user_id is not None
                        else NewSeat(None, s.name, PLAYS_AS if s.ai_level == GUIDE else s.ai_level)
                        for s in seats
                        if s.user_id is not None or s.is_ai
                    ],
                )
            else:
                new = False
        return await self.games.get(found), new

    async def unposted(self, lobby: LiveGame) -> bool:
        """Whether the rematch ``lobby`` is open and its message was never recorded (Discord
        refused it): the next click posts it."""
        return lobby.row.status == "lobby" and not await self.core.store.messages(lobby.id, kind="lobby")

    async def posted(self, lobby: LiveGame, channel_id: int, message_id: int) -> None:
        """Record the rematch lobby's message (its buttons then follow the lobby as any lobby's)."""
        await self.core.store.add_message(
            lobby.id, kind="lobby", channel_id=channel_id, message_id=message_id, version=0, live=True
        )
