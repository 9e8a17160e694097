"""The publisher's side of the post claims (made through ``service.posts``, kept by
:mod:`bot.host.store_posts`): before a board (or a final sheet) of a game's version is posted,
and before its recap is drawn, this process claims it in the database, so that of the
processes serving one database (the game's own publisher and its retries, another process's
unposted-board sweep, a restart's reposts) exactly one posts it. A board another process is
posting, or has posted, is left to it; a post that failed gives its claim back, so the next
try, from any process, can make it.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

from ..host.live import Batch, LiveGame
from ..host.outbox import Outbox
from ..host.posts import Posts
from ..host.store import StoreError
from ..host.store_posts import DONE, HELD, WON, Claim
from .delivery import Delivery

log = logging.getLogger(__name__)

__all__ = ["DONE", "HELD", "POST_LEASE", "PostClaiming", "RECAP_LEASE", "WON"]

POST_LEASE = 120.0
"""Seconds a board's claim is its owner's: longer than a post with discord.py's own retries
takes; a process that stops mid-post leaves the board to the others after this."""
LOCAL = "this-process"
"""The owner of the claims of a bot alone on its database."""
RECAP_LEASE = 600.0
"""Seconds a recap's claim is its owner's (drawing a long game's recap takes a while)."""


class Publishing(Protocol):
    """What the claims need of the publisher (``publish.Publisher``)."""

    bot: Any

    @property
    def posts(self) -> Posts: ...

    async def landed(self, game: LiveGame, box: Outbox) -> Any: ...

    @property
    def recaps(self) -> Following: ...


class Following(Protocol):
    """The publisher's recaps (``recaps.Recaps``), as far as the claims use them."""

    def follow(self, game: LiveGame, box: Outbox, final: Any) -> None: ...


def claimed(batch: Batch) -> bool:
    """Whether posting ``batch`` needs a claim: it carries moves (or the start) of a running or
    finished game, which another process's sweep may post too. A batch of notes only (a
    resignation, a seat given back) adds to what this process posted and is not claimed."""
    return bool(batch.steps) and batch.state is not None and batch.row.status in ("active", "finished")


class PostClaiming:
    """Claims, finishes and gives back this process's posts of a game's boards and recaps."""

    def __init__(self, publisher: Publishing) -> None:
        self.publisher = publisher

    @property
    def owner(self) -> str:
        """This process's name on its claims: the turn clock's (``clock_shared.claim_owner``) on a
        database other processes share; on a SQLite file, which one bot uses at a time, one name
        for every run, so a run that stopped mid-post leaves nothing the next must wait for."""
        if not self.publisher.posts.shared:
            return LOCAL
        return str(getattr(self.publisher.bot, "claim_owner", LOCAL))

    async def claim(self, game: LiveGame, batch: Batch) -> Claim:
        """Claim the board (or final sheet) of ``batch``; :data:`WON` when it needs none, and
        when the database cannot say (a board posted twice beats a board lost)."""
        if not claimed(batch):
            return WON
        try:
            return await self.publisher.posts.claim_post(
                game.id, batch.version, "board", self.owner, POST_LEASE
            )
        except StoreError as err:
            log.warning(
                "Game %s: claiming the board of version %s failed (%s); posting it",
                game.id,
                batch.version,
                err,
            )
            return WON

    async def elsewhere(self, game: LiveGame, d: Delivery, claim: Claim, *, recover: bool) -> bool:
        """The delivery's batch is another process's to post (:data:`HELD`) or posted
        (:data:`DONE`): it is dropped here, and the board and DMs this process would edit in
        place are forgotten (newer ones are below them). A finished game found posted while
        recovering (a sweep, a restart) still gets its recap, which has a claim of its own
        (:meth:`recap`): True when that follows."""
        batch = d.batch
        d.forget()
        log.info(
            "Game %s: the board of version %s is %s by another process; not posting it",
            game.id,
            batch.version,
            "being posted" if claim == HELD else "posted",
        )
        if claim == DONE and recover and batch.row.status == "finished":
            final = await self.publisher.landed(game, d.box)
            if final is not None:
                self.publisher.recaps.follow(game, d.box, final)
                return True
        return False

    async def done(self, game: LiveGame, batch: Batch) -> None:
        """Record that ``batch``'s board is posted (nobody posts that version again)."""
        if claimed(batch):
            await self._write(
                game, self.publisher.posts.post_done(game.id, batch.version, "board", self.owner)
            )

    async def release(self, game: LiveGame, batch: Batch) -> None:
        """Give back the claim of a board that could not be posted."""
        if claimed(batch):
            await self._write(
                game, self.publisher.posts.release_post(game.id, batch.version, "board", self.owner)
            )

    async def recap(self, game: LiveGame, batch: Batch) -> bool:
        """Claim drawing and posting the recap of a finished game; True if it is this process's."""
        try:
            claim = await self.publisher.posts.claim_post(
                game.id, batch.version, "recap", self.owner, RECAP_LEASE
            )
        except StoreError as err:
            log.warning("Game %s: claiming its recap failed (%s); posting it", game.id, err)
            return True
        if claim != WON:
            log.info(
                "Game %s: its recap is %s by another process",
                game.id,
                "being posted" if claim == HELD else "posted",
            )
        return claim == WON

    async def recap_done(self, game: LiveGame, batch: Batch) -> None:
        """Record that the recap is posted, or left out for good (nobody tries it again)."""
        await self._write(game, self.publisher.posts.post_done(game.id, batch.version, "recap", self.owner))

    async def recap_released(self, game: LiveGame, batch: Batch) -> None:
        """Give back the recap's claim (the bot stopped before posting it: the next run does)."""
        await self._write(
            game, self.publisher.posts.release_post(game.id, batch.version, "recap", self.owner)
        )

    @staticmethod
    async def _write(game: LiveGame, write: Any) -> None:
        try:
            await write
        except Exception as err:  # the database failing, or closed: the lease lapses instead
            log.warning("Game %s: recording a post's claim failed: %s", game.id, err)
