"""Seat colours stay apart for everyone: every pair of the five seat colours is at least
``MIN_DELTA_E`` (CIE 1976 ΔE*ab) apart under normal vision and under simulated protanopia and
deuteranopia (Machado, Oliveira & Fernandes 2009, severity 1.0, applied in linear sRGB), and each
stands out from the paper background. The simulation is checked against the known confusion of
the old palette (vermillion and orange, bluish green and reddish purple) so it cannot pass
vacuously."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import pytest

from render.common import BG, PANEL, SEAT_COLORS, seat_initials

MIN_DELTA_E = 25.0
Colour = Sequence[float]
"""An sRGB colour, 0–255 a channel."""
Matrix = tuple[tuple[float, float, float], ...]
PROTAN = ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998))
DEUTAN = ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881))
VISIONS: dict[str, Matrix | None] = {"normal": None, "protanopia": PROTAN, "deuteranopia": DEUTAN}


def _linear(c: Colour) -> list[float]:
    return [v / 255 / 12.92 if v / 255 <= 0.04045 else ((v / 255 + 0.055) / 1.055) ** 2.4 for v in c]


def _mul(m: Matrix, v: Sequence[float]) -> list[float]:
    return [sum(m[i][j] * v[j] for j in range(3)) for i in range(3)]


def simulate(c: Colour, matrix: Matrix | None) -> tuple[float, ...]:
    """``c`` as seen with the deficiency ``matrix`` (None: as is), in sRGB 0–255."""
    if matrix is None:
        return tuple(float(v) for v in c)
    lin = [min(1.0, max(0.0, v)) for v in _mul(matrix, _linear(c))]
    return tuple((v * 12.92 if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055) * 255 for v in lin)


def lab(c: Colour) -> tuple[float, float, float]:
    x, y, z = (
        a / b
        for a, b in zip(
            _mul(((0.4124, 0.3576, 0.1805), (0.2126, 0.7152, 0.0722), (0.0193, 0.1192, 0.9505)), _linear(c)),
            (0.95047, 1.0, 1.08883),
            strict=True,
        )
    )

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(a: Colour, b: Colour) -> float:
    distance: float = sum((p - q) ** 2 for p, q in zip(lab(a), lab(b), strict=True)) ** 0.5
    return distance


def closest(colours: Sequence[Colour], matrix: Matrix | None) -> float:
    return min(
        delta_e(simulate(a, matrix), simulate(b, matrix)) for a, b in itertools.combinations(colours, 2)
    )


@pytest.mark.parametrize("vision", list(VISIONS))
def test_five_seat_colours_stay_apart(vision: str) -> None:
    assert len(SEAT_COLORS) == 5
    assert closest(SEAT_COLORS, VISIONS[vision]) >= MIN_DELTA_E
    for c in SEAT_COLORS:
        for paper in (BG, PANEL):
            assert delta_e(simulate(c, VISIONS[vision]), simulate(paper, VISIONS[vision])) >= MIN_DELTA_E


def test_the_simulation_sees_the_old_palettes_confusions() -> None:
    old = [(0, 114, 178), (213, 94, 0), (0, 158, 115), (204, 121, 167), (230, 159, 0)]
    assert closest(old, None) >= MIN_DELTA_E  # fine with normal vision...
    assert closest(old, DEUTAN) < 20  # ...but vermillion/orange and green/purple merge
    assert delta_e(simulate(old[1], DEUTAN), simulate(old[4], DEUTAN)) < 20


def test_every_seat_has_a_distinct_initial() -> None:
    for names in (
        ["Asha", "Bilal", "Chen", "Dara", "Emeka"],
        ["You", "AI Asha", "AI Bilal"],
        ["Bob", "Bilal", "Ben", "Bo", "Bob"],
        ["x", "x", "x"],
        ["", "?", "!"],
    ):
        tags = seat_initials(names)
        assert len(set(tags)) == len(tags) and all(1 <= len(t) <= 2 for t in tags), (names, tags)
    assert seat_initials(["Asha", "Bilal", "AI Chen"]) == ["A", "B", "C"]
