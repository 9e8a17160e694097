"""``undo`` in a terminal game (``bazaar play``): the person takes back their own last move, as
on Discord (:mod:`bot.host.undoing`), while no other seat has played since and the engine says it
revealed nothing; the saved log gains an ``undo <version>`` entry (:mod:`engines.takeback`)."""

from __future__ import annotations

from typing import Any, Protocol

from engines import base, takeback

from .movelog import MoveLog


class Taking(Protocol):
    """What a terminal session offers ``undo``."""

    engine: base.Engine
    log: MoveLog
    human: int
    state: Any

    def say(self, text: str = "") -> None: ...
    def record(self, seat: int, action: str, events: list[base.Event]) -> None: ...


def undo(session: Taking) -> bool:
    """Take back the person's last move; True when done (the game goes on from before it),
    False after saying why not."""
    log, seat = session.log, session.human
    kept = takeback.in_play(log.moves)
    mine = [k for k in kept if k[1] == seat]
    if not mine:
        session.say("✗ You have no move to take back.")
        return False
    if kept[-1][1] != seat:
        session.say("✗ {s%d} has played since your move, so it stays." % kept[-1][1])
        return False
    options = session.engine.resolve_options(log.options)
    try:
        state, event, text = takeback.take_back(
            session.engine, log.seed, log.players, options, log.moves, seat, mine[-1][0]
        )
    except base.RuleError as err:
        session.say("✗ " + err.reason)
        return False
    session.state = state
    session.record(seat, text, [event])
    return True
