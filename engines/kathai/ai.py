"""Placeholder AI; replaced below."""
from __future__ import annotations

from typing import Sequence

from engines.base import Action, View


def choose(view: View, legal: Sequence[Action]) -> Action:
    """The first legal action (placeholder)."""
    return "pass" if "pass" in legal else ("decline" if "decline" in legal else legal[0])
