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
tokens ``{s0}``… included). Published output is collected on the game (``pending``/``notes``)
and taken with :meth:`GameService.take_batch`.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from engines import base, search
from engines.base import RuleError

from . import clock as clk
from . import commit, finding, holding, reading, replay
from .airunner import MAX_AI_STEPS as MAX_AI_STEPS  # re-exported
from .airunner import AiRunner
from .dormant import Dormant
from .duties import MAX_CLOCK_STEPS, STORE_RETRY, SeatDuties  # noqa: F401  (re-exported)
from .finding import Sees
from .live import Entry, Listing, LiveGame, Refusal
from .lobbies import Lobbies, _may_end
from .parsing import MAX_GAME_ID, game_number, no_game_here, parse_options  # noqa: F401  (re-exported)
from .quotas import Quotas
from .store import (
    GameRecord,
    GameRow,
    Store,
    VersionConflict,
    stamp_of,
)
from .workers import Workers

log = logging.getLogger(__name__)
RESTARTED = "♻️ I was restarted before posting this; here is where the game stands."
"""The note of boards posted after a restart for what the last run stored but never posted."""
UNPOSTED = "♻️ A bot process stopped before posting this; here is where the game stands."
"""The note of boards another process stored and never posted, posted by the game's own process."""

AI_GRACE = 20.0  # seconds AI seats wait for the people awaited beside them (a trade reply)
_BACK = "{s%d} is back: the AI no longer plays their seat."


