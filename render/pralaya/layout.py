"""Sizes and geometry of the Pralaya pictures (every canvas is fixed per player count, so a game's
pictures keep one size), the canvas itself, and the small formatting every picture shares."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from engines.base import format_text
from engines.pralaya.view import PralayaView
from render.common import (
    ACCENT,
    WIDTH,
    canvas,
    crop_to,
    seat_names,
)
from render.frame import HEADER_H, MARGIN

M = MARGIN  # outer margin (the house one)
INNER = WIDTH - 2 * M  # usable width
VITALITY = ACCENT  # colour of Vitality pips

STEP_LABEL = {"collect": "collecting", "discard": "discarding", "buy": "buying", "over": "game over"}

GAP = 8  # gap between tiles
TILE_H = 140
OCEAN_INK = (40, 86, 140)
PIP = 18  # a Vitality pip on a tile
TURN_H = 56  # the line under the header: who acts and the Vitality left
LEGEND_H = 40
SUPPLY_H = 116
BOX_H = 156  # a player box on the board
BOX_GAP = 8
ROW_H = 112  # a row of the open-hands picture: two lines of relic chips
NAME_W = 250
CHIP_W = 104


def names_for(view: PralayaView, names: Sequence[str] | None) -> list[str]:
    """Display names for every seat of ``view``."""
    return seat_names(names, int(view["n_players"]))


def fmt(text: str, names: Sequence[str]) -> str:
    """Engine text with ``{sN}`` replaced by names."""
    return format_text(text, list(names))


def price_text(price: Any) -> str:
    """A Dhoni or Veda price as shown: ``"X"`` or the number."""
    return "X" if price in ("X", "x", None) else str(price)


def new_canvas(height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    return canvas(height)


def crop(img: Image.Image, bottom: int) -> Image.Image:
    """``img`` cut just below ``bottom`` (plus the margin)."""
    return crop_to(img, bottom, M)


def is_ocean(code: object) -> bool:
    return code == "oce"


def grid_layout(view: Mapping[str, object]) -> tuple[list[int], list[int]]:
    """(column widths, row heights) of the island grid: fixed by its size, so that the board
    keeps one geometry through a game (sunk cells stay where they were, drawn as Ocean)."""
    rows, cols = int(view["rows"]), int(view["cols"])  # type: ignore[call-overload]
    base, extra = divmod(INNER - (cols - 1) * GAP, cols)
    return [base + (1 if c < extra else 0) for c in range(cols)], [TILE_H] * rows


def board_height(n_players: int) -> int:
    """The height of every Pralaya board at ``n_players`` (the island has three rows at every
    count)."""
    del n_players
    grid = 3 * TILE_H + 2 * GAP
    return HEADER_H + 6 + TURN_H + 4 + grid + 8 + LEGEND_H + 8 + SUPPLY_H + 14 + BOX_H + MARGIN


def box_width(n: int) -> float:
    """The width of one player box at ``n`` players."""
    return (WIDTH - 2 * MARGIN - BOX_GAP * (n - 1)) / n


def hands_height(n_players: int) -> int:
    """The height of the open-hands picture at ``n_players``."""
    return HEADER_H + 14 + n_players * (ROW_H + 8) + MARGIN
