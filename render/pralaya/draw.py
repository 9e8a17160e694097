"""Drawing pieces shared by the Pralaya board, hand and score sheet: tags, section titles and small
formatting helpers (the header is the house one, :func:`render.frame.header`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from engines.base import format_text
from engines.pralaya.view import PralayaView
from render.common import (
    ACCENT,
    MUTED,
    RGB,
    WIDTH,
    canvas,
    crop_to,
    draw_text,
    font,
    on_color,
    seat_names,
    text_width,
)
from render.frame import MARGIN, header

M = MARGIN  # outer margin (the house one)
INNER = WIDTH - 2 * M  # usable width
VITALITY = ACCENT  # colour of Vitality pips

STEP_LABEL = {"collect": "collecting", "discard": "discarding", "buy": "buying", "over": "game over"}


# --------------------------------------------------------------------------- small helpers


def names_for(view: PralayaView, names: Sequence[str] | None) -> list[str]:
    """Display names for every seat of ``view``."""
    return seat_names(names, int(view["n_players"]))


def fmt(text: str, names: Sequence[str]) -> str:
    """Engine text with ``{sN}`` replaced by names."""
    return format_text(text, list(names))


def price_text(price: Any) -> str:
    """A Dhoni or Veda price as shown: ``"X"`` or the number."""
    return "X" if price in ("X", "x", None) else str(price)


def tag(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    s: str,
    fill: RGB,
    fg: RGB | None = None,
    size: int = 26,
    pad: int = 7,
    outline: RGB | None = None,
) -> int:
    """A rounded label with its top-left at ``xy``; returns its width. Height is ``size + 11``."""
    f = font(size, True)
    w = text_width(s, f) + 2 * pad
    h = size + 11
    x, y = xy
    d.rounded_rectangle(
        (x, y, x + w, y + h), radius=h // 2, fill=fill, outline=outline, width=2 if outline else 0
    )
    d.text((x + w / 2, y + h / 2 + 1), s, font=f, fill=fg or on_color(fill), anchor="mm")
    return w


def section_title(d: ImageDraw.ImageDraw, y: int, title: str, note: str = "") -> int:
    """A section heading at ``y``; returns the y below it."""
    w = draw_text(d, (M + 4, y), title.upper(), 26, fill=MUTED, bold=True)
    if note:
        draw_text(d, (M + 4 + w + 12, y + 1), note, 26, fill=MUTED, max_width=INNER - w - 20)
    return y + 36


def new_canvas(height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    return canvas(height)


def crop(img: Image.Image, bottom: int) -> Image.Image:
    """``img`` cut just below ``bottom`` (plus the margin)."""
    return crop_to(img, bottom, M)


def top(img: Image.Image, d: ImageDraw.ImageDraw, view: PralayaView, names: Sequence[str]) -> int:
    """The house header of every Pralaya picture: the round, the step and who acts (or "Game
    over"). Returns the y below it."""
    over = bool(view.get("over"))
    active = view.get("active")
    step = str(view.get("step", ""))
    return header(
        img,
        d,
        "Pralaya",
        f"Round {view.get('round', 1)}",
        pill=None if over else STEP_LABEL.get(step, step),
        label="" if over else "to play",
        seats=[] if over or active is None else [active],
        names=names,
        over=over,
    )
