"""Pixel geometry of the 4×4-island board (docs/rules/phraya.md#board): islands, channel sections, crossings
and the stall tile on each island side. Pure arithmetic, no drawing."""

from __future__ import annotations

from render import frame
from render.common import WIDTH

S = 140  # island side (px)
C = 60  # channel width (px)
D = 48  # depth of a stall tile into its island
SPAN = 4 * S + 3 * C  # 740


def island_box(i: int, j: int, x0: int, y0: int) -> tuple[int, int, int, int]:
    x, y = x0 + j * (S + C), y0 + i * (S + C)
    return x, y, x + S, y + S


def section_box(sec: str, x0: int, y0: int) -> tuple[int, int, int, int]:
    """The water rectangle of section ``hRK`` / ``vCK``."""
    a, b = int(sec[1]), int(sec[2])
    if sec[0] == "h":  # between island rows a and a+1, under column b
        x, y = x0 + b * (S + C), y0 + a * (S + C) + S
        return x, y, x + S, y + C
    x, y = x0 + a * (S + C) + S, y0 + b * (S + C)  # between columns a and a+1, beside row b
    return x, y, x + C, y + S


def crossing_box(xid: str, x0: int, y0: int) -> tuple[int, int, int, int]:
    r, c = int(xid[1]), int(xid[2])
    x, y = x0 + c * (S + C) + S, y0 + r * (S + C) + S
    return x, y, x + C, y + C


def stall_side(stall: str) -> tuple[int, int, str]:
    """``(i, j, side)``: the island and the side of it the stall sits on."""
    kind, a, b, bank = stall[0], int(stall[1]), int(stall[2]), stall[3]
    if kind == "h":
        return (a, b, "S") if bank == "n" else (a + 1, b, "N")
    return (b, a, "E") if bank == "w" else (b, a + 1, "W")


def stall_poly(stall: str, x0: int, y0: int) -> list[tuple[float, float]]:
    """The trapezoid of a stall tile: its long edge on the island's side facing the channel."""
    i, j, side = stall_side(stall)
    X0, Y0, X1, Y1 = island_box(i, j, x0, y0)
    g = 3  # gap to the neighbouring tiles
    if side == "N":
        return [(X0 + g, Y0), (X1 - g, Y0), (X1 - D, Y0 + D), (X0 + D, Y0 + D)]
    if side == "S":
        return [(X0 + g, Y1), (X1 - g, Y1), (X1 - D, Y1 - D), (X0 + D, Y1 - D)]
    if side == "W":
        return [(X0, Y0 + g), (X0, Y1 - g), (X0 + D, Y1 - D), (X0 + D, Y0 + D)]
    return [(X1, Y0 + g), (X1, Y1 - g), (X1 - D, Y1 - D), (X1 - D, Y0 + D)]


def stall_anchor(stall: str, x0: int, y0: int) -> tuple[float, float, bool]:
    """``(cx, cy, horizontal)``: the centre of the tile's content and whether it runs along a
    horizontal edge (N/S side: content side by side) or a vertical one (stacked)."""
    i, j, side = stall_side(stall)
    X0, Y0, X1, Y1 = island_box(i, j, x0, y0)
    cx, cy = (X0 + X1) / 2, (Y0 + Y1) / 2
    h = D / 2
    if side == "N":
        return cx, Y0 + h, True
    if side == "S":
        return cx, Y1 - h, True
    if side == "W":
        return X0 + h, cy, False
    return X1 - h, cy, False


def section_of_stall(stall: str) -> str:
    return stall[:3]


def crossing_ends(sec: str) -> tuple[str | None, str | None]:
    a, b = int(sec[1]), int(sec[2])

    def x(r: int, c: int) -> str | None:
        return f"x{r}{c}" if 0 <= r <= 2 and 0 <= c <= 2 else None

    if sec[0] == "h":
        return x(a, b - 1), x(a, b)
    return x(b - 1, a), x(b, a)


SECTIONS = tuple(
    [f"h{r}{k}" for r in range(3) for k in range(4)] + [f"v{c}{k}" for c in range(3) for k in range(4)]
)
CROSSINGS = tuple(f"x{r}{c}" for r in range(3) for c in range(3))


def island_sides(i: int, j: int) -> dict[str, str]:
    """side -> stall id on island (i, j) (outer edges have none)."""
    out = {}
    if i > 0:
        out["N"] = f"h{i - 1}{j}s"
    if i < 3:
        out["S"] = f"h{i}{j}n"
    if j > 0:
        out["W"] = f"v{j - 1}{i}e"
    if j < 3:
        out["E"] = f"v{j}{i}w"
    return out


STALLS = tuple(s for i in range(4) for j in range(4) for s in island_sides(i, j).values())


X = frame.MARGIN


HALF = (WIDTH - 2 * X - 20) // 2  # 470


XR = X + HALF + 20


TOP = 10


ROW1_H = 284  # prices | Temple


TEMPLE_COST_H = 40  # the Temple's row of flower costs


ROW2_H = 214  # King | supply


MERCHANT_H = 108


MARKET_H = 34 + 186


TABLE_HEAD, TABLE_ROW = 40, 46


GAP = 6
