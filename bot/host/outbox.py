"""The outbox: what one host operation has to show, sealed by the host under the game's lock
when the operation ends, and what the Discord layer reports back once it has shown it.

Every operation that changes a game (a move or a click's pick, a lobby action, a take-back, a
clock expiry, an AI step, a restart's recovery) ends with :func:`seal`: what it queued on the game
becomes a frozen :class:`Outbox` (the batch of steps to show: its state, rows and seats, its
notes; and who the rules await then, with which controls: the board's prompt and the private
ones, asked of the engine here, see :mod:`.awaiting`), put on the game's queue of outboxes and
returned to the caller, which hands it to the publisher (and reads its own private lines from
it, not from whatever a concurrent publish took).

A publish takes the game's queued outboxes in order (:func:`take`, under the game's publish
lock): several sealed while an earlier post was going out are merged into one (a burst of moves
is one post showing every step, and the newest plan), and what it may replace is filled in then,
since only the delivery of the outboxes before it says which board and DMs are still editable:
the board this run may edit in place, each seat's DM of its turn, the public view of the last
board posted (changes since it are marked). Its :class:`Letter` s are the DMs due, each with its
seat, private lines, controls and the DM it replaces (:func:`mail`, decided here from the seats'
rows and views). The outbox and each letter carry their messages' words too
(:attr:`Outbox.words`, :attr:`Outbox.sheet`, :attr:`Outbox.recap`, :attr:`Letter.words`, made by
:mod:`.wording`): the surface fits them to Discord, puts the pieces' emojis in and says how to play
with the controls it draws. The surface turns it into Discord calls and hands back a
:class:`Delivered` through one call, :meth:`bot.host.posts.Posts.delivered`: the host alone
writes the game's fields (its board, DMs and last shown view) and puts an outbox that was not
shown back at the front of the game's queue.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from engines.prompt import Prompt

from . import awaiting, reading, wording
from .live import Batch, LiveGame, Posted, Step, private_digest
from .store import SeatRow

log = logging.getLogger(__name__)

Plan = tuple[list[SeatRow], Prompt | None, Mapping[int, Prompt]]
"""Who must act: the people awaited, the prompt under the board, the prompts offered privately
(seat -> prompt), see :func:`bot.host.awaiting.board_prompt`."""

NO_PLAN: Plan = ([], None, MappingProxyType({}))

TURN, FINAL, ENDED, NOTICE = "turn", "final", "ended", "notice"
"""What an outbox posts where the game is played (:attr:`Outbox.public`): the turn's board (an
interim score sheet above it when the renderer offers one), the final score sheet, the notice
that the game ended early, or notes alone (a game without a state)."""


@dataclass(frozen=True)
class Letter:
    """A DM due to ``seat`` (played by ``user_id``) in this publish: its private event
    ``lines``, the controls of the private ``prompt`` awaiting it (None: none), the DM of its
    turn it may edit in place (``replaces``; None: a new DM), whether that DM is remembered for
    the next edit (``keep``: the seat is still awaited), and the ``digest`` of the seat's
    private view, noted once it is sent; and the DM's ``words`` (:func:`.wording.dm`: the
    private lines of the DM it replaces, then its own)."""

    seat: int
    user_id: int
    lines: tuple[str, ...]
    prompt: Prompt | None
    replaces: Posted | None
    keep: bool
    digest: str
    words: wording.Words

    @property
    def shown_lines(self) -> list[str]:
        """The private lines its DM shows: those of the DM it replaces, then its own (the last
        50), kept with the DM for its next edit."""
        return _shown_lines(self.replaces, self.lines)


def _shown_lines(replaces: Posted | None, lines: Sequence[str]) -> list[str]:
    return [*(replaces.lines if replaces else []), *lines][-50:]


@dataclass(frozen=True)
class Outbox:
    """What an operation has to show, or one publish of a game (see the module docstring).
    ``plan`` is None when the game is not active with a state (nobody to await), or when the
    engine failed to say (the publish asks again). ``board``, ``dms``, ``previous``,
    ``letters`` and ``kept`` are filled in when a publish takes the outbox (:func:`take`,
    :func:`mail`); a sealed outbox has none. ``recover``: after a restart, what Discord already
    shows of the batch is kept rather than posted again. ``game`` is the game whose queue holds
    it (None: an empty outbox, queued nowhere); ``own`` are the steps of the operation that
    returned it and those after them, sealed in this outbox or an earlier one (a publish
    running while the operation's AI thought, the game's lock free, seals what it finds)."""

    batch: Batch
    plan: Plan | None
    board: Posted | None = None  # the board it may edit in place
    dms: Mapping[int, Posted] = field(default_factory=lambda: MappingProxyType({}))  # seat -> its turn's DM
    previous: Mapping[str, Any] | None = None  # the public view of the last board this run posted
    recover: bool = False
    letters: tuple[Letter, ...] = ()  # the DMs due (see mail), once the board or sheet is shown
    kept: Mapping[int, Posted] = field(default_factory=lambda: MappingProxyType({}))  # DMs of turns going on
    game: LiveGame | None = field(default=None, compare=False, repr=False)
    own: tuple[Step, ...] = field(default=(), compare=False, repr=False)

    @property
    def public(self) -> str | None:
        """What the channel gets (:data:`TURN`, :data:`FINAL`, :data:`ENDED`, :data:`NOTICE`),
        or None (nothing: a game without a state and no notes)."""
        batch = self.batch
        if batch.state is None:  # ended before it started, or a game needing attention
            return NOTICE if batch.notes else None
        status = batch.row.status
        return FINAL if status == "finished" else ENDED if status == "ended" else TURN

    @functools.cached_property
    def words(self) -> wording.Words | None:
        """The words of what the channel gets (:attr:`public`): the turn's board (who must act
        from the plan, the headline from the public view), the final sheet, the end notice or
        the notes; None when it gets nothing."""
        batch, public = self.batch, self.public
        if public == TURN:
            headline = str(batch.public_view.get("headline") or "")
            return wording.turn(batch, headline, self.prompts[0], batch.row.deadline)
        if public == FINAL:
            return wording.final(batch, batch.result)
        if public == ENDED or (public == NOTICE and batch.closed):
            return wording.ended(batch)
        return wording.notes(batch) if public == NOTICE else None

    @property
    def sheet(self) -> wording.Words:
        """The words of an interim score sheet above the turn's board, should the renderer
        offer one for the batch's events (decided in the workers, where it is drawn)."""
        return wording.sheet(self.batch)

    @property
    def recap(self) -> wording.Words:
        """The words of a finished game's recap, posted below its final sheet once drawn."""
        return wording.recap(self.batch)

    @property
    def dm_due(self) -> bool:
        """Whether the seats' DMs follow the board: the game runs or finished, with a state."""
        return self.batch.state is not None and self.batch.row.status in ("active", "finished")

    @property
    def game_id(self) -> int:
        return self.batch.game_id

    @property
    def active(self) -> bool:
        """Whether its game runs (active, with a state): somebody may be awaited."""
        return self.batch.row.status == "active" and self.batch.state is not None

    def then(self, newer: Outbox) -> Outbox:
        """This outbox followed by ``newer`` (sealed later, same game) as one: the batches in
        order (:meth:`bot.host.live.Batch.then`) and ``newer``'s plan."""
        return Outbox(batch=self.batch.then(newer.batch), plan=newer.plan, game=newer.game)

    @property
    def steps(self) -> tuple[Step, ...]:
        """The steps its operation played (see ``own``), else the batch's."""
        return self.own or self.batch.steps

    def private_lines(self, seat: int) -> list[str]:
        """What ``seat`` alone (with others who see it) learnt in its operation's steps."""
        return [
            self.batch.fmt(e.text)
            for st in self.steps
            for e in st.events
            if not e.public and e.visible_to(seat)
        ]

    def played(self, seat: int) -> str | None:
        """The last move ``seat`` played as a person in its operation's steps, as the engine
        wrote it (canonical), or None."""
        moves = [st.action for st in self.steps if st.by == "player" and st.seat == seat and st.action]
        return moves[-1] if moves else None

    @property
    def prompts(self) -> Plan:
        """:attr:`plan`, or nobody awaited and no controls."""
        return self.plan if self.plan is not None else NO_PLAN


