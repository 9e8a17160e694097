"""Which moves a person is asked to confirm before they are played: those the engine's
:meth:`~engines.contract.HostSupport.irreversible` names (escaping on a Dhoni, bidding a last
sun, a Kathai bribe or first offer, ending a Phraya turn early), as the terminal asks.

A guided game (``/learn``) asks nothing: the guide itself suggests and explains each move, and
a question before the move it suggests would only stand between the learner and the lesson.

The host only reads here (nothing is changed); the Discord layer asks the question and, once
confirmed, plays the canonical action through :meth:`GameService.move` like any other.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.errors import RuleError

from .guides import guide_of
from .live import LiveGame
from .reading import awaited_seat


@dataclass(frozen=True)
class Question:
    """A move to confirm: its canonical ``action``, the engine's ``warning`` (player names put
    in) and the game ``version`` the question was asked at."""

    action: str
    warning: str
    version: int


def question(game: LiveGame, user_id: int, text: str) -> Question | None:
    """The confirmation ``text`` needs before it is played for ``user_id``, or None: when the
    caller is not awaited, the text is not a legal move (``move`` then refuses it with its
    reason), the engine names nothing irreversible about it, or the game is a guided one."""
    if guide_of(game) is not None:
        return None
    state, version = game.state, game.row.version  # read together: same state, same version
    seat = awaited_seat(game, user_id)
    if seat is None or state is None:
        return None
    engine = game.engine
    try:
        text = engine.read_names(state, seat, text, game.names)
        if engine.is_legal(state, seat, text) is not None:
            return None
        action = engine.parse(text)
    except RuleError:
        return None
    warning = engine.irreversible(state, seat, action)
    return Question(action, game.fmt(warning), version) if warning else None
