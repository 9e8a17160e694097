"""Every rejection a player can cause, each with a default reason a player can read.

Reasons are sentences that may hold ``{s0}``, ``{s1}``… seat tokens (see
:func:`engines.events.format_text`). Raise an error without a reason to give its default one, or
with a reason that says more (which card, which rule).
"""

from __future__ import annotations

from typing import ClassVar


class RuleError(Exception):
    """Base of every rejection a player can cause. ``str(err)`` is a sentence a player can read."""

    default_reason: ClassVar[str] = "That is not allowed."

    def __init__(self, reason: str | None = None) -> None:
        text = reason if reason else self.default_reason
        super().__init__(text)
        self.reason = text


class BadNotation(RuleError):
    """The text does not parse as any action of this game."""

    default_reason = "That is not a move of this game."


InvalidAction = BadNotation  # the name some older code uses


class NotYourTurn(RuleError):
    """The seat is not among those the engine awaits."""

    default_reason = "It is not your turn."


class IllegalAction(RuleError):
    """Well-formed, but not allowed now; ``reason`` says why."""

    default_reason = "That move is not allowed now."


class GameOver(RuleError):
    """The game has ended; no more actions are accepted."""

    default_reason = "This game is over; no more moves are accepted."


class StaleState(RuleError):
    """The action was chosen on an older version of the game (e.g. a button on an old board)."""

    default_reason = "That board is out of date: the game has moved on since. Use the latest message."


class BadOption(RuleError):
    """A game option is unknown or out of range, or the player count is not supported."""

    default_reason = "That option is not available for this game."
