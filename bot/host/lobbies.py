"""Lobbies: opening one (within the quotas), joining, leaving, adding an AI seat, starting the
game, and closing lobbies nobody started in time. A part of the game service (see
:mod:`bot.host.core`): it holds the core, the loading part (``get``) and the AI part (AI seats
play from the start); each method that changes a game runs under its lock.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from engines import base, search

from . import clock as clk
from . import outbox
from .core import Core
from .duties import Duties
from .live import HISTORY, LiveGame, Refusal, Step
from .loading import Games
from .outbox import Outbox
from .parsing import parse_options
from .store import SeatRow


class Lobbies:
    """The lobbies (see the module docstring)."""

    def __init__(self, core: Core, games: Games, duties: Duties) -> None:
        self.core = core
        self.games = games
        self.duties = duties

    async def create(
        self,
        *,
        kind: str,
        options: str | Mapping[str, Any] | None,
        clock: str | None,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        name: str,
        rated: bool = True,
    ) -> LiveGame:
        """Open a lobby with the creator seated (``rated``: it counts on the ratings).
        Raises ``BadOption`` (unknown game or option) or :class:`~bot.clock.BadDuration`."""
        engine = base.get(kind)
        opts = (
            parse_options(engine, options)
            if options is None or isinstance(options, str)
            else engine.resolve_options(options)
        )
        seconds = clk.parse_duration(clock, default=self.core.default_clock)
        await self._check_quotas(guild_id, channel_id, user_id)
        row = await self.core.store.create_game(
            kind=engine.name,
            seed=self.core.seed_source(),
            options=opts,
            guild_id=guild_id,
            channel_id=channel_id,
            creator_id=user_id,
            creator_name=name,
            clock_seconds=seconds,
        )
        if not rated:
            await self.core.store.mark_unrated(row.id)
        game = LiveGame(row=row, seats=await self.core.store.seats(row.id), engine=engine, rated=rated)
        self.core.games[row.id] = game
        self.core.trim()
        return game

    async def _check_quotas(self, guild_id: int | None, channel_id: int, user_id: int) -> None:
        """Refuse a new lobby past the limits (:class:`~bot.host.quotas.Quotas`): the user's open
        lobbies, and the lobbies and running games of the channel and of the server."""
        q = self.core.quotas
        rows = await self.core.store.games(statuses=["lobby", "active"], guild_id=guild_id)
        mine = [r for r in rows if r.status == "lobby" and r.creator_id == user_id]
        if q.lobbies_per_user and len(mine) >= q.lobbies_per_user:
            ids = ", ".join(f"#{r.id}" for r in mine)
            raise Refusal(
                f"You already have {len(mine)} open lobbies ({ids}), the most one person may: start "
                f"one, or close one with `/game end`, before opening another."
            )
        here = [r for r in rows if r.channel_id == channel_id]
        if q.games_per_channel and len(here) >= q.games_per_channel:
            raise Refusal(
                f"This channel already has {len(here)} lobbies and games running, the most it may: "
                f"finish or end one first, or play in another channel."
            )
        if q.games_per_server and guild_id is not None and len(rows) >= q.games_per_server:
            raise Refusal(
                f"This server already has {len(rows)} lobbies and games running, the most it may: "
                f"finish or end one first."
            )

    async def close_idle_lobbies(self) -> list[Outbox]:
        """Close the lobbies of this process's servers that nobody touched (joined, left, added
        an AI) for ``quotas.lobby_idle`` seconds, each with a note saying why. Returns their
        outboxes (their lobby messages lose their buttons when they are published)."""
        idle = self.core.quotas.lobby_idle
        if not idle:
            return []
        before = self.core.now() - idle
        closed = []
        for row in await self.core.store.games(statuses=["lobby"]):
            if row.updated_at > before or not self.core.holds(row.guild_id):
                continue
            game = await self.games.get(row.id)
            async with game.lock:
                if game.row.status != "lobby" or game.row.updated_at > before:
                    continue
                hours = idle / 3600
                try:
                    await self.core.close(
                        game, f"This lobby was closed: nobody started it within {hours:g} hours."
                    )
                except Refusal:
                    continue
                closed.append(outbox.sealed(game))
        return closed

    def _lobby(self, game: LiveGame) -> None:
        if game.row.status == "active":
            raise Refusal(f"{game.title} has already started.")
        if game.row.status != "lobby":
            raise Refusal(f"{game.title} is over.")

    async def join(self, game_id: int, user_id: int, name: str) -> Outbox:
        """Seat ``user_id`` in a lobby; the outbox refreshes the lobby's message. Raises
        :class:`Refusal` if started, over, full or seated."""
        game = await self.games.get(game_id)
        async with game.lock:
            self._lobby(game)
            if game.seat_of(user_id):
                raise Refusal(f"You are already in {game.title}.")
            if len(game.seats) >= game.engine.max_players:
                raise Refusal(f"{game.title} is full ({game.engine.max_players} players).")
            seat = await self.core.store.add_seat(game.id, user_id=user_id, name=name)
            game.seats = [*game.seats, seat]
            game.relist = True
            return outbox.sealed(game)

    async def leave(self, game_id: int, user_id: int) -> Outbox:
        """Remove ``user_id`` from a lobby; a lobby left without people is closed (``ended``).
        The outbox refreshes the lobby's message. Raises :class:`Refusal` if not seated or the
        game has started (use /resign)."""
        game = await self.games.get(game_id)
        async with game.lock:
            if game.row.status == "active" and game.seat_of(user_id):
                raise Refusal(f"{game.title} has started: use `/resign` to leave it.")
            self._lobby(game)
            seat = game.seat_of(user_id)
            if seat is None:
                raise Refusal(f"You are not in {game.title}.")
            ended = await self.core.store.remove_seat(game.id, seat.seat, end_if_empty=True)
            game.seats = _without_seat(game.seats, seat.seat)
            if ended:
                game.row = dataclasses.replace(
                    game.row, status="ended", deadline=None, updated_at=self.core.now()
                )
            game.relist = True
            return outbox.sealed(game)

    async def add_ai(self, game_id: int, user_id: int, level: str | None = None) -> Outbox:
        """Add an AI seat to a lobby (by a seated player: a creator who left may not), at ``level``
        (one of ``engines.search.LEVELS``; None: the default level); the outbox refreshes the
        lobby's message. Raises :class:`Refusal`."""
        if level is not None and level not in search.LEVELS:
            raise Refusal(f"There is no AI level `{level[:20]}`; the levels are {', '.join(search.LEVELS)}.")
        game = await self.games.get(game_id)
        async with game.lock:
            self._lobby(game)
            if not _playing(game, user_id):  # a creator who left has no say over it any more
                raise Refusal(f"Only players in {game.title} can add an AI; join it first.")
            if len(game.seats) >= game.engine.max_players:
                raise Refusal(f"{game.title} is full ({game.engine.max_players} players).")
            n = sum(1 for s in game.seats if s.is_ai) + 1
            name = f"AI {n}" if level is None else f"AI {n} ({level})"
            seat = await self.core.store.add_seat(
                game.id, user_id=None, name=name, is_ai=True, ai_level=level
            )
            game.seats = [*game.seats, seat]
            game.relist = True
            return outbox.sealed(game)

    def check_start(self, game: LiveGame, user_id: int, *, can_manage: bool = False) -> None:
        """Raise what :meth:`start` would raise (:class:`Refusal`, ``BadOption``), changing nothing.
        Only the creator (or, once the creator has left, any seated player; or a server manager)
        may start, with a player count the game supports."""
        self._lobby(game)
        if not (can_manage or _may_end(game, user_id)):
            who = f" (<@{game.row.creator_id}>)" if game.row.creator_id else ""  # 0: a forgotten creator
            raise Refusal(f"Only the creator of {game.title}{who} can start it.")
        game.engine.check_players(len(game.seats))

    async def start(
        self, game_id: int, user_id: int, *, can_manage: bool = False, thread_id: int | None = None
    ) -> Outbox:
        """Deal the game (see :meth:`check_start`): setup from the stored seed, status active, the
        clock running, AI seats played until a person is awaited. ``thread_id`` is where it will be
        played. Returns the start's outbox; raises :class:`Refusal` or ``BadOption``."""
        game = await self.games.get(game_id)
        async with game.lock:
            self.check_start(game, user_id, can_manage=can_manage)
            state = game.engine.setup(game.row.seed, len(game.seats), game.row.options)
            game.row = await self.core.store.start_game(
                game.id,
                state_json=base.state_fingerprint(state),
                deadline=self.core.now() + game.row.clock_seconds,
                thread_id=thread_id,
            )
            game.state = state
            game.recent = deque(maxlen=HISTORY)
            game.started = True
            game.pending.append(Step(0, None, None, "setup", tuple(game.engine.events_on_setup(state))))
            await self.duties.advance_ai(game)
            box = outbox.sealed(game)
        self.core.on_clock_change()
        return box

    async def start_in(
        self,
        game: LiveGame,
        user_id: int,
        open_place: Callable[[], Awaitable[int | None]],
        *,
        can_manage: bool = False,
    ) -> Outbox:
        """Check that ``user_id`` may start ``game``, call ``open_place`` (the surface opens the
        thread it will be played in; None: the channel) and deal it there (:meth:`start`), all
        under the game's start lock, so a second Start waits and is refused instead of opening a
        second thread (or dealing into the channel while a thread opens). Returns the start's
        outbox (its row names the thread)."""
        async with game.start_lock:
            self.check_start(game, user_id, can_manage=can_manage)
            thread_id = await open_place()
            return await self.start(game.id, user_id, can_manage=can_manage, thread_id=thread_id)

    async def set_thread(self, game_id: int, thread_id: int) -> None:
        """Record the thread the game is played in."""
        game = await self.games.get(game_id)
        game.row = await self.core.store.update_game(game_id, thread_id=thread_id)


def _playing(game: LiveGame, user_id: int) -> bool:
    """Whether ``user_id`` holds a seat of ``game`` as a person (not left, not resigned)."""
    seat = game.seat_of(user_id)
    return seat is not None and not seat.is_ai


def _may_end(game: LiveGame, user_id: int) -> bool:
    """The creator while they play; once the creator has left or resigned, any player."""
    if user_id == game.row.creator_id:
        return _playing(game, user_id)
    return _playing(game, user_id) and not _playing(game, game.row.creator_id)


def _without_seat(seats: list[SeatRow], seat: int) -> list[SeatRow]:
    """``seats`` after the lobby seat ``seat`` is removed and later seats move up (as stored)."""
    return [s if s.seat < seat else dataclasses.replace(s, seat=s.seat - 1) for s in seats if s.seat != seat]
