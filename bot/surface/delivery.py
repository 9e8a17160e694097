"""What one publish has shown so far, kept by the surface while it turns an
:class:`~bot.host.outbox.Outbox` into Discord calls, and reported to the host once at the end
(:meth:`bot.host.posts.Posts.delivered`). The surface writes no field of a live game."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ..host.live import Batch, Posted
from ..host.outbox import Delivered, Outbox, Plan
from .posting import Refused


@dataclass
class Delivery:
    """The board and DMs the next publish may edit in place, and the public view of the board
    shown, as this publish goes (starting from what its outbox replaces)."""

    box: Outbox
    board: Posted | None = None
    dms: dict[int, Posted] = field(default_factory=dict)
    shown: Mapping[str, Any] | None = None
    refused: Refused = field(default_factory=Refused)  # Discord refused a post of it for good

    @classmethod
    def of(cls, box: Outbox) -> Delivery:
        return cls(box, box.board, dict(box.dms), box.previous)

    @property
    def batch(self) -> Batch:
        return self.box.batch

    @property
    def plan(self) -> Plan:
        """Who must act and with which controls (nobody, none, unless the game is active)."""
        return self.box.prompts

    @property
    def previous(self) -> Mapping[str, Any] | None:
        """The public view of the last board this run posted before this publish (its changes
        are marked on the new board)."""
        return self.box.previous

    def forget(self) -> None:
        """Nothing posted before may be edited in place any more (another process posts below)."""
        self.board = None
        self.dms.clear()

    def results(self, *, again: bool = False) -> Delivered:
        return Delivered(self.board, MappingProxyType(dict(self.dms)), self.shown, again)
