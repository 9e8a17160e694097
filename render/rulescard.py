"""A game's rules card (``/rules``): one picture with the components, a turn's steps, how scoring
works and how the game ends. Each game fills a :class:`Card` from its engine's data
(``render/<game>/rulescard.py``); :func:`draw` lays it out the same way for every game, at most
:data:`MAX_W` × :data:`MAX_H` px, with text no smaller than :data:`render.common.MIN_TEXT` so that
it reads on a phone at 450 px wide."""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from .common import (
    BG,
    INK,
    LINE,
    MUTED,
    PANEL,
    RGB,
    canvas,
    contrast,
    font,
    mix,
    on_color,
    panel,
    text_width,
    wrap,
)
from .png import to_png

MAX_W, MAX_H = 1000, 1100
PAD = 24
BODY = 28
HEAD = 32
TITLE = 46
SMALL = 26


@dataclass(frozen=True)
class Card:
    """What a rules card shows; every figure in it comes from the engine's data."""

    title: str
    subtitle: str
    """Players and length."""
    accent: RGB
    components: tuple[tuple[str, str], ...]
    """(count, what): ``("200", "tiles in the bag")``."""
    turn: tuple[str, ...]
    """A turn's steps, in order."""
    scoring: tuple[tuple[str, str], ...]
    """(what, points)."""
    end: tuple[str, ...]
    """How the game ends and who wins."""


def _ink(accent: RGB) -> RGB:
    """``accent`` darkened until it reads as text on the card's background."""
    c, t = accent, 0.0
    while contrast(c, BG) < 4.5 and t < 0.9:
        t += 0.05
        c = mix(accent, (0, 0, 0), t)
    return c


def _section(d: ImageDraw.ImageDraw, x: int, y: int, w: int, title: str, accent: RGB) -> int:
    d.text((x, y), title, font=font(HEAD, bold=True), fill=_ink(accent))
    y += HEAD + 10
    d.line((x, y, x + w, y), fill=LINE, width=2)
    return y + 10


def _lines(d: ImageDraw.ImageDraw, x: int, y: int, w: int, items: tuple[str, ...], bullet: str) -> int:
    f = font(BODY)
    for i, item in enumerate(items, 1):
        mark = f"{i}." if bullet == "#" else bullet
        d.text((x, y), mark, font=font(BODY, bold=True), fill=MUTED)
        for line in wrap(item, w - 40, f):
            d.text((x + 40, y), line, font=f, fill=INK)
            y += BODY + 6
        y += 4
    return y