@dataclass(frozen=True)
class Delivered:
    """What the surface made of an :class:`Outbox`: the board that may be edited next (None:
    the next board is a new message), each seat's DM that may be, the public view of the board
    now shown, and ``again``: the batch was not shown and is to be published again."""

    board: Posted | None
    dms: Mapping[int, Posted]
    shown: Mapping[str, Any] | None
    again: bool = False


def _plan(batch: Batch) -> Plan:
    people, on_board, private = awaiting.board_prompt(batch)
    return people, on_board, MappingProxyType(dict(private))


def seal(game: LiveGame) -> Outbox | None:
    """Seal what ``game``'s operation queued (steps, notes, a start or an end) as an outbox, put
    it on the game's queue of outboxes and return it (None if nothing was queued). Called by
    the host at the end of each operation, under the game's lock, so the batch and its plan
    belong together (and by a publish, with the lock free, for what no operation sealed). When
    the engine fails to say who must act, the outbox is sealed without a plan (logged): the
    publish asks again."""
    batch = reading.take_batch(game)
    if batch is None:
        return None
    plan: Plan | None = None
    if batch.row.status == "active" and batch.state is not None:
        try:
            plan = _plan(batch)
        except Exception:
            log.exception("Game %s: asking who must act at version %s failed", game.id, batch.version)
    box = Outbox(batch=batch, plan=plan, game=game)
    game.outboxes.append(box)
    game.sealed.extend(batch.steps)
    return box


def sealed(game: LiveGame, *, since: int | None = None) -> Outbox:
    """:func:`seal`, or, when the operation queued nothing, an empty outbox of the game as it
    stands (not queued: a publish of it shows nothing). With ``since`` (the game's version when
    the operation began), its ``own`` steps are every step sealed after that version, whoever
    sealed them (see :class:`Outbox`)."""
    box = seal(game)
    if box is None:
        row, state = game.row, game.state
        batch = Batch(game.id, game.engine, row, tuple(game.seats), state, (), (), False, False)
        box = Outbox(batch=batch, plan=None)
    if since is None:
        return box
    return dataclasses.replace(box, own=tuple(st for st in game.sealed if st.version > since))


