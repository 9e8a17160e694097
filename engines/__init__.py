"""Pure game engines. ``engines.base`` holds the protocol; every sub-package of ``engines`` is a
game that registers itself with ``engines.base.register`` when imported. :func:`load_all`
imports them all, so a new game plugs in by adding its package and nothing else."""

from __future__ import annotations

import importlib
import pkgutil

_loaded = False


def game_packages() -> list[str]:
    """Names of the game packages under ``engines/`` (every sub-package is a game)."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg)


def load_all() -> None:
    """Import every game package so that it registers with ``engines.base``."""
    global _loaded
    if _loaded:
        return
    for name in game_packages():
        importlib.import_module(f"{__name__}.{name}")
    _loaded = True
