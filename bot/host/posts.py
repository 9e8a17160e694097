"""What the bot posted, as the host records it: a part of the game service (see
:mod:`bot.host.core`) through which the Discord layer reads and writes the messages of a game
(boards, score sheets, recaps, DMs, lobbies), the shape of each channel (Components V2 or
classic) and the V2 media edits refused there, each server's settings, the post claims shared
by the processes of one database, and the stored games and moves a restart or a recap reads.
The surface never touches the store itself: each of its reads and writes is one named method
here.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Iterable

from . import outbox
from .core import Core
from .live import LiveGame
from .loading import Games
from .outbox import Delivered, Outbox
from .store import GameRow, MessageRow, StoreError, StoreUnavailable
from .store_posts import Claim

log = logging.getLogger(__name__)


class Posts:
    """The posts' records (see the module docstring)."""

    def __init__(self, core: Core, games: Games) -> None:
        self.core = core
        self.games = games
        self._sending: dict[int, LiveGame] = {}  # id of an outbox being shown -> its game

    # ------------------------------------------------------------------ the database

    @property
    def shared(self) -> bool:
        """Whether other processes share this database (PostgreSQL): posts are then claimed."""
        return self.core.store.shared

    def describe(self) -> str:
        """The database, for the log (no password)."""
        return self.core.store.describe()

    # ------------------------------------------------------------------ the outbox

    @contextlib.asynccontextmanager
    async def sending(self, game: LiveGame, *, recover: bool = False) -> AsyncIterator[Outbox | None]:
        """Under the game's publish lock (one publish of a game at a time, in order), the
        :class:`~bot.host.outbox.Outbox` of what ``game`` has pending (None if nothing, or if
        asking the engine failed: the game then still has it pending): the caller shows it and
        reports back with :meth:`delivered` before leaving."""
        async with game.publish_lock:
            try:
                box = outbox.take(game, recover=recover)
            except Exception:  # the engine failed: the batch stays queued (has_pending), for a retry
                log.exception("Game %s: making its outbox failed", game.id)
                box = None
            if box is not None and box.dm_due:
                told = await self._told(box) if box.batch.row.status != "active" else set()
                try:
                    box = outbox.mail(box, told)
                except Exception:  # the board goes up; the DMs follow the next change of view
                    log.exception(
                        "Game %s: deciding the DMs of version %s failed", box.game_id, box.batch.version
                    )
            if box is not None:
                self._sending[id(box)] = game
            try:
                yield box
            finally:
                if box is not None:
                    self._sending.pop(id(box), None)

    def delivered(self, box: Outbox, results: Delivered) -> None:
        """What the surface made of ``box`` (see :class:`~bot.host.outbox.Delivered`): the
        board and DMs it may edit next, the view now shown, and whether the batch is to be
        published again (put back on the game's queue, in front of anything newer)."""
        game = self._sending.get(id(box))
        if game is None:
            raise RuntimeError(f"Game {box.game_id}: delivered outside its Posts.sending")
        outbox.apply(game, box, results)

    async def _told(self, box: Outbox) -> set[int | None]:
        """The seats whose DMs of ``box``'s version (the end) went out before a restart: they are
        stored (the final sheet is stored only with its recap, so a run that stops in between
        publishes the end again)."""
        try:
            rows = await self.core.store.messages(box.game_id, kind="dm")
        except StoreError as err:  # unknown: a DM twice beats a last DM lost
            log.warning("Game %s: reading the DMs sent failed (%s); sending them", box.game_id, err)
            return set()
        return {m.seat for m in rows if m.version == box.batch.version}

    @contextlib.asynccontextmanager
    async def in_order(self, game: LiveGame) -> AsyncIterator[None]:
        """Hold ``game``'s publishing while something follows its last post (a recap after the
        final sheet, before anything newer of the game)."""
        async with game.publish_lock:
            yield

    # ------------------------------------------------------------------ messages

    async def record_posted(
        self,
        game_id: int,
        *,
        kind: str,
        channel_id: int,
        message_id: int,
        version: int,
        live: bool = False,
        seat: int | None = None,
    ) -> None:
        """Record a message posted for ``game_id`` (``live``: it carries controls to take away
        once it is outdated)."""
        await self.core.store.add_message(
            game_id,
            kind=kind,
            channel_id=channel_id,
            message_id=message_id,
            version=version,
            live=live,
            seat=seat,
        )

    async def restamp_posted(self, message_id: int, version: int) -> None:
        """Record that the posted message ``message_id`` (Discord's id) now shows ``version``
        (it was edited in place)."""
        await self.core.store.set_message_version(message_id, version)

    async def posted_messages(
        self, game_id: int, *, kind: str | None = None, live: bool | None = None
    ) -> list[MessageRow]:
        """The messages posted for ``game_id``, oldest first, of ``kind`` and liveness when given."""
        return await self.core.store.messages(game_id, kind=kind, live=live)

    async def retire_posted(self, ids: Iterable[int]) -> None:
        """Record that the messages of these row ids lost their controls."""
        await self.core.store.retire_messages(ids)

    # ------------------------------------------------------------------ channel shapes

    async def channel_shape(self, channel_id: int) -> str:
        """The message shape of ``channel_id``: ``v2`` unless Discord refused V2 there."""
        return await self.core.store.message_shape(channel_id)

    async def set_channel_shape(self, channel_id: int, shape: str) -> None:
        """Remember the message shape of ``channel_id`` (for every process and restart)."""
        await self.core.store.set_message_shape(channel_id, shape)

    # ------------------------------------------------------------------ V2 media edits, server settings

    async def media_edits(self, channel_id: int) -> tuple[int, float]:
        """``(refused in a row, when noted)`` of V2 media edits in ``channel_id`` (see
        :mod:`bot.host.store_media`)."""
        return await self.core.store.media_edits(channel_id)

    async def note_media_edit(self, channel_id: int, *, refused: bool) -> int:
        """Note how a V2 media edit in ``channel_id`` went; the refusals in a row now."""
        return await self.core.store.note_media_edit(channel_id, refused=refused)

    async def guild_confirm(self, guild_id: int) -> bool | None:
        """Server ``guild_id``'s own Confirm setting (None: not set, the bot's default holds)."""
        return await self.core.store.guild_confirm(guild_id)

    async def set_guild_confirm(self, guild_id: int, confirm: bool | None) -> None:
        """Set (None: unset) server ``guild_id``'s own Confirm setting."""
        await self.core.store.set_guild_confirm(guild_id, confirm)

    # ------------------------------------------------------------------ post claims

    async def claim_post(self, game_id: int, version: int, kind: str, owner: str, lease: float) -> Claim:
        """Claim posting ``kind`` (``board``, ``recap``) of ``version`` (see
        :meth:`~bot.host.store_posts.PostClaims.claim_post`)."""
        return await self.core.store.claim_post(game_id, version, kind, owner, lease)

    async def post_done(self, game_id: int, version: int, kind: str, owner: str) -> None:
        """Record that ``kind`` of ``version`` is posted: nobody posts it again."""
        await self.core.store.post_done(game_id, version, kind, owner)

    async def release_post(self, game_id: int, version: int, kind: str, owner: str) -> None:
        """Give back the claim of a post that was not made."""
        await self.core.store.release_post(game_id, version, kind, owner)

    # ------------------------------------------------------------------ what a restart and a recap read

    async def unposted(self, between: tuple[float, float] | None = None) -> list[tuple[int, int | None]]:
        """Games whose last stored version has no board or score sheet posted, with the last
        version posted (see :meth:`~bot.host.store_side.SideTables.unposted`)."""
        return await self.core.store.unposted(between)

    async def stored_game(self, game_id: int) -> GameRow | None:
        """The stored row of ``game_id`` (None if there is none)."""
        return await self.core.store.game(game_id)

    async def stored_moves(self, game_id: int) -> list[tuple[int, str]]:
        """The move log of ``game_id``: (seat, action) in order (a recap replays it)."""
        return [(m.seat, m.action) for m in await self.core.store.moves(game_id)]

    def publishing(self, game_id: int) -> bool:
        """Whether this process is publishing game ``game_id`` now, or has something of it to
        publish (a sweep of unposted boards leaves it to that)."""
        held = self.games.held(game_id)
        return held is not None and bool(held.outboxes or held.pending or held.publish_lock.locked())

    async def withdraw_lobby(self, game_id: int, *, quiet: bool = False) -> None:
        """End a lobby whose message could not be posted or recorded, and drop it from memory.
        With ``quiet`` a database failure is let go (the lobby stays, unseen, until it idles out)."""
        try:
            await self.core.store.update_game(game_id, status="ended")
        except StoreUnavailable:
            if not quiet:
                raise
        finally:
            self.games.forget(game_id)
