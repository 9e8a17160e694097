"""Hints and reviews for the players of a game (:mod:`engines.coaching` does the thinking).

A **hint** is the hard AI's move for the asking seat, from that seat's own view
(``engine.view(state, seat)``) and legal moves: nothing else leaves the game. At most one a seat
a turn, a turn being the seat's steps since another seat last moved (the store remembers it:
``Store.take_hint``, by the version the turn began at); none in a game created with hints off
(``/game new hints:off``) nor in a rated game (:func:`rated`). A **review** is, for one seat of a
finished game, the three moves that lost the most by the hard AI's estimate, computed from that
seat's views of its own decisions and stored, so asking again is instant.

Both run in the workers' long-job lane (``Workers.run_long``: one process at a lowered priority),
never on the event loop.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import engines
from engines import base, coaching, search

from . import ratings
from .core import Core
from .live import LiveGame, Refusal
from .store import Store
from .store_ratings import UNRATED
from .workers import Workers

REVIEW_SECONDS = 1.0
"""The most one decision of a review may be searched (a long game has a hundred of them)."""


def rated(game: LiveGame) -> bool:
    """Whether ``game`` counts on a ratings table as its seats stand (opened rated, people on the
    people's ladder or against the AI; not a guided game, not a seat left to the AI): the one
    place hints ask."""
    return game.rated and ratings.ladder_of(game.seats, unrated=False) != UNRATED


async def hints_refusal(store: Store, game: LiveGame) -> str | None:
    """Why ``game`` gives no hints (rated, or created with hints off), or None when it does."""
    if rated(game):
        return f"{game.title} is rated: no hints in a rated game."
    if not await store.hints_on(game.id):
        return f"{game.title} was created with `hints:off`: no hints in it."
    return None


async def hint_left(store: Store, game: LiveGame, seat: int) -> bool:
    """Whether ``seat`` may still ask a hint in its turn under way: the game gives hints and the
    seat has not had this turn's (so its controls show the Hint button)."""
    if await hints_refusal(store, game) is not None:
        return False
    return not await store.hint_taken(game.id, seat, await turn_start(store, game.id, seat))


def hint_job(game: str, view: dict[str, Any], legal: list[str], seed: int) -> coaching.Hint:
    """The long-job lane's part of a hint: the hard AI's move from the seat's ``view``."""
    engines.load_all()
    return coaching.hint(base.get(game), view, legal, seed)


async def hint(store: Store, workers: Workers, game: LiveGame, user_id: int, version: int) -> str:
    """The hint line for ``user_id`` in ``game``, asked from controls of ``version``. Raises
    :class:`Refusal` (not a player, not their turn, hints off, the hint of this turn taken)."""
    seat = game.seat_of(user_id)
    if seat is None or seat.is_ai:
        raise Refusal(f"Only the players of {game.title} get hints there.")
    if game.row.status != "active" or game.state is None:
        raise Refusal(f"{game.title} is not being played: no hints.")
    why = await hints_refusal(store, game)
    if why is not None:
        raise Refusal(why)
    now = game.row.version
    if version != now:
        raise Refusal("That hint button belongs to an earlier turn: ask from your current controls.")
    if seat.seat not in game.awaited():
        raise Refusal("It is not your turn: a hint is for a move of yours.")
    view = dict(game.engine.view(game.state, seat.seat))
    legal = list(game.engine.legal_actions(game.state, seat.seat))
    began = await turn_start(store, game.id, seat.seat)
    if not await store.take_hint(game.id, seat.seat, began):
        raise Refusal("You have had your hint for this turn (one a turn).")
    try:
        found: coaching.Hint = await workers.run_long(
            hint_job, game.engine.name, view, legal, search.ai_seed(game.row.seed, now, seat.seat)
        )
    except BaseException:
        await store.give_back_hint(game.id, seat.seat, began)  # not given: the seat may ask again
        raise
    return found.line()


async def turn_start(store: Store, game_id: int, seat: int) -> int:
    """The version at which ``seat``'s turn began: the move after the last one another seat
    played (0: the game's start). A turn of several steps by one seat is one turn."""
    last = 32
    while True:
        moves = await store.moves(game_id, last=last)
        for m in reversed(moves):
            if m.seat != seat:
                return m.version
        if len(moves) < last:
            return 0
        last *= 4


@dataclass(frozen=True)
class Moment:
    """One moment of a stored review (the view is not stored: :func:`views_at` replays it)."""

    version: int
    played: str
    suggested: str
    played_worth: float
    suggested_worth: float

    def line(self) -> str:
        loss = self.suggested_worth - self.played_worth
        return (
            f"**Move {self.version + 1}**: you played `{self.played}` ({self.played_worth:.0%}); "
            f"the hard AI suggests `{self.suggested}` ({self.suggested_worth:.0%}): "
            f"{loss * 100:.0f} points of win chance."
        )


def review_job(
    game: str,
    seed: int,
    players: int,
    options: Mapping[str, Any],
    moves: list[tuple[int, str]],
    seat: int,
    seconds: float = REVIEW_SECONDS,
) -> list[Moment]:
    """The long-job lane's part of a review: ``seat``'s decisions (its views and legal moves,
    replayed from the log) and the moments :func:`engines.coaching.review` finds in them."""
    engines.load_all()
    engine = base.get(game)
    found = coaching.decisions(engine, seed, players, options, moves, seat)
    return [
        Moment(m.version, m.played, m.suggested, m.played_worth, m.suggested_worth)
        for m in coaching.review(engine, found, seed, seconds=seconds)
    ]


def views_at(
    game: str,
    seed: int,
    players: int,
    options: Mapping[str, Any],
    moves: list[tuple[int, str]],
    seat: int,
    versions: Sequence[int],
) -> list[dict[str, Any]]:
    """``seat``'s view before the move at each of ``versions`` (a replay of the log)."""
    engines.load_all()
    engine = base.get(game)
    at = {d.version: d.view for d in coaching.decisions(engine, seed, players, options, moves, seat)}
    return [dict(at[v]) for v in versions]


@dataclass(frozen=True)
class Review:
    """A seat's review: its moments, each with the seat's view of that moment, and whether it was
    read from the store."""

    seat: int
    moments: list[Moment]
    views: list[dict[str, Any]]
    stored: bool


async def review(store: Store, workers: Workers, game: LiveGame, user_id: int) -> Review:
    """``user_id``'s review of the finished ``game``: read from the store, else computed in the
    long-job lane and stored. Raises :class:`Refusal` (not a player, not finished)."""
    seat = game.seat_of(user_id)
    if seat is None:
        raise Refusal(f"Only the players of {game.title} can review it.")
    if game.row.status != "finished":
        raise Refusal(f"{game.title} is not finished: a review is of a finished game.")
    row = game.row
    moves = [(m.seat, m.action) for m in await store.moves(game.id)]
    body = await store.review(game.id, seat.seat)
    stored = body is not None
    if body is None:
        found: list[Moment] = await workers.run_long(
            review_job, game.engine.name, row.seed, len(game.seats), dict(row.options), moves, seat.seat
        )
        await store.save_review(game.id, seat.seat, json.dumps([asdict(m) for m in found]))
        body = await store.review(game.id, seat.seat)  # the one stored, if another process was first
        assert body is not None
    moments = [Moment(**m) for m in json.loads(body)]
    views: list[dict[str, Any]] = await workers.run(
        views_at,
        game.engine.name,
        row.seed,
        len(game.seats),
        dict(row.options),
        moves,
        seat.seat,
        [m.version for m in moments],
    )
    return Review(seat.seat, moments, views, stored)


class Coaching:
    """The service's part for hints and reviews: the functions above on the host's store and
    worker lanes, so the surface never holds the store."""

    def __init__(self, core: Core) -> None:
        self.core = core

    async def hints_refusal(self, game: LiveGame) -> str | None:
        """Why ``game`` gives no hints, or None (see :func:`hints_refusal`)."""
        return await hints_refusal(self.core.store, game)

    async def hint_left(self, game: LiveGame, seat: int) -> bool:
        """Whether ``seat``'s controls get a Hint button (see :func:`hint_left`)."""
        return await hint_left(self.core.store, game, seat)

    async def set_hints(self, game_id: int, on: bool) -> None:
        """Record whether the game gives hints (``/game new hints:``)."""
        await self.core.store.set_hints(game_id, on)

    async def hint(self, game: LiveGame, user_id: int, version: int) -> str:
        """The hint line for ``user_id`` (see :func:`hint`)."""
        return await hint(self.core.store, self.core.workers, game, user_id, version)

    async def review(self, game: LiveGame, user_id: int) -> Review:
        """The review of ``user_id``'s moves in the finished ``game`` (see :func:`review`)."""
        return await review(self.core.store, self.core.workers, game, user_id)
