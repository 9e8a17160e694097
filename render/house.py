"""Each game's house palette: one fixed 256-colour palette its posted pictures are encoded on.

Mapping a picture onto a palette Pillow has mapped onto before is faster than onto a new one
(it keeps its nearest-colour lookup inside the palette image), so a game's boards are encoded
on one palette per game, kind of picture and player count (:func:`palette`), not on a new
palette per board. The palettes are made from the game's own pictures (:func:`make`): the
posted boards (or second pictures) of a few seeded random games at that player count, at a few
points of each game, drawn as the bot draws them; an octree palette of their samples together,
refined by k-means. Making them takes seconds, so they are made once, by
``python -m render.house`` after a change to a game's colours or art, and kept in
:data:`STORE`; a process only reads them. A palette is a constant of the code (the same in
every process, whatever was drawn before), and :func:`render.png.to_png` falls back to a palette
of the picture's own where the house palette does not fit it (a colour its games never showed,
or art changed since the palettes were made: then boards are encoded a little slower, never
worse; ``make test-slow`` says when the stored palettes are out of date).
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any, cast

from PIL import Image

from engines import base

from . import caption
from .png import sample

SEEDS = (9001, 9002, 9003)
"""The seeded random games each palette is made from (not the seeds the bench or tests use)."""
POINTS = (0.2, 0.35, 0.5, 0.65, 0.8, 0.9, 1.0)
"""Where in each game its pictures are taken (share of its moves; 1.0 is the final board)."""
MAX_MOVES = 800
"""A calibration game stops here if it has not ended."""
ROUNDS = 6
"""Rounds of k-means that refine the octree palette towards the colours of the samples."""
NAMES = ("Asha", "Bilal", "Chen", "Dara", "Emeka")

View = Mapping[str, Any]
Draw = Callable[[str, View, Sequence[str], View | None, list[caption.Line]], Image.Image | None]

STORE = Path(__file__).parent / "assets" / "palettes.json"
"""The house palettes, made by :func:`write` (``python -m render.house``) and read at run time."""

_made: dict[str, Image.Image | None] = {}
_lock = threading.Lock()


def _board(
    game: str, view: View, names: Sequence[str], previous: View | None, lines: list[caption.Line]
) -> Image.Image:
    from . import board_image

    return board_image(game, view, names, caption=lines, previous=previous)


def _extra(
    game: str, view: View, names: Sequence[str], previous: View | None, lines: list[caption.Line]
) -> Image.Image | None:
    from . import extra_image

    return extra_image(game, view, names, previous=previous)


KINDS: dict[str, Draw] = {"board": _board, "extra": _extra}
"""The kinds of picture a game has a house palette for, and how each is drawn."""


def moments(engine: base.Engine, n: int, seed: int) -> list[tuple[View, View | None, list[caption.Line]]]:
    """(view, previous view, caption lines) at :data:`POINTS` of a seeded random game of ``n``."""
    rng = random.Random(seed)
    state = engine.setup(seed, n, {})
    steps: list[tuple[Any, Any, int, list[base.Event]]] = []  # (state before, state after, seat, events)
    while engine.outcome(state) is None and len(steps) < MAX_MOVES:
        seat = rng.choice(engine.to_move(state))
        after, events = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        steps.append((state, after, seat, events))
        state = after
    out: list[tuple[View, View | None, list[caption.Line]]] = []
    for p in POINTS if steps else ():
        before, after, seat, events = steps[max(0, round(p * len(steps)) - 1)]
        lines = caption.lines_of([(seat, events)], list(NAMES[:n]))
        out.append((engine.view(after, None), engine.view(before, None), lines))
    return out


def make(game: str, kind: str, n: int) -> Image.Image | None:
    """A new house palette (a palette image) for ``kind`` of ``game``'s pictures at ``n``
    players, or None when the game draws no such picture."""
    from . import has_extra

    if kind == "extra" and not has_extra(game):
        return None
    engine = base.get(game)
    samples: list[Image.Image] = []
    for seed in SEEDS:
        for view, previous, lines in moments(engine, n, seed):
            img = KINDS[kind](game, view, list(NAMES[:n]), previous, lines)
            if img is not None:
                samples.append(sample(img.convert("RGB")))
    if not samples:
        return None
    stack = Image.new("RGB", (min(s.width for s in samples), sum(s.height for s in samples)))
    y = 0
    for s in samples:
        stack.paste(s, (0, y))
        y += s.height
    return refine(stack, stack.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE))


def refine(pixels: Image.Image, palette: Image.Image, rounds: int = ROUNDS) -> Image.Image:
    """``palette`` moved towards the colours of ``pixels`` (RGB) by ``rounds`` of k-means: each
    colour of ``pixels`` goes to its nearest palette entry, and each entry becomes the mean of
    the colours it got, weighted by their counts (an entry that got none stays). The octree's
    entries sit at the centres of its cubes; these sit where the pixels are, so the smoothed
    edges of text and shapes land closer to a palette colour."""
    counted = cast(
        list[tuple[int, tuple[int, int, int]]], pixels.getcolors(pixels.width * pixels.height) or []
    )
    colours = Image.new("RGB", (max(1, len(counted)), 1))
    colours.putdata([c for _, c in counted])
    palette = _holder(list(palette.getpalette("RGB") or []))
    for _ in range(rounds):
        nearest = colours.quantize(palette=palette, dither=Image.Dither.NONE).tobytes()
        sums: dict[int, list[int]] = {}
        for (count, (r, g, b)), i in zip(counted, nearest, strict=False):
            s = sums.setdefault(i, [0, 0, 0, 0])
            s[0] += count * r
            s[1] += count * g
            s[2] += count * b
            s[3] += count
        flat = list(palette.getpalette("RGB") or [])
        for i, (r, g, b, n) in sums.items():
            flat[3 * i : 3 * i + 3] = [round(r / n), round(g / n), round(b / n)]
        palette = _holder(flat)
    return palette


def _holder(flat: list[int]) -> Image.Image:
    """A 1 × 1 palette image holding the palette ``flat`` (R, G, B, R, ...): all a palette to
    map onto needs, without the pixels it was made from."""
    img = Image.new("P", (1, 1))
    img.putpalette(flat)
    return img


def key(game: str, kind: str, n: int) -> str:
    """The name of a house palette in :data:`STORE`: "ra board 5"."""
    return f"{game} {kind} {n}"


@cache
def stored(path: Path = STORE) -> dict[str, str]:
    """The palettes in ``path`` (:data:`STORE`), by :func:`key`, each as the hex of its RGB
    triples; none when the file is missing."""
    if not path.exists():
        return {}
    found: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))["palettes"]
    return found


def palette(game: str, kind: str, n: int) -> Image.Image | None:
    """The house palette of ``kind`` ("board" or "extra") of ``game``'s pictures at ``n``
    players, read from :data:`STORE` on first use in this process and kept; None where the file
    holds none (a picture the game lacks, a player count it is not played at): such pictures
    are encoded on a palette of their own."""
    k = key(game, kind, n)
    with _lock:
        if k not in _made:
            colours = stored().get(k)
            _made[k] = _holder(list(bytes.fromhex(colours))) if colours else None
        return _made[k]


def make_all() -> dict[str, str]:
    """Every house palette :func:`make` makes now, by :func:`key`: each game's boards and second
    pictures at each player count it is played at (up to :data:`NAMES`)."""
    out: dict[str, str] = {}
    for engine in base.games():
        for n in range(engine.min_players, min(engine.max_players, len(NAMES)) + 1):
            for kind in KINDS:
                made = make(engine.name, kind, n)
                if made is not None:
                    out[key(engine.name, kind, n)] = bytes(made.getpalette("RGB") or []).hex()
    return out


def write(path: Path = STORE) -> None:
    """Make every house palette again and write them to ``path`` (``python -m render.house``,
    after a change to a game's colours or art)."""
    made = {"made_by": "python -m render.house", "palettes": make_all()}
    path.write_text(json.dumps(made, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    stored.cache_clear()


if __name__ == "__main__":
    write()
    print(f"wrote {len(stored())} house palettes to {STORE}")
