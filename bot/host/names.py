"""People's display names as Discord text: shown as typed, never as markup.

A display name is chosen by its owner, so it may hold Markdown (``**x**``, a masked link
``[x](https://…)``), a mention (``<@123>``, ``@everyone``) or a seat token (``{s1}``). Pictures
and the terminal draw names as they are; every Discord text puts them through :func:`shown`,
which escapes Markdown with backslashes and breaks mentions with a zero-width space, so that a
name can neither format a message nor ping anyone. (Seat tokens are replaced in one pass by
:func:`engines.base.format_text`, so a name that looks like one stays itself.)
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_MARKDOWN = re.compile(r"([\\*_~`|>#\-\[\]<])")
_MENTION = re.compile(r"@")
ZWSP = "\u200b"


def shown(name: str) -> str:
    """``name`` as Discord text: every Markdown character escaped, every ``@`` followed by a
    zero-width space (no mention, no ``@everyone``)."""
    return _MENTION.sub("@" + ZWSP, _MARKDOWN.sub(r"\\\1", name))


def shown_all(names: Sequence[str]) -> list[str]:
    """:func:`shown` of each name."""
    return [shown(n) for n in names]
