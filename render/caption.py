"""The caption strip above every posted board: what happened since the previous board.

Shared by every game. The lines come from the engine's events (:func:`lines_of`): the first
public event of each applied move is that **player's action**, one line leading with who did
what; what the game then did by itself in answer (refills, draws, an auction won, an automatic
pass) is **the game's own**, folded into one line after the action. The event that announces
whose turn comes next (kind ``turn`` or ``round``) is left out: the board's header shows it.

The strip has a fixed height (:data:`HEIGHT`, :data:`MAX_LINES` lines at
:data:`~render.common.PRIMARY_TEXT`), so every posted board of a game keeps one size. When the
lines do not fit, :func:`caption_lines` shortens them in this order, never losing a player's move
while a line of the game's own is shown: first the actions are packed several to a line, then the
game's own lines go (oldest first), and only then the oldest actions (counted in "… and N
earlier"). Markdown (``**bold**``, ``_italic_``, backticks) is stripped and long lines wrap.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from engines import base

from .common import BG, INK, LINE, MUTED, PRIMARY_TEXT, canvas, font, text_width, wrap

MAX_LINES = 3
PAD = 14
GAP = 6
HEIGHT = 2 * PAD + MAX_LINES * (PRIMARY_TEXT + GAP) - GAP + 4
"""The strip's fixed height: every posted board keeps one size (see :mod:`render.frame`)."""
HEADER_KINDS = frozenset({"turn", "round"})
"""Event kinds that announce who acts next or a new round: the board's header shows that."""
JOIN = " · "
_MARKDOWN = re.compile(r"\*\*|__|`|(?<!\w)_(?=\S)|(?<=\S)_(?!\w)|~~")
_BULLET = re.compile(r"^\s*[•·\-*]\s+")


@dataclass(frozen=True)
class Line:
    """One caption line: ``by`` is the seat whose action it is, None for the game's own."""

    text: str
    by: int | None = None
    n: int = 1  # the actions (or the game's lines) it holds, once several are packed on it
    who: str = ""  # the acting seat's name, as the text begins with it (left out when packed)

    @property
    def action(self) -> bool:
        return self.by is not None


Caption = Sequence["Line | str"]
"""What a caption is made of: :class:`Line`\\s, or plain strings (each taken as an action)."""


def plain(line: str) -> str:
    """``line`` without Markdown emphasis or a leading bullet."""
    return _BULLET.sub("", _MARKDOWN.sub("", line)).strip()


def step_lines(seat: int | None, events: Iterable[base.Event], names: Sequence[str] | None) -> list[Line]:
    """The lines of one applied move by ``seat`` (None: the setup) from its events, as the
    engine returned them: the first event (its public twin for a private one), when anyone may
    see it, is the player's action; the public rest is the game's own, folded into one line."""
    action: Line | None = None
    own: list[str] = []
    for i, ev in enumerate(events):
        seen = ev.seen_by(None)
        if seen is None or seen.kind in HEADER_KINDS:
            continue
        text = plain(base.format_text(seen.text, names))
        if not text:
            continue
        if i == 0 and seat is not None:
            action = Line(text, seat, who=base.format_text(f"{{s{seat}}}", names))
        else:
            own.append(text)
    out = [action] if action else []
    return out + ([Line(JOIN.join(own))] if own else [])


def lines_of(
    steps: Iterable[tuple[int | None, Iterable[base.Event]]], names: Sequence[str] | None = None
) -> list[Line]:
    """The caption of several moves, ``(seat, events)`` each in play order (see
    :func:`step_lines`); consecutive lines of the game's own are folded into one."""
    out: list[Line] = []
    for seat, events in steps:
        for line in step_lines(seat, events, names):
            if not line.action and out and not out[-1].action:
                out[-1] = Line(out[-1].text + JOIN + line.text)
            else:
                out.append(line)
    return out


def _as_line(item: Line | str) -> Line:
    return item if isinstance(item, Line) else Line(plain(item), -1)


