"""The result of a finished game, and the numbered move list a host may show (:class:`Menu`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines.contract import Action


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game.

    ``ranks[s]``: 1 is best; tied seats share a rank. ``scores[s]``: the final total, or None for a
    seat that scores nothing (e.g. a Pralaya player who never escaped). ``breakdown[s]`` maps each
    of ``categories`` to points (None for seats that do not score). ``winners``: seats ranked 1.
    ``notes[s]``: a short extra line for the score sheet ("escaped via Dhoni 7").
    """

    ranks: tuple[int, ...]
    scores: tuple[int | None, ...]
    categories: tuple[str, ...]
    breakdown: tuple[Mapping[str, int] | None, ...]
    winners: tuple[int, ...]
    notes: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "ranks": list(self.ranks),
            "scores": list(self.scores),
            "categories": list(self.categories),
            "breakdown": [dict(b) if b is not None else None for b in self.breakdown],
            "winners": list(self.winners),
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class Menu:
    """What :meth:`Engine.menu` returns: ``moves``, ``(action, label)`` pairs to number in this
    order (each action legal; the label says what it does, ``{s0}`` tokens allowed);
    ``notes``, lines shown after them for the moves not listed (how to type them, with an
    example); ``total``, how many legal actions there are in all."""

    moves: tuple[tuple[Action, str], ...]
    notes: tuple[str, ...] = ()
    total: int = 0
