"""The registry of games: each game's package registers its engine when imported."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engines.errors import BadOption

if TYPE_CHECKING:
    from engines.engine import GameEngine

    Engine = GameEngine[Any, Any]

_REGISTRY: dict[str, Engine] = {}


def register(engine: Engine) -> Engine:
    """Add an engine instance to the registry under ``engine.name``; returns it."""
    if not engine.name:
        raise ValueError("an engine needs a name")
    _REGISTRY[engine.name] = engine
    return engine


def get(name: str) -> Engine:
    """The registered engine called ``name``; raises :class:`BadOption` with the choices."""
    from engines import load_all

    load_all()
    key = (name or "").strip().lower()
    if key not in _REGISTRY:
        choices = ", ".join(sorted(_REGISTRY)) or "none"
        raise BadOption(f"There is no game called `{name}`. Games: {choices}.")
    return _REGISTRY[key]


def games() -> list[Engine]:
    """Every registered engine, by name."""
    from engines import load_all

    load_all()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


def unregister(name: str) -> None:
    """Remove the engine called ``name`` if registered (tests that register a toy game)."""
    _REGISTRY.pop(name, None)
