"""The animated recap of a game: one board per turn as an animated GIF, the last frame held.

Shared by every game (nothing here names one). Frames come only from public views
(``engine.view(state, None)``) drawn as the bot posts a board (:func:`posted`: the game's own
``board`` with the caption strip of the turn's moves on top and what the turn changed marked);
this module only chooses the turns and encodes the frames within a byte budget. Every board of a
game at a player count has one size, so no frame is padded.

**A turn** ends when the seat holding it changes (:func:`turn_holder`: the public view's
``active`` or ``current`` seat) or the game ends; for a game whose view names no holder, when the
seat that played is no longer awaited. So a Pralaya turn of several ``take``\\s and a ``done`` is
one frame, a Ra auction with all its bids is one, a Kathai offer with its answers is one. The
rule reads only the move log and the engine, so the bot rebuilds the same frames after a
restart, and ``bazaar demo`` and Discord agree. Each frame is shown at least
:data:`MIN_FRAME_MS` (time to read its caption), the last :data:`HOLD_MS`.

**The budget** (:data:`BUDGET`, 4 MB) sits well below every attachment limit Discord has had for
bots in servers without boosts (8 MB until 2023, 25 MiB, 10 MiB since late 2024), so a phone
loads it quickly. :func:`animate` meets it by dropping evenly spaced frames (never the first or
the last), using fewer colours and shrinking the frames, re-encoding until it fits; the longest
seeded games fit with every frame (``make bench`` reports them).

A GIF (rather than an APNG) because every Discord client plays a GIF attachment inline. It is
written frame by frame over one global palette, each frame holding only the pixels that changed
since the previous one (the rest transparent), and the boards are held as PNG bytes and decoded
one at a time, so a long game never holds all its boards as pixels.
"""

from __future__ import annotations

import io
import math
import struct
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import GifImagePlugin, Image, ImageChops

from engines import base

from . import caption

BUDGET = 4_000_000  # bytes: well under Discord's smallest attachment limit for bots (see above)
HOLD_MS = 3000  # the last frame (the final board) is shown this long before the loop restarts
MIN_FRAME_MS = 800  # each other frame (time to read its caption): about TOTAL_MS in all, within these
MAX_FRAME_MS = 1500
TOTAL_MS = 60_000
MAX_WIDTH = 1000  # wider boards are scaled down to this (more than a phone shows)
MIN_WIDTH = 560  # frames are never shrunk below this width (still readable on a phone)
COLOURS = (255, 127, 63)  # palette sizes tried, in order (one more index is kept clear)
CLEAR = 255  # the transparent index: "unchanged since the previous frame"
PALETTE_SAMPLES = 6  # frames whose colours make up the shared palette
CAPTION_TONES = 4  # levels of ink in a frame's caption text: a smooth strip costs a GIF twice the bytes

Frame = Image.Image | bytes
"""A board: an image, or its encoded bytes (PNG), decoded each time it is needed (so a long game
holds its boards compressed, not as pixels)."""


class RecapTooLarge(ValueError):
    """Even the smallest recap (first and last frame, smallest size) exceeds the budget."""


@dataclass(frozen=True)
class Recap:
    """An encoded recap and how it was made to fit."""

    data: bytes
    frames: int  # frames in the file
    turns: int  # frames offered (one per turn, plus the start)
    width: int
    height: int
    colours: int

    @property
    def size(self) -> int:
        return len(self.data)


# --------------------------------------------------------------------------- which boards

TURN_KEYS = ("active", "current")
"""Keys of a game's public view that name the seat whose turn it is (Pralaya's and Kathai's
``active``, Ra's and Phraya's ``current``): that seat holds the turn while others answer it
(an auction's bids, declines of an offer), so an auction is one turn."""


def turn_holder(view: Mapping[str, Any]) -> int | None:
    """The seat whose turn it is, as the public ``view`` names it (None when it names none)."""
    for key in TURN_KEYS:
        seat = view.get(key)
        if isinstance(seat, int) and not isinstance(seat, bool):
            return seat
    return None


def turn_ended(engine: base.Engine, state: Any, seat: int, before: Any = None) -> bool:
    """Whether ``seat``'s step from ``before`` to ``state`` ended a turn: the game is over, or the
    seat holding the turn changed (:func:`turn_holder` of the two public views); for a game whose
    view names no holder (or without ``before``), the seat is no longer awaited."""
    if engine.outcome(state) is not None:
        return True
    if before is not None:
        was, now = turn_holder(engine.view(before, None)), turn_holder(engine.view(state, None))
        if was is not None and now is not None:
            return was != now
    return seat not in engine.to_move(state)


@dataclass(frozen=True)
class Turn:
    """One recap frame: the state after a turn and its caption (each move's public lines)."""

    state: Any
    lines: tuple[caption.Line, ...]


