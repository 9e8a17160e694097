"""Posting to Discord: turn snapshots, the final score sheet, private DMs, lobby updates, clearing
old buttons and archiving the game's thread.

Only views reach a renderer or a message: the channel gets ``view(state, None)``, a DM or an
ephemeral reply gets ``view(state, seat)`` of its recipient. Rendering and PNG encoding run in the
bot's worker pool (``bot.workers``: other processes, see :mod:`bot.host.drawing`), never on the
event loop. Publishing a game takes everything it has pending under the game's publish lock,
so posts come out in order and a burst of moves is coalesced into one up-to-date post.

A finished game's animated recap (seconds of drawing) is not part of that: the final score
sheet is posted at once, and the recap follows as a message of its own once the workers'
long-job lane has drawn it (:mod:`.recaps`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord
from discord.ext import commands

from ..host import outbox
from ..host.live import Batch, LiveGame, Posted
from ..host.outbox import Outbox
from ..host.posts import Posts
from ..host.service import GameService
from ..host.store import GameRow, StoreUnavailable
from . import components, layout, posting, text
from .context import bazaar
from .delivery import Delivery
from .dms import SEND_ERRORS, PrivateViews
from .held import HeldControls, refused_old
from .mediaedits import MediaMemory
from .postclaims import WON, PostClaiming
from .recaps import Recaps
from .retry import PostRetry
from .turns import TurnPosts

log = logging.getLogger(__name__)


class Publisher(PrivateViews, TurnPosts, HeldControls, MediaMemory):
    """Turns a game's pending steps into Discord messages."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.retry = PostRetry(self)
        self.claims = PostClaiming(self)
        self._sheet_done: dict[int, int] = {}  # game id -> version whose interim sheet is posted
        self.shapes: dict[int, str] = {}  # channel id -> message shape (see TurnPosts.shape_of)
        self.layouts: dict[int, layout.Shown] = {}  # message id -> its V2 message, bare (TurnPosts.noted)
        self.held: dict[int, float] = {}  # message id -> when to try its controls again (HeldControls)
        self.media: dict[int, tuple[int, float]] = {}  # channel id -> V2 media edits refused (MediaMemory)
        self.recaps = Recaps(self)

    @property
    def service(self) -> GameService:
        return bazaar(self.bot).service

    @property
    def posts(self) -> Posts:
        """The host's records of what was posted (the surface's only road to the store)."""
        return self.service.posts

    def place(self, row: GameRow) -> discord.PartialMessageable:
        """Where the game is played (its thread, else its channel)."""
        return self.bot.get_partial_messageable(row.place_id, guild_id=row.guild_id)

    # ------------------------------------------------------------------ the main entry

    async def publish(self, box: Outbox | None, *, recover: bool = False) -> Batch | None:
        """Show ``box``, the outbox a host operation returned, with whatever its game queued
        before it (one post for all, see :meth:`flush`); None when there is nothing to show (an
        empty outbox, or one a publish running meanwhile showed already)."""
        game = None if box is None else box.game  # the game whose queue holds it
        return None if game is None else await self.flush(game, recover=recover)

    async def flush(self, game: LiveGame, *, recover: bool = False) -> Batch | None:
        """Post what ``game`` has queued: the start/turn snapshot with its events and whose turn
        it is, or the final sheet / end notice; then DMs, lobby update and old buttons. Returns
        the batch posted (None if nothing was pending). Discord errors are logged, not raised;
        a board or final sheet that could not be posted is put back on the game and posted
        again later (see :mod:`.retry`), so every stored move is shown once.

        With ``recover`` (after a restart, for what the last run stored but had not recorded as
        posted), what Discord already shows of the batch (see :meth:`landed`) is kept and
        recorded rather than posted a second time, and None is returned when another process
        posts the batch's board, or has, and no recap is left to follow it (see
        :mod:`.postclaims`)."""
        async with self.posts.sending(game, recover=recover) as box:
            if box is None:
                if self.service.has_pending(game):  # the host could not make its outbox: later
                    self.retry.schedule(game)
                return None
            d, shown = Delivery.of(box), None
            try:
                shown = await self._deliver(game, d)
            finally:  # the host writes what was shown (on a failure: what was shown until then)
                again = shown is False and not d.refused.for_good
                self.posts.delivered(box, d.results(again=again))
            if again:
                self.retry.schedule(game)
            return None if shown is None else box.batch

    async def _deliver(self, game: LiveGame, d: Delivery) -> bool | None:
        """Show the delivery's outbox (see :meth:`publish`): True when its batch is shown (or
        needs no retry), False when it is to be posted again, None when another process posts
        it (or has) and, recovering, no recap of this process follows it."""
        batch, recover = d.batch, d.box.recover
        claim = await self.claims.claim(game, batch)
        if claim != WON:  # another process posts it, or has
            recap = await self.claims.elsewhere(game, d, claim, recover=recover)
            return None if recover and not recap else True
        try:
            landed = await self.landed(game, d.box) if recover else None
            shown = await self._publish(game, d, landed)
        except StoreUnavailable as err:  # the database failed, not Discord: what was posted stands
            log.warning("Publishing game %s (version %s): %s", game.id, batch.version, err)
            shown = True  # never post again for lost bookkeeping (a restart checks what landed)
        except Exception:
            log.exception("Publishing game %s (version %s) failed", game.id, batch.version)
            shown = await self._shown(game, batch)
        if shown:
            await self.claims.done(game, batch)
            return True
        await self.claims.release(game, batch)  # the next try, from any process, claims it again
        if d.refused.for_good:
            log.warning(
                "Game %s: Discord refused the board of version %s for good; the next move posts a new one",
                game.id,
                batch.version,
            )
        else:
            log.warning(
                "Game %s: the board of version %s is not posted; trying again later",
                game.id,
                batch.version,
            )
        return False

    async def _shown(self, game: LiveGame, batch: Batch) -> bool:
        """Whether ``batch`` needs no retry: a board or final sheet of its version is posted (as
        the store records it), or it is not one that needs them (a lobby, an end notice, a
        game needing attention)."""
        if batch.state is None or batch.row.status not in ("active", "finished"):
            return True
        kinds = ("final",) if batch.row.status == "finished" else ("turn", "final")
        try:
            for kind in kinds:
                if any(
                    m.version >= batch.version for m in await self.posts.posted_messages(game.id, kind=kind)
                ):
                    return True
        except Exception:
            log.exception("Game %s: reading what was posted failed", game.id)
            return True  # unknown: a restart posts it if it is missing (Store.unposted)
        return False

    async def _publish(self, game: LiveGame, d: Delivery, landed: discord.Message | None = None) -> bool:
        """Post (or edit) the board, score sheet or notice of ``batch`` (unless ``landed`` is that
        board or sheet, already on Discord, see :meth:`landed`), then refresh the lobby,
        clear old buttons, send the DMs and archive the thread of a game that closed. Returns
        False, having done nothing else, when the board or final sheet could not be posted (the
        batch is posted again whole, see :meth:`publish`), else True."""
        batch = d.batch
        row = batch.row
        channel = self.place(row)
        posted: discord.Message | None = None
        public = d.box.public
        words = d.box.words
        if public in (outbox.NOTICE, outbox.ENDED) and words is not None:
            # ended (before it started, or early), or the notes of a game needing attention
            posted = await posting.send(
                channel, text.message(words, batch.engine.name, batch.text_names), refused=d.refused
            )
        elif public == outbox.FINAL and landed is not None:
            d.board, posted = None, landed
            self.recaps.follow(game, d.box, landed)
        elif public == outbox.FINAL:
            posted = await self._post_final(game, d)
        elif public == outbox.TURN and landed is not None:
            posted = landed
        elif public == outbox.TURN:
            if not await self._post_interim(game, d):
                return False  # the sheet could not be posted: it and the board again later, in order
            posted = await self._post_turn(game, d)
        if posted is None and public in (outbox.TURN, outbox.FINAL):
            return False  # the board or sheet is missing: all of it again later
        if batch.started or batch.closed or batch.relist:
            await self.refresh_lobby(game)
        keep = posted.id if posted and row.status == "active" else None
        await self.retire(game.id, keep=keep, upto=batch.version)
        if row.status != "active":
            await self.retire(game.id, kinds=("dm",), upto=batch.version)
        if d.box.dm_due:
            await self.send_dms(game, d, posted)
        if batch.closed and row.thread_id and row.status != "finished":  # finished: after its recap
            await self.archive(game.id, row.thread_id)
        return True

    async def landed(self, game: LiveGame, box: outbox.Outbox) -> discord.Message | None:
        """After a restart, the board of ``batch``'s version (or the final sheet of a finished
        game) that Discord already shows: the last run stored the batch and posted it (or edited
        its last board in place to show it), then stopped before recording that. It is the last
        recorded board or a newer message of the bot beginning as that board does; it is
        recorded now and returned. An interim score sheet newer than the last recorded board is
        noted as posted, so it is not posted again. None when there is no such board or the
        channel cannot be read (the batch is then posted as usual)."""
        batch, row, words = box.batch, box.batch.row, box.words
        if row.status not in ("active", "finished") or batch.state is None or words is None:
            return None
        active = row.status == "active"
        head = words.head[0]  # the board's first line, or the final sheet's
        boards = [m for m in await self.posts.posted_messages(game.id) if m.kind in ("turn", "final")]
        last = boards[-1] if boards else None
        channel = self.place(row)
        me = self.bot.user.id if self.bot.user else None
        try:
            found = [m async for m in channel.history(limit=50) if last is None or m.id > last.message_id][
                ::-1
            ]
            if last is not None and last.kind == "turn":
                found.insert(0, await channel.fetch_message(last.message_id))
        except SEND_ERRORS as err:
            log.info("Game %s: reading what the last run posted failed: %s", game.id, err)
            return None
        mine = [m for m in found if m.author.id == me]
        if any(layout.text_of(m).startswith(box.sheet.head[0]) for m in mine):
            self._sheet_done[game.id] = batch.version
        board = next((m for m in mine if layout.text_of(m).split("\n", 1)[0] == head), None)
        if board is None:
            return None
        if not active:  # the final sheet is recorded with its recap (see Recaps.follow)
            film_head = box.recap.head[0]
            film = next(
                (m for m in mine if m.id > board.id and layout.text_of(m).startswith(film_head)), None
            )
            if film is not None:
                self.recaps.found[game.id] = film
            log.info("Game %s: the last run had posted its final sheet; not posting it again", game.id)
            return board
        if last is not None and board.id == last.message_id:
            await self.posts.restamp_posted(board.id, batch.version)
        else:
            await self.posts.record_posted(
                game.id,
                kind="turn" if active else "final",
                channel_id=board.channel.id,
                message_id=board.id,
                version=batch.version,
                live=active,
            )
        log.info(
            "Game %s: the last run had posted version %s already; not posting it again",
            game.id,
            batch.version,
        )
        return board

    async def _edit(
        self,
        posted: Posted,
        content: str,
        file: discord.File | list[discord.File] | None,
        view: discord.ui.View | None = None,
        *,
        mentions: discord.AllowedMentions = posting.PINGS,
    ) -> discord.Message | None:
        """:func:`~bot.surface.posting.edit` with this bot (the DMs edit theirs in place too)."""
        return await posting.edit(self.bot, posted, content, file, view, mentions=mentions)

    async def notice(self, game: LiveGame, content: str) -> discord.Message | None:
        """Post a plain message where the game is played."""
        return await posting.send(self.place(game.row), content)

    # ------------------------------------------------------------------ lobby, buttons, thread

    async def refresh_lobby(self, game: LiveGame) -> None:
        """Edit the lobby message to show the seats (and drop its buttons once started/closed)."""
        open_lobby = game.row.status == "lobby"
        for m in await self.posts.posted_messages(game.id, kind="lobby"):
            msg = self.bot.get_partial_messageable(m.channel_id).get_partial_message(m.message_id)
            try:
                await msg.edit(
                    content=text.lobby(game),
                    view=components.lobby_view(game.id) if open_lobby else None,
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            except SEND_ERRORS as err:
                log.warning("Editing the lobby of game %s failed: %s", game.id, err)
            if not open_lobby and m.live:
                await self.posts.retire_posted([m.id])

    async def retire(
        self,
        game_id: int,
        keep: int | None = None,
        *,
        kinds: Sequence[str] = ("turn",),
        seat: int | None = None,
        seats: Sequence[int] | None = None,
        upto: int | None = None,
    ) -> None:
        """Remove the controls of every live message of the game of ``kinds`` (boards; DMs) —
        of ``seat``'s, or of ``seats``', only, when given — except ``keep``, and, with ``upto``
        (the version being published), only of messages showing that version or an older one:
        with processes sharing a database, another process may already have posted the next
        version's board and DMs while this one still publishes the version before, and those
        keep their controls. A message whose edit Discord refuses as an hour-old one's (30046)
        stays live and is tried again later (:mod:`.held`)."""
        among = set(seats) if seats is not None else None
        old = [
            m
            for kind in kinds
            for m in await self.posts.posted_messages(game_id, kind=kind, live=True)
            if m.message_id != keep
            and (seat is None or m.seat == seat)
            and (among is None or m.seat in among)
            and (upto is None or m.version <= upto)
        ]
        kept: set[int] = set()  # rows whose controls Discord would not let go yet (held.py)
        for m in old:
            if self.waiting(m.message_id):
                kept.add(m.id)
                continue
            shown = self.layouts.pop(m.message_id, None)
            try:
                v2 = await self.shape_of(m.channel_id) == layout.V2
                await posting.take_controls(self.bot, m.channel_id, m.message_id, v2=v2, shown=shown)
                self.held.pop(m.message_id, None)
            except SEND_ERRORS as err:
                log.info("Clearing buttons of message %s (game %s) failed: %s", m.message_id, game_id, err)
                if refused_old(err):
                    self.hold(m.message_id, shown)
                    kept.add(m.id)
        await self.posts.retire_posted(m.id for m in old if m.id not in kept)

    async def archive(self, game_id: int, thread_id: int) -> None:
        """Archive the game's thread (logged if not allowed)."""
        try:
            await self.bot.http.edit_channel(thread_id, archived=True)
        except SEND_ERRORS as err:
            log.warning("Archiving thread %s of game %s failed: %s", thread_id, game_id, err)
