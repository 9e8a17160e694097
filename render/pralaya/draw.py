"""Drawing pieces shared by the Pralaya board, hand and score sheet: the header, seat colours that
stay readable as text, tags, section titles and small formatting helpers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from engines.base import format_text
from engines.pralaya.view import PralayaView
from render.common import (
    ACCENT,
    INK,
    MUTED,
    RGB,
    WIDTH,
    canvas,
    crop_to,
    draw_text,
    fit,
    font,
    on_color,
    panel,
    seat_color,
    seat_ink,
    seat_names,
    text_width,
)
from render.pralaya.icons import pips

M = 16  # outer margin
INNER = WIDTH - 2 * M  # usable width
VITALITY = ACCENT  # colour of Vitality pips
HEADER_H = 100
MARK = INK  # the ring and tag on what the last move changed (no seat's colour)

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


# --------------------------------------------------------------------------- the header


def header(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    view: PralayaView,
    names: Sequence[str],
    title: str = "Pralaya",
    who: int | None = None,
) -> int:
    """The top band: game and round, whose turn (or the result) and the step, Vitality left.
    ``who`` names the seat the image is for (hand view). Returns the y below the band."""
    y0 = M
    box = (M, y0, WIDTH - M, y0 + HEADER_H)
    panel(d, box, radius=12)
    over = bool(view.get("over"))
    active = view.get("active")
    outcome = view.get("outcome") or {}
    stripe = seat_color(active) if active is not None and not over else INK
    d.rounded_rectangle((M, y0, M + 12, y0 + HEADER_H), radius=6, fill=stripe)
    d.rectangle((M + 6, y0, M + 12, y0 + HEADER_H), fill=stripe)

    x = M + 30
    top = f"{title.upper()}  ·  ROUND {view.get('round', 1)}"
    tw = draw_text(d, (x, y0 + 10), top, 26, fill=MUTED, bold=True)
    if who is not None:  # whose hand this is, in their colour
        s, f = fit(f"{names[who]}'s hand", 560 - tw - 20, 22, bold=True)
        d.text((x + tw + 14, y0 + 8), s, font=f, fill=seat_ink(who))

    right_w = 300
    line_y = y0 + 64
    if over:
        winners = list(outcome.get("winners") or [])
        escaped = [s for s, v in enumerate(outcome.get("scores") or []) if v is not None]
        if not escaped:
            msg = "Nobody escaped: a draw"
        elif len(winners) == 1:
            msg = f"{names[winners[0]]} wins with {outcome['scores'][winners[0]]} pts"
        else:
            msg = "Tie: " + ", ".join(names[w] for w in winners)
        col = seat_ink(winners[0]) if len(winners) == 1 and escaped else INK
        s, f = fit(msg, INNER - 60 - 200, 32, bold=True, min_size=28)
        d.text((x, line_y), s, font=f, fill=col, anchor="lm")
        tag(
            d,
            (WIDTH - M - 20 - text_width("GAME OVER", font(26, True)) - 16, line_y - 16),
            "GAME OVER",
            INK,
            size=26,
            pad=8,
        )
        return y0 + HEADER_H + 12

    step = STEP_LABEL.get(view.get("step", ""), view.get("step", ""))
    if who is not None and who == active:
        step = "your turn · " + step
    step_w = text_width(step, font(26, True)) + 18
    name_max = INNER - 30 - right_w - step_w - 30
    s, f = fit(names[active] if active is not None else "?", name_max, 32, bold=True, min_size=28)
    d.text((x, line_y), s, font=f, fill=seat_ink(active) if active is not None else INK, anchor="lm")
    nx = x + text_width(s, f) + 14
    tag(d, (nx, line_y - 18), step, seat_color(active) if active is not None else INK, size=26, pad=10)

    # Vitality: pips for the turn's V (filled = left), then the number.
    rx = WIDTH - M - 20
    if who is not None and who != active:  # someone else's turn: their V is not this page's
        draw_text(d, (rx, y0 + 10), "NOT YOUR TURN", 26, fill=MUTED, bold=True, anchor="ra")
        return y0 + HEADER_H + 12
    vit, left = int(view.get("vitality", 0)), int(view.get("v_left", 0))
    escaped_active = any(p.get("escaped") for p in view.get("players", []) if p.get("seat") == active)
    if escaped_active:
        draw_text(d, (rx, y0 + 10), "ESCAPED", 26, fill=MUTED, bold=True, anchor="ra")
        draw_text(d, (rx, line_y), "discards 1 relic", 28, fill=INK, bold=True, anchor="rm")
        return y0 + HEADER_H + 12
    draw_text(d, (rx, y0 + 10), "VITALITY LEFT", 26, fill=MUTED, bold=True, anchor="ra")
    num = f"{left}"
    nf = font(38, True)
    d.text((rx, line_y), num, font=nf, fill=VITALITY, anchor="rm")
    pw = max(vit, left) * (22 + 4) - 4 if max(vit, left) else 0
    pips(img, (rx - text_width(num, nf) - 14 - pw, line_y - 11), max(vit, left), left, 22, VITALITY, gap=4)
    return y0 + HEADER_H + 12


def mark_ring(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], radius: int = 10) -> None:
    """The ring around a place the last move changed: a thick ink line just outside ``box``, kept
    off the place by a white gap."""
    x0, y0, x1, y1 = box
    d.rounded_rectangle((x0 - 3, y0 - 3, x1 + 3, y1 + 3), radius=radius + 2, outline=(255, 255, 255), width=3)
    d.rounded_rectangle((x0 - 7, y0 - 7, x1 + 7, y1 + 7), radius=radius + 5, outline=MARK, width=5)


def mark_tag(d: ImageDraw.ImageDraw, xy: tuple[float, float], s: str, size: int = 26) -> int:
    """The tag naming what the last move did at a place ("drawn", "taken"); returns its width."""
    return tag(d, xy, s, MARK, fg=(255, 255, 255), size=size, pad=7)
