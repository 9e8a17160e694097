"""In-memory pieces of the game host: a live game, the steps applied to it, the batch handed to
the publisher, and the private part of a view.

Nothing here talks to Discord or the database.
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from engines import base
from engines.base import Engine, Event

from .names import shown_all
from .store import GameRow, SeatRow, digest


class Refusal(Exception):
    """A request the host turns down (not a rules error): ``reason`` is for the player and may
    carry ``{s0}`` seat tokens."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Step:
    """One applied move (or the setup, with ``seat``/``action`` None and ``by`` = "setup")."""

    version: int
    seat: int | None
    action: str | None
    by: str
    events: tuple[Event, ...]


class Named:
    """What a game's row, seats and engine name: its id, the seats' names and its title."""

    row: GameRow
    seats: list[SeatRow]
    engine: Engine

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def names(self) -> list[str]:
        """Seat display names in seat order (the values ``{s0}``… stand for), as typed: for
        pictures and the terminal."""
        return [s.name for s in self.seats]

    @property
    def text_names(self) -> list[str]:
        """The seat names as Discord text (:func:`bot.host.names.shown`: no markup, no ping)."""
        return shown_all(self.names)

    @property
    def title(self) -> str:
        """ "Pralaya #12"."""
        return f"{self.engine.title or self.engine.name} #{self.row.id}"


@dataclass(frozen=True)
class Listing(Named):
    """An open game as ``/game list`` and the game-number autocomplete show it: its row, seats
    and engine, read from the store without replaying the game (a server's open games are
    listed without loading each one)."""

    row: GameRow
    seats: list[SeatRow]
    engine: Engine


@dataclass
class Posted:
    """A message the publisher may still edit in place: the latest board while the people it
    awaits (``seats``) answer, or a seat's DM of their current turn (``seats`` = that seat).
    ``lines`` are the event lines it shows (kept so an edit adds to them)."""

    channel_id: int
    message_id: int
    seats: frozenset[int]
    lines: list[str]
    pictures: bool = True  # False when Discord refused its picture (no Attach Files there)
    caption: list[Any] = field(default_factory=list)  # its caption's lines (render.caption.Line)


HISTORY = 50
"""How many of its last moves a held game keeps for ``/log``."""

Entry = tuple[int, int, str, str, list[str]]
"""One move as ``/log`` shows it: (version, seat, action or "" if it names a hidden thing, by,
the texts of its public events)."""


@dataclass
class LiveGame(Named):
    """A game as the host holds it: its row and seats (mirroring the store), the engine, the
    current state (None in a lobby or when it needs attention), and the steps not yet published."""

    row: GameRow
    seats: list[SeatRow]
    engine: Engine
    state: Any = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    publish_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    start_lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one Start at a time (thread + deal)
    pending: list[Step] = field(default_factory=list)  # steps of the operation running, not yet sealed
    notes: list[str] = field(default_factory=list)
    outboxes: deque[Any] = field(default_factory=deque)  # sealed outboxes not yet shown (bot.host.outbox)
    sealed: deque[Step] = field(default_factory=lambda: deque(maxlen=HISTORY))  # the last steps sealed
    started: bool = False  # the start is still to be published
    closed: bool = False  # the end (finished or ended) is still to be published
    relist: bool = False  # the lobby's seats changed: its message is still to be refreshed
    board: Posted | None = None  # the latest board, while the one person it awaits goes on
    dms: dict[int, Posted] = field(default_factory=dict)  # seat -> its DM of its current turn
    ai_at: float | None = None  # when AI seats awaited beside people may answer (their grace ends)
    thinking: int = 0  # AI searches running for this game (its lock is free meanwhile)
    shown: Mapping[str, Any] | None = None  # the public view of the last board posted by this run
    recent: deque[Entry] | None = None  # the last HISTORY moves for /log (None: not known, replay)
    undoable: tuple[int, int, str] | None = None  # (version, seat, move) its player may take back now
    rated: bool = True  # counts on the ratings' tables (/game new rated:false: not)

    def seat_of(self, user_id: int) -> SeatRow | None:
        """The seat held by ``user_id`` (also a resigned one), or None."""
        for s in self.seats:
            if s.user_id == user_id:
                return s
        return None

    def humans(self) -> list[SeatRow]:
        """Seats still played by a person (not AI, not resigned)."""
        return [s for s in self.seats if not s.is_ai and s.user_id is not None]

    def awaited(self) -> tuple[int, ...]:
        """Seats the engine awaits now (empty in a lobby, after the end, or without a state)."""
        if self.state is None or self.row.status != "active":
            return ()
        return tuple(self.engine.to_move(self.state))

    def ai_plays(self, seat: int) -> bool:
        """Whether the AI plays ``seat`` now (an AI seat, or one handed to the AI)."""
        s = self.seats[seat]
        return s.is_ai or s.ai_takeover

    def fmt(self, text: str) -> str:
        """``text`` with ``{s0}``… replaced by seat names, as Discord text (:attr:`text_names`)."""
        return base.format_text(text, self.text_names)


