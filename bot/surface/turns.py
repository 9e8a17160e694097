"""A game's public messages, one per turn: the turn's board, an interim score sheet above it and
the final score sheet, each one :class:`~.layout.Shown` message in its channel's shape. A mixin
of :class:`~bot.surface.publish.Publisher`, which provides the bot, the host's post records, the recaps and
where the game is played.

In Components V2 (every channel, until Discord refuses V2 in one) a turn's message is a container
whose accent is the colour of the seat to act, with the caption and the mention as native text,
the board (and the game's second picture) in a media gallery drawn without its caption strip,
the controls and a footer line (game, move, clock). Where Discord answers a V2 post with 400 the
channel is remembered as classic (``service.posts.channel_shape``, for every process and restart) and
the message is posted at once in the classic shape (text, the board with its caption strip, rows
of controls). An edit in place that Discord refuses (new pictures in a V2 message,
discord-api-docs#7529; a message over an hour old, 30046) returns None: the publisher then posts
the turn anew and the older message loses its controls (``Publisher.retire``).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import discord
from discord.ext import commands

import render
from engines import base
from engines.prompt import Prompt
from render import caption

from ..host import drawing
from ..host.live import Batch, LiveGame, Posted
from ..host.posts import Posts
from ..host.service import GameService
from ..host.store import GameRow, SeatRow, StoreUnavailable
from ..host.wording import Words
from . import archive_views, coaching, controls, drawn, layout, posting, text, undoing
from .delivery import Delivery

log = logging.getLogger("bot.surface.publish")
KEPT = 2000  # V2 messages whose look is remembered (TurnPosts.noted)


class TurnPosts:
    """The boards and score sheets of a game (see the module docstring)."""

    bot: commands.Bot
    recaps: Any  # Publisher.recaps
    _sheet_done: dict[int, int]
    shapes: dict[int, str]  # channel id -> message shape, as read from or written to the store
    layouts: dict[int, layout.Shown]  # message id -> what a V2 message of this run shows (bare)
    edits_media: Any  # MediaMemory.edits_media
    media_edited: Any  # MediaMemory.media_edited

    @property
    def posts(self) -> Posts:
        raise NotImplementedError

    @property
    def service(self) -> GameService:
        raise NotImplementedError

    def place(self, row: GameRow) -> discord.PartialMessageable:
        raise NotImplementedError

    # ------------------------------------------------------------------ the channel's shape

    async def shape_of(self, channel_id: int) -> str:
        """The message shape of ``channel_id``: V2 unless Discord refused V2 there (the store
        remembers it; read once per run)."""
        if channel_id not in self.shapes:
            try:
                self.shapes[channel_id] = await self.posts.channel_shape(channel_id)
            except StoreUnavailable as err:
                log.warning("Reading the message shape of channel %s: %s", channel_id, err)
                return layout.V2
        return self.shapes[channel_id]

    async def v2_refused(self, channel_id: int) -> None:
        """Remember that ``channel_id`` refuses V2 (this run at once, the store for the next)."""
        self.shapes[channel_id] = layout.CLASSIC
        try:
            await self.posts.set_channel_shape(channel_id, layout.CLASSIC)
        except StoreUnavailable as err:
            log.warning("Noting channel %s as classic: %s", channel_id, err)

    def noted(self, msg: discord.Message | None, shown: layout.Shown) -> discord.Message | None:
        """Remember what the V2 message ``msg`` shows (:func:`~.layout.bare`), so its controls
        are taken away later without reading it first (the newest :data:`KEPT` are kept)."""
        if msg is None or not msg.flags.components_v2:
            return msg
        if len(msg.attachments) < len(shown.pngs):  # sent without its pictures: read it when due
            self.layouts.pop(msg.id, None)
        else:
            self.layouts[msg.id] = layout.bare(shown)
        while len(self.layouts) > KEPT:
            del self.layouts[next(iter(self.layouts))]
        return msg

    async def post_shown(
        self,
        row: GameRow,
        make: Callable[[str], Awaitable[layout.Shown]],
        nonce: str,
        refused: posting.Refused | None = None,
    ) -> discord.Message | None:
        """Post what ``make(shape)`` gives where ``row``'s game is played, in that place's shape;
        where Discord refuses V2 the place becomes classic and ``make(CLASSIC)`` is posted. A
        refusal for good is noted in ``refused``."""
        channel = self.place(row)
        shape = await self.shape_of(row.place_id)
        try:
            shown = await make(shape)
            return self.noted(await posting.send_shown(channel, shown, shape, nonce, refused=refused), shown)
        except posting.V2Refused:
            await self.v2_refused(row.place_id)
            classic = await make(layout.CLASSIC)
            return await posting.send_shown(channel, classic, layout.CLASSIC, nonce, refused=refused)

    # ------------------------------------------------------------------ score sheets

    async def _post_final(self, game: LiveGame, d: Delivery) -> discord.Message | None:
        """The final score sheet of a finished game, followed by its recap (see
        :class:`.recaps.Recaps`); None if Discord refused it."""
        batch = d.batch
        engine = batch.engine
        d.board = None
        view = batch.public_view
        png = await drawn.png(self.bot, game.id, engine.name, "score_sheet", view, batch.names)
        outcome = batch.result
        winner = outcome.winners[0] if outcome is not None and outcome.winners else None
        words = d.box.words
        assert words is not None  # a finished game's outbox has its final sheet's words
        shown = layout.Shown(
            text.message(words, engine.name, batch.text_names),
            footer=words.footer,
            accent=render.seat_colour(winner) if winner is not None else None,
            pngs=[png] if png is not None else [],
            filename=f"{engine.name}-{game.id}-final.png",
            controls=lambda: coaching.with_review(archive_views.final_view(game.id), game.id),
        )

        async def make(shape: str) -> layout.Shown:
            return shown

        posted = await self.post_shown(batch.row, make, posting.nonce(game.id, batch.version, "f"), d.refused)
        if posted:  # recorded once its recap is posted too (see Recaps.follow)
            self.recaps.follow(game, d.box, posted)
        return posted

    async def _post_interim(self, game: LiveGame, d: Delivery) -> bool:
        """Post the sheet the renderer offers for this batch's public events (a Ra epoch's
        scoring), above the new board; nothing if the renderer has none. Returns False when a
        sheet was due but Discord refused it (the batch is then posted again later, sheet first);
        a renderer failure is logged and the board goes on without its sheet."""
        batch = d.batch
        done = self._sheet_done.get(game.id, -1)  # a batch put back after its sheet was posted
        events = base.events_for((e for st in batch.steps if st.version > done for e in st.events), None)
        view = batch.public_view
        try:
            found = await drawn.job(
                self.bot, drawing.interim_sheet, batch.engine.name, view, list(events), list(batch.names)
            )
            if found is None:
                return True
            head, png = found
        except Exception:
            log.exception("Rendering the interim sheet failed for game %s", game.id)
            return True
        d.board = None  # the board goes below the sheet, as a new message
        words = d.box.sheet
        shown = layout.Shown(
            f"{''.join(words.head)}{head}",
            footer=words.footer,
            pngs=[png],
            filename=f"{batch.engine.name}-{game.id}-{batch.version}-sheet.png",
        )

        async def make(shape: str) -> layout.Shown:
            return shown

        if await self.post_shown(batch.row, make, posting.nonce(game.id, batch.version, "s"), d.refused):
            self._sheet_done[game.id] = batch.version
            return True
        return False

    # ------------------------------------------------------------------ a turn's board

    async def _post_turn(self, game: LiveGame, d: Delivery) -> discord.Message | None:
        """The board of an active game: the spectator snapshot, this batch's lines, who must act
        (mentioned) and the controls of the board's prompt (see :func:`bot.host.awaiting.board_prompt`);
        private prompts are offered in DMs and under My hand. While the people it awaited answer
        and nothing was posted below it (one player going on with several steps; one of several
        repliers answering), the board is edited in place (new text, picture and version-stamped
        controls), which pings nobody again; an edit Discord refuses posts the turn anew.
        Returns the message shown, or None if Discord refused it."""
        batch = d.batch
        people, on_board, private = d.plan
        how: str | None = None
        if on_board is not None:
            how = controls.kind(on_board) if controls.fits(on_board, hand=True) else None
        elif private:
            how = "private"
        now_seats = frozenset(s.seat for s in people)
        movers = batch.movers
        prev, d.board = d.board, None
        words = d.box.words
        assert words is not None  # an active game's outbox has its turn's words
        turn = _Turn(batch.public_view, people, on_board, how, drawn.caption_of(batch), words)
        # a Hint beside the moves the board offers (moves offered privately get it in DM / My hand),
        # while someone awaited has not had this turn's
        turn.hint = how in ("buttons", "menu") and await self._hint_left(game, now_seats)
        if (
            prev is not None
            and now_seats
            and movers is not None
            and movers <= prev.seats
            and now_seats <= prev.seats
            and await posting.is_latest(self.bot, prev)
            and await self.edits_media(prev.channel_id)  # not where V2 media edits are always refused
        ):
            # the people awaited answer, nothing posted below the board: edit it in place (its
            # caption goes on with the turn's earlier moves)
            turn.lines = [*prev.caption, *turn.lines]
            shape = await self.shape_of(prev.channel_id)
            turn.pngs = await self._board_pngs(game, d, turn, shape)
            msg = await self._edit_turn(game, d, prev, turn, shape)
            if msg is not None:
                return msg
        return await self._send_turn(game, d, turn, now_seats)

    async def _board_pngs(self, game: LiveGame, d: Delivery, turn: _Turn, shape: str) -> list[bytes] | None:
        """The turn's pictures for a message of ``shape`` (the caption strip only in the classic
        shape: V2 says it as text), what changed since the last board this run posted marked."""
        strip = shape == layout.CLASSIC
        return await drawn.board_pngs(
            self.bot, game.id, d.batch, turn.view, d.previous, turn.lines, with_strip=strip
        )

    async def _hint_left(self, game: LiveGame, seats: frozenset[int]) -> bool:
        """Whether one of the people awaited (``seats``) may still ask this turn's hint."""
        for seat in sorted(seats):
            if await self.service.coaching.hint_left(game, seat):
                return True
        return False

    async def _edit_turn(
        self, game: LiveGame, d: Delivery, prev: Posted, turn: _Turn, shape: str
    ) -> discord.Message | None:
        """Edit the board ``prev`` in place to show the batch (its earlier lines kept); the
        message, or None if Discord refused the edit."""
        batch, words = d.batch, turn.words
        content = text.turn(
            words, batch.engine.name, batch.text_names, turn.how, earlier=prev.lines, extra=turn.extra
        )
        if not prev.pictures:
            content = text.clip(f"{content}\n{text.NO_FILES}")
        shown = turn.shown(game, batch, content)
        msg = self.noted(
            await posting.edit_shown(
                self.bot, prev, shown, shape, pictures=prev.pictures, on_media=self.media_edited
            ),
            shown,
        )
        if msg is not None:
            d.shown = turn.view
            await posting.note(game, self.posts.restamp_posted(msg.id, batch.version))
            d.board = Posted(
                prev.channel_id,
                msg.id,
                prev.seats,
                [*prev.lines, *words.body][-50:],
                prev.pictures,
                turn.lines[-50:],
            )
        return msg

    async def _send_turn(
        self, game: LiveGame, d: Delivery, turn: _Turn, now_seats: frozenset[int]
    ) -> discord.Message | None:
        """Post the batch's board as a new message and record it (the board edited in place
        later while ``now_seats`` answer); the message, or None if Discord refused it."""
        batch, words = d.batch, turn.words
        content = text.turn(words, batch.engine.name, batch.text_names, turn.how, extra=turn.extra)
        # the shape the pictures are drawn for (already drawn for an edit Discord refused)
        drawn_as = [await self.shape_of(batch.row.place_id) if turn.pngs is not None else None]

        async def make(shape: str) -> layout.Shown:
            if drawn_as[0] != shape:
                turn.pngs = await self._board_pngs(game, d, turn, shape)
                drawn_as[0] = shape
            return turn.shown(game, batch, content)

        msg = await self.post_shown(batch.row, make, posting.nonce(game.id, batch.version, "b"), d.refused)
        if msg is not None:
            d.shown = turn.view
            await posting.note(
                game,
                self.posts.record_posted(
                    game.id,
                    kind="turn",
                    channel_id=msg.channel.id,
                    message_id=msg.id,
                    version=batch.version,
                    live=True,
                ),
            )
            if now_seats:
                d.board = Posted(
                    msg.channel.id,
                    msg.id,
                    now_seats,
                    list(words.body[-50:]),
                    pictures=not turn.pngs or bool(msg.attachments),
                    caption=turn.lines[-50:],
                )
        return msg


