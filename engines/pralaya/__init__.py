"""Pralaya (Yukinori Ohashi, Domina Games, revised edition 2018): collect relics from a sinking
island and escape on a Dhoni. The rules as implemented: docs/rules/pralaya.md.

One role per module: ``data`` (component data, stand-ins), ``state`` (the value, the deal, the
invariants), ``legal`` (whose turn, what is legal now), ``apply`` (what an action does),
``notation`` (action text), ``view``, ``scoring``, ``prompts`` (what the host asks), ``describe``
(texts for people), ``rules`` (the engine object), ``positions`` (positions for tests and the
bench), ``ai`` (the easy level, determinize, the search's playouts).
"""

from __future__ import annotations

from engines.base import register
from engines.pralaya.rules import PralayaEngine

ENGINE = register(PralayaEngine())

__all__ = ["ENGINE", "PralayaEngine"]
