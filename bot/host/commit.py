"""Writing one applied move: one transaction (the game's version checked inside it), then the
live game brought up to date without reading the database again. A write whose answer was lost
is recognised when the move is found stored (then it counts as played), and a version conflict
(another writer got in first) drops the game from memory so it reloads on next use."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Mapping
from typing import Any

from engines import base

from . import replay
from .live import LiveGame, Step
from .store import SeatRow, Store, StoreError, StoreUnavailable, VersionConflict

log = logging.getLogger(__name__)

Unsure = dict[int, tuple[int, int, str]]
"""Game id -> ``(version, seat, action)`` of a write that failed in a way that may have committed."""


async def commit(
    store: Store,
    game: LiveGame,
    seat: int,
    played: base.Played,
    *,
    now: Callable[[], float],
    unsure: Unsure,
    games: dict[int, LiveGame],
    by: str,
    user_id: int | None = None,
    seat_updates: Mapping[int, Mapping[str, Any]] | None = None,
) -> None:
    """Write one applied move (one transaction) and update the live game. The live game is
    changed only once the transaction has committed, and without reading the database again:
    a write that fails (:class:`StoreUnavailable`) leaves both the database and the game as
    they were."""
    over = game.engine.outcome(played.state) is not None
    deadline = None if over else now() + game.row.clock_seconds
    try:
        version = await store.record_move(
            game.id,
            expected_version=game.row.version,
            seat=seat,
            action=played.action,
            by=by,
            user_id=user_id,
            state_json=base.state_fingerprint(played.state),
            status="finished" if over else "active",
            deadline=deadline,
            seat_updates=seat_updates,
        )
    except (VersionConflict, StoreUnavailable) as err:
        version = await _committed_anyway(store, game, seat, played.action, err, unsure, games)
    before, game.state = game.state, played.state
    if game.recent is not None:
        game.recent.append(replay.entry(game.engine, version, seat, played, by, before))
    game.row = dataclasses.replace(
        game.row,
        version=version,
        deadline=deadline,
        reminded=False,
        status="finished" if over else "active",
        updated_at=now(),
    )
    if seat_updates:
        game.seats = updated_seats(game.seats, seat_updates)
    game.pending.append(Step(version, seat, played.action, by, tuple(played.events)))
    if over:
        game.closed = True


async def _committed_anyway(
    store: Store,
    game: LiveGame,
    seat: int,
    action: str,
    err: StoreError,
    unsure: Unsure,
    games: dict[int, LiveGame],
) -> int:
    """After a move's write failed (``err``): its version if this very write committed after
    all, so it is reported as played: the database failed after the commit (its answer was
    lost) and the move is found stored; or, after such a failure that could not be checked
    then, the same seat sends the same move again and finds it stored. Otherwise a version
    conflict (another move, or another request for the same move, got in first: one of two
    applies, as in one process) raises ``StaleState`` with the game dropped from memory
    (reloaded on next use), and a failing database raises ``err`` again."""
    version = game.row.version + 1
    try:
        stored = await store.move_at(game.id, version)
    except StoreError:
        if isinstance(err, StoreUnavailable):  # it may have committed: its retry will tell
            unsure[game.id] = (version, seat, action)
        raise err from None
    ours = isinstance(err, StoreUnavailable) or unsure.get(game.id) == (version, seat, action)
    if stored == (seat, action) and ours:
        unsure.pop(game.id, None)
        log.info(
            "Game %s: move %s was stored though its write reported %s; it counts as played",
            game.id,
            version,
            type(err).__name__,
        )
        return version
    if isinstance(err, VersionConflict):  # another writer (process) got in first: reload on next use
        games.pop(game.id, None)
        raise base.StaleState("The game moved on meanwhile: look at the latest board and try again.")
    raise err


def updated_seats(seats: list[SeatRow], updates: Mapping[int, Mapping[str, Any]]) -> list[SeatRow]:
    """``seats`` with the column values ``updates`` (seat -> fields) applied, as just stored."""
    return [dataclasses.replace(s, **updates[s.seat]) if updates.get(s.seat) else s for s in seats]