def turns(
    engine: base.Engine,
    steps: Iterable[tuple[Any, int | None, Sequence[base.Event]]],
    names: Sequence[str] | None = None,
) -> Iterator[Turn]:
    """The frames from ``(state, seat, events)`` in play order (``seat`` played the step that
    led to ``state`` and ``events`` are what it returned; None and the setup's events for the
    setup): the setup, then the state after each turn (:func:`turn_ended`) with the caption of
    the turn's moves (:func:`render.caption.lines_of`)."""
    before: Any = None
    moves: list[tuple[int | None, Sequence[base.Event]]] = []
    for state, seat, events in steps:
        moves.append((seat, events))
        if seat is None or turn_ended(engine, state, seat, before):
            yield Turn(state, tuple(caption.lines_of(moves, names)))
            moves = []
        before = state


def turn_states(engine: base.Engine, steps: Iterable[tuple[Any, int | None]]) -> Iterator[Any]:
    """The states :func:`turns` shows, from ``(state, seat)`` pairs in play order."""
    for turn in turns(engine, ((state, seat, ()) for state, seat in steps)):
        yield turn.state


def replayed(
    engine: base.Engine,
    seed: int,
    n_players: int,
    options: Any,
    moves: Sequence[tuple[int, str]],
    names: Sequence[str] | None = None,
) -> Iterator[Turn]:
    """The frames :func:`turns` picks from a game's seed and move log (replayed). Raises what
    :func:`engines.base.replay_steps` raises for a log that does not fit."""
    steps = base.replay_steps(engine, seed, n_players, options, moves)
    setup, _ = next(steps)

    def played() -> Iterator[tuple[Any, int | None, Sequence[base.Event]]]:
        yield setup, None, engine.events_on_setup(setup)
        for (state, result), (seat, _) in zip(steps, moves, strict=True):
            yield state, seat, result.events if result is not None else ()

    return turns(engine, played(), names)


def replayed_turns(
    engine: base.Engine, seed: int, n_players: int, options: Any, moves: Sequence[tuple[int, str]]
) -> Iterator[Any]:
    """The states of :func:`replayed` (without their captions)."""
    return (turn.state for turn in replayed(engine, seed, n_players, options, moves))


Draw = Callable[
    [Mapping[str, Any], Sequence[str], Sequence[caption.Line], Mapping[str, Any] | None], Image.Image
]
"""How a frame is drawn: ``(public view, names, caption lines, previous public view) -> Image``."""


def posted(game: str) -> Draw:
    """The frames of ``game`` drawn as the bot posts its boards (:func:`render.board_image`: the
    caption strip on top, what changed since the previous frame marked; the board alone, not a
    second picture), the caption's text in :data:`CAPTION_TONES` levels of ink."""
    from . import board_image

    def draw(
        view: Mapping[str, Any],
        names: Sequence[str],
        lines: Sequence[caption.Line],
        previous: Mapping[str, Any] | None,
    ) -> Image.Image:
        return board_image(game, view, names, caption=lines, previous=previous, tones=CAPTION_TONES)

    return draw


def boards(engine: base.Engine, frames: Iterable[Turn], draw: Draw, names: Sequence[str]) -> list[bytes]:
    """Each frame's public board (``draw(engine.view(state, None), names, lines, previous)``:
    only spectator views reach the renderer), PNG-encoded with fast compression (they are kept
    only until :func:`animate` has encoded them)."""
    out = []
    previous: Mapping[str, Any] | None = None
    for turn in frames:
        view = engine.view(turn.state, None)
        buf = io.BytesIO()
        draw(view, list(names), list(turn.lines), previous).save(buf, format="PNG", compress_level=1)
        out.append(buf.getvalue())
        previous = view
    return out


# --------------------------------------------------------------------------- encoding


