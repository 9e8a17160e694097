"""Kathai (Cathay, Michael Andersch): registers the engine on import.

Modules: ``data`` (goods, prices, the stand-in deck), ``state`` (the state value), ``notation``
(grammar), ``legal`` (checks and legal lists), ``flow`` (the state machine), ``complete``
(autocomplete), ``view`` (the view schema), ``scoring``, ``prompts`` (Discord controls),
``ai`` (the heuristic seat), ``positions`` (building positions for tests), ``rules`` (the
:class:`KathaiEngine` protocol methods).
"""

from __future__ import annotations

from engines.base import register
from engines.kathai.rules import KathaiEngine

ENGINE = register(KathaiEngine())

__all__ = ["ENGINE", "KathaiEngine"]
