"""Posting to Discord: turn snapshots, the final score sheet, private DMs, lobby updates, clearing
old buttons and archiving the game's thread.

Only views reach a renderer or a message: the channel gets ``view(state, None)``, a DM or an
ephemeral reply gets ``view(state, seat)`` of its recipient. Rendering and PNG encoding run in the
bot's worker pool (``bot.workers``: other processes, see :mod:`bot.host.drawing`), never on the
event loop. Publishing a game takes everything it has pending under the game's publish lock,
so posts come out in order and a burst of moves is coalesced into one up-to-date post.

A finished game's animated recap (seconds of drawing) is not part of that: the final score
sheet is posted at once, and the recap follows as a message of its own once the workers'
long-job lane has drawn it (:meth:`Publisher._post_recap`).
"""

from __future__ import annotations

import asyncio
import contextvars
import io
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
from ..host.workers import WorkersClosed
from . import components, controls, text
from .context import bazaar
from .dms import SEND_ERRORS, PrivateViews, _file
from .postclaims import WON, PostClaiming
from .retry import PostRetry

log = logging.getLogger(__name__)
PINGS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)
_REFUSED_FOR_GOOD: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "bazaar_refused_for_good", default=False
)
"""Set by :meth:`Publisher._send` when Discord refused a post for good (4xx: the channel is gone,
access or a permission is missing), read by :meth:`Publisher.publish`: such a post is not retried."""


def nonce(game_id: int, version: int, kind: str) -> str:
    """The nonce of a game's post of ``kind`` at ``version`` (≤ 25 characters): sent with
    ``enforce_nonce``, so a post retried after Discord made it but the answer was lost (a broken
    connection, a timeout, a 5xx after the work) returns that message instead of a second one."""
    return f"bz{game_id}.{version}{kind}"[-25:]


def recap_head(title: str) -> str:
    """The text of a finished game's recap message (posted below its final score sheet)."""
    return f"🎞️ **{title}** — the whole game, turn by turn"


def caption_of(batch: Batch) -> list[caption.Line]:
    """The caption strip of ``batch``'s board, from the engine's events of its moves: each
    player's action, then what the game did by itself (see :func:`render.caption.lines_of`)."""
    return caption.lines_of(((step.seat, step.events) for step in batch.steps), batch.names)


def _files(pngs: Sequence[bytes] | None, filename: str) -> list[discord.File]:
    """Fresh uploads of a board's pictures: ``filename``, then ``-2`` before its suffix for the
    second picture (one message carries both)."""
    stem, dot, ext = filename.rpartition(".")
    names = [filename] + [f"{stem}-{i}{dot}{ext}" for i in range(2, len(pngs or []) + 1)]
    return [discord.File(io.BytesIO(p), filename=n) for p, n in zip(pngs or [], names, strict=False)]