def _scoring(d: ImageDraw.ImageDraw, x: int, y: int, w: int, rows: tuple[tuple[str, str], ...]) -> int:
    f, fb = font(BODY), font(BODY, bold=True)
    left = max(text_width(what, fb) for what, _ in rows) + 18
    left = min(left, w // 2)
    for what, pts in rows:
        names = wrap(what, left - 12, fb)
        points = wrap(pts, w - left, f)
        for i in range(max(len(names), len(points))):
            if i < len(names):
                d.text((x, y), names[i], font=fb, fill=INK)
            if i < len(points):
                d.text((x + left, y), points[i], font=f, fill=INK)
            y += BODY + 6
        y += 4
    return y


COUNT = 36
"""The size of a chip's count."""
CHIP_PAD = 8
"""The least room between a chip's text and its edges."""
CHIP_LINE = SMALL + 4
"""The line height of a chip's words."""
CHIP_GAP = 14
"""The room between chips."""


@dataclass(frozen=True)
class Chip:
    """One laid-out chip of "In the box": its ``box``, its ``count`` drawn left-middle at
    ``count_at`` and its words, wrapped into ``lines`` drawn left-middle at ``line_at`` (in the
    condensed face when the regular one needs more than two lines)."""

    box: tuple[int, int, int, int]
    count: str
    count_at: tuple[int, int]
    lines: tuple[str, ...]
    line_at: tuple[tuple[int, int], ...]
    condensed: bool = False

    def font(self) -> ImageFont.FreeTypeFont:
        """The face of the chip's words."""
        return font(SMALL, condensed=self.condensed)


def chips(components: tuple[tuple[str, str], ...], y: int, cols: int = 3) -> tuple[list[Chip], int]:
    """The chips of ``components`` laid out ``cols`` a row from ``y``, and the ``y`` below them.
    The words wrap onto as many lines as they need (none is cut), and each row is as high as its
    fullest chip needs, keeping :data:`CHIP_PAD` around the text."""
    cw = (MAX_W - 2 * PAD - CHIP_GAP * (cols - 1)) // cols
    n = font(COUNT, bold=True)
    out: list[Chip] = []
    for start in range(0, len(components), cols):
        row = components[start : start + cols]
        wrapped: list[tuple[int, int, str, tuple[str, ...], bool]] = []
        for i, (count, what) in enumerate(row):
            cx = PAD + i * (cw + CHIP_GAP)
            nx = cx + CHIP_PAD + text_width(count, n) + 10
            lines = wrap(what, cx + cw - CHIP_PAD - nx, font(SMALL))
            narrow = len(lines) > 2
            if narrow:
                lines = wrap(what, cx + cw - CHIP_PAD - nx, font(SMALL, condensed=True))
            wrapped.append((cx, nx, count, tuple(lines), narrow))
        h = max(60, max(len(w[3]) for w in wrapped) * CHIP_LINE + 2 * CHIP_PAD)
        for cx, nx, count, words, narrow in wrapped:
            top = y + h // 2 - len(words) * CHIP_LINE // 2 + CHIP_LINE // 2
            at = tuple((nx, top + k * CHIP_LINE) for k in range(len(words)))
            out.append(Chip((cx, y, cx + cw, y + h), count, (cx + CHIP_PAD, y + h // 2), words, at, narrow))
        y += h + 10
    return out, y + 10


def draw(card: Card) -> Image.Image:
    """The card as a picture (:data:`MAX_W` wide, at most :data:`MAX_H` high)."""
    img, d = canvas(MAX_H * 2, MAX_W, BG)
    accent = card.accent
    d.rectangle((0, 0, MAX_W, 96), fill=accent)
    d.text((PAD, 48), card.title, font=font(TITLE, bold=True), fill=on_color(accent), anchor="lm")
    d.text((MAX_W - PAD, 48), card.subtitle, font=font(BODY, bold=True), fill=on_color(accent), anchor="rm")
    y = 96 + PAD
    # components: count chips, three a row
    y = _section(d, PAD, y, MAX_W - 2 * PAD, "In the box", accent)
    laid, y = chips(card.components, y)
    n = font(COUNT, bold=True)
    for chip in laid:
        panel(d, chip.box, fill=PANEL)
        d.text(chip.count_at, chip.count, font=n, fill=_ink(accent), anchor="lm")
        for line, at in zip(chip.lines, chip.line_at, strict=True):
            d.text(at, line, font=chip.font(), fill=INK, anchor="lm")
    # a turn (left) and scoring (right)
    half = (MAX_W - 3 * PAD) * 9 // 20
    top = y
    yl = _lines(d, PAD, _section(d, PAD, top, half, "A turn", accent), half, card.turn, "#")
    xr, wr = PAD * 2 + half, MAX_W - 3 * PAD - half
    yr = _scoring(d, xr, _section(d, xr, top, wr, "Scoring", accent), wr, card.scoring)
    y = max(yl, yr) + 4
    y = _lines(
        d, PAD, _section(d, PAD, y, MAX_W - 2 * PAD, "The end", accent), MAX_W - 2 * PAD, card.end, "•"
    )
    height = y + PAD - 6
    if height > MAX_H:
        raise ValueError(f"the rules card of {card.title} is {height} px high, more than {MAX_H}")  # noqa
    return img.crop((0, 0, MAX_W, height))


def card_of(game: str) -> Card:
    """``game``'s card (its ``render/<game>/rulescard.py``); KeyError when it has none."""
    try:
        module = importlib.import_module(f"render.{game}.rulescard")
    except ModuleNotFoundError:
        raise KeyError(game) from None
    found: Card = module.card()
    return found


def png(game: str) -> bytes:
    """``game``'s rules card as PNG (run in the bot's workers)."""
    return to_png(draw(card_of(game)))


def main(out: str = "docs/img") -> None:
    """Write every game's card to ``out``/rules-<game>.png (the README's pictures):
    ``python -m render.rulescard [OUT]``."""
    import pathlib
    import sys

    folder = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else out)
    for game in ("kathai", "phraya", "pralaya", "ra"):
        (folder / f"rules-{game}.png").write_bytes(png(game))
        print(folder / f"rules-{game}.png")


if __name__ == "__main__":
    main()
