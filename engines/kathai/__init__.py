"""Kathai (Cathay, Michael Andersch): registers the engine on import.

One role per module: ``data`` (components, stand-in values), ``state`` (the value, set-up,
invariants), ``legal`` (whose turn, what is legal), ``apply`` (what an action does),
``notation`` (the grammar), ``view`` (what each viewer sees), ``scoring``, ``prompts`` (what
a host asks), ``describe`` (texts for people), ``rules`` (the :class:`KathaiEngine` that names
them), ``positions`` (named positions for tests) and ``ai`` (heuristic, determinize, playout).
The rules as implemented: docs/rules/kathai.md.
"""

from __future__ import annotations

from engines.base import register
from engines.kathai.rules import KathaiEngine

ENGINE = register(KathaiEngine())

__all__ = ["ENGINE", "KathaiEngine"]
