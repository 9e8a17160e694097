"""Phraya AI (spec §12), reading only the seat's own view."""
from __future__ import annotations

from typing import Any, Mapping, Sequence


def choose(view: Mapping[str, Any], legal: Sequence[str]) -> str:
    """The heuristic's pick from ``legal`` (placeholder: the first non-``end`` action)."""
    for a in legal:
        if a != "end":
            return a
    return legal[0]
