"""Playing and replaying: the one entry point that checks and applies a typed move (:func:`play`),
and the rebuilding of a game from its seed and move log (:func:`replay_steps`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engines.errors import GameOver, NotYourTurn, StaleState
from engines.errors import not_your_turn_reason as not_your_turn_reason
from engines.events import Event
from engines.takeback import Kept, undo_target, undone

if TYPE_CHECKING:
    from engines.engine import GameEngine
    from engines.values import Action

    Engine = GameEngine[Any, Any]


@dataclass(frozen=True)
class Played:
    """The result of :func:`play`: the new state, the events, and the canonical action applied."""

    state: Any
    events: list[Event]
    action: Action


def play(
    engine: Engine,
    state: Any,
    seat: int,
    text: str,
    *,
    version: int | None = None,
    expected_version: int | None = None,
) -> Played:
    """Parse ``text``, check game over and turn, apply, and return the result.

    Raises :class:`StaleState` if ``expected_version`` is given and differs from ``version``,
    :class:`GameOver`, :class:`BadNotation`, :class:`NotYourTurn`, or :class:`IllegalAction`.
    ``state`` is never changed (states are immutable values).
    """
    if expected_version is not None and version is not None and expected_version != version:
        raise StaleState()
    if engine.outcome(state) is not None:
        raise GameOver()
    action = engine.parse(text)
    awaited = engine.to_move(state)
    if seat not in awaited:
        raise NotYourTurn(not_your_turn_reason(awaited))
    new_state, events = engine.apply(state, seat, action)
    return Played(new_state, events, action)


def first_awaited(engine: Engine, state: Any) -> int:
    """The lowest seat awaited: the seat that answers first when every awaited seat is played by
    the AI (a replay of AI-only play is then the same everywhere). Raises ``GameOver`` when none."""
    awaited = engine.to_move(state)
    if not awaited:
        raise GameOver()
    return min(awaited)


def replay_steps(
    engine: Engine,
    seed: int,
    n_players: int,
    options: Mapping[str, Any] | None,
    moves: Iterable[tuple[int, str]],
) -> Iterator[tuple[Any, Played | None]]:
    """Set up, then apply every ``(seat, action)`` in order: yields ``(setup state, None)`` first,
    then ``(state after the move, what play returned)`` per move; an undo entry (``undo 7``,
    :mod:`engines.takeback`) gives the state before the move it takes back and its event. The
    one place a game is rebuilt from its seed and move log (the host's loading, its history
    and repair, ``bazaar replay``). Raises whatever :func:`play` raises at the first move that
    does not fit."""
    state = engine.setup(seed, n_players, options)
    yield state, None
    kept: list[Kept] = []  # the moves in play, for an undo entry (engines.takeback)
    for version, (seat, text) in enumerate(moves, 1):
        target = undo_target(text)
        if target is None:
            played = play(engine, state, seat, text)
            kept.append((version, seat, played.action))
        else:
            state, event = undone(engine, seed, n_players, options, kept, seat, target)
            played = Played(state, [event], text)
        state = played.state
        yield state, played


def replay(
    engine: Engine,
    seed: int,
    n_players: int,
    options: Mapping[str, Any] | None,
    moves: Iterable[tuple[int, str]],
) -> Any:
    """Set up and apply every ``(seat, action)`` in order; return the final state.

    Raises whatever :func:`play` raises if the log does not fit the rules."""
    final = None
    for state, _ in replay_steps(engine, seed, n_players, options, moves):
        final = state
    return final
