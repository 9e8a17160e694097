"""Ra (Reiner Knizia) with the Ra: Traders module: registers the engine on import.

One role per module (docs/rules/ra.md has the rules as implemented): ``data`` (components and
tables), ``state`` (the state value, set-up, invariants), ``legal`` (whose turn, what is legal),
``apply`` (what an action does), ``notation`` (the action grammar), ``view`` (what a viewer
sees), ``scoring``, ``prompts`` (what the host asks), ``describe`` (texts for people), ``rules``
(the :class:`RaEngine` class naming the module of each job), ``positions`` (named positions for
tests), ``ai`` (the easy AI and the search's determinize, playout and evaluation).
"""

from __future__ import annotations

from engines.ra.rules import RaEngine
from engines.registry import register

ENGINE = register(RaEngine())

__all__ = ["ENGINE", "RaEngine"]
