"""The engine and rendering sections of the bench table (aims 1 and 2 of issue #13): the rows of
``engine_speed.figures`` and ``rendering.figures``, made into table figures."""

from __future__ import annotations

from .table import Figure, from_rows


def engine_rows(quick: bool) -> list[Figure]:
    from . import engine_speed

    return from_rows(engine_speed.figures(quick))


def render_rows(quick: bool) -> list[Figure]:
    """Each game's board (and second picture) drawn and encoded, then the recap of its longest
    seeded game (:mod:`benchmarks.recaps`), then ``/replay`` of a long game (:mod:`benchmarks.replays`)."""
    from . import recaps, rendering, replays

    return from_rows(rendering.figures(quick)) + from_rows(recaps.figures(quick)) + replays.rows(quick)
