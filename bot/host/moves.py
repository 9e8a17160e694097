"""Playing: a part of the game service (see :mod:`bot.host.core`): finding the game a command is
about, a person's move (and the AI seats it wakes), resigning, ending a game, queueing again what
was stored but never posted, the ``/log`` history and what a DM's delivery tells. Every method
that changes a game runs under the game's lock and writes through the store.
"""

from __future__ import annotations

import asyncio
from typing import Any

from engines import base
from engines.base import RuleError

from . import commit, finding, outbox, rating_note, reading, replay, undoing
from .core import Core
from .duties import Duties
from .finding import Sees
from .live import Entry, Listing, LiveGame, Refusal
from .loading import Games
from .lobbies import _may_end
from .outbox import Outbox

RESTARTED = "♻️ I was restarted before posting this; here is where the game stands."
"""The note of boards posted after a restart for what the last run stored but never posted."""
UNPOSTED = "♻️ A bot process stopped before posting this; here is where the game stands."
"""The note of boards another process stored and never posted, posted by the game's own process."""

_BACK = "{s%d} is back: the AI no longer plays their seat."


class Moves:
    """What players do to a running game, and what they read of it (see the module docstring)."""

    def __init__(self, core: Core, games: Games, duties: Duties) -> None:
        self.core = core
        self.games = games
        self.duties = duties

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
            self.core.store,
            self.games.get,
            guild_id=guild_id,
            channel_id=channel_id,
            user_id=user_id,
            game_id=game_id,
            sees=sees,
        )

    async def list_games(self, guild_id: int | None, sees: Sees | None = None) -> list[Listing]:
        """Open games of a guild the member can see (see :func:`.finding.listings`)."""
        return await finding.listings(self.core.store, guild_id, sees)

    async def move(
        self,
        game_id: int,
        user_id: int,
        text: str,
        *,
        expected_version: int | None = None,
        reclaim: bool = True,
    ) -> Outbox:
        """Apply ``text`` for the caller's seat, then play any AI seats now awaited.

        ``expected_version`` (from a button) makes a click on an old board fail with
        ``StaleState``. With ``reclaim`` (a typed /move), a seat handed to the AI returns to its
        owner, even if the move itself is then refused. Raises :class:`Refusal` or a ``RuleError``;
        on any refusal nothing but that reclaim is changed. Returns the move's outbox (with the
        AI's answers that followed it)."""
        game = await self.games.get(game_id)
        async with game.lock:
            reading.check_playable(game)
            seat = reading.seat_for(game, user_id)
            since = game.row.version
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
                    await self.reclaim(game, seat.seat)
                    raise type(err)("You are back in control of your seat. " + err.reason) from None
                raise
            before = game.state
            # the reset (and a reclaim) is written with the move: a move that cannot be saved changes nothing
            await self.core.commit(
                game,
                seat.seat,
                played,
                by="player",
                user_id=user_id,
                seat_updates={seat.seat: {"expiries": 0, "ai_takeover": False}},
            )
            if reclaimed:
                game.notes.append(_BACK % seat.seat)
            undoing.note_move(game, before, seat.seat, played.action)
            await self.duties.advance_ai(game)
            box = outbox.sealed(game, since=since)
        self.core.on_clock_change()
        return box

    async def reclaim(self, game: LiveGame, seat: int) -> None:
        """Give a seat the AI took over back to its owner (a refused typed move still does)."""
        fields = {"ai_takeover": False, "expiries": 0}
        await self.core.store.update_seat(game.id, seat, **fields)
        game.seats = commit.updated_seats(game.seats, {seat: fields})
        game.notes.append(_BACK % seat)

    async def resign(self, game_id: int, user_id: int) -> Outbox:
        """The caller leaves an active game: the AI plays their seat from now on. When no person
        is left the game is ended. Returns the outbox; raises :class:`Refusal`."""
        game = await self.games.get(game_id)
        async with game.lock:
            if game.row.status == "lobby":
                raise Refusal(f"{game.title} has not started: use `/game leave` instead.")
            reading.check_playable(game)
            seat = reading.seat_for(game, user_id)
            await self.core.store.update_seat(game.id, seat.seat, is_ai=True, ai_takeover=False)
            game.seats = commit.updated_seats(game.seats, {seat.seat: {"is_ai": True, "ai_takeover": False}})
            game.notes.append("{s%d} resigned; the AI plays their seat from now on." % seat.seat)
            if not game.humans():
                await self.core.close(game, "Everyone has resigned, so the game is ended.")
            else:
                await self.duties.advance_ai(game)
            box = outbox.sealed(game)
        self.core.on_clock_change()
        return box

    async def end(self, game_id: int, user_id: int, *, can_manage: bool) -> Outbox:
        """End a lobby or active game early (the creator or a server manager). Returns the
        outbox; raises :class:`Refusal`."""
        game = await self.games.get(game_id)
        async with game.lock:
            if game.row.status in ("finished", "ended"):
                raise Refusal(f"{game.title} is already over.")
            if not (can_manage or _may_end(game, user_id)):
                raise Refusal(
                    f"Only the creator of {game.title} while they play (once they have left, any "
                    f"player), or a member with Manage Server, can end it."
                )
            await self.core.close(game, f"<@{user_id}> ended the game.")
            box = outbox.sealed(game)
        self.core.on_clock_change()
        return box

    async def requeue(self, game_id: int, posted: int | None, note: str = RESTARTED) -> Outbox:
        """Queue again for publishing what the players never saw: the moves after version
        ``posted`` (None: nothing was posted, so the start too), their events regenerated by
        replaying the log, and the end if the game is finished, under ``note``. Returns the
        outbox; a game that needs attention gets nothing queued (an empty outbox)."""
        game = await self.games.get(game_id)
        async with game.lock:
            if game.state is None or isinstance(game.engine, replay.Missing):
                return outbox.sealed(game)
            moves = await self.core.store.moves(game.id)
            if posted is None:
                game.started = True
            game.pending.extend(replay.unposted_steps(game, moves, posted))
            game.notes.append(note)
            game.closed = game.row.status == "finished"
            if game.closed:  # the final sheet still to post says what the game did to the ratings
                rated = rating_note.note(await self.core.store.rating_changes_of(game.id), game.row.guild_id)
                game.notes.extend([rated] if rated else [])
            return outbox.sealed(game)

    async def history(self, game_id: int, last: int = 15) -> list[Entry]:
        """The last moves (at most :data:`HISTORY`) as ``(version, seat, action, by, public event
        texts)``, from the held game (kept as moves are played and filled by the replay that
        loaded it: nothing is replayed per call). ``action`` is "" for a move whose text the
        engine calls private (``swap t32`` names the card put back under the pile): its public
        events tell what everyone may know. A game that could not be loaded (it needs attention)
        shows what still replays."""
        game = await self.games.get(game_id)
        if game.recent is not None:
            return list(game.recent)[-last:] if last > 0 else []
        return await asyncio.to_thread(
            replay.replayed_history, game, await self.core.store.moves(game.id), last
        )

    async def note_dm(
        self, game_id: int, seat: int, *, closed: bool | None = None, dm_hash: str | None = None
    ) -> bool:
        """Record a DM outcome for ``seat``: ``closed`` (DMs refused) and/or the digest of the
        private view just sent. Returns True if this call newly marked the seat's DMs closed."""
        game = await self.games.get(game_id)
        fields: dict[str, Any] = {}
        newly = False
        if closed is not None and closed != game.seats[seat].dm_closed:
            fields["dm_closed"] = closed
            newly = closed
        if dm_hash is not None:
            fields["dm_hash"] = dm_hash
        if fields:
            await self.core.store.update_seat(game.id, seat, **fields)
            game.seats = commit.updated_seats(game.seats, {seat: fields})
        return newly