@dataclasses.dataclass
class _Turn:
    """What a turn's board shows: the public ``view``, the ``people`` awaited, the prompt
    ``on_board`` and ``how`` it is answered, the caption ``lines``, the host's ``words`` (the
    outbox's) and the pictures drawn."""

    view: Mapping[str, Any]
    people: list[SeatRow]
    on_board: Prompt | None
    how: str | None
    lines: list[caption.Line]
    words: Words
    pngs: list[bytes] | None = None
    hint: bool = False  # a Hint button beside My hand (a person is awaited, the game gives hints)

    @property
    def extra(self) -> list[str]:
        return controls.groups_text(self.on_board)

    def shown(self, game: LiveGame, batch: Batch, content: str) -> layout.Shown:
        """The message of this turn saying ``content``: accented with the first awaited seat's
        colour, its pictures and fresh version-stamped controls."""

        def made() -> discord.ui.View:
            return controls.view(game.id, batch.version, self.on_board)

        return layout.Shown(
            content,
            footer=self.words.footer,
            accent=render.seat_colour(self.people[0].seat) if self.people else None,
            pngs=self.pngs or [],
            filename=f"{batch.engine.name}-{game.id}-{batch.version}.png",
            controls=undoing.with_board_undo(
                coaching.with_hint(made, game.id, batch.version) if self.hint else made, game, batch.version
            ),
        )