def frame_ms(n: int) -> int:
    """How long each frame but the last is shown, for ``n`` frames in all."""
    return max(MIN_FRAME_MS, min(MAX_FRAME_MS, TOTAL_MS // max(1, n - 1)))


def keep_evenly(n: int, k: int) -> list[int]:
    """``k`` indices out of ``range(n)``, evenly spaced, always the first and the last (all of
    them when ``k >= n``; the first and last when ``k < 2``)."""
    if k >= n:
        return list(range(n))
    if n <= 2 or k <= 2:
        return sorted({0, n - 1})
    return sorted({round(i * (n - 1) / (k - 1)) for i in range(k)})


def _size(frame: Frame) -> tuple[int, int]:
    if isinstance(frame, bytes):
        with Image.open(io.BytesIO(frame)) as img:  # reads the header only
            return img.size
    return frame.size


def _open(frame: Frame) -> Image.Image:
    if isinstance(frame, bytes):
        with Image.open(io.BytesIO(frame)) as img:
            return img.convert("RGB")
    return frame if frame.mode == "RGB" else frame.convert("RGB")


def _fit(img: Image.Image, scale: float, size: tuple[int, int]) -> Image.Image:
    """``img`` scaled by ``scale`` and padded (with its bottom-left colour) to ``size``."""
    if scale != 1.0:
        img = img.resize(
            (max(1, round(img.width * scale)), max(1, round(img.height * scale))), Image.Resampling.LANCZOS
        )
    if img.size == size:
        return img
    pad = img.getpixel((0, img.height - 1))
    canvas = Image.new("RGB", size, pad)
    canvas.paste(img, (0, 0))
    return canvas


def _palette(frames: Sequence[Frame], scale: float, size: tuple[int, int], colours: int) -> Image.Image:
    """One palette (a "P" image) for every frame, from a few of them stacked."""
    sample = keep_evenly(len(frames), PALETTE_SAMPLES)
    strip = Image.new("RGB", (size[0], size[1] * len(sample)))
    for row, i in enumerate(sample):
        strip.paste(_fit(_open(frames[i]), scale, size), (0, row * size[1]))
    pal = strip.quantize(colours, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    entries = (pal.getpalette() or [])[: 3 * colours]
    pal.putpalette(entries + entries[:3] * (256 - colours))  # padding repeats index 0
    return pal


def _header(size: tuple[int, int], palette: Image.Image) -> bytes:
    """GIF89a header: logical screen, a 256-entry global colour table, loop forever."""
    pal = bytes((palette.getpalette() or [])[:768]).ljust(768, b"\0")
    screen = struct.pack("<HHBBB", size[0], size[1], 0xF7, 0, 0)  # global table of 2^(7+1) colours
    loop = b"!\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", 0) + b"\0"
    return b"GIF89a" + screen + pal + loop


def encode(
    frames: Sequence[Frame],
    picks: Sequence[int],
    *,
    scale: float,
    colours: int,
    size: tuple[int, int],
    hold_ms: int = HOLD_MS,
    cache: dict[int, bytes] | None = None,
) -> bytes:
    """The GIF of ``frames[i] for i in picks``, each scaled by ``scale`` onto a canvas of
    ``size``, quantised to one palette of ``colours`` (drawn from all the frames); each frame
    after the first stores only the pixels that changed (a clear 1x1 patch when none did, so
    every pick stays a frame). ``cache`` (for one ``scale`` and ``colours``) keeps the quantised
    frames between calls that only pick differently."""
    palette = _palette(frames, scale, size, colours)
    out = io.BytesIO()
    out.write(_header(size, palette))
    step = frame_ms(len(picks))
    prev: Image.Image | None = None
    for n, i in enumerate(picks):
        cur = _quantized(frames, i, scale, size, palette, cache)
        ms = hold_ms if n == len(picks) - 1 else step
        patch, offset = (cur, (0, 0)) if prev is None else _changes(prev, cur)
        for chunk in GifImagePlugin.getdata(patch, offset=offset, duration=ms, transparency=CLEAR):
            out.write(chunk)
        prev = cur
    out.write(b";")
    return out.getvalue()


def _quantized(
    frames: Sequence[Frame],
    i: int,
    scale: float,
    size: tuple[int, int],
    palette: Image.Image,
    cache: dict[int, bytes] | None,
) -> Image.Image:
    """Frame ``i`` fitted and on ``palette`` (from ``cache`` when it holds it; stored there)."""
    if cache is not None and i in cache:
        with Image.open(io.BytesIO(cache[i])) as img:
            return img.copy()  # a plain image (a PNG file's encoder settings would reach the GIF's)
    cur = _quantize(_fit(_open(frames[i]), scale, size), palette)
    if cache is not None:
        buf = io.BytesIO()
        cur.copy().save(buf, format="PNG", compress_level=1)  # saving leaves PNG settings on an image
        cache[i] = buf.getvalue()
    return cur


def _quantize(img: Image.Image, palette: Image.Image) -> Image.Image:
    """``img`` on ``palette``, never using the clear index (a pixel that landed on it, a tie with
    a padding entry, is moved to index 0, which has the same colour)."""
    out = img.quantize(palette=palette, dither=Image.Dither.NONE)
    data = out.tobytes()
    if bytes((CLEAR,)) in data:
        out = Image.frombytes("P", out.size, data.replace(bytes((CLEAR,)), b"\0"))
        out.putpalette(palette.getpalette() or [])
    return out


def _changes(prev: Image.Image, cur: Image.Image) -> tuple[Image.Image, tuple[int, int]]:
    """The part of ``cur`` to draw over ``prev``: the rectangle holding every changed pixel, with
    the unchanged ones inside it set to the clear index (long runs of it compress well); a clear
    1x1 patch when nothing changed."""
    diff = ImageChops.difference(_indices(prev), _indices(cur))
    box = diff.getbbox()
    if box is None:
        return Image.new("P", (1, 1), CLEAR), (0, 0)
    patch = cur.crop(box)
    same = diff.crop(box).point(lambda v: 255 if v == 0 else 0)
    patch.paste(CLEAR, (0, 0, *patch.size), same)
    return patch, box[:2]


def _indices(img: Image.Image) -> Image.Image:
    """A palette image's indices as a greyscale image (for comparing two frames)."""
    return Image.frombytes("L", img.size, img.tobytes())


def animate(frames: Sequence[Frame], budget: int = BUDGET, *, hold_ms: int = HOLD_MS) -> Recap:
    """Encode ``frames`` (boards in order; sizes may differ; wider than :data:`MAX_WIDTH` are
    scaled down to it) as a looping GIF of at most ``budget`` bytes. Every frame is a turn, so
    over budget it first uses fewer colours (:data:`COLOURS`) with every frame kept, then keeps
    fewer evenly spaced frames (always the first and the last; as many as fit, down to a quarter
    of them), then shrinks the frames (not below :data:`MIN_WIDTH` px), then keeps fewer frames
    again, down to two. (Shrinking comes late: on boards of flat colours and text it blurs the
    text into more colours and saves little or nothing.) Raises ``ValueError`` for no frames and
    :class:`RecapTooLarge` when nothing fits."""
    if not frames:
        raise ValueError("a recap needs at least one frame")
    sizes = [_size(f) for f in frames]
    width, height = max(w for w, _ in sizes), max(h for _, h in sizes)
    scale = min(1.0, MAX_WIDTH / width)
    floor = min(scale, MIN_WIDTH / width)
    n = len(frames)
    quarter = max(2, math.ceil(n / 4))
    colours = COLOURS[0]
    cache: dict[int, bytes] = {}  # the quantised frames at this scale and palette

    def attempt(k: int) -> Recap:
        size = (max(1, round(width * scale)), max(1, round(height * scale)))
        picks = keep_evenly(n, k)
        data = encode(frames, picks, scale=scale, colours=colours, size=size, hold_ms=hold_ms, cache=cache)
        return Recap(data, len(picks), n, size[0], size[1], colours)

    made = attempt(n)
    for fewer in COLOURS[1:]:  # every turn kept, in fewer colours
        if made.size <= budget:
            return made
        colours, cache = fewer, {}
        made = attempt(n)
    if made.size <= budget:
        return made
    found = _most_frames(attempt, made, quarter, budget)
    if found is not None:
        return found
    keep = quarter
    while True:
        if scale > floor:  # size is at best about proportional to the area
            scale = max(floor, min(scale * 0.9, scale * math.sqrt(budget / made.size) * 0.95))
            cache = {}
        elif keep > 2:
            keep = max(2, min(keep - 1, math.floor(keep * budget / made.size * 0.9)))
        else:
            raise RecapTooLarge(f"even the smallest recap is {made.size} bytes, over {budget}")
        made = attempt(keep)
        if made.size <= budget:
            return made


SEARCH_PASSES = 5  # encodings spent looking for the most frames that fit, after the first


def _most_frames(attempt: Callable[[int], Recap], over: Recap, least: int, budget: int) -> Recap | None:
    """The recap with the most frames (at least ``least``) that fits ``budget``, searched in a few
    passes between a number that fits and one that does not (``over``: all of them), each guess
    on the line between the two; None if even ``least`` frames do not fit."""
    hi, fit = over, None
    k = max(least, math.floor(over.frames * budget / over.size * 0.95))
    for _ in range(SEARCH_PASSES):
        made = attempt(k)
        if made.size <= budget:
            fit = made
        else:
            hi = made
        if fit is None:
            if k == least:
                return None
            k = max(least, math.floor(k * budget / made.size * 0.95))
            continue
        if hi.frames - fit.frames <= max(1, over.turns // 50):
            break
        share = (budget - fit.size) / max(1, hi.size - fit.size)
        k = min(
            hi.frames - 1,
            max(fit.frames + 1, fit.frames + math.floor((hi.frames - fit.frames) * share * 0.97)),
        )
    return fit


def recap(
    engine: base.Engine,
    seed: int,
    n_players: int,
    options: Any,
    moves: Sequence[tuple[int, str]],
    draw: Draw,
    names: Sequence[str],
    budget: int = BUDGET,
) -> Recap:
    """The recap of a game from its seed and move log: replayed, one public board per turn with
    its caption (see :func:`turns`; ``draw`` as :func:`posted` gives), encoded by
    :func:`animate`. Blocking (run it in a worker thread on an event loop). Raises what the
    replay or :func:`animate` raise."""
    frames = replayed(engine, seed, n_players, options, moves, names)
    return animate(boards(engine, frames, draw, names), budget)