def caption_lines(lines: Caption, width: int, size: int = PRIMARY_TEXT) -> list[str]:
    """The wrapped lines (at most :data:`MAX_LINES`) the strip shows for ``lines`` (oldest
    first), shortened as the module says when they do not fit."""
    return [text for text, _ in shown_lines(lines, width, size)]


def shown_lines(lines: Caption, width: int, size: int = PRIMARY_TEXT) -> list[tuple[str, bool]]:
    """:func:`caption_lines` with, for each, whether it is the game's own (drawn muted)."""
    f = font(size)
    room = width - 2 * PAD
    items = [it for it in (_as_line(x) for x in lines) if it.text]

    def rows(group: Sequence[Line]) -> list[list[tuple[str, bool]]]:
        return [[(ln, not it.action) for ln in wrap(it.text, room, f)] for it in group]

    def fits(group: Sequence[Line]) -> list[tuple[str, bool]] | None:
        blocks = rows(group)
        return [ln for b in blocks for ln in b] if sum(map(len, blocks)) <= MAX_LINES else None

    found = fits(items)
    packed = _pack(items, room, f)
    if found is None:
        found = fits(packed)
    while found is None and any(not it.action for it in packed):  # the game's own go first, oldest first
        packed.remove(next(it for it in packed if not it.action))
        found = fits(packed)
    if found is not None:
        return found
    return _newest(rows(packed), [it.n for it in packed])


def _pack(items: Sequence[Line], room: int, f: Any) -> list[Line]:
    """``items`` with consecutive actions joined onto lines as wide as ``room`` (each action
    whole on one line where it fits; a seat's name said once per line)."""
    out: list[Line] = []
    for it in items:
        last = out[-1] if out else None
        more = it.text
        if last is not None and it.by == last.by and it.who and more.startswith(it.who + " "):
            more = more[len(it.who) + 1 :]  # "Bilal takes b4 · takes b3"
        if last is not None and it.action and last.action and text_width(last.text + JOIN + more, f) <= room:
            out[-1] = Line(last.text + JOIN + more, it.by, last.n + it.n, it.who)
        else:
            out.append(it)
    return out


def _newest(blocks: list[list[tuple[str, bool]]], counts: Sequence[int]) -> list[tuple[str, bool]]:
    """The newest whole blocks that fit under a line "… and N earlier" (N counts the actions
    left out, ``counts[i]`` in block ``i``); the newest block's first lines when even it alone
    does not fit."""
    out: list[tuple[str, bool]] = []
    kept = 0
    for block in reversed(blocks):
        if len(out) + len(block) > MAX_LINES - 1:
            break
        out = block + out
        kept += 1
    if not kept:
        out, kept = blocks[-1][: MAX_LINES - 1], 1
    dropped = sum(counts[: len(blocks) - kept])
    return ([(f"… and {dropped} earlier", True)] if dropped else []) + out


def strip(lines: Caption, width: int, size: int = PRIMARY_TEXT, tones: int = 0) -> Image.Image:
    """The caption band for ``lines`` at ``width`` px, :data:`HEIGHT` px tall (blank for no
    lines). With ``tones`` (≥ 2) the text's smoothed edges keep only that many levels of ink
    (a recap frame: its GIF stores a few-toned strip in about half the bytes, and Discord shows
    it at half size, where it looks the same)."""
    shown = shown_lines(lines, width, size)
    step = size + GAP
    img, d = canvas(HEIGHT, width, BG)
    f = font(size)
    if tones >= 2:
        levels = tones - 1
        lut = [round(v * levels / 255) * 255 // levels for v in range(256)]
        for colour, own in ((INK, False), (MUTED, True)):
            mask = Image.new("L", img.size, 0)
            md = ImageDraw.Draw(mask)
            for i, (line, is_own) in enumerate(shown):
                if is_own == own:
                    md.text((PAD, PAD + i * step), line, font=f, fill=255)
            img.paste(colour, (0, 0, *img.size), mask.point(lut))
    else:
        for i, (line, own) in enumerate(shown):
            d.text((PAD, PAD + i * step), line, font=f, fill=MUTED if own else INK)
    d.line((0, img.height - 2, width, img.height - 2), fill=LINE, width=3)
    return img