class Publisher(PrivateViews):
    """Turns a game's pending steps into Discord messages."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.retry = PostRetry(self)
        self.claims = PostClaiming(self)
        self._sheet_done: dict[int, int] = {}  # game id -> version whose interim sheet is posted
        self._recaps: dict[int, asyncio.Task[None]] = {}  # game id -> its recap being drawn and posted
        self._recap_found: dict[int, discord.Message] = {}  # game id -> its recap found by landed()

    @property
    def service(self) -> GameService:
        return bazaar(self.bot).service

    @property
    def store(self) -> Store:
        return bazaar(self.bot).store

    async def job(self, fn: Any, *args: Any) -> Any:
        """``fn(*args)`` (a job of :mod:`bot.host.drawing`) in the bot's worker pool."""
        return await bazaar(self.bot).workers.run(fn, *args)

    # ------------------------------------------------------------------ rendering

    async def png(
        self, game_id: int, kind: str, what: str, view: Mapping[str, Any], names: Sequence[str]
    ) -> bytes | None:
        """``render.<kind>.<what>(view, names)`` as PNG bytes, rendered off the event loop; None
        (logged with the game id) if the renderer fails."""
        try:
            png: bytes | None = await self.job(drawing.picture, kind, what, view, list(names))
            return png
        except Exception:
            log.exception("Rendering %s failed for game %s", what, game_id)
            return None

    async def board_pngs(
        self, game: LiveGame, batch: Batch, view: Mapping[str, Any], lines: caption.Caption | None = None
    ) -> list[bytes] | None:
        """The posted board of ``batch`` as PNG, then the game's second picture where it has one
        (:func:`render.board_images`): the public ``view`` with the caption strip of ``lines``
        (by default the batch's moves, :func:`caption_of`) on top, and what changed since the
        board posted before it (``game.shown``, this run's last public view; None after a
        restart) marked. Rendered off the event loop; None (logged) if the renderer fails."""
        if lines is None:
            lines = caption_of(batch)
        previous = game.shown  # set to this view once the board is posted (see _post_turn)
        try:
            pngs: list[bytes] = await self.job(
                drawing.boards, batch.engine.name, view, list(batch.names), list(lines), previous
            )
            return pngs
        except Exception:
            log.exception("Rendering the board failed for game %s", game.id)
            return None

    async def image(
        self, game_id: int, kind: str, what: str, view: Mapping[str, Any], names: Sequence[str], filename: str
    ) -> discord.File | None:
        """:meth:`png` as a ``discord.File`` called ``filename``, or None."""
        return _file(await self.png(game_id, kind, what, view, names), filename)

    async def view_text(self, game_id: int, kind: str, view: Mapping[str, Any], names: Sequence[str]) -> str:
        """``render.<kind>.text(view, names)``; "" (logged) if it fails."""
        try:
            found: str = await self.job(drawing.view_text, kind, view, list(names))
            return found
        except Exception:
            log.exception("Rendering text failed for game %s", game_id)
            return ""

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
            _REFUSED_FOR_GOOD.set(False)
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
            if _REFUSED_FOR_GOOD.get():
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
        row, engine = batch.row, batch.engine
        channel = self.place(row)
        posted: discord.Message | None = None
        # who must act and with which controls: asked of the engine once, for the board and the DMs
        plan = self.board_prompt(batch) if row.status == "active" and batch.state is not None else None
        if batch.state is None:  # ended before it started, or a game needing attention
            if batch.notes:
                posted = await self._send(
                    channel,
                    text.ended(batch) if batch.closed else "\n".join(batch.fmt(n) for n in batch.notes),
                )
        elif row.status == "finished" and landed is not None:
            game.board, posted = None, landed
            self._follow_with_recap(game, batch, landed)
        elif row.status == "finished":
            game.board = None
            view = engine.view(batch.state, None)
            file = await self.image(
                game.id, engine.name, "score_sheet", view, batch.names, f"{engine.name}-{game.id}-final.png"
            )
            posted = await self._send(
                channel,
                text.final(batch, engine.outcome(batch.state)),
                file=file,
                nonce=nonce(game.id, batch.version, "f"),
            )
            if posted:  # recorded once its recap is posted too (see _follow_with_recap)
                self._follow_with_recap(game, batch, posted)
        elif row.status == "ended":
            posted = await self._send(channel, text.ended(batch))
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
        if not active:  # the final sheet is recorded with its recap (see _follow_with_recap)
            film_head = recap_head(batch.title)
            film = next((m for m in mine if m.id > board.id and m.content.startswith(film_head)), None)
            if film is not None:
                self._recap_found[game.id] = film
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

    def board_prompt(self, batch: Batch) -> tuple[list[SeatRow], Prompt | None, dict[int, Prompt]]:
        """Who must act (the people awaited), the prompt shown under the board, and the prompts
        offered only privately (seat -> prompt: in the seat's DM and its My hand answer).

        A prompt goes under the board when it is public and it is the only one: one person
        awaited, or several whose public prompts are the same (everyone may click; each click
        is checked for the clicker's own seat). Any other prompt is private to its seat."""
        engine, state = batch.engine, batch.state
        awaited = [batch.seats[s] for s in engine.to_move(state)]
        people = [s for s in awaited if not s.is_ai and not s.ai_takeover and s.user_id is not None]
        prompts = {s.seat: engine.prompt(state, s.seat) for s in people}
        shared = {(p.controls, p.text) for p in prompts.values()}
        on_board: Prompt | None = None
        if prompts and len(shared) == 1 and all(p.public for p in prompts.values()):
            on_board = next(iter(prompts.values()))
        private = {s: p for s, p in prompts.items() if on_board is None and p.controls}
        return people, on_board, private

    async def _post_turn(
        self,
        game: LiveGame,
        batch: Batch,
        channel: Any,
        plan: tuple[list[SeatRow], Prompt | None, dict[int, Prompt]],
    ) -> discord.Message | None:
        """The board of an active game: the spectator snapshot, this batch's lines, who must act
        (mentioned) and the controls of the board's prompt (see :meth:`board_prompt`); private
        prompts are offered in DMs and under My hand. While the people it awaited answer and
        nothing was posted below it (one player going on with several steps; one of several
        repliers answering), the board is edited in place (new text, picture and version-stamped
        controls), which pings nobody again. Returns the message shown, or None if Discord
        refused it."""
        engine, state = batch.engine, batch.state
        view = engine.view(state, None)
        people, on_board, private = plan
        how: str | None = None
        if on_board is not None:
            how = controls.kind(on_board) if controls.fits(on_board, hand=True) else None
        elif private:
            how = "private"
        name = f"{engine.name}-{game.id}-{batch.version}.png"
        headline = str(view.get("headline") or "")
        now_seats = frozenset(s.seat for s in people)
        movers = batch.movers
        prev, game.board = game.board, None
        extra = controls.groups_text(on_board)
        lines = caption_of(batch)
        if (
            prev is not None
            and now_seats
            and movers is not None
            and movers <= prev.seats
            and now_seats <= prev.seats
            and await self._is_latest(prev)
        ):
            # the people awaited answer, nothing posted below the board: edit it in place (its
            # caption goes on with the turn's earlier moves)
            lines = [*prev.caption, *lines]
            pngs = await self.board_pngs(game, batch, view, lines)
            content = text.turn(
                batch, headline, people, batch.row.deadline, how, earlier=prev.lines, extra=extra
            )
            if not prev.pictures:
                content = text.clip(f"{content}\n{text.NO_FILES}")
            msg = await self._edit(
                prev,
                content,
                _files(pngs, name) if prev.pictures else [],
                controls.view(game.id, batch.version, on_board),
            )
            if msg is not None:
                game.shown = view
                await self._note(game, self.store.set_message_version(msg.id, batch.version))
                game.board = Posted(
                    prev.channel_id,
                    msg.id,
                    prev.seats,
                    [*prev.lines, *text.turn_lines(batch)][-50:],
                    prev.pictures,
                    lines[-50:],
                )
                return msg
        else:
            pngs = await self.board_pngs(game, batch, view, lines)
        content = text.turn(batch, headline, people, batch.row.deadline, how, extra=extra)
        msg = await self._send(
            channel,
            content,
            files=_files(pngs, name) or None,
            view=controls.view(game.id, batch.version, on_board),
            nonce=nonce(game.id, batch.version, "b"),
        )
        if msg is not None:
            game.shown = view
            await self._note(
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
                    pictures=not pngs or bool(msg.attachments),
                    caption=lines[-50:],
                )
        return msg

    def _follow_with_recap(self, game: LiveGame, batch: Batch, final: discord.Message) -> None:
        """Post the recap of a finished game below its final sheet ``final`` (just posted, or
        found on Discord after a restart), in a task of its own: the final post and the
        answer to the last move never wait for it. One such task per game at a time."""
        running = self._recaps.get(game.id)
        if running is not None and not running.done():
            return
        task = asyncio.create_task(self._post_recap(game, batch, final), name=f"bazaar-recap-{game.id}")
        self._recaps[game.id] = task

        def forget(done: asyncio.Task[None], gid: int = game.id) -> None:
            if self._recaps.get(gid) is done:
                del self._recaps[gid]

        task.add_done_callback(forget)

    async def stop_recaps(self) -> None:
        """Cancel the recaps still being drawn or posted (the bot is stopping) and wait for them
        to end: each game's final sheet is then still unrecorded, so the next run finds it on
        Discord (:meth:`landed`) and draws and posts the recap."""
        tasks = [t for t in self._recaps.values() if not t.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def recaps_pending(self, game_id: int | None = None) -> bool:
        """Whether a recap (of ``game_id``, or of any game) is still being drawn or posted."""
        tasks = [self._recaps.get(game_id)] if game_id is not None else list(self._recaps.values())
        return any(t is not None and not t.done() for t in tasks)

    async def _post_recap(self, game: LiveGame, batch: Batch, final: discord.Message) -> None:
        """Draw the recap in the workers' long-job lane and post it as its own message below the
        final sheet (nonce ``r``: posted once though an answer is lost), then record both, then
        archive the game's thread. Until then the store shows the game's final sheet as not
        posted, so a run that stops in between is followed by one that finds the sheet on
        Discord (:meth:`landed`: not posted again) and posts the recap. A post Discord refuses
        for a while (5xx, a broken connection) is tried again after the pauses of board posts
        (``retry.delays``, the last repeated) until it lands or the bot stops. A recap that
        cannot be built, or that Discord refuses for good (4xx: the channel is gone, a
        permission is missing), is logged and left out: the game is finished and its sheet
        stands."""
        try:
            async with game.publish_lock:  # after the final post, before anything newer of the game
                film = self._recap_found.pop(game.id, None)
                if film is None and not await self.claims.recap(game, batch):
                    return  # another process draws and posts it (or has)
                if film is None:
                    gif = await self.recap(game.id, batch)
                    if self.bot.is_closed():
                        await self.claims.recap_released(game, batch)
                        return  # stopping: the next run posts it
                    if gif is not None:
                        film = await self._send_recap(game, batch, gif)
                        if film is None and self.bot.is_closed():
                            await self.claims.recap_released(game, batch)
                            return
                for kind, msg in (("recap", film), ("final", final)):
                    if msg is not None:
                        write = self.store.add_message(
                            game.id,
                            kind=kind,
                            channel_id=msg.channel.id,
                            message_id=msg.id,
                            version=batch.version,
                        )
                        await self._note(game, write)
                await self.claims.recap_done(game, batch)
                if batch.closed and batch.row.thread_id:
                    await self.archive(game.id, batch.row.thread_id)
        except WorkersClosed:
            log.info("Game %s: the bot stopped before its recap was drawn; the next run draws it", game.id)
            await self.claims.recap_released(game, batch)
        except asyncio.CancelledError:  # the bot is stopping: the next run (or another process) posts it
            await self.claims.recap_released(game, batch)
            raise
        except Exception:
            if self.bot.is_closed():
                log.info("Game %s: the bot stopped while posting the recap; the next run posts it", game.id)
            else:
                log.exception("Game %s: posting the recap failed", game.id)

    async def _send_recap(self, game: LiveGame, batch: Batch, gif: bytes) -> discord.Message | None:
        """Post the recap ``gif`` (nonce ``r``: once, though an answer is lost), trying again
        after ``retry.delays`` while Discord refuses it for a while; None once Discord refused
        it for good (or the bot is stopping)."""
        attempt = 0
        name = f"{batch.engine.name}-{game.id}-recap.gif"
        while True:
            _REFUSED_FOR_GOOD.set(False)
            film = await self._send(
                self.place(batch.row),
                recap_head(batch.title),
                file=_file(gif, name),
                nonce=nonce(game.id, batch.version, "r"),
            )
            if film is not None or _REFUSED_FOR_GOOD.get() or self.bot.is_closed():
                if film is None:
                    log.warning(
                        "Game %s: Discord refused its recap for good; the sheet stands alone", game.id
                    )
                return film
            delays = self.retry.delays
            delay = delays[min(attempt, len(delays) - 1)]
            attempt += 1
            log.warning(
                "Game %s: the recap is not posted; trying again in %.0f s (attempt %d)",
                game.id,
                delay,
                attempt,
            )
            await asyncio.sleep(delay)

    async def recap(self, game_id: int, batch: Batch) -> bytes | None:
        """The animated recap of a finished game (``render.recap``: one public board per turn,
        under Discord's attachment limit), rebuilt from the stored move log by replaying it in
        the workers' long-job lane (never the board pool: boards of other games do not wait
        behind it), so it is the same after a restart; None (logged) if that fails. Raises
        :class:`WorkersClosed` when the bot stops before it is drawn."""
        row, engine = batch.row, batch.engine
        try:
            moves = [(m.seat, m.action) for m in await self.store.moves(game_id)]
            data = await bazaar(self.bot).workers.run_long(
                drawing.recap, engine.name, row.seed, len(batch.seats), row.options, moves, list(batch.names)
            )
        except WorkersClosed:
            raise
        except Exception as err:
            if self.bot.is_closed():  # the store or the pool went away under it: the next run draws it
                raise WorkersClosed(f"the bot stopped while the recap was drawn ({err!r})") from err
            log.exception("Building the recap failed for game %s", game_id)
            return None
        return data

    async def _post_interim(self, game: LiveGame, batch: Batch, channel: Any) -> bool:
        """Post the sheet the renderer offers for this batch's public events (a Ra epoch's
        scoring), above the new board; nothing if the renderer has none. Returns False when a
        sheet was due but Discord refused it (the batch is then posted again later, sheet first);
        a renderer failure is logged and the board goes on without its sheet."""
        done = self._sheet_done.get(game.id, -1)  # a batch put back after its sheet was posted
        events = base.events_for((e for st in batch.steps if st.version > done for e in st.events), None)
        view = batch.engine.view(batch.state, None)
        try:
            found = await self.job(
                drawing.interim_sheet, batch.engine.name, view, list(events), list(batch.names)
            )
            if found is None:
                return True
            caption, png = found
        except Exception:
            log.exception("Rendering the interim sheet failed for game %s", game.id)
            return True
        game.board = None  # the board goes below the sheet, as a new message
        if await self._send(
            channel,
            f"{text.sheet_head(batch.title)}{caption}",
            nonce=nonce(game.id, batch.version, "s"),
            file=_file(png, f"{batch.engine.name}-{game.id}-{batch.version}-sheet.png"),
        ):
            self._sheet_done[game.id] = batch.version
            return True
        return False

    async def _is_latest(self, posted: Posted) -> bool:
        """Whether ``posted`` is still the newest message of its channel (nobody wrote below it);
        False when that cannot be read."""
        try:
            data = await self.bot.http.get_channel(posted.channel_id)
        except SEND_ERRORS as err:
            log.info("Reading channel %s failed: %s", posted.channel_id, err)
            return False
        return str(data.get("last_message_id") or "") == str(posted.message_id)

    async def _edit(
        self,
        posted: Posted,
        content: str,
        file: discord.File | list[discord.File] | None,
        view: discord.ui.View | None = None,
        *,
        mentions: discord.AllowedMentions = PINGS,
    ) -> discord.Message | None:
        """Replace ``posted``'s text, pictures (``file``: one, several or none; every picture
        it had is replaced) and components (when ``view`` is given: an empty view clears them);
        returns the edited message, or None (logged) if Discord refuses."""
        msg = self.bot.get_partial_messageable(posted.channel_id).get_partial_message(posted.message_id)
        files = file if isinstance(file, list) else [file] if file else []
        kwargs: dict[str, Any] = {"attachments": files}
        if view is not None:
            kwargs["view"] = view
        try:
            return await msg.edit(content=content, allowed_mentions=mentions, **kwargs)
        except SEND_ERRORS as err:
            log.info("Editing message %s failed: %r", posted.message_id, err)
            return None

    async def _send(self, channel: Any, content: str, **kwargs: Any) -> discord.Message | None:
        """Post ``content`` (with ``file``/``view`` when given); returns the message, or None
        (logged) when Discord refuses. Without Attach Files the picture is left out and the
        message says so (and how to see it) instead of the whole post being lost."""
        kwargs = {k: v for k, v in kwargs.items() if v is not None}
        try:
            sent: discord.Message = await channel.send(content, allowed_mentions=PINGS, **kwargs)
            return sent
        except discord.Forbidden as err:
            if not ("file" in kwargs or "files" in kwargs) or err.code != 50013:
                log.error("Posting to channel %s failed: %s %s", channel.id, err.status, err.text)
                _REFUSED_FOR_GOOD.set(True)
                return None
            log.warning("No Attach Files in channel %s: posting the board without its picture", channel.id)
            kwargs.pop("file", None)
            kwargs.pop("files", None)
            return await self._send(channel, text.clip(f"{content}\n{text.NO_FILES}"), **kwargs)
        except discord.HTTPException as err:
            log.error("Posting to channel %s failed: %s %s", channel.id, err.status, err.text)
            if 400 <= err.status < 500 and err.status != 429:
                _REFUSED_FOR_GOOD.set(True)  # a deleted channel, missing access: retrying cannot help
            return None
        except SEND_ERRORS as err:
            log.error("Posting to channel %s failed: %r", channel.id, err)
            return None

    async def _note(self, game: LiveGame, write: Any) -> None:
        """Record a post (``write``, the store call) that Discord already made; if the database
        refuses, log it and go on (the post stands, the DMs and the rest still go out; a restart
        finds the post in the channel: see :meth:`landed`)."""
        try:
            await write
        except StoreUnavailable as err:
            log.warning("Game %s: a post could not be recorded: %s", game.id, err)

    async def notice(self, game: LiveGame, content: str) -> discord.Message | None:
        """Post a plain message where the game is played."""
        return await self._send(self.place(game.row), content)

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
