"""In-place writes (:func:`engines.fastcopy.poke`) into the private copy that ``apply`` builds."""

from __future__ import annotations

from typing import Any

from engines import fastcopy
from engines.base import Event
from engines.events import public_event
from engines.fastcopy import fields_of, poke
from engines.phraya import data
from engines.phraya.state import State, t4

Events = list[Event]


event = public_event
"""``event(kind, text, data)``: ``Event(kind, text, data)``, public (:data:`engines.events.public_event`)."""


_SHARED: dict[tuple[str, int], Event] = {}
"""The events that only name their seat (and maybe a card), one shared instance each: an
:class:`Event` is a frozen value and nothing changes its ``data``, so equal happenings may share
one (as Pralaya's do). Bounded by the seats times the texts and cards."""


def seat_event(kind: str, text: str, seat: int, card: str = "") -> Event:
    """``event(kind, text with {seat} for the seat's tag, {"seat": seat})`` (and ``"card": card``
    when given), shared: made once per text, seat and card, then looked up."""
    key = (text + card, seat)
    hit = _SHARED.get(key)
    if hit is None:
        said = text.replace("{seat}", "{s%d}" % seat)
        hit = _SHARED[key] = event(kind, said, {"seat": seat, "card": card} if card else {"seat": seat})
    return hit


def write(s: State, **changes: Any) -> State:
    """Write ``changes`` into ``apply``'s own copy ``s`` (in place); returns ``s``."""
    fields_of(s).update(changes)
    return s


def write_player(s: State, seat: int, **changes: Any) -> State:
    """Give ``seat`` a new :class:`Player` with ``changes`` in ``apply``'s own copy ``s``."""
    ps = list(s.players)
    ps[seat] = fastcopy.update(ps[seat], changes)
    fields_of(s)["players"] = tuple(ps)
    return s


def gain_flowers(s: State, seat: int, k: int) -> tuple[State, int]:
    """Give ``seat`` up to ``k`` flowers from the supply; returns the state and how many."""
    k = min(k, s.supply_flowers)
    if k <= 0:
        return s, 0
    p = s.players[seat]
    s = write_player(s, seat, flowers=p.flowers + k)
    poke(s, "supply_flowers", s.supply_flowers - k)
    return s, k


def gain_favor(s: State, seat: int) -> tuple[State, int]:
    if s.supply_favors <= 0:
        return s, 0
    p = s.players[seat]
    s = write_player(s, seat, favors=p.favors + 1)
    return write(s, supply_favors=s.supply_favors - 1), 1


def goods_delta(s: State, seat: int, delta: list[int]) -> State:
    """``seat`` takes ``delta[i]`` of good i from the supply (negative: gives back)."""
    p = s.players[seat]
    goods = t4([p.goods[i] + delta[i] for i in range(4)])
    supply = t4([s.supply_goods[i] - delta[i] for i in range(4)])
    s = write_player(s, seat, goods=goods)
    return write(s, supply_goods=supply)


GOODS = data.GOODS
