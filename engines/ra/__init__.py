"""Ra (Reiner Knizia) with the Ra: Traders module: registers the engine on import.

Modules: ``data`` (components and tables), ``state`` (the state value), ``flow`` (the state
machine), ``scoring``, ``view`` (the view schema), ``notation`` (action text), ``rules`` (the
:class:`RaEngine` protocol methods), ``ai`` (the heuristic seat, the ``easy`` level),
``determinize`` and ``playout`` (what the search AI needs: a full state consistent with a seat's
view, the playout policy, the moves worth searching and the evaluation), ``positions`` (building
positions for tests).
"""

from __future__ import annotations

from engines.base import register
from engines.ra.rules import RaEngine

ENGINE = register(RaEngine())

__all__ = ["ENGINE", "RaEngine"]
