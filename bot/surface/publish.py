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

import dataclasses
import logging
from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord.ext import commands

from engines import base
from engines.prompt import Prompt
from render import caption

from ..host import drawing
from ..host.live import Batch, LiveGame, Posted
from ..host.service import GameService
from ..host.store import GameRow, SeatRow, Store, StoreUnavailable
from . import components, controls, drawn, posting, text
from .context import bazaar
from .dms import SEND_ERRORS, PrivateViews
from .postclaims import WON, PostClaiming
from .recaps import Recaps, recap_head
from .retry import PostRetry

log = logging.getLogger(__name__)


class Publisher(PrivateViews):
    """Turns a game's pending steps into Discord messages."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.retry = PostRetry(self)
        self.claims = PostClaiming(self)
        self._sheet_done: dict[int, int] = {}  # game id -> version whose interim sheet is posted
        self.recaps = Recaps(self)

    @property
    def service(self) -> GameService:
        return bazaar(self.bot).service

    @property
    def store(self) -> Store:
        return bazaar(self.bot).store

    def place(self, row: GameRow) -> discord.PartialMessageable:
        """Where the game is played (its thread, else its channel)."""
        return self.bot.get_partial_messageable(row.place_id, guild_id=row.guild_id)

    # ------------------------------------------------------------------ the main entry

    async def publish(self, game: LiveGame, *, recover: bool = False) -> Batch | None:
        """Post what ``game`` has pending: the start/turn snapshot with its events and whose turn
        it is, or the final sheet / end notice; then DMs, lobby update and old buttons. Returns
        the batch posted (None if nothing was pending). Discord errors are logged, not raised;
        a board or final sheet that could not be posted is put back on the game and posted
        again later (see :mod:`.retry`), so every stored move is shown once.

        With ``recover`` (after a restart, for what the last run stored but had not recorded as
        posted), what Discord already shows of the batch (see :meth:`landed`) is kept and
        recorded rather than posted a second time, and None is returned when another process
        posts the batch's board, or has, and no recap is left to follow it (see
        :mod:`.postclaims`)."""
        async with game.publish_lock:
            batch = self.service.take_batch(game)
            if batch is None:
                return None
            claim = await self.claims.claim(game, batch)
            if claim != WON:  # another process posts it, or has
                recap = await self.claims.elsewhere(game, batch, claim, recover=recover)
                return None if recover and not recap else batch
            posting.REFUSED_FOR_GOOD.set(False)
            try:
                landed = await self.landed(game, batch) if recover else None
                shown = await self._publish(game, batch, landed)
            except StoreUnavailable as err:  # the database failed, not Discord: what was posted stands
                log.warning("Publishing game %s (version %s): %s", game.id, batch.version, err)
                shown = True  # never post again for lost bookkeeping (a restart checks what landed)
            except Exception:
                log.exception("Publishing game %s (version %s) failed", game.id, batch.version)
                shown = await self._shown(game, batch)
            if shown:
                await self.claims.done(game, batch)
                return batch
            await self.claims.release(game, batch)  # the next try, from any process, claims it again
            if posting.REFUSED_FOR_GOOD.get():
                log.warning(
                    "Game %s: Discord refused the board of version %s for good; the next move "
                    "posts a new one",
                    game.id,
                    batch.version,
                )
            else:
                log.warning(
                    "Game %s: the board of version %s is not posted; trying again later",
                    game.id,
                    batch.version,
                )
                self.service.put_back(game, batch)
                self.retry.schedule(game)
            return batch

    async def _shown(self, game: LiveGame, batch: Batch) -> bool:
        """Whether ``batch`` needs no retry: a board or final sheet of its version is posted (as
        the store records it), or it is not one that needs them (a lobby, an end notice, a
        game needing attention)."""
        if batch.state is None or batch.row.status not in ("active", "finished"):
            return True
        kinds = ("final",) if batch.row.status == "finished" else ("turn", "final")
        try:
            for kind in kinds:
                if any(m.version >= batch.version for m in await self.store.messages(game.id, kind=kind)):
                    return True
        except Exception:
            log.exception("Game %s: reading what was posted failed", game.id)
            return True  # unknown: a restart posts it if it is missing (Store.unposted)
        return False

    async def _publish(self, game: LiveGame, batch: Batch, landed: discord.Message | None = None) -> bool:
        """Post (or edit) the board, score sheet or notice of ``batch`` (unless ``landed`` is that
        board or sheet, already on Discord, see :meth:`landed`), then refresh the lobby,
        clear old buttons, send the DMs and archive the thread of a game that closed. Returns
        False, having done nothing else, when the board or final sheet could not be posted (the
        batch is posted again whole, see :meth:`publish`), else True."""
        row = batch.row
        channel = self.place(row)
        posted: discord.Message | None = None
        # who must act and with which controls: asked of the engine once, for the board and the DMs
        plan = controls.board_prompt(batch) if row.status == "active" and batch.state is not None else None
        if batch.state is None:  # ended before it started, or a game needing attention
            if batch.notes:
                posted = await posting.send(
                    channel,
                    text.ended(batch) if batch.closed else "\n".join(batch.fmt(n) for n in batch.notes),
                )
        elif row.status == "finished" and landed is not None:
            game.board, posted = None, landed
            self.recaps.follow(game, batch, landed)
        elif row.status == "finished":
            posted = await self._post_final(game, batch, channel)
        elif row.status == "ended":
            posted = await posting.send(channel, text.ended(batch))
        elif landed is not None:
            posted = landed
        else:
            if not await self._post_interim(game, batch, channel):
                return False  # the sheet could not be posted: it and the board again later, in order
            posted = await self._post_turn(game, batch, channel, plan or ([], None, {}))
        if posted is None and batch.state is not None and row.status in ("active", "finished"):
            return False  # the board or sheet is missing: all of it again later
        if batch.started or batch.closed:
            await self.refresh_lobby(game)
        await self.retire(game.id, keep=posted.id if posted and row.status == "active" else None)
        if row.status != "active":
            await self.retire(game.id, kinds=("dm",))
        if row.status in ("active", "finished") and batch.state is not None:
            await self.send_dms(
                game, batch, posted, plan[2] if plan else {}, events_only=row.status != "active"
            )
        if batch.closed and row.thread_id and row.status != "finished":  # finished: after its recap
            await self.archive(game.id, row.thread_id)
        return True

    async def _post_final(self, game: LiveGame, batch: Batch, channel: Any) -> discord.Message | None:
        """The final score sheet of a finished game, followed by its recap (see
        :class:`.recaps.Recaps`); None if Discord refused it."""
        engine = batch.engine
        game.board = None
        view = engine.view(batch.state, None)
        file = await drawn.image(
            self.bot,
            game.id,
            engine.name,
            "score_sheet",
            view,
            batch.names,
            f"{engine.name}-{game.id}-final.png",
        )
        posted = await posting.send(
            channel,
            text.final(batch, engine.outcome(batch.state)),
            file=file,
            nonce=posting.nonce(game.id, batch.version, "f"),
        )
        if posted:  # recorded once its recap is posted too (see Recaps.follow)
            self.recaps.follow(game, batch, posted)
        return posted

    async def landed(self, game: LiveGame, batch: Batch) -> discord.Message | None:
        """After a restart, the board of ``batch``'s version (or the final sheet of a finished
        game) that Discord already shows: the last run stored the batch and posted it (or edited
        its last board in place to show it), then stopped before recording that. It is the last
        recorded board or a newer message of the bot beginning as that board does; it is
        recorded now and returned. An interim score sheet newer than the last recorded board is
        noted as posted, so it is not posted again. None when there is no such board or the
        channel cannot be read (the batch is then posted as usual)."""
        row = batch.row
        if row.status not in ("active", "finished") or batch.state is None:
            return None
        active = row.status == "active"
        head = text.board_head(batch.title, batch.version) if active else text.final_head(batch.title)
        boards = [m for m in await self.store.messages(game.id) if m.kind in ("turn", "final")]
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
        if any(m.content.startswith(text.sheet_head(batch.title)) for m in mine):
            self._sheet_done[game.id] = batch.version
        board = next((m for m in mine if m.content.split("\n", 1)[0] == head), None)
        if board is None:
            return None
        if not active:  # the final sheet is recorded with its recap (see Recaps.follow)
            film_head = recap_head(batch.title)
            film = next((m for m in mine if m.id > board.id and m.content.startswith(film_head)), None)
            if film is not None:
                self.recaps.found[game.id] = film
            log.info("Game %s: the last run had posted its final sheet; not posting it again", game.id)
            return board
        if last is not None and board.id == last.message_id:
            await self.store.set_message_version(board.id, batch.version)
        else:
            await self.store.add_message(
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

    async def _post_turn(
        self,
        game: LiveGame,
        batch: Batch,
        channel: Any,
        plan: tuple[list[SeatRow], Prompt | None, dict[int, Prompt]],
    ) -> discord.Message | None:
        """The board of an active game: the spectator snapshot, this batch's lines, who must act
        (mentioned) and the controls of the board's prompt (see :func:`.controls.board_prompt`); private
        prompts are offered in DMs and under My hand. While the people it awaited answer and
        nothing was posted below it (one player going on with several steps; one of several
        repliers answering), the board is edited in place (new text, picture and version-stamped
        controls), which pings nobody again. Returns the message shown, or None if Discord
        refused it."""
        people, on_board, private = plan
        how: str | None = None
        if on_board is not None:
            how = controls.kind(on_board) if controls.fits(on_board, hand=True) else None
        elif private:
            how = "private"
        now_seats = frozenset(s.seat for s in people)
        movers = batch.movers
        prev, game.board = game.board, None
        turn = _Turn(batch.engine.view(batch.state, None), people, on_board, how, drawn.caption_of(batch))
        if (
            prev is not None
            and now_seats
            and movers is not None
            and movers <= prev.seats
            and now_seats <= prev.seats
            and await posting.is_latest(self.bot, prev)
        ):
            # the people awaited answer, nothing posted below the board: edit it in place (its
            # caption goes on with the turn's earlier moves)
            turn.lines = [*prev.caption, *turn.lines]
            turn.pngs = await drawn.board_pngs(self.bot, game, batch, turn.view, turn.lines)
            msg = await self._edit_turn(game, batch, prev, turn)
            if msg is not None:
                return msg
        else:
            turn.pngs = await drawn.board_pngs(self.bot, game, batch, turn.view, turn.lines)
        return await self._send_turn(game, batch, channel, turn, now_seats)

    async def _edit_turn(
        self, game: LiveGame, batch: Batch, prev: Posted, turn: _Turn
    ) -> discord.Message | None:
        """Edit the board ``prev`` in place to show ``batch`` (its earlier lines kept); the
        message, or None if Discord refused the edit."""
        content = text.turn(
            batch,
            turn.headline,
            turn.people,
            batch.row.deadline,
            turn.how,
            earlier=prev.lines,
            extra=turn.extra,
        )
        if not prev.pictures:
            content = text.clip(f"{content}\n{text.NO_FILES}")
        msg = await self._edit(
            prev,
            content,
            posting.files_of(turn.pngs, turn.filename(game, batch)) if prev.pictures else [],
            controls.view(game.id, batch.version, turn.on_board),
        )
        if msg is not None:
            game.shown = turn.view
            await posting.note(game, self.store.set_message_version(msg.id, batch.version))
            game.board = Posted(
                prev.channel_id,
                msg.id,
                prev.seats,
                [*prev.lines, *text.turn_lines(batch)][-50:],
                prev.pictures,
                turn.lines[-50:],
            )
        return msg

    async def _send_turn(
        self, game: LiveGame, batch: Batch, channel: Any, turn: _Turn, now_seats: frozenset[int]
    ) -> discord.Message | None:
        """Post ``batch``'s board as a new message and record it (the board edited in place
        later while ``now_seats`` answer); the message, or None if Discord refused it."""
        content = text.turn(batch, turn.headline, turn.people, batch.row.deadline, turn.how, extra=turn.extra)
        msg = await posting.send(
            channel,
            content,
            files=posting.files_of(turn.pngs, turn.filename(game, batch)) or None,
            view=controls.view(game.id, batch.version, turn.on_board),
            nonce=posting.nonce(game.id, batch.version, "b"),
        )
        if msg is not None:
            game.shown = turn.view
            await posting.note(
                game,
                self.store.add_message(
                    game.id,
                    kind="turn",
                    channel_id=msg.channel.id,
                    message_id=msg.id,
                    version=batch.version,
                    live=True,
                ),
            )
            if now_seats:
                game.board = Posted(
                    msg.channel.id,
                    msg.id,
                    now_seats,
                    text.turn_lines(batch)[-50:],
                    pictures=not turn.pngs or bool(msg.attachments),
                    caption=turn.lines[-50:],
                )
        return msg

    async def _post_interim(self, game: LiveGame, batch: Batch, channel: Any) -> bool:
        """Post the sheet the renderer offers for this batch's public events (a Ra epoch's
        scoring), above the new board; nothing if the renderer has none. Returns False when a
        sheet was due but Discord refused it (the batch is then posted again later, sheet first);
        a renderer failure is logged and the board goes on without its sheet."""
        done = self._sheet_done.get(game.id, -1)  # a batch put back after its sheet was posted
        events = base.events_for((e for st in batch.steps if st.version > done for e in st.events), None)
        view = batch.engine.view(batch.state, None)
        try:
            found = await drawn.job(
                self.bot, drawing.interim_sheet, batch.engine.name, view, list(events), list(batch.names)
            )
            if found is None:
                return True
            caption, png = found
        except Exception:
            log.exception("Rendering the interim sheet failed for game %s", game.id)
            return True
        game.board = None  # the board goes below the sheet, as a new message
        if await posting.send(
            channel,
            f"{text.sheet_head(batch.title)}{caption}",
            nonce=posting.nonce(game.id, batch.version, "s"),
            file=drawn.file_of(png, f"{batch.engine.name}-{game.id}-{batch.version}-sheet.png"),
        ):
            self._sheet_done[game.id] = batch.version
            return True
        return False

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
        for m in await self.store.messages(game.id, kind="lobby"):
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
                await self.store.retire_messages([m.id])

    async def retire(
        self,
        game_id: int,
        keep: int | None = None,
        *,
        kinds: Sequence[str] = ("turn",),
        seat: int | None = None,
        seats: Sequence[int] | None = None,
    ) -> None:
        """Remove the controls of every live message of the game of ``kinds`` (boards; DMs) —
        of ``seat``'s, or of ``seats``', only, when given — except ``keep``."""
        among = set(seats) if seats is not None else None
        old = [
            m
            for kind in kinds
            for m in await self.store.messages(game_id, kind=kind, live=True)
            if m.message_id != keep
            and (seat is None or m.seat == seat)
            and (among is None or m.seat in among)
        ]
        for m in old:
            msg = self.bot.get_partial_messageable(m.channel_id).get_partial_message(m.message_id)
            try:
                await msg.edit(view=None)
            except SEND_ERRORS as err:
                log.info("Clearing buttons of message %s (game %s) failed: %s", m.message_id, game_id, err)
        await self.store.retire_messages(m.id for m in old)

    async def archive(self, game_id: int, thread_id: int) -> None:
        """Archive the game's thread (logged if not allowed)."""
        try:
            await self.bot.http.edit_channel(thread_id, archived=True)
        except SEND_ERRORS as err:
            log.warning("Archiving thread %s of game %s failed: %s", thread_id, game_id, err)


@dataclasses.dataclass
class _Turn:
    """What a turn's board shows: the public ``view``, the ``people`` awaited, the prompt
    ``on_board`` and ``how`` it is answered, the caption ``lines`` and the pictures drawn."""

    view: Mapping[str, Any]
    people: list[SeatRow]
    on_board: Prompt | None
    how: str | None
    lines: list[caption.Line]
    pngs: list[bytes] | None = None

    @property
    def headline(self) -> str:
        return str(self.view.get("headline") or "")

    @property
    def extra(self) -> list[str]:
        return controls.groups_text(self.on_board)

    @staticmethod
    def filename(game: LiveGame, batch: Batch) -> str:
        return f"{batch.engine.name}-{game.id}-{batch.version}.png"
