"""A game's rules card (``/rules``): one picture with the components, a turn's steps, how scoring
works and how the game ends. Each game fills a :class:`Card` from its engine's data
(``render/<game>/rulescard.py``); :func:`draw` lays it out the same way for every game, at most
:data:`MAX_W` × :data:`MAX_H` px, with text no smaller than :data:`render.common.MIN_TEXT` so that
it reads on a phone at 450 px wide."""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from PIL import Image, ImageDraw

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
    cols, gap = 3, 14
    cw = (MAX_W - 2 * PAD - gap * (cols - 1)) // cols
    for i, (count, what) in enumerate(card.components):
        cx, cy = PAD + (i % cols) * (cw + gap), y + (i // cols) * 70
        panel(d, (cx, cy, cx + cw, cy + 60), fill=PANEL)
        n = font(36, bold=True)
        d.text((cx + 14, cy + 30), count, font=n, fill=_ink(accent), anchor="lm")
        nx = cx + 24 + text_width(count, n)
        lines = wrap(what, cx + cw - nx - 8, font(SMALL))
        small = font(SMALL) if len(lines) <= 2 else font(SMALL, condensed=True)
        lines = wrap(what, cx + cw - nx - 8, small)[:2]
        ty = cy + 31 - (len(lines) * (SMALL + 2)) // 2
        for line in lines:
            d.text((nx, ty), line, font=small, fill=INK)
            ty += SMALL + 2
    y += ((len(card.components) + cols - 1) // cols) * 70 + 10
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
