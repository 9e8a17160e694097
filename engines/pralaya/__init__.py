"""Pralaya (Yukinori Ohashi, Domina Games, revised edition 2018): collect relics from a sinking
island and escape on a Dhoni. Spec: shared/specs/pralaya.md.

Modules: ``data`` (component tables), ``state`` (state value, setup, turn machine), ``notation``
(action text), ``scoring``, ``view``, ``rules`` (the engine), ``ai`` (spec §12), ``positions`` (building
positions for tests and fixtures).
"""

from __future__ import annotations

from engines.base import register
from engines.pralaya.rules import PralayaEngine

ENGINE = register(PralayaEngine())

__all__ = ["ENGINE", "PralayaEngine"]
