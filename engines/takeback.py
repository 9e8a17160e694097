"""Taking moves back (undo) in the move log, which stays append-only: an undo is one more entry,
its text ``undo <version>`` (the version of the move taken back, played by the entry's seat), and
it returns the game to the state just before that move, taking back every move after it too.

:func:`in_play` reads which moves of a log still count, :func:`rebuild` replays them,
:func:`take_back` checks that each move to take back revealed nothing (:meth:`Engine.reveals`)
and gives the state and the event of the undo; :func:`engines.play.replay_steps` replays undo
entries with them, so everything that rebuilds a game from its log understands undo.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engines.errors import IllegalAction
from engines.events import Event, public_event

if TYPE_CHECKING:
    from engines.engine import GameEngine

    Engine = GameEngine[Any, Any]

UNDO = "undo"
"""The verb of an undo entry; no game's grammar reads it (``tests/test_undo_rules.py``)."""

Kept = tuple[int, int, str]
"""A move in play: its version in the log, its seat and its canonical text."""


def undo_text(version: int) -> str:
    """The log text of an undo taking back the move of ``version``."""
    return f"{UNDO} {version}"


def undo_target(text: str) -> int | None:
    """The version an undo entry takes back (``"undo 7"`` -> 7), or None for a game's move."""
    verb, _, rest = text.partition(" ")
    return int(rest) if verb == UNDO and rest.isdigit() else None


def in_play(moves: Iterable[tuple[int, str]]) -> list[Kept]:
    """The moves of a log (``(seat, text)`` in version order, from version 1) that still count:
    every move not taken back by a later undo entry, in order."""
    kept: list[Kept] = []
    for version, (seat, text) in enumerate(moves, 1):
        target = undo_target(text)
        if target is None:
            kept.append((version, seat, text))
        else:
            del kept[_at(kept, target) :]
    return kept


def _at(kept: Sequence[Kept], target: int) -> int:
    for i, (version, _, _) in enumerate(kept):
        if version == target:
            return i
    raise IllegalAction(f"There is no move {target} in play to take back (see /log for the move numbers).")


def rebuild(
    engine: Engine, seed: int, n_players: int, options: Mapping[str, Any] | None, kept: Iterable[Kept]
) -> Any:
    """The state after the moves ``kept``, replayed from the setup."""
    state = engine.setup(seed, n_players, options)
    for _, seat, text in kept:
        state = engine.step(state, seat, text)
    return state


def undone(
    engine: Engine,
    seed: int,
    n_players: int,
    options: Mapping[str, Any] | None,
    kept: list[Kept],
    seat: int,
    target: int,
) -> tuple[Any, Event]:
    """Replay an undo entry of ``seat`` taking back ``target``: ``kept`` (the moves in play) loses
    that move and those after it; returns the state before it and the undo's event."""
    at = _at(kept, target)
    gone = kept[at:]
    del kept[at:]
    state = rebuild(engine, seed, n_players, options, kept)
    return state, undo_event(engine, state, seat, gone)


def take_back(
    engine: Engine,
    seed: int,
    n_players: int,
    options: Mapping[str, Any] | None,
    moves: Sequence[tuple[int, str]],
    seat: int,
    target: int,
) -> tuple[Any, Event, str]:
    """What a new undo entry of ``seat`` taking back move ``target`` of the log ``moves`` does:
    the state it returns to, its event and its log text. Raises :class:`IllegalAction` when that
    move is not in play, or it or a move after it revealed something (the engine's words)."""
    kept = in_play(moves)
    at = _at(kept, target)
    before = state = rebuild(engine, seed, n_players, options, kept[:at])
    for _, mover, text in kept[at:]:
        said = engine.reveals(state, mover, text)
        if said:
            shown = "{s%d}'s move" % mover if engine.private_action(state, mover, text) else f"'{text}'"
            raise IllegalAction(f"{shown} cannot be taken back: {said}")
        state = engine.step(state, mover, text)
    return before, undo_event(engine, before, seat, kept[at:]), undo_text(target)


def undo_event(engine: Engine, before: Any, seat: int, gone: Sequence[Kept]) -> Event:
    """The public event of ``seat`` taking back ``gone`` (the first move from ``before``, the
    state before it, and the moves after it): "{s0} took back 'bid 13'." A move whose text the
    engine calls private is named only as a move. Its data's ``what`` names what was taken back
    ("'bid 13' and the move after it")."""
    version, mover, text = gone[0]
    what = "their move" if engine.private_action(before, mover, text) else f"'{text}'"
    if mover != seat:
        what = "{s%d}'s move" % mover if what == "their move" else "{s%d}'s %s" % (mover, what)
    if len(gone) > 1:
        what += " and the move after it" if len(gone) == 2 else f" and the {len(gone) - 1} moves after it"
    line = "{s%d} took back %s" % (seat, what)
    if any(m != seat for _, m, _ in gone):
        line += ", as everyone agreed"
    data = {"seat": seat, "version": version, "moves": len(gone), "what": what}
    return public_event("undo", line + ".", data)
