"""Whole numbers as people type them: ASCII digits only.

``str.isdigit`` also accepts superscripts and other digit-like characters (``"²".isdigit()`` is
true) that ``int`` refuses, so a check with it lets such text through to an ``int`` that raises.
"""

from __future__ import annotations


def is_digits(text: str) -> bool:
    """Whether ``text`` is one or more ASCII digits (0-9) and nothing else."""
    return text.isascii() and text.isdigit()
