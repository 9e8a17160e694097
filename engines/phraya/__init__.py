"""Phraya (Alberto Millán, DMZ Games): a floating market on the channels of a 4×4 grid of
islands. Spec: shared/specs/phraya.md.

Modules: ``data`` (component tables), ``board`` (geometry and paths), ``state`` (the state value),
``flow`` (legal lists), ``turn`` (effects of actions), ``notation`` (action text), ``scoring``,
``view`` (:class:`~engines.phraya.view.PhrayaView`), ``prompts``, ``rules`` (the engine), ``ai``
(spec §12), ``positions`` (test positions).
"""

from __future__ import annotations

from engines.base import register
from engines.phraya.rules import PhrayaEngine

ENGINE = register(PhrayaEngine())

__all__ = ["ENGINE", "PhrayaEngine"]
