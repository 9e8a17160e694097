"""The Discord-free game host: lobbies, moves, AI seats, the turn clock's consequences, loading.

Every method that changes a game runs under that game's ``asyncio.Lock`` and writes through the
store (one transaction per applied move, the version checked inside it). Loading a game is setup
plus the replay of its move log (in a worker thread), checked against the stored snapshot (all
read in one read transaction); a game whose replay fails or disagrees is marked as needing
attention instead of crashing anything, and a marked game whose history checks out at a later
load is cleared. Games load lazily, on first use: at start-up only the games table is read (the
turn clock runs from its deadlines), and the other checks run in the background (see
:mod:`~bot.host.dormant`).

A write the database refuses raises :class:`~bot.host.store.StoreUnavailable` with the live game
unchanged (it is updated only after its transaction commits, never by reading back); an AI move
or a clock expiry refused that way is tried again :data:`STORE_RETRY` seconds later.

Refusals raise :class:`~bot.live.Refusal`, rule rejections the engine's ``RuleError`` subclasses,
and a bad clock text :class:`~bot.clock.BadDuration`; all carry a reason a player can read (seat
tokens ``{s0}``… included). Each operation that changes a game returns its frozen outbox, sealed
under the game's lock as it ends (:mod:`bot.host.outbox`); the surface hands it to the publisher,
which takes the game's queued outboxes (``service.posts.sending``) and reports what it showed
through ``service.posts.delivered``.

``GameService`` is a composition of parts sharing one :class:`~bot.host.core.Core` (the store,
the clock, the settings, the games held): :class:`~bot.host.loading.Games` (loading and
recovery), :class:`~bot.host.dormant.Dormant`, :class:`~bot.host.duties.Duties` (AI seats and
the turn clock), :class:`~bot.host.lobbies.Lobbies` and :class:`~bot.host.moves.Moves`; each of
its methods delegates to one of them, so the surface sees one object. Two parts the surface
calls directly: :class:`~bot.host.posts.Posts` (``service.posts``: every record of what was
posted, channel shapes, post claims, drafts; the surface never touches the store) and
:class:`~bot.host.clicks.Clicks` (``service.clicks``: a click's pick, form or dialog read under
the game's lock, which the surface never takes).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

from . import clock as clk
from . import outbox, reading
from .airunner import MAX_AI_STEPS as MAX_AI_STEPS  # re-exported
from .airunner import AiRunner
from .archive import Archive
from .clicks import Clicks
from .coaching import Coaching
from .core import AI_GRACE as AI_GRACE  # re-exported
from .core import Core
from .dormant import Dormant
from .duties import MAX_CLOCK_STEPS, STORE_RETRY, Duties  # noqa: F401  (re-exported)
from .finding import Sees
from .learning import Learning
from .live import Entry, Listing, LiveGame
from .loading import Games
from .lobbies import Lobbies
from .moves import RESTARTED as RESTARTED  # re-exported
from .moves import UNPOSTED as UNPOSTED  # re-exported
from .moves import Moves
from .outbox import Outbox
from .parsing import MAX_GAME_ID, game_number, no_game_here, parse_options  # noqa: F401  (re-exported)
from .posts import Posts
from .quotas import Quotas
from .rematch import Rematches
from .store import Store
from .undoing import Answer, Ask, Undos
from .workers import Workers


class GameService:
    """Hosts every game (see the module docstring). ``now`` is the clock (Unix seconds),
    ``seed_source`` makes game seeds, and ``on_clock_change`` is called whenever a deadline may
    have moved (to wake the scheduler)."""

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
        self.core = Core(
            store,
            now=now,
            seed_source=seed_source,
            default_clock=default_clock,
            ai_grace=ai_grace,
            on_clock_change=on_clock_change,
            workers=workers,
            ai_level=ai_level,
            holds=holds,
            quotas=quotas,
        )
        self.games = Games(self.core)
        self.idle = Dormant(self.core, self.games)
        self.duties = Duties(self.core, self.games)
        self.lobbies = Lobbies(self.core, self.games, self.duties)
        self.moves = Moves(self.core, self.games, self.duties)
        self.ratings = self.core.ratings  # /leaderboard, /profile, bazaar db rate (bot.host.ratings)
        self.posts = Posts(self.core, self.games)  # what the bot posted: the surface's only road to the store
        self.clicks = Clicks(self.core)  # clicks on a prompt's controls, read under the game's lock
        self.coaching = Coaching(self.core)  # hints and reviews
        self.archive = Archive(store)  # /replay, /history, /stats: stored games looked back at
        self.rematches = Rematches(self.core, self.games, self.lobbies)
        self.undos = Undos(self.core, self.games, self.duties)
        self.learning = Learning(self.core, self.games, self.duties)  # /learn (bot/host/learning.py)

    # ------------------------------------------------------------------ the core's settings

    @property
    def store(self) -> Store:
        """The database the service owns (host code and tests read it; the surface never does)."""
        return self.core.store

    async def close(self) -> None:
        """Close the database, last: the caller has stopped the turn clock, the AI stretches and
        everything else that uses it (see ``BazaarBot.close``). Closing again does nothing."""
        await self.core.store.close()

    @property
    def quotas(self) -> Quotas:
        return self.core.quotas

    @quotas.setter
    def quotas(self, quotas: Quotas) -> None:
        self.core.quotas = quotas

    @property
    def claims(self) -> tuple[str, float] | None:
        """(owner, lease seconds) of this process's turn clock claims on a shared database."""
        return self.core.claims

    @claims.setter
    def claims(self, claims: tuple[str, float] | None) -> None:
        self.core.claims = claims

    @property
    def now(self) -> Callable[[], float]:
        return self.core.now

    @property
    def workers(self) -> Workers:
        return self.core.workers

    @property
    def ai(self) -> AiRunner:
        """The AI stretches played in the background (:class:`~bot.host.airunner.AiRunner`)."""
        return self.duties.ai

    @property
    def _games(self) -> dict[int, LiveGame]:
        """The games held in memory (tests read it)."""
        return self.core.games

    @property
    def _load(self) -> Callable[..., Awaitable[LiveGame | None]]:
        """The loading part's ``load`` (a test replaces it to show that a path loads nothing)."""
        return self.games.load

    @_load.setter
    def _load(self, load: Callable[..., Awaitable[LiveGame | None]]) -> None:
        setattr(self.games, "load", load)  # noqa: B010  (an instance attribute over the method)

    # ------------------------------------------------------------------ loading (Games, Dormant)

    async def load_all(self) -> list[LiveGame]:
        return await self.games.load_all()

    def take_recovered(self) -> list[LiveGame]:
        return self.games.take_recovered()

    async def get(self, game_id: int | str) -> LiveGame:
        return await self.games.get(game_id)

    @property
    def reread(self) -> Callable[[LiveGame], Awaitable[None]]:
        """The loading part's ``reread`` (:meth:`.Games.reread`; a test replaces it to hold one
        process up between reading a game and acting on it)."""
        return self.games.reread

    @reread.setter
    def reread(self, reread: Callable[[LiveGame], Awaitable[None]]) -> None:
        setattr(self.games, "reread", reread)  # noqa: B010  (an instance attribute over the method)

    def forget(self, game_id: int) -> None:
        self.games.forget(game_id)

    def loaded(self) -> Iterable[LiveGame]:
        return self.games.loaded()

    def held(self, game_id: int) -> LiveGame | None:
        return self.games.held(game_id)

    def dormant(self) -> list[int]:
        return self.idle.dormant()

    async def check_dormant(self) -> tuple[list[LiveGame], int]:
        return await self.idle.check_dormant()

    # ------------------------------------------------------------------ lobbies

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
        return await self.lobbies.create(
            kind=kind,
            options=options,
            clock=clock,
            guild_id=guild_id,
            channel_id=channel_id,
            user_id=user_id,
            name=name,
            rated=rated,
        )

    async def close_idle_lobbies(self) -> list[Outbox]:
        return await self.lobbies.close_idle_lobbies()

    async def join(self, game_id: int, user_id: int, name: str) -> Outbox:
        return await self.lobbies.join(game_id, user_id, name)

    async def leave(self, game_id: int, user_id: int) -> Outbox:
        return await self.lobbies.leave(game_id, user_id)

    async def add_ai(self, game_id: int, user_id: int, level: str | None = None) -> Outbox:
        return await self.lobbies.add_ai(game_id, user_id, level)

    def check_start(self, game: LiveGame, user_id: int, *, can_manage: bool = False) -> None:
        self.lobbies.check_start(game, user_id, can_manage=can_manage)

    async def start(
        self, game_id: int, user_id: int, *, can_manage: bool = False, thread_id: int | None = None
    ) -> Outbox:
        return await self.lobbies.start(game_id, user_id, can_manage=can_manage, thread_id=thread_id)

    async def start_in(
        self,
        game: LiveGame,
        user_id: int,
        open_place: Callable[[], Awaitable[int | None]],
        *,
        can_manage: bool = False,
    ) -> Outbox:
        return await self.lobbies.start_in(game, user_id, open_place, can_manage=can_manage)

    async def set_thread(self, game_id: int, thread_id: int) -> None:
        await self.lobbies.set_thread(game_id, thread_id)

    # ------------------------------------------------------------------ playing (Moves)

    async def find(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        game_id: int | None = None,
        sees: Sees | None = None,
    ) -> LiveGame:
        return await self.moves.find(
            guild_id=guild_id, channel_id=channel_id, user_id=user_id, game_id=game_id, sees=sees
        )

    async def list_games(self, guild_id: int | None, sees: Sees | None = None) -> list[Listing]:
        return await self.moves.list_games(guild_id, sees)

    async def undo(
        self, game_id: int, user_id: int, *, expected_version: int | None = None, target: int | None = None
    ) -> Outbox:
        return await self.undos.undo(game_id, user_id, expected_version=expected_version, target=target)

    async def ask_undo(self, game_id: int, user_id: int, target: int | None = None) -> Ask | Outbox:
        return await self.undos.ask(game_id, user_id, target)

    async def answer_undo(
        self, game_id: int, user_id: int, version: int, asker: int, target: int, *, agree: bool
    ) -> tuple[Answer, Outbox]:
        return await self.undos.answer(game_id, user_id, version, asker, target, agree=agree)

    async def move(
        self,
        game_id: int,
        user_id: int,
        text: str,
        *,
        expected_version: int | None = None,
        reclaim: bool = True,
    ) -> Outbox:
        return await self.moves.move(
            game_id, user_id, text, expected_version=expected_version, reclaim=reclaim
        )

    async def resign(self, game_id: int, user_id: int) -> Outbox:
        return await self.moves.resign(game_id, user_id)

    async def end(self, game_id: int, user_id: int, *, can_manage: bool) -> Outbox:
        return await self.moves.end(game_id, user_id, can_manage=can_manage)

    async def requeue(self, game_id: int, posted: int | None, note: str = RESTARTED) -> Outbox:
        return await self.moves.requeue(game_id, posted, note)

    async def history(self, game_id: int, last: int = 15) -> list[Entry]:
        return await self.moves.history(game_id, last)

    async def note_dm(
        self, game_id: int, seat: int, *, closed: bool | None = None, dm_hash: str | None = None
    ) -> bool:
        return await self.moves.note_dm(game_id, seat, closed=closed, dm_hash=dm_hash)

    # ------------------------------------------------------------------ AI seats, the turn clock (Duties)

    def clock_entries(self) -> list[clk.Entry]:
        """Clock entries of every active game: the loaded ones (their live rows) and the dormant
        ones (their stored deadlines)."""
        return self.duties.clock_entries() + self.idle.clock_entries()

    async def resume_ai(self, game_ids: Iterable[int] | None = None) -> list[LiveGame]:
        return await self.duties.resume_ai(game_ids)

    async def ai_due(self, game_id: int) -> Outbox | None:
        return await self.duties.ai_due(game_id)

    def ai_level(self, game: LiveGame, seat: int) -> str:
        return self.duties.ai_level(game, seat)

    async def rearm_overdue(self) -> list[tuple[LiveGame, list[int], float]]:
        return await self.duties.rearm_overdue()

    async def remind(self, game_id: int) -> list[int]:
        return await self.duties.remind(game_id)

    async def expire(self, game_id: int) -> Outbox | None:
        return await self.duties.expire(game_id)

    # ------------------------------------------------------------------ reading (no state of its own)

    check_playable = staticmethod(reading.check_playable)
    take_batch = staticmethod(outbox.drain)  # what a publish would take, shown nowhere (tests)
    has_pending = staticmethod(reading.has_pending)
    awaited_seat = staticmethod(reading.awaited_seat)
    complete_for = staticmethod(reading.complete_for)
    prompt_for = staticmethod(reading.prompt_for)
    private_view = staticmethod(reading.private_view)
    public_view = staticmethod(reading.public_view)
