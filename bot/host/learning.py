"""Opening and finding a player's guided first game (``/learn``), a part of the game service
(see :mod:`bot.host.core`). The guide itself runs in :mod:`bot.host.guides`.

A guided game is stored like any game: the guide's seed and options, the learner in the
guide's seat (the creator's, seat 0) and AI seats at the level :data:`~bot.host.guides.GUIDE`,
the longest turn clock (:data:`~bot.host.clock.MAX_CLOCK`), started at once, so nobody else can
join it. It is unrated (it has one person). A player has at most one open guided game per game:
asking again finds it.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict, deque
from collections.abc import Awaitable, Callable

from engines import base
from engines import guide as guides
from engines.guide import Position

from . import clock as clk
from . import outbox
from .core import Core
from .duties import Duties
from .guides import GUIDE, STEP, guide_of, learner, step_note
from .live import HISTORY, LiveGame, Refusal, Step
from .loading import Games
from .outbox import Outbox


def has_guide(game: str) -> bool:
    """Whether ``game`` has a guided first game (``/learn`` offers it)."""
    try:
        guides.guide_for(game)
    except KeyError:
        return False
    return True


class Learning:
    """The guided games' openings (see the module docstring)."""

    def __init__(self, core: Core, games: Games, duties: Duties) -> None:
        self.core = core
        self.games = games
        self.duties = duties
        # (game kind, user): held while that person's guided game is found or opened, so two
        # quick /learn clicks open one game (this process; see learn_in)
        self._opening: defaultdict[tuple[str, int], asyncio.Lock] = defaultdict(asyncio.Lock)

    async def learn_in(
        self,
        kind: str,
        user_id: int,
        name: str,
        open_place: Callable[[], Awaitable[tuple[int | None, int, int | None]]],
    ) -> tuple[LiveGame, Outbox | None]:
        """``user_id``'s running guided game of ``kind`` and None, or a new one and the outbox of
        its start: then ``open_place`` (the surface's: a private thread or a DM) says where it
        is played, as ``(guild id, channel id, thread id)``. Two asks at once open one game."""
        async with self._opening[(kind, user_id)]:
            found = await self.open_guide(kind, user_id)
            if found is not None:
                return found, None
            guild_id, channel_id, thread_id = await open_place()
            box = await self.learn(
                kind,
                guild_id=guild_id,
                channel_id=channel_id,
                thread_id=thread_id,
                user_id=user_id,
                name=name,
            )
            return await self.games.get(box.game_id), box

    async def open_guide(self, kind: str, user_id: int) -> LiveGame | None:
        """``user_id``'s guided game of ``kind`` still running, or None."""
        for row in await self.core.store.games(statuses=["active"]):
            if row.kind != kind or row.creator_id != user_id:
                continue
            game = await self.games.get(row.id)
            if guide_of(game) is not None and game.seat_of(user_id) is not None:
                return game
        return None

    async def resume(self, game: LiveGame) -> list[str]:
        """The learner asked for their guided game again: the lines to show them where it is
        played (the guide's words for their step, when they are awaited)."""
        async with game.lock:
            lines = [f"📘 Welcome back to your guided game of {game.engine.title}."]
            seat, guide = learner(game), guide_of(game)
            if seat is not None and guide and game.state is not None and seat in game.awaited():
                advice = await self.core.guides.advice(game, game.state, seat)
                step = guide.step(Position.of(await self.core.guides.log(game), seat))
                lines.append(step_note(step, advice, game.engine.prompt(game.state, seat)))
            else:
                lines.append("The AI seats are playing; your turn follows here.")
        return lines

    async def learn(
        self,
        kind: str,
        *,
        guild_id: int | None,
        channel_id: int,
        thread_id: int | None,
        user_id: int,
        name: str,
    ) -> Outbox:
        """Deal ``kind``'s guided game for ``user_id`` in ``thread_id`` (or ``channel_id``, a DM):
        the returned outbox holds the guide's intro and the AI seats' scripted moves up to the
        learner's first step. Raises :class:`Refusal` when the game has no guide."""
        engine = base.get(kind)
        try:
            guide = guides.guide_for(engine.name)
        except KeyError:
            raise Refusal(f"{engine.title} has no guided game yet.") from None
        store = self.core.store
        row = await store.create_game(
            kind=engine.name,
            seed=guide.seed,
            options=engine.resolve_options(guide.options),
            guild_id=guild_id,
            channel_id=channel_id,
            creator_id=user_id,
            creator_name=name,
            clock_seconds=clk.MAX_CLOCK,
        )
        for seat in range(1, guide.players):
            await store.add_seat(row.id, user_id=None, name=f"AI {seat} (guide)", is_ai=True, ai_level=GUIDE)
        game = LiveGame(row=row, seats=await store.seats(row.id), engine=engine)
        self.core.games[row.id] = game
        self.core.trim()
        async with game.lock:
            state = engine.setup(row.seed, guide.players, row.options)
            game.row = await store.start_game(
                game.id,
                state_json=base.state_fingerprint(state),
                deadline=self.core.now() + row.clock_seconds,
                thread_id=thread_id,
            )
            game.state = state
            game.recent = deque(maxlen=HISTORY)
            game.started = True
            game.pending.append(Step(0, None, None, "setup", tuple(engine.events_on_setup(state))))
            game.notes.append(f"🎓 **{engine.title}, the guided first game.** {guide.intro}")
            if guide.start:  # the prepared position: the script's first moves, played by the guide
                for seat, action in guide.prologue():
                    await self.core.commit(game, seat, base.play(engine, game.state, seat, action), by="ai")
                game.pending = [Step(0, None, None, "setup", ())]  # summed up by the guide's words
                game.notes.append(f"🎓 {guide.start_note}")
            await self.duties.advance_ai(game)
            if not any(n.startswith(STEP) for n in game.notes):  # no move brought the guide's words
                await self.core.guides.announce(game)
            box = outbox.sealed(game)
        self.core.on_clock_change()
        return box