def take(game: LiveGame, *, recover: bool = False) -> Outbox | None:
    """Take every outbox ``game`` has queued as one, with what it may replace filled in (None if
    nothing is queued): synchronous, so the batch, its plan and what it replaces belong
    together; the game's queue is cleared. What was queued outside an operation is sealed first
    (not while an operation holds the game's lock: it seals its own steps when it ends, and its
    caller gets them in its outbox). An outbox whose plan is missing asks the engine again; if
    that fails the queue is left as it was and the error raised."""
    free = not game.lock.locked()
    if free:
        seal(game)
    if not game.outboxes:
        return None
    boxes = list(game.outboxes)
    box = boxes[0]
    for newer in boxes[1:]:
        box = box.then(newer)
    batch, plan = _current(game, box.batch, free), box.plan
    if batch.state is not box.batch.state or _players(batch) != _players(box.batch):
        plan = None  # the game moved on without steps (another process's, read back): ask again
    if plan is None and batch.row.status == "active" and batch.state is not None:
        plan = _plan(batch)  # raises with the queue untouched: the batch stays queued
    game.outboxes.clear()
    return Outbox(
        batch=batch,
        plan=plan,
        board=game.board,
        dms=MappingProxyType(dict(game.dms)),
        previous=game.shown,
        recover=recover,
    )


def _current(game: LiveGame, batch: Batch, free: bool) -> Batch:
    """``batch`` as it is to be shown now. With the game's lock free, every step the game has
    is sealed, so the batch shows the game as it stands: its row (the newest deadline), state
    and seats (after a read back of what another process stored, its newer version, which the
    post claims then find posted). While an operation holds the lock, the batch keeps what was
    sealed, with the seats' DM records as they stand (a DM sent since is not sent again)."""
    if free:
        return dataclasses.replace(batch, row=game.row, state=game.state, seats=tuple(game.seats))
    now = {s.seat: s for s in game.seats}
    seats = tuple(
        dataclasses.replace(s, dm_hash=now[s.seat].dm_hash, dm_closed=now[s.seat].dm_closed)
        if s.seat in now
        else s
        for s in batch.seats
    )
    return dataclasses.replace(batch, seats=seats)


def _players(batch: Batch) -> list[tuple[int, int | None, bool, bool]]:
    """Who plays each seat (who is awaited as a person depends on it)."""
    return [(s.seat, s.user_id, s.is_ai, s.ai_takeover) for s in batch.seats]


def drain(game: LiveGame) -> Batch | None:
    """The batch of everything ``game`` has queued, taken as a publish would take it, with
    nothing shown (tests, and a game read back without a publish)."""
    box = take(game)
    return None if box is None else box.batch


def mail(box: Outbox, told: set[int | None]) -> Outbox:
    """``box`` with its DMs decided: each person gets one when their private view changed
    (everyone at the start), private events reached them, a private prompt awaits them, or the
    game finished (the final hand and rank); once a game ended, only the seats not ``told``
    already (their DMs of this version stored before a restart), and only with private events
    or at the finish. A seat's DM of its turn is replaced in place when only people acted (its
    own moves, or another replier's while it is still awaited); with nothing new it is kept for
    the next edit. Nobody is written to whose DMs are closed, nor an AI."""
    if not box.dm_due:
        return box
    batch = box.batch
    events_only = batch.row.status != "active"
    awaited, movers, private = batch.awaited_seats, batch.movers, box.prompts[2]
    letters: list[Letter] = []
    kept: dict[int, Posted] = {}
    for seat in batch.seats:
        s, mine = seat.seat, box.dms.get(seat.seat)
        turn_dm = mine if movers is not None and (s in movers or s in awaited) else None
        if seat.user_id is None or seat.is_ai or seat.dm_closed or s in told:
            continue
        lines = batch.private_lines(s)
        digest = private_digest(batch.engine, batch.state, s)
        final = batch.row.status == "finished"
        if lines or s in private or final or (not events_only and (batch.started or digest != seat.dm_hash)):
            outcome = batch.result if final else None
            words = wording.dm(batch, s, _shown_lines(turn_dm, lines), private.get(s), outcome)
            letters.append(
                Letter(s, seat.user_id, tuple(lines), private.get(s), turn_dm, s in awaited, digest, words)
            )
        elif turn_dm is not None:
            kept[s] = turn_dm  # nothing new to show; still this player's turn
    return dataclasses.replace(box, letters=tuple(letters), kept=MappingProxyType(kept))


def apply(game: LiveGame, box: Outbox, results: Delivered) -> None:
    """Write what was delivered onto ``game`` (see :class:`Delivered`)."""
    game.board = results.board
    game.dms.clear()
    game.dms.update(results.dms)
    game.shown = results.shown
    if results.again:  # in front of anything sealed since: the next publish shows both as one
        game.outboxes.appendleft(Outbox(batch=box.batch, plan=box.plan, game=game))
