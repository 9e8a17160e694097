"""What processes serving one database agree on through it, beyond a move's version check:
claims on posts, the half-time reminder sent once, and whether a move whose answer was lost
committed. A mixin of :class:`~bot.host.store_base.Store`.

Claims on posts, so that of several processes serving one database exactly one posts each
board (or final sheet) of a game's version and each recap (the table ``posts``, migration 0008).

A process claims ``(game, version, kind)`` before posting it (:meth:`PostClaims.claim_post`, a
compare-and-set in one statement): it wins when nobody claimed it, when the claim is its own,
or when another owner's lease lapsed (that process stopped mid-post) and nobody finished it. It
marks the claim done once Discord shows the post (:meth:`PostClaims.post_done`), or gives it
back when the post failed (:meth:`PostClaims.release_post`), so the next try, from any process,
can claim it. The unposted-board sweep, the publisher's retries, a restart's reposts and the
recap lane all go through it.

The shape of message each channel takes (the table ``channel_shapes``, migration 0009): where
Discord refused a Components V2 message, the bot posts the classic shape there from then on,
in every process (:meth:`PostClaims.message_shape`, :meth:`PostClaims.set_message_shape`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import AbstractAsyncContextManager
from typing import Any, Literal

WON: Literal["won"] = "won"
HELD: Literal["held"] = "held"
DONE: Literal["done"] = "done"
Claim = Literal["won", "held", "done"]
"""What :meth:`PostClaims.claim_post` found: the claim is the caller's (post it), another live
owner's (it is posting it now), or the post is made already."""


class PostClaims:
    """The post claims of a store (see the module docstring)."""

    now: Callable[[], float]

    def _tx(self) -> AbstractAsyncContextManager[Any]:
        raise NotImplementedError

    async def _one(self, sql: str, args: Iterable[Any] = ()) -> tuple[Any, ...] | None:
        raise NotImplementedError

    async def claim_post(self, game_id: int, version: int, kind: str, owner: str, lease: float) -> Claim:
        """Claim posting ``kind`` (``board``, ``recap``) of game ``game_id`` at ``version`` for
        ``owner`` until ``lease`` seconds from now. Returns :data:`WON`, :data:`HELD` or
        :data:`DONE` (see :data:`Claim`)."""
        now = self.now()
        async with self._tx() as h:
            changed = await h.sql_run(
                "INSERT INTO posts (game_id, version, kind, owner, lease_until, done) "
                "VALUES (?, ?, ?, ?, ?, 0) "
                "ON CONFLICT (game_id, version, kind) DO UPDATE SET owner = excluded.owner, "
                "lease_until = excluded.lease_until "
                "WHERE posts.done = 0 AND (posts.owner = excluded.owner OR posts.lease_until <= ?)",
                (game_id, version, kind, owner, now + lease, now),
            )
            if changed == 1:
                return WON
            row = await h.sql_row(
                "SELECT done FROM posts WHERE game_id = ? AND version = ? AND kind = ?",
                (game_id, version, kind),
            )
        return DONE if row is not None and row[0] else HELD

    async def post_done(self, game_id: int, version: int, kind: str, owner: str) -> None:
        """Record that ``owner`` made the post ``kind`` of ``version`` (whoever held the claim):
        nobody posts it again."""
        async with self._tx() as h:
            await h.sql_run(
                "INSERT INTO posts (game_id, version, kind, owner, lease_until, done) "
                "VALUES (?, ?, ?, ?, ?, 1) "
                "ON CONFLICT (game_id, version, kind) DO UPDATE SET owner = excluded.owner, done = 1",
                (game_id, version, kind, owner, self.now()),
            )

    async def release_post(self, game_id: int, version: int, kind: str, owner: str) -> None:
        """Give back ``owner``'s claim on a post it could not make (anyone may claim it now)."""
        async with self._tx() as h:
            await h.sql_run(
                "DELETE FROM posts WHERE game_id = ? AND version = ? AND kind = ? AND owner = ? AND done = 0",
                (game_id, version, kind, owner),
            )

    async def post_state(self, game_id: int, version: int, kind: str) -> tuple[str, float, bool] | None:
        """``(owner, lease end, done)`` of a post's claim, or None when unclaimed."""
        row = await self._one(
            "SELECT owner, lease_until, done FROM posts WHERE game_id = ? AND version = ? AND kind = ?",
            (game_id, version, kind),
        )
        return (str(row[0]), float(row[1]), bool(row[2])) if row else None

    async def mark_reminded(self, game_id: int, version: int) -> bool:
        """Record the half-time reminder of ``version``'s turn as sent, if nobody has (a
        compare-and-set on ``reminded``): True for the one caller that should post it."""
        async with self._tx() as h:
            changed = await h.sql_run(
                "UPDATE games SET reminded = 1 WHERE id = ? AND version = ? AND reminded = 0 "
                "AND status = 'active'",
                (game_id, version),
            )
        return int(changed) == 1

    async def move_at(self, game_id: int, version: int) -> tuple[int, str] | None:
        """``(seat, action)`` of the stored move that made ``version``, or None: after a move's
        write failed with a version conflict, or its answer was lost, whether the move
        committed after all (its seat and action are the ones stored)."""
        row = await self._one(
            "SELECT seat, action FROM moves WHERE game_id = ? AND version = ?", (game_id, version)
        )
        return (int(row[0]), str(row[1])) if row else None

    async def message_shape(self, channel_id: int) -> str:
        """The message shape the bot uses in ``channel_id``: ``"classic"`` where Discord refused
        a Components V2 message, else ``"v2"`` (nothing noted)."""
        row = await self._one("SELECT shape FROM channel_shapes WHERE channel_id = ?", (channel_id,))
        return str(row[0]) if row else "v2"

    async def set_message_shape(self, channel_id: int, shape: str) -> None:
        """Note the message ``shape`` (``"classic"`` or ``"v2"``) of ``channel_id``."""
        if shape not in ("classic", "v2"):
            raise ValueError(f"unknown message shape {shape!r}")
        async with self._tx() as h:
            await h.sql_run(
                "INSERT INTO channel_shapes (channel_id, shape, noted_at) VALUES (?, ?, ?) "
                "ON CONFLICT (channel_id) DO UPDATE SET shape = excluded.shape, noted_at = excluded.noted_at",
                (channel_id, shape, self.now()),
            )
