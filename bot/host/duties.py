"""The host's duties that no person's click starts: AI seats playing (as soon as they are
awaited, after the grace people answering beside them get, again after a restart) and the turn
clock's consequences (the half-time reminder, the expiry played by the AI, the grace after an
outage). A part of the game service (see :mod:`bot.host.core`): it holds the core (the store,
the live games, the writes, the clock callbacks) and the loading part (:class:`.Games`).

A move the database refuses here changes nothing and is tried again :data:`STORE_RETRY` seconds
later by the clock.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterable
from typing import Any

from engines import base, search

from . import clock as clk
from . import guides, jobgate, outbox, thinking
from .airunner import MAX_AI_STEPS, AiRunner, Stretch, watched
from .core import Core
from .live import LiveGame
from .loading import Games
from .outbox import Outbox
from .store import StoreUnavailable

log = logging.getLogger("bot.host.service")

MAX_CLOCK_STEPS = 50  # bound on actions the AI plays for one expired seat
STORE_RETRY = 30.0  # seconds before the clock tries again a consequence the database refused


class Duties:
    """AI seats and the turn clock (see the module docstring). ``ai`` runs the AI stretches in
    the background."""

    def __init__(self, core: Core, games: Games) -> None:
        self.core = core
        self.games = games
        self.ai = AiRunner(self)

    async def get(self, game_id: int | str) -> LiveGame:
        """The live game ``game_id`` (see :meth:`.Games.get`)."""
        return await self.games.get(game_id)

    async def reread(self, game: LiveGame) -> None:
        """See :meth:`.Games.reread`."""
        await self.games.reread(game)

    def on_clock_change(self) -> None:
        """A deadline may have moved: wake the scheduler."""
        self.core.on_clock_change()

    # ------------------------------------------------------------------ AI seats

    async def advance_ai(
        self,
        game: LiveGame,
        *,
        grace_over: bool = False,
        steps: int = MAX_AI_STEPS,
        stretch: Stretch | None = None,
    ) -> bool:
        """Play the AI-controlled seats the engine awaits until a person is awaited, the end, or
        ``steps`` actions; True if it stopped at ``steps`` (AI seats may be awaited still).

        AI seats never win a race against people: while people are awaited beside them (replies
        to a trade offer), they answer only once those people have answered or ``ai_grace``
        seconds have passed since they were first awaited together (``grace_over``: the turn
        clock says so). Until then the game carries ``ai_at`` for the clock. ``stretch`` carries
        that between the calls of a stretch played a few actions at a time (see
        :mod:`bot.host.airunner`)."""
        if game.thinking:
            return False  # an AI of this game is thinking: it looks again at the game when it is done
        st = stretch if stretch is not None else Stretch(grace_over)
        if st.people is None:
            st.people = {s for s in game.awaited() if not game.ai_plays(s)}
        for _ in range(steps):
            if game.row.status != "active" or game.state is None:
                game.ai_at = None
                return False
            awaited = game.awaited()
            ai, scripted = await self.core.guides.ai_order(game, [s for s in awaited if game.ai_plays(s)])
            if not ai:
                game.ai_at = None
                return False
            people = {s for s in awaited if not game.ai_plays(s)}
            if people - st.people:  # a new step awaits new people: a new grace
                st.grace_over, game.ai_at, st.people = False, None, people
            if people and not st.grace_over and not scripted:  # (a guide's script fixes the order)
                if game.ai_at is None:
                    game.ai_at = self.core.now() + self.core.ai_grace
                    self.core.on_clock_change()
                if self.core.now() < game.ai_at:
                    return False
            try:
                played = await self.ai_play(game, ai[0])
                if played is None:
                    continue  # the game moved while the AI thought: look again
                await self.core.commit(game, ai[0], played, by="ai")
            except StoreUnavailable:
                self.retry_ai(game)
                return False
        if steps == MAX_AI_STEPS:
            log.warning("Game %s: stopped after %s AI actions in a row", game.id, MAX_AI_STEPS)
        return True

    async def ai_then_background(self, game: LiveGame, stretch: Stretch) -> None:
        """For the turn clock: at most one AI action now if people play the game (none if nobody
        does), the rest of the stretch in the background (:class:`AiRunner`); the caller holds
        the game's lock."""
        if watched(game) and not await self.advance_ai(game, stretch=stretch, steps=1):
            return
        self.ai.start(game.id, stretch)

    def retry_ai(self, game: LiveGame) -> None:
        """An AI move could not be saved (nothing changed): the clock plays it again in
        :data:`STORE_RETRY` seconds (see :meth:`ai_due`)."""
        log.warning("Game %s: an AI move could not be saved; trying again in %ss", game.id, STORE_RETRY)
        game.ai_at = self.core.now() + STORE_RETRY
        self.core.on_clock_change()

    async def resume_ai(self, game_ids: Iterable[int] | None = None) -> list[LiveGame]:
        """Let the AI seats of every loaded active game (or of the loaded games ``game_ids``)
        play what they are awaited for (call it at start-up, after the reposts; and after posting
        what another process stored and never posted): the process that stored a person's move
        may have stopped before the AI's answers, which are transactions of their own, and
        nothing else would wake those seats. People awaited beside them get a fresh grace.
        They play in the background (:class:`AiRunner`); returns the games handed to it."""
        handed = []
        wanted = None if game_ids is None else set(game_ids)
        for game in list(self.core.games.values()):
            if wanted is not None and game.id not in wanted:
                continue
            if not self.core.holds(game.row.guild_id):
                continue
            async with game.lock:
                if game.row.status != "active" or game.state is None:
                    continue
                if not any(game.ai_plays(s) for s in game.awaited()):
                    continue
                if game.thinking:
                    continue  # its AI is playing already
            self.ai.start(game.id)
            handed.append(game)
        return handed

    async def ai_due(self, game_id: int) -> Outbox | None:
        """The AI grace of a game ran out: its AI seats answer now. Returns the outbox, or None
        if no grace was running."""
        game: LiveGame = await self.games.get(game_id)
        async with game.lock:
            if game.ai_at is None or self.core.now() < game.ai_at:
                return None
            game.ai_at = None
            await self.ai_then_background(game, Stretch(grace_over=True))
            box = outbox.sealed(game)
        self.core.on_clock_change()
        return box

    def ai_level(self, game: LiveGame, seat: int) -> str:
        """The level the AI plays ``seat`` at: the seat's own (an AI seat added with ``level:``),
        else the host's default (``BAZAAR_AI_LEVEL``), else the game's."""
        own = game.seats[seat].ai_level if game.seats[seat].is_ai else None
        if own == guides.GUIDE:  # a guided game's seat off its script
            return guides.PLAYS_AS
        return own or self.core.default_ai_level or game.engine.default_ai_level

    async def ai_play(self, game: LiveGame, seat: int, *, timeout: bool = False) -> base.Played | None:
        """The AI's move for ``seat``, thought out in the worker pool (never on the event loop)
        from the seat's own view only; with ``timeout``, the game's move for a seat whose time
        ran out (:meth:`Engine.timeout_action`, else the AI at the default level). It is checked
        with ``play()`` like any move. The caller holds ``game.lock``; it is released while the AI
        thinks, so the game answers other clicks meanwhile, and None is returned when the game
        moved on by then (the caller looks again). A failing AI falls back to the first legal
        action, logged without the action (it may reveal what the seat hides)."""
        engine, state, version = game.engine, game.state, game.row.version
        legal = engine.legal_actions(state, seat)
        guided = await self.core.guides.scripted(game, seat)  # a guided game's scripted move
        action = engine.timeout_action(state, seat) if timeout else guided
        if action is None:
            level = (
                self.core.default_ai_level or engine.default_ai_level
                if timeout
                else self.ai_level(game, seat)
            )
            seed = search.ai_seed(game.row.seed, version, seat)
            game.thinking += 1
            game.lock.release()
            try:
                with jobgate.priority(jobgate.AI_WATCHED if watched(game) else jobgate.AI_ALONE):
                    found = await self.core.workers.run(
                        thinking.think, engine.name, dict(engine.view(state, seat)), legal, level, seed
                    )
                action = found.action
                if found.capped:
                    log.info(
                        "Game %s: the %s AI's search at version %s was cut short by its time cap after "
                        "%s iterations",
                        game.id,
                        level,
                        version,
                        found.iterations,
                    )
            except Exception:
                log.exception(
                    "Game %s: the AI failed for seat %s; playing its first legal action", game.id, seat
                )
                action = legal[0]
            finally:
                await game.lock.acquire()
                game.thinking -= 1
            if game.row.version != version or game.state is not state or game.row.status != "active":
                return None  # someone moved (or the game ended) while the AI thought
        try:
            return base.play(engine, state, seat, action)
        except base.RuleError:
            log.error(
                "Game %s: the AI's move for seat %s was refused; playing its first legal action",
                game.id,
                seat,
            )
            return base.play(engine, state, seat, legal[0])

    # ------------------------------------------------------------------ turn clock

    def clock_entries(self) -> list[clk.Entry]:
        """Clock entries of the active games held in memory (all of them after :meth:`load_all`)."""
        return [
            clk.Entry.of(g.id, g.row.deadline, g.row.clock_seconds, g.row.reminded, g.ai_at)
            for g in self.core.games.values()
            if g.row.status == "active" and g.row.deadline is not None and g.state is not None
        ]

    async def rearm_overdue(self) -> list[tuple[LiveGame, list[int], float]]:
        """Give a grace to every active game whose deadline passed while the bot was not running
        (call it at start-up, before the clock runs): its players could not move, so the outage
        must not cost them a turn or count towards the AI takeover. The new deadline is half a
        clock (at least :data:`~bot.clock.MIN_CLOCK`) from now, reminder counted as sent. On a
        shared store every overdue game is claimed (in batches, however many), whichever
        process's shard it is on, so that processes starting together never expire each
        other's overdue games without their grace. Returns ``(game, awaited human seats,
        seconds granted)`` for each game re-armed."""
        out = []
        claimed = await self.claim_overdue()
        if claimed is None:
            games = [g for g in self.core.games.values() if self.core.holds(g.row.guild_id)]
        else:
            games = [await self.games.get(gid) for gid in sorted(claimed)]
        for game in games:
            async with game.lock:
                await self.games.reread(game)
                row = game.row
                if row.status != "active" or row.deadline is None or game.state is None:
                    continue
                if row.deadline > self.core.now():
                    continue
                grace = max(clk.MIN_CLOCK, row.clock_seconds / 2)
                game.row = await self.core.store.update_game(
                    game.id, deadline=self.core.now() + grace, reminded=True
                )
                out.append((game, [s for s in game.awaited() if not game.ai_plays(s)], grace))
        if claimed and self.core.claims is not None:
            for gid in claimed:
                await self.core.store.release_claim(gid, self.core.claims[0])
        if out:
            self.core.on_clock_change()
        return out

    OVERDUE_BATCH = 100
    """Overdue clocks claimed per read at start-up (the claims go on until none is left)."""

    async def claim_overdue(self) -> set[int] | None:
        """On a shared store, every due turn clock, claimed by this process (so no other process
        fires one while it is given its grace); None when the store is this process's alone."""
        if not self.core.store.shared or self.core.claims is None:
            return None
        owner, lease = self.core.claims
        claimed: set[int] = set()
        while True:
            batch = await self.core.store.claim_due(self.core.now(), owner, lease, limit=self.OVERDUE_BATCH)
            claimed.update(batch)
            if len(batch) < self.OVERDUE_BATCH:
                return claimed

    async def remind(self, game_id: int) -> list[int]:
        """Mark the half-time reminder as sent and return the awaited human seats to remind
        (empty if it is not due any more)."""
        game: LiveGame = await self.games.get(game_id)
        async with game.lock:
            await self.games.reread(game)  # another process may have reminded, or moved the deadline
            row = game.row
            if row.status != "active" or row.deadline is None or row.reminded or game.state is None:
                return []
            if self.core.now() < row.deadline - row.clock_seconds / 2:
                return []
            try:  # a compare-and-set: of processes reminding at once, one posts the reminder
                first = await self.core.store.mark_reminded(game.id, row.version)
            except StoreUnavailable:  # remind anyway (at worst a restart reminds again)
                log.warning("Game %s: the reminder could not be recorded", game.id)
                first = True
            game.row = dataclasses.replace(game.row, reminded=True)
            if not first:
                log.info("Game %s: another process has sent the reminder", game.id)
                return []
            return [s for s in game.awaited() if not game.ai_plays(s)]

    async def expire(self, game_id: int) -> Outbox | None:
        """At the deadline the AI plays each awaited person's turn (at most ``MAX_CLOCK_STEPS``
        actions per seat), counting an expiry; after ``EXPIRIES_BEFORE_TAKEOVER`` in a row the
        seat is handed to the AI. Returns the outbox, or None if nothing was due."""
        game: LiveGame = await self.games.get(game_id)
        async with game.lock:
            await self.games.reread(game)  # another process may have played, or moved the deadline
            row = game.row
            if row.status != "active" or row.deadline is None or game.state is None:
                return None
            if self.core.now() < row.deadline:
                return None
            version = row.version
            for seat in [s for s in game.awaited() if not game.ai_plays(s)]:
                try:
                    await self.expire_seat(game, seat)
                except StoreUnavailable:
                    if game.row.version != version:
                        break  # what was saved stands, with the fresh deadline it brought
                    # nothing was saved: the expiry stays due and the clock tries again shortly
                    log.warning(
                        "Game %s: the expired turn could not be saved; trying again in %ss",
                        game.id,
                        STORE_RETRY,
                    )
                    game.row = dataclasses.replace(
                        game.row, deadline=self.core.now() + STORE_RETRY, reminded=True
                    )
                    self.core.on_clock_change()
                    return None
            await self.ai_then_background(game, Stretch())
            box = outbox.sealed(game)
        self.core.on_clock_change()
        return box

    async def expire_seat(self, game: LiveGame, seat: int) -> None:
        """Play the timed-out turn of ``seat`` (its expiry counted with the first action, the
        notes added once that is saved). Raises :class:`StoreUnavailable` if a write fails
        (what was saved before it stands)."""
        expiries = game.seats[seat].expiries + 1
        takeover = expiries >= clk.EXPIRIES_BEFORE_TAKEOVER
        updates: dict[int, dict[str, Any]] | None = {seat: {"expiries": expiries, "ai_takeover": takeover}}
        played = False
        for _ in range(MAX_CLOCK_STEPS):
            if seat not in game.awaited():
                break
            move = await self.ai_play(game, seat, timeout=True)
            if move is None:
                continue  # the game moved while the stand-in thought: look again
            await self.core.commit(game, seat, move, by="clock", seat_updates=updates)
            if not played:
                game.notes.append("⏰ Time ran out for {s%d}: the AI played their turn." % seat)
                if takeover:
                    game.notes.append(
                        "{s%d} missed %d turns in a row: the AI plays their seat until "
                        "they use `/move` again." % (seat, expiries)
                    )
            updates, played = None, True
