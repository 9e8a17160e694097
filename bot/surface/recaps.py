"""A finished game's animated recap, for the publisher: drawn in the workers' long-job lane
(seconds of drawing, never on the board pool) once the final score sheet is posted, then posted
below it as a message of its own, in a task per game so nothing else waits for it. See
:meth:`Recaps.follow`."""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

import discord
from discord.ext import commands

from ..host import drawing
from ..host.live import Batch, LiveGame
from ..host.outbox import Outbox
from ..host.posts import Posts
from ..host.store import GameRow
from ..host.workers import WorkersClosed
from . import drawn, posting
from .context import bazaar
from .postclaims import PostClaiming
from .retry import PostRetry

log = logging.getLogger(__name__)


class Publishing(Protocol):
    """What the recaps need of the publisher (``publish.Publisher``)."""

    bot: commands.Bot
    claims: PostClaiming
    retry: PostRetry

    @property
    def posts(self) -> Posts: ...

    def place(self, row: GameRow) -> discord.PartialMessageable: ...

    async def archive(self, game_id: int, thread_id: int) -> None: ...


class Recaps:
    """The recaps being drawn and posted, one task per game."""

    def __init__(self, publisher: Publishing) -> None:
        self.publisher = publisher
        self._tasks: dict[int, asyncio.Task[None]] = {}  # game id -> its recap being drawn and posted
        self.found: dict[int, discord.Message] = {}  # game id -> its recap found on Discord (``landed``)

    def follow(self, game: LiveGame, box: Outbox, final: discord.Message) -> None:
        """Post the recap of the finished game of ``box`` (saying its ``recap`` words) below its
        final sheet ``final`` (just posted, or found on Discord after a restart), in a task of
        its own: the final post and the answer to the last move never wait for it. One such
        task per game at a time."""
        running = self._tasks.get(game.id)
        if running is not None and not running.done():
            return
        said = "\n".join(box.recap.head)
        task = asyncio.create_task(self._post(game, box.batch, final, said), name=f"bazaar-recap-{game.id}")
        self._tasks[game.id] = task

        def forget(done: asyncio.Task[None], gid: int = game.id) -> None:
            if self._tasks.get(gid) is done:
                del self._tasks[gid]

        task.add_done_callback(forget)

    async def stop(self) -> None:
        """Cancel the recaps still being drawn or posted (the bot is stopping) and wait for them
        to end: each game's final sheet is then still unrecorded, so the next run finds it on
        Discord (``Publisher.landed``) and draws and posts the recap."""
        tasks = [t for t in self._tasks.values() if not t.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def pending(self, game_id: int | None = None) -> bool:
        """Whether a recap (of ``game_id``, or of any game) is still being drawn or posted."""
        tasks = [self._tasks.get(game_id)] if game_id is not None else list(self._tasks.values())
        return any(t is not None and not t.done() for t in tasks)

    async def _post(self, game: LiveGame, batch: Batch, final: discord.Message, said: str) -> None:
        """Draw the recap in the workers' long-job lane and post it as its own message below the
        final sheet (nonce ``r``: posted once though an answer is lost), then record both, then
        archive the game's thread. Until then the store shows the game's final sheet as not
        posted, so a run that stops in between is followed by one that finds the sheet on
        Discord (``Publisher.landed``: not posted again) and posts the recap. A post Discord
        refuses for a while (5xx, a broken connection) is tried again after the pauses of board
        posts (``retry.delays``, the last repeated) until it lands or the bot stops. A recap that
        cannot be built, or that Discord refuses for good (4xx: the channel is gone, a
        permission is missing), is logged and left out: the game is finished and its sheet
        stands."""
        pub, claims = self.publisher, self.publisher.claims
        try:
            async with pub.posts.in_order(game):  # after the final post, before anything newer of the game
                if await self._drawn_and_posted(game, batch, final, said):
                    await claims.recap_done(game, batch)
                    if batch.closed and batch.row.thread_id:
                        await pub.archive(game.id, batch.row.thread_id)
        except WorkersClosed:
            log.info("Game %s: the bot stopped before its recap was drawn; the next run draws it", game.id)
            await claims.recap_released(game, batch)
        except asyncio.CancelledError:  # the bot is stopping: the next run (or another process) posts it
            await claims.recap_released(game, batch)
            raise
        except Exception:
            if pub.bot.is_closed():
                log.info("Game %s: the bot stopped while posting the recap; the next run posts it", game.id)
            else:
                log.exception("Game %s: posting the recap failed", game.id)

    async def _drawn_and_posted(
        self, game: LiveGame, batch: Batch, final: discord.Message, said: str
    ) -> bool:
        """Draw and post the recap (unless it was found posted, or another process has the
        claim), and record it with the final sheet; False when there is nothing more to do
        here (another process's claim, or the bot stopping: its claim is given back)."""
        pub, claims = self.publisher, self.publisher.claims
        film = self.found.pop(game.id, None)
        if film is None and not await claims.recap(game, batch):
            return False  # another process draws and posts it (or has)
        if film is None:
            gif = await self.draw(game.id, batch)
            if pub.bot.is_closed():
                await claims.recap_released(game, batch)
                return False  # stopping: the next run posts it
            if gif is not None:
                film = await self._send(game, batch, gif, said)
                if film is None and pub.bot.is_closed():
                    await claims.recap_released(game, batch)
                    return False
        for kind, msg in (("recap", film), ("final", final)):
            if msg is not None:
                write = pub.posts.record_posted(
                    game.id,
                    kind=kind,
                    channel_id=msg.channel.id,
                    message_id=msg.id,
                    version=batch.version,
                )
                await posting.note(game, write)
        return True

    async def _send(self, game: LiveGame, batch: Batch, gif: bytes, said: str) -> discord.Message | None:
        """Post the recap ``gif`` saying ``said`` (the outbox's recap words; nonce ``r``: once,
        though an answer is lost), trying again
        after ``retry.delays`` while Discord refuses it for a while; None once Discord refused
        it for good (or the bot is stopping)."""
        pub = self.publisher
        attempt = 0
        name = f"{batch.engine.name}-{game.id}-recap.gif"
        while True:
            refused = posting.Refused()
            film = await posting.send(
                pub.place(batch.row),
                said,
                file=drawn.file_of(gif, name),
                nonce=posting.nonce(game.id, batch.version, "r"),
                refused=refused,
            )
            if film is not None or refused.for_good or pub.bot.is_closed():
                if film is None:
                    log.warning(
                        "Game %s: Discord refused its recap for good; the sheet stands alone", game.id
                    )
                return film
            delays = pub.retry.delays
            delay = delays[min(attempt, len(delays) - 1)]
            attempt += 1
            log.warning(
                "Game %s: the recap is not posted; trying again in %.0f s (attempt %d)",
                game.id,
                delay,
                attempt,
            )
            await asyncio.sleep(delay)

    async def draw(self, game_id: int, batch: Batch) -> bytes | None:
        """The animated recap of a finished game (``render.recap``: one public board per turn,
        under Discord's attachment limit), rebuilt from the stored move log by replaying it in
        the workers' long-job lane (never the board pool: boards of other games do not wait
        behind it), so it is the same after a restart; None (logged) if that fails. Raises
        :class:`WorkersClosed` when the bot stops before it is drawn."""
        pub = self.publisher
        row, engine = batch.row, batch.engine
        try:
            moves = await pub.posts.stored_moves(game_id)
            data: bytes | None = await bazaar(pub.bot).workers.run_long(
                drawing.recap, engine.name, row.seed, len(batch.seats), row.options, moves, list(batch.names)
            )
        except WorkersClosed:
            raise
        except Exception as err:
            if pub.bot.is_closed():  # the store or the pool went away under it: the next run draws it
                raise WorkersClosed(f"the bot stopped while the recap was drawn ({err!r})") from err
            log.exception("Building the recap failed for game %s", game_id)
            return None
        return data
