"""The names every layer imports from the engine side, in one place.

The contract itself is in :mod:`engines.contract` (three typed protocols) and the base of every
game's engine in :mod:`engines.engine`; errors in :mod:`engines.errors`, events in
:mod:`engines.events`, results in :mod:`engines.outcome`, options in :mod:`engines.options`,
playing and replaying in :mod:`engines.play`, serialisation in :mod:`engines.serial`, and the
registry in :mod:`engines.registry`. ``Engine`` is any game's engine, whatever its state type.
"""

from __future__ import annotations

from typing import Any

from engines.contract import VIEW_KEYS, Action, HostSupport, Rules, SearchSupport, View
from engines.engine import GameEngine
from engines.errors import (
    BadNotation,
    BadOption,
    GameOver,
    IllegalAction,
    InvalidAction,
    NotYourTurn,
    RuleError,
    StaleState,
)
from engines.events import Event, events_for, format_text
from engines.options import Option
from engines.outcome import Menu, Outcome
from engines.play import Played, first_awaited, not_your_turn_reason, play, replay, replay_steps
from engines.registry import games, get, register, unregister
from engines.serial import state_fingerprint, to_jsonable

Engine = GameEngine[Any, Any]
"""Any game's engine (the host's type: it handles every game alike)."""

__all__ = [
    "VIEW_KEYS",
    "Action",
    "BadNotation",
    "BadOption",
    "Engine",
    "Event",
    "GameEngine",
    "GameOver",
    "HostSupport",
    "IllegalAction",
    "InvalidAction",
    "Menu",
    "NotYourTurn",
    "Option",
    "Outcome",
    "Played",
    "Rules",
    "RuleError",
    "SearchSupport",
    "StaleState",
    "View",
    "events_for",
    "first_awaited",
    "format_text",
    "games",
    "get",
    "not_your_turn_reason",
    "play",
    "register",
    "replay",
    "replay_steps",
    "state_fingerprint",
    "to_jsonable",
    "unregister",
]
