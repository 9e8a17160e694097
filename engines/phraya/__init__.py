"""Phraya (Alberto Millán, DMZ Games): a floating market on the channels of a 4×4 grid of
islands. The rules as implemented: docs/rules/phraya.md.

One role per module: ``data`` (component tables; ``data.board`` the geometry and paths),
``state`` (the value, set-up, invariants), ``legal`` (whose turn, what is legal), ``apply`` (what an
action does), ``notation`` (action text), ``view`` (:class:`~engines.phraya.view.PhrayaView`),
``scoring``, ``prompts`` (the host's controls), ``describe`` (texts for people), ``rules`` (the
engine), ``positions`` (named positions), ``ai`` (the heuristic, determinize, the playout policy).
"""

from __future__ import annotations

from engines.base import register
from engines.phraya.rules import PhrayaEngine

ENGINE = register(PhrayaEngine())

__all__ = ["ENGINE", "PhrayaEngine"]
