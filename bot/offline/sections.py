"""Parts of the terminal's text: the person's own part of the board (``hand``), the score lines
(``score``), moves numbered steadily through a turn, and the summary of a long stretch of AI play.

All of it reads only texts the person may see (the renderer's text of their own view, the events
``base.events_for`` gives them), so nothing hidden reaches the screen.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence

STREAM_LINES = 12
"""Lines of others' play printed as they happen before the rest is held for a summary."""
KEY_LINES = 24
"""At most this many lines of what mattered in a summary (the latest ones)."""

_MARKS = "▶•· "
_SCORE = re.compile(r"\bpts\b|\bpoints?\b|\bscores?\b|\bscoring\b|ended now|escaped now", re.I)


def _seat_line(line: str, name: str) -> bool:
    """Whether ``line`` (markdown) is the seat line of ``name`` ("**You** ▶ — 10 pts …",
    "▶ **You** (first) · 0 cards", "**You (P)** ▶ — 8c …")."""
    bare = line.lstrip(_MARKS)
    return bare.startswith((f"**{name}**", f"**{name} (", f"{name} "))


def own_part(board: str, name: str) -> str:
    """The person's part of ``board`` (a renderer's text of their view): their seat line and
    everything from their own section ("**Your hand**", "**Your move:**", or the block after the
    last blank line) to the end."""
    lines = board.splitlines()
    start = next((i for i, x in enumerate(lines) if x.startswith("**Your")), None)
    if start is None:
        blanks = [i for i, x in enumerate(lines) if not x.strip()]
        start = blanks[-1] + 1 if blanks else len(lines)
    seat = [x for x in lines[:start] if _seat_line(x, name)]
    return "\n".join(seat + lines[start:]).strip()


def score_part(board: str) -> str:
    """The lines of ``board`` that give points: seat totals, the "if it ended now" preview."""
    return "\n".join(x for x in board.splitlines() if _SCORE.search(x)).strip()


def renumber(old: Mapping[str, int], legal: Sequence[str]) -> dict[str, int]:
    """Numbers for ``legal`` that keep ``old``'s number for every move still legal, new moves
    numbered after the highest; when no move of ``old`` is still legal (a new turn or step),
    1, 2, … in ``legal``'s order."""
    kept = {a: old[a] for a in legal if a in old}
    k = max(kept.values(), default=0)
    for a in legal:
        if a not in kept:
            k += 1
            kept[a] = k
    return kept


def stretch_summary(lines: Sequence[tuple[str, str]], minor: Mapping[str, str], moves: int) -> list[str]:
    """A short account of others' play held back from the screen: ``lines`` are ``(event kind,
    text)``; kinds in ``minor`` (kind -> plural words, e.g. ``"draw": "tiles drawn"``) are only
    counted, the rest are listed (the latest :data:`KEY_LINES`)."""
    counts = Counter(kind for kind, _ in lines if kind in minor)
    tally = ", ".join(f"{k} {minor[kind]}" for kind, k in counts.most_common())
    head = f"While you waited the other players made {moves} more move{'s' if moves != 1 else ''}"
    out = [head + (f" ({tally})" if tally else "") + (". What mattered:" if tally else ":")]
    key = [text for kind, text in lines if kind not in minor]
    if len(key) > KEY_LINES:
        out.append(f"  (… {len(key) - KEY_LINES} earlier lines left out)")
        key = key[-KEY_LINES:]
    out += ["· " + text for text in key]
    return out
