"""The caption strip above every posted board: what happened since the previous board.

Shared by every game: the lines are the public events of the moves since the last board
(already formatted with names), drawn at :data:`~render.common.PRIMARY_TEXT` on a band across the
top, newest last. Markdown (``**bold**``, ``_italic_``, backticks) is stripped, long lines wrap,
and at most :data:`MAX_LINES` lines are drawn (the oldest are summarised as "… and N earlier").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from PIL import Image

from .common import BG, INK, LINE, MUTED, PRIMARY_TEXT, canvas, font, wrap

MAX_LINES = 3
PAD = 14
GAP = 6
HEIGHT = 2 * PAD + MAX_LINES * (PRIMARY_TEXT + GAP) - GAP + 4
"""The strip's fixed height: every posted board keeps one size (see :mod:`render.frame`)."""
_MARKDOWN = re.compile(r"\*\*|__|`|(?<!\w)_(?=\S)|(?<=\S)_(?!\w)|~~")
_BULLET = re.compile(r"^\s*[•·\-*]\s+")


def plain(line: str) -> str:
    """``line`` without Markdown emphasis or a leading bullet."""
    return _BULLET.sub("", _MARKDOWN.sub("", line)).strip()


def caption_lines(lines: Sequence[str], width: int, size: int = PRIMARY_TEXT) -> list[str]:
    """The wrapped lines the strip shows for ``lines`` (newest last): as many of the newest
    events as fit in MAX_LINES, whole, after a line counting the earlier ones left out."""
    f = font(size)
    blocks = [wrap(plain(s), width - 2 * PAD, f) for s in lines if plain(s)]
    out: list[str] = []
    kept = 0
    for block in reversed(blocks):
        room = MAX_LINES - (1 if kept + 1 < len(blocks) else 0)  # a line for "… and N earlier"
        if len(out) + len(block) > room:
            break
        out = block + out
        kept += 1
    if blocks and not kept:  # the newest alone is too long: its first lines
        kept = 1
        out = blocks[-1][: MAX_LINES - (1 if len(blocks) > 1 else 0)]
    dropped = len(blocks) - kept
    return ([f"… and {dropped} earlier"] if dropped else []) + out


def strip(lines: Sequence[str], width: int, size: int = PRIMARY_TEXT) -> Image.Image:
    """The caption band for ``lines`` at ``width`` px, :data:`HEIGHT` px tall (blank for no
    lines)."""
    shown = caption_lines(lines, width, size)
    step = size + GAP
    img, d = canvas(HEIGHT, width, BG)
    f = font(size)
    for i, line in enumerate(shown):
        colour = MUTED if line.startswith("…") else INK
        d.text((PAD, PAD + i * step), line, font=f, fill=colour)
    d.line((0, img.height - 2, width, img.height - 2), fill=LINE, width=3)
    return img


def with_caption(board: Image.Image, lines: Sequence[str]) -> Image.Image:
    """``board`` with the caption band for ``lines`` on top (always :data:`HEIGHT` px, so that
    every posted board of a game keeps one size)."""
    band = strip(lines, board.width)
    out = Image.new("RGB", (board.width, band.height + board.height), BG)
    out.paste(band, (0, 0))
    out.paste(board if board.mode == "RGB" else board.convert("RGB"), (0, band.height))
    return out