class GameService(Dormant, SeatDuties, Lobbies):
    """Hosts every game. ``now`` is the clock (Unix seconds), ``seed_source`` makes game seeds,
    and ``on_clock_change`` is called whenever a deadline may have moved (to wake the scheduler)."""

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
        self.store = store
        self.quotas = quotas or Quotas()
        self.workers = workers or Workers(0)
        if ai_level is not None and ai_level not in search.LEVELS:
            raise ValueError(f"unknown AI level {ai_level!r}")
        self.default_ai_level = ai_level  # the host's default level (BAZAAR_AI_LEVEL), else the game's
        self.now = now
        self.seed_source = seed_source or (lambda: secrets.randbelow(2**62))
        self.default_clock = default_clock
        self.ai_grace = ai_grace
        self.on_clock_change = on_clock_change or (lambda: None)
        self._games: dict[int, LiveGame] = {}
        self._dormant: dict[int, GameRow] = {}  # active games not loaded yet: their rows (see Dormant)
        self._load_lock = asyncio.Lock()  # one LiveGame (and so one lock) per game id
        self._recovered: list[LiveGame] = []  # flags cleared by loads, for take_recovered()
        # game id -> (version, seat, action) of a write that failed in a way that may have committed
        self._unsure: commit.Unsure = {}
        # whether this process serves a guild's games at start-up (its Discord shards, see
        # bot.host.shards); a game of another guild is still served when asked for (a DM click)
        self.holds: Callable[[int | None], bool] = holds or (lambda guild_id: True)
        # (owner, lease seconds) of this process's turn clock claims on a shared database
        self.claims: tuple[str, float] | None = None
        self.ai = AiRunner(self)  # AI stretches the turn clock and the start-up hand to the background

    # ------------------------------------------------------------------ loading

    async def load_all(self) -> list[LiveGame]:
        """Start-up: read the rows of the active games (their deadlines run the turn clock, see
        :meth:`clock_entries`) and load only those start-up must act on now: games flagged as
        needing attention (a flag whose cause has gone is cleared, see :meth:`take_recovered`)
        and games whose deadline passed while the bot was down (see :meth:`rearm_overdue`).
        Every other game loads on first use; :meth:`check_dormant` checks them in the background.
        Returns the games this load newly marked as needing attention (their players should be
        told)."""
        flagged: list[LiveGame] = []
        # another process's shard: its games are loaded only if a DM click or a clock asks
        rows = [r for r in await self.store.games(statuses=["active"]) if self.holds(r.guild_id)]
        self._dormant.update({r.id: r for r in rows if r.id not in self._games})
        for row in rows:
            if row.id in self._games or not (
                row.attention or (row.deadline is not None and row.deadline <= self.now())
            ):
                continue
            had = row.attention
            game = await self._load(row.id)
            if game is not None and game.row.attention and not had:
                flagged.append(game)
        return flagged

    def take_recovered(self) -> list[LiveGame]:
        """Take (and clear) the games whose "needs attention" flag a load has cleared because
        their stored history checks out (their players should be told they can play again)."""
        out, self._recovered = self._recovered, []
        return out

    async def get(self, game_id: int | str) -> LiveGame:
        """The live game ``game_id`` (loaded on first use; one live game per id, however the id
        arrives: ``1`` and ``"1"`` are the same game). Raises :class:`Refusal` if unknown or not
        a game number at all."""
        game_id = game_number(game_id)
        game = self._games.get(game_id)
        if game is not None:
            self._games[game_id] = self._games.pop(game_id)  # the most recently used, last
            if self.store.shared:
                await self._catch_up(game)
            return game
        async with self._load_lock:
            game = self._games.get(game_id)  # loaded meanwhile by another task
            if game is not None:
                return game
            game = await self._load(game_id)
            if game is None:
                raise Refusal(no_game_here(game_id))
            return game

    async def _catch_up(self, game: LiveGame) -> None:
        """With a store other processes write too (PostgreSQL): before this process acts on a
        game it holds, compare the stored version, status and seat count (one indexed read) with
        its own, and reload the game in place when another process has moved it on, so locks
        and references to it stay valid. A game this process is acting on right now (its lock
        held) is left alone: its next write is version-checked anyway."""
        if game.lock.locked():
            return
        stamp = await self.store.stamp(game.id)
        if stamp is None or stamp == stamp_of(game.row, game.seats):
            return
        async with game.lock:
            await self._reload(game)

    async def _reload(self, game: LiveGame) -> None:
        """Replace a held game's row, seats and state by what is stored (another process wrote
        it), in place; the caller holds its lock. The board this process would edit in place is
        forgotten: another process may have posted below it."""
        record = await self.store.record(game.id)
        if record is None:
            return
        fresh = await self._from_record(record)
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
        if not self.store.shared:
            return
        row = await self.store.game(game.id)
        if row is None:
            return
        stamp = await self.store.stamp(game.id)
        if stamp != stamp_of(game.row, game.seats) or row.version != game.row.version:
            await self._reload(game)
        else:
            game.row = row

    async def _load(self, game_id: int, *, keep: bool = True) -> LiveGame | None:
        """Load a game from one consistent read of its row, seats, moves and snapshot; None if
        there is no such game. The game is held in memory only once loaded (a database error
        while loading leaves nothing half-loaded behind), and only with ``keep`` (the caller
        holds ``_load_lock``, see :meth:`check_dormant`, when it does not keep it)."""
        record = await self.store.record(game_id)
        if record is None:
            return None
        game = await self._from_record(record)
        if keep:
            self._games[game.id] = game
            self._dormant.pop(game.id, None)
            self._trim()
        return game

    def _trim(self) -> None:
        """Keep at most ``quotas.held_games`` games in memory: drop the least recently used that
        nothing is using (no lock held, nothing to publish, no AI thinking); a running game goes
        back to the dormant rows its clock is kept from, and any of them is loaded again on use."""
        holding.trim(self._games, self._dormant, self.quotas.held_games)

    async def _from_record(self, record: GameRecord) -> LiveGame:
        """The live game a stored record gives (its replay checked against its snapshot)."""
        row = record.row
        engine = replay.engine_of(row.kind)
        game = LiveGame(row=row, seats=record.seats, engine=engine)
        if row.status in ("active", "finished") and not isinstance(engine, replay.Missing):
            await self._replay(game, record)
        elif isinstance(engine, replay.Missing) and row.status == "active":
            await self._flag(game, f"the game `{row.kind}` is not installed on this bot")
        return game

    async def _replay(self, game: LiveGame, record: GameRecord) -> None:
        """Set the game's state by replaying its log, checked against the snapshot of the same
        read. A game that fails the check is flagged; a flagged game that passes is cleared."""
        replayed = await replay.replay_checked(game, record)
        if isinstance(replayed, str):
            await self._flag(game, replayed)
            return
        if record.row.attention and record.row.status == "active":
            await self._unflag(game)
        game.state, game.recent = replayed

    async def _unflag(self, game: LiveGame) -> None:
        """Clear the "needs attention" flag of a game whose history checks out again (the flag
        was raised by a failure that has gone: an engine missing then, a replay that raised): its
        turn clock starts afresh, and the game is queued for :meth:`take_recovered`."""
        log.warning(
            "Game %s: its history checks out now; clearing its flag (%s)", game.id, game.row.attention
        )
        game.row = await self.store.update_game(
            game.id,
            expect_status="active",
            attention=None,
            deadline=self.now() + game.row.clock_seconds,
            reminded=False,
        )
        self._recovered.append(game)

    async def _flag(self, game: LiveGame, why: str) -> None:
        log.error("Game %s needs attention: %s", game.id, why)
        game.state = None
        if game.row.attention != why:
            game.row = await self.store.update_game(game.id, attention=why, deadline=None)

    # ------------------------------------------------------------------ finding games

    async def find(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        game_id: int | None = None,
        sees: Sees | None = None,
    ) -> LiveGame:
        """The game a command in ``channel_id`` is about (see :func:`.finding.find`)."""
        return await finding.find(
            self.store,
            self.get,
            guild_id=guild_id,
            channel_id=channel_id,
            user_id=user_id,
            game_id=game_id,
            sees=sees,
        )

    async def list_games(self, guild_id: int | None, sees: Sees | None = None) -> list[Listing]:
        """Open games of a guild the member can see (see :func:`.finding.listings`)."""
        return await finding.listings(self.store, guild_id, sees)

    # ------------------------------------------------------------------ moves

    check_playable = staticmethod(reading.check_playable)
    _seat_for = staticmethod(reading.seat_for)

    async def move(
        self,
        game_id: int,
        user_id: int,
        text: str,
        *,
        expected_version: int | None = None,
        reclaim: bool = True,
    ) -> LiveGame:
        """Apply ``text`` for the caller's seat, then play any AI seats now awaited.

        ``expected_version`` (from a button) makes a click on an old board fail with
        ``StaleState``. With ``reclaim`` (a typed /move), a seat handed to the AI returns to its
        owner, even if the move itself is then refused. Raises :class:`Refusal` or a ``RuleError``;
        on any refusal nothing but that reclaim is changed."""
        game = await self.get(game_id)
        async with game.lock:
            self.check_playable(game)
            seat = self._seat_for(game, user_id)
            reclaimed = seat.ai_takeover and reclaim
            try:
                text = game.engine.read_names(game.state, seat.seat, text, game.names)
                played = base.play(
                    game.engine,
                    game.state,
                    seat.seat,
                    text,
                    version=game.row.version,
                    expected_version=expected_version,
                )
            except RuleError as err:
                if reclaimed:
                    await self._reclaim(game, seat.seat)
                    raise type(err)("You are back in control of your seat. " + err.reason) from None
                raise
            # the reset (and a reclaim) is written with the move: a move that cannot be saved changes nothing
            await self._commit(
                game,
                seat.seat,
                played,
                by="player",
                user_id=user_id,
                seat_updates={seat.seat: {"expiries": 0, "ai_takeover": False}},
            )
            if reclaimed:
                game.notes.append(_BACK % seat.seat)
            await self._advance_ai(game)
        self.on_clock_change()
        return game

    async def _reclaim(self, game: LiveGame, seat: int) -> None:
        """Give a seat the AI took over back to its owner (a refused typed move still does)."""
        fields = {"ai_takeover": False, "expiries": 0}
        await self.store.update_seat(game.id, seat, **fields)
        game.seats = commit.updated_seats(game.seats, {seat: fields})
        game.notes.append(_BACK % seat)

    async def _commit(
        self,
        game: LiveGame,
        seat: int,
        played: base.Played,
        *,
        by: str,
        user_id: int | None = None,
        seat_updates: Mapping[int, Mapping[str, Any]] | None = None,
    ) -> None:
        """Write one applied move and update the live game (see :func:`.commit.commit`)."""
        await commit.commit(
            self.store,
            game,
            seat,
            played,
            now=self.now,
            unsure=self._unsure,
            games=self._games,
            by=by,
            user_id=user_id,
            seat_updates=seat_updates,
        )

    async def resign(self, game_id: int, user_id: int) -> LiveGame:
        """The caller leaves an active game: the AI plays their seat from now on. When no person
        is left the game is ended. Raises :class:`Refusal`."""
        game = await self.get(game_id)
        async with game.lock:
            if game.row.status == "lobby":
                raise Refusal(f"{game.title} has not started: use `/game leave` instead.")
            self.check_playable(game)
            seat = self._seat_for(game, user_id)
            await self.store.update_seat(game.id, seat.seat, is_ai=True, ai_takeover=False)
            game.seats = commit.updated_seats(game.seats, {seat.seat: {"is_ai": True, "ai_takeover": False}})
            game.notes.append("{s%d} resigned; the AI plays their seat from now on." % seat.seat)
            if not game.humans():
                await self._close(game, "Everyone has resigned, so the game is ended.")
            else:
                await self._advance_ai(game)
        self.on_clock_change()
        return game

    async def end(self, game_id: int, user_id: int, *, can_manage: bool) -> LiveGame:
        """End a lobby or active game early (the creator or a server manager). Raises
        :class:`Refusal`."""
        game = await self.get(game_id)
        async with game.lock:
            if game.row.status in ("finished", "ended"):
                raise Refusal(f"{game.title} is already over.")
            if not (can_manage or _may_end(game, user_id)):
                raise Refusal(
                    f"Only the creator of {game.title} while they play (once they have left, any "
                    f"player), or a member with Manage Server, can end it."
                )
            await self._close(game, f"<@{user_id}> ended the game.")
        self.on_clock_change()
        return game

    async def _close(self, game: LiveGame, note: str) -> None:
        """End a lobby or running game; one that finished meanwhile (another process's last
        move) is left finished, with its result: the caller is told it is over."""
        try:
            game.row = await self.store.update_game(
                game.id, expect_status=("lobby", "active"), status="ended", deadline=None
            )
        except VersionConflict:
            self._games.pop(game.id, None)  # reloaded as it is stored on next use
            raise Refusal(f"{game.title} is already over.") from None
        game.notes.append(note)
        game.closed = True

    # ------------------------------------------------------------------ reading

    take_batch = staticmethod(reading.take_batch)
    put_back = staticmethod(reading.put_back)
    has_pending = staticmethod(reading.has_pending)
    awaited_seat = staticmethod(reading.awaited_seat)
    complete_for = staticmethod(reading.complete_for)
    prompt_for = staticmethod(reading.prompt_for)
    private_view = staticmethod(reading.private_view)

    async def requeue(self, game_id: int, posted: int | None, note: str = RESTARTED) -> LiveGame:
        """Queue again for publishing what the players never saw: the moves after version
        ``posted`` (None: nothing was posted, so the start too), their events regenerated by
        replaying the log, and the end if the game is finished, under ``note``. Returns the
        game; a game that needs attention gets nothing queued."""
        game = await self.get(game_id)
        async with game.lock:
            if game.state is None or isinstance(game.engine, replay.Missing):
                return game
            moves = await self.store.moves(game.id)
            if posted is None:
                game.started = True
            game.pending.extend(replay.unposted_steps(game, moves, posted))
            game.notes.append(note)
            game.closed = game.row.status == "finished"
        return game

    async def history(self, game_id: int, last: int = 15) -> list[Entry]:
        """The last moves (at most :data:`HISTORY`) as ``(version, seat, action, by, public event
        texts)``, from the held game (kept as moves are played and filled by the replay that
        loaded it: nothing is replayed per call). ``action`` is "" for a move whose text the
        engine calls private (``swap t32`` names the card put back under the pile): its public
        events tell what everyone may know. A game that could not be loaded (it needs attention)
        shows what still replays."""
        game = await self.get(game_id)
        if game.recent is not None:
            return list(game.recent)[-last:] if last > 0 else []
        return await asyncio.to_thread(replay.replayed_history, game, await self.store.moves(game.id), last)

    async def note_dm(
        self, game_id: int, seat: int, *, closed: bool | None = None, dm_hash: str | None = None
    ) -> bool:
        """Record a DM outcome for ``seat``: ``closed`` (DMs refused) and/or the digest of the
        private view just sent. Returns True if this call newly marked the seat's DMs closed."""
        game = await self.get(game_id)
        fields: dict[str, Any] = {}
        newly = False
        if closed is not None and closed != game.seats[seat].dm_closed:
            fields["dm_closed"] = closed
            newly = closed
        if dm_hash is not None:
            fields["dm_hash"] = dm_hash
        if fields:
            await self.store.update_seat(game.id, seat, **fields)
            game.seats = commit.updated_seats(game.seats, {seat: fields})
        return newly

    def forget(self, game_id: int) -> None:
        """Drop a game from memory (it is reloaded from the store on next use; its turn clock
        stops until then)."""
        self._games.pop(game_id, None)

    def loaded(self) -> Iterable[LiveGame]:
        """The games held in memory."""
        return list(self._games.values())

    def held(self, game_id: int) -> LiveGame | None:
        """The game ``game_id`` if it is held in memory (nothing is loaded)."""
        return self._games.get(game_id)
