"""Kathai board geometry: the margins and paddings, the heights of the board's sections and of
the whole board (:data:`BOARD_H`, one fixed size at every player count), the columns of the
market, and the shared drawing context (:class:`Ctx`: the view, names and initials) with the
runs of text that lines are built from."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from engines.base import format_text
from engines.kathai.view import KathaiView
from render import frame
from render.common import (
    WIDTH,
    canvas,
    fit,
    font,
    seat_initials,
    seat_ink,
    seat_names,
    stamp,
    text_width,
)

View = KathaiView
M = frame.MARGIN
X0, X1 = M, WIDTH - M
PAD = 14
GAP = 10


class Ctx:
    """What every section needs: the view, seat names, seat initials."""

    def __init__(self, view: View, names: Sequence[str] | None) -> None:
        self.view = view
        self.n = int(view["n_players"])
        self.names = seat_names(names, self.n)
        self.tags = seat_initials(self.names)

    def fmt(self, s: str | None) -> str:
        return format_text(s or "", list(self.names))


# --------------------------------------------------------------------------- runs of text


Run = tuple[Any, ...]
"""A piece of a line: (text, size, bold, colour[, condensed]), or (picture, gap after it)."""


def _run_font(r: Run) -> Any:
    return font(int(r[1]), bool(r[2]), len(r) > 4 and bool(r[4]))


def runs_width(runs: Sequence[Run]) -> float:
    w = 0.0
    for r in runs:
        if isinstance(r[0], Image.Image):
            w += r[0].width + r[1]
        else:
            w += text_width(str(r[0]), _run_font(r))
    return w


def draw_runs(img: Image.Image, d: ImageDraw.ImageDraw, x: float, mid: float, runs: Sequence[Run]) -> float:
    """Draw ``runs`` left to right with their middles at ``mid``. Returns the x after them."""
    for r in runs:
        if isinstance(r[0], Image.Image):
            pic = r[0]
            img.paste(pic, (round(x), round(mid - pic.height / 2)), pic if pic.mode == "RGBA" else None)
            x += pic.width + r[1]
        else:
            f = _run_font(r)
            d.text((x, mid), str(r[0]), font=f, fill=r[3], anchor="lm")
            x += text_width(str(r[0]), f)
    return x


def name_run(c: Ctx, s: int, room: int, size: int = 28, prefix: str = "") -> Run:
    """A seat's name in its ink, fitted into ``room`` px (condensed, smaller, then cut)."""
    t, f = fit(prefix + c.names[s], room, size, True)
    return (t, f.size, True, seat_ink(s), "Condensed" in str(f.path))


def stamped(img: Image.Image, x: float, y: float, w: int, h: int, key: tuple[Any, ...], draw: Any) -> None:
    """``draw(img, d, x, y)`` (a piece of ``w`` × ``h`` px that depends only on ``key``) from
    the cache of drawn pieces (:func:`render.common.stamp`)."""
    x, y = round(x), round(y)
    stamp(img, (x, y, x + w - 1, y + h - 1), ("kathai", *key), draw)


def badge(d: ImageDraw.ImageDraw, c: Ctx, s: int, x: float, mid: float, r: int = 17) -> float:
    """The house seat badge with its left edge at ``x`` (a size larger for two-letter
    initials, which are drawn at 26 px). Returns the x after it."""
    if len(c.tags[s]) > 1:
        r += 4
    frame.seat_badge(d, (x + r, mid), s, c.tags[s], r)
    return x + 2 * r + 8


# --------------------------------------------------------------------------- market: sizes

COL_W = 170
PRICE_H = 100
GOODS_H = 124
LOCK_H = 62
MARKET_H = PAD + PRICE_H + 8 + GOODS_H + LOCK_H + 6


def market_cols() -> list[int]:
    gap = (X1 - X0 - 2 * PAD - 5 * COL_W) / 4
    return [round(X0 + PAD + i * (COL_W + gap)) for i in range(5)]


def lock_positions(v: View) -> list[int]:
    """The two market positions (1-based) the lock bridges, or [] without a lock."""
    lock = v["lock"]
    if not lock:
        return []
    pos = [int(p) for p in lock["positions"] or []]
    if len(pos) != 2:
        goods = [sl["goods"] for sl in sorted(v["market"] or [], key=lambda s: int(s["pos"]))]
        pos = [goods.index(g) + 1 for g in lock["pair"] if g in goods]
    return sorted(pos) if len(pos) == 2 else []


# --------------------------------------------------------------------------- pile / last sale: sizes

SUPPLY_H = 212
SALE_W, SALE_H = 92, 140


# --------------------------------------------------------------------------- the offer line: sizes

OFFER_H = 64


# --------------------------------------------------------------------------- the board: sizes

BOARD_H = 948
"""The board's height at every player count (the caption strip comes on top)."""


def new_canvas(height: int = BOARD_H) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    return canvas(height)


# --------------------------------------------------------------------------- seat cards: sizes

SEATS_H = 196


def board_height(n_players: int) -> int:
    """The height of every board at ``n_players`` (3–5): one size through a game."""
    return BOARD_H
