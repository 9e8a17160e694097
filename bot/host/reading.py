"""What a held game shows and takes, read from it alone (no store, no lock): whether it takes a
move now, the caller's seat, the batch it has to publish, the seat the rules await, ``/move``
completions, a seat's prompt, the public view and the caller's private view.
:class:`~bot.host.service.GameService` offers each of these as a method of the same name."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any

from engines import base, prompt
from engines.base import RuleError

from .live import Batch, LiveGame, Refusal
from .store import SeatRow


def check_playable(game: LiveGame) -> None:
    """Raise why ``game`` takes no move now (a lobby, over, needing attention), if so."""
    if game.row.status == "lobby":
        raise Refusal(f"{game.title} has not started yet.")
    if game.row.status in ("finished", "ended"):
        raise base.GameOver(f"{game.title} is over; no more moves are accepted.")
    if game.row.attention or game.state is None:
        raise Refusal(
            f"{game.title} needs attention ({game.row.attention or 'it could not be loaded'}), "
            f"so moves are paused. The creator or a server manager can `/game end` it."
        )


def seat_for(game: LiveGame, user_id: int) -> SeatRow:
    """The caller's seat, which a person plays; raises :class:`Refusal` otherwise."""
    seat = game.seat_of(user_id)
    if seat is None:
        raise Refusal(f"You are not playing in {game.title}.")
    if seat.is_ai:
        raise Refusal(f"You resigned from {game.title}.")
    return seat


def take_batch(game: LiveGame) -> Batch | None:
    """Take (and clear) what the game's operations queued and no outbox sealed yet (see
    :func:`bot.host.outbox.seal`); None if nothing. Synchronous, so the state, version and
    steps it returns belong together."""
    if not unsealed(game):
        return None
    batch = Batch(
        game.id,
        game.engine,
        game.row,
        tuple(game.seats),
        game.state,
        tuple(game.pending),
        tuple(game.notes),
        game.started,
        game.closed,
        game.relist,
    )
    game.pending.clear()
    game.notes.clear()
    game.started = game.closed = game.relist = False
    return batch


def unsealed(game: LiveGame) -> bool:
    """Whether the game has steps, notes, a start, an end or a lobby change that no outbox
    holds yet."""
    return bool(game.pending or game.notes or game.started or game.closed or game.relist)


def has_pending(game: LiveGame) -> bool:
    """Whether the game has steps, notes, a start or an end still to publish (sealed in an
    outbox or not yet)."""
    return bool(game.outboxes) or unsealed(game)


def awaited_seat(game: LiveGame, user_id: int) -> int | None:
    """The caller's seat if the rules await it now (and a person plays it), else None."""
    seat = game.seat_of(user_id)
    if seat is None or seat.is_ai or game.state is None or game.row.status != "active":
        return None
    return seat.seat if seat.seat in game.awaited() else None


def complete_for(game: LiveGame, user_id: int, prefix: str) -> list[tuple[str, str]]:
    """``/move`` autocomplete for the caller: ``(value, label)`` pairs from the engine's
    :meth:`~engines.base.Engine.complete` (empty if the caller is not awaited)."""
    seat = awaited_seat(game, user_id)
    if seat is None:
        return []
    with contextlib.suppress(RuleError):  # a player's name typed for a seat code ("offer bil" -> "offer s1")
        prefix = game.engine.read_names(game.state, seat, prefix, game.names)
    return [(value, game.fmt(label)) for value, label in game.engine.complete(game.state, seat, prefix)]


def prompt_for(game: LiveGame, seat: int) -> prompt.Prompt | None:
    """What ``seat`` can do now as controls, or None when the rules do not await it."""
    if game.state is None or game.row.status != "active" or seat not in game.awaited():
        return None
    return game.engine.prompt(game.state, seat)


def public_view(game: LiveGame) -> Mapping[str, Any] | None:
    """What a spectator sees of ``game`` now (``view(state, None)``), or None without a state."""
    return game.engine.view(game.state, None) if game.state is not None else None


def private_view(game: LiveGame, user_id: int) -> tuple[int, Mapping[str, Any]]:
    """``(seat, view)`` of the caller's private view. Raises :class:`Refusal` if not seated
    or the game has no state."""
    seat = game.seat_of(user_id)
    if seat is None:
        raise Refusal(f"You are not playing in {game.title}, so you have no hand there.")
    if seat.is_ai:
        raise Refusal(f"You resigned from {game.title}: the AI plays that seat now, and its hand is its own.")
    if game.row.status == "lobby":
        raise Refusal(f"{game.title} has not started yet.")
    if game.state is None:
        raise Refusal(f"{game.title} needs attention ({game.row.attention}).")
    return seat.seat, game.engine.view(game.state, seat.seat)
