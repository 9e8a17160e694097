"""What happened in a game, as lines people read, and who may see each of them."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engines import fastcopy


@dataclass(frozen=True)
class Event:
    """Something that happened. ``text`` is one line a human reads ("Ann takes b4 (Gold Coin)").

    ``private_to`` is None for public events, else the seat (an ``int``) or the seats (a
    ``frozenset``) that may see it. ``twin`` is what everyone else sees of a private event
    instead (a public :class:`Event`, e.g. "Ann and Bob trade 2 cards" for "Ann gives Bob t3
    t7"), or None when the others see nothing of it.
    ``data`` is a small JSON-serialisable dict for renderers and tests (``{"seat": 0, ...}``).
    Seat numbers in ``text`` are written as ``{s0}``, ``{s1}``… so the host can put names in;
    :func:`format_text` does that. The same holds for the reasons of every :class:`RuleError`.
    """

    kind: str
    text: str
    data: Mapping[str, Any] = field(default_factory=dict)
    private_to: int | frozenset[int] | None = None
    twin: Event | None = None

    @property
    def public(self) -> bool:
        return self.private_to is None

    @property
    def audience(self) -> frozenset[int] | None:
        """The seats a private event is for (None for a public event)."""
        p = self.private_to
        if p is None:
            return None
        return p if isinstance(p, frozenset) else frozenset((p,))

    def visible_to(self, viewer: int | None) -> bool:
        """Whether ``viewer`` (a seat, or None for a spectator) may see this event itself."""
        p = self.private_to
        if p is None:
            return True
        if viewer is None:
            return False
        return viewer == p if isinstance(p, int) else viewer in p

    def seen_by(self, viewer: int | None) -> Event | None:
        """What ``viewer`` sees of this event: itself, its public ``twin``, or None."""
        if self.visible_to(viewer):
            return self
        return self.twin


public_event: Callable[[str, str, Mapping[str, Any]], Event] = fastcopy.maker(Event, "kind", "text", "data")
"""``public_event(kind, text, data)``: ``Event(kind, text, data)``, public and without a twin, made
without the frozen dataclass's ``__init__`` (a fifth of its cost; an engine makes one or more
an action)."""


def events_for(events: Iterable[Event], viewer: int | None) -> list[Event]:
    """What ``viewer`` (None: everyone, a spectator) sees of ``events``, in order: each event
    itself, its public twin, or nothing."""
    out = []
    for e in events:
        seen = e.seen_by(viewer)
        if seen is not None:
            out.append(seen)
    return out


_SEAT_TOKEN = re.compile(r"\{s(\d)\}")


def format_text(text: str, names: Sequence[str] | None = None) -> str:
    """Replace ``{s0}``, ``{s1}``… with player names (default "Seat 1", "Seat 2"…), in one pass:
    a name that itself reads ``{s1}`` stays as it is (it cannot take another seat's place)."""
    if "{s" not in text:
        return text

    def name(m: re.Match[str]) -> str:
        s = int(m.group(1))
        return names[s] if names and s < len(names) else f"Seat {s + 1}"

    return _SEAT_TOKEN.sub(name, text)