@dataclass(frozen=True)
class Batch:
    """Everything the publisher needs for one post, taken atomically from a :class:`LiveGame`."""

    game_id: int
    engine: Engine
    row: GameRow
    seats: tuple[SeatRow, ...]
    state: Any
    steps: tuple[Step, ...]
    notes: tuple[str, ...]
    started: bool
    closed: bool
    relist: bool = False  # the lobby's seats changed (a join, a leave, an AI added)

    def then(self, newer: Batch) -> Batch:
        """This batch followed by ``newer`` (of the same game) as one: both batches' steps and
        notes in order, the start or end of either, and ``newer``'s state, row and seats (the
        game as it stands after both)."""
        return Batch(
            newer.game_id,
            newer.engine,
            newer.row,
            newer.seats,
            newer.state,
            self.steps + newer.steps,
            self.notes + newer.notes,
            self.started or newer.started,
            self.closed or newer.closed,
            self.relist or newer.relist,
        )

    @property
    def names(self) -> list[str]:
        """Seat names as typed (pictures)."""
        return [s.name for s in self.seats]

    @property
    def text_names(self) -> list[str]:
        """Seat names as Discord text (no markup, no ping)."""
        return shown_all(self.names)

    @property
    def version(self) -> int:
        return self.row.version

    @property
    def title(self) -> str:
        return f"{self.engine.title or self.engine.name} #{self.row.id}"

    def fmt(self, text: str) -> str:
        """``text`` with ``{s0}``… replaced by seat names, as Discord text."""
        return base.format_text(text, self.text_names)

    @property
    def solo(self) -> int | None:
        """The seat that played every step of this batch as a person (its own moves, nothing
        else happened: no setup, AI, clock or note), or None."""
        seats = self.movers
        return next(iter(seats)) if seats is not None and len(seats) == 1 else None

    @property
    def movers(self) -> frozenset[int] | None:
        """The seats whose own moves as people are all this batch holds (no setup, AI, clock or
        note), or None when anything else happened."""
        if not self.steps or self.notes or self.started or any(st.by != "player" for st in self.steps):
            return None
        return frozenset(st.seat for st in self.steps if st.seat is not None)

    def private_lines(self, seat: int) -> list[str]:
        """The texts of this batch's events that only some seats see, ``seat`` among them."""
        return [
            self.fmt(e.text) for st in self.steps for e in st.events if not e.public and e.visible_to(seat)
        ]

    # What the surface shows of the batch's state, asked of the engine here (the surface never
    # calls the engine): the public view once per batch, a seat's own view, who is awaited, the
    # result, and the prompts (see :mod:`bot.host.awaiting`).

    @cached_property
    def public_view(self) -> base.View:
        """What a spectator sees of the state (``view(state, None)``), computed once."""
        view: base.View = self.engine.view(self.state, None)
        return view

    def seat_view(self, seat: int) -> base.View:
        """What ``seat`` sees of the state (``view(state, seat)``): only for that seat's eyes."""
        view: base.View = self.engine.view(self.state, seat)
        return view

    @property
    def awaited_seats(self) -> frozenset[int]:
        """The seats the rules await now (none once the game is not active)."""
        if self.state is None or self.row.status != "active":
            return frozenset()
        return frozenset(self.engine.to_move(self.state))

    @property
    def result(self) -> base.Outcome | None:
        """The outcome of a finished game (None while it runs)."""
        return self.engine.outcome(self.state) if self.state is not None else None


PROMPT_KEYS = frozenset({"viewer", "to_move", "headline", "legal", "legal_actions", "prompt", "actions"})
"""View keys (at any depth) left out of the private digest: they change with every turn (whose turn,
what to do now), not with what only this seat knows."""


def _strip(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k not in PROMPT_KEYS}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


def private_part(own: Any, public: Any) -> Any:
    """The parts of ``own`` (a seat's view) that differ from ``public`` (the spectator view):
    dicts are compared key by key, equal-length lists item by item; anything else is kept whole
    when it differs. Returns None when nothing differs."""
    if isinstance(own, dict) and isinstance(public, dict):
        out = {}
        for k, v in own.items():
            d = private_part(v, public.get(k)) if k in public else v
            if d is not None:
                out[k] = d
        return out or None
    if isinstance(own, list) and isinstance(public, list) and len(own) == len(public):
        items = [private_part(a, b) for a, b in zip(own, public, strict=True)]
        return items if any(i is not None for i in items) else None
    return None if own == public else own


def private_digest(engine: Engine, state: Any, seat: int) -> str:
    """A digest of what ``seat`` alone sees now (see :func:`private_part`); a DM is due when it
    changes."""
    own = _strip(engine.view(state, seat))
    public = _strip(engine.view(state, None))
    return digest(json.dumps(private_part(own, public), sort_keys=True, default=str))
