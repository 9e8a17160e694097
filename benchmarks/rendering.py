"""Rendering cost per posted board: drawing and PNG encoding timed apart, PNG bytes.

For each game at its largest board (the most players, late in the game) the board is drawn the
way the bot posts it (``render.board_parts``: the caption strip of the last move and the board
marking what changed since the previous one, as bot/host/drawing.py ``boards`` does through
``render.board_png``), then encoded as ``render.board_png`` encodes it (on the game's house
palette where it fits, read before the first board);
a game's second picture (``extra``, posted in the same message, ``render.extra_png``) is timed
and weighed apart, with the same aims.
Wall-clock figures are what the bot pays; the CPU figures (``time.process_time``) beside them
show how much of a slow wall time is other processes on a shared machine.

:func:`figures` returns the rows (name, value, unit, aim, met) for the bench table; :func:`main`
prints them per game. Nothing is asserted.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import render
from engines import base
from render import caption

NAMES = ["Asha", "Bilal", "Chen", "Dara", "Emeka"]
SNAPSHOTS = 60  # boards timed per game (QUICK_SNAPSHOTS with quick=True)
QUICK_SNAPSHOTS = 15
AIM_MEDIAN_MS = 12.0
AIM_P99_MS = 25.0
AIM_PNG_KB = 120.0

Step = tuple[Mapping[str, Any], Mapping[str, Any] | None, list[caption.Line]]


def late_steps(engine: base.Engine, n: int, count: int) -> list[Step]:
    """``count`` (view, previous view, caption lines) from the late part (60-95 %) of seeded
    random games with ``n`` players: the largest boards, with what the last move changed."""
    names = NAMES[:n]
    out: list[Step] = []
    seed = 0
    while len(out) < count:
        rng = random.Random(seed)
        state = engine.setup(seed, n, {})
        seed += 1
        steps: list[Step] = []
        previous: Mapping[str, Any] | None = None
        while engine.outcome(state) is None and len(steps) < 3000:
            seat = rng.choice(engine.to_move(state))
            state, events = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
            view = engine.view(state, None)
            steps.append((view, previous, caption.lines_of([(seat, events)], names)))
            previous = view
        out += steps[int(0.6 * len(steps)) : int(0.95 * len(steps))]
    # spread the picks over every game played rather than the first game's last moves
    return [out[round(i * (len(out) - 1) / max(1, count - 1))] for i in range(count)]


def _pct(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, round(p * (len(s) - 1)))]


@dataclass
class GameFigures:
    game: str
    players: int
    size: tuple[int, int]  # the largest board's pixels
    draw_ms: list[float]
    encode_ms: list[float]
    draw_cpu_ms: list[float]
    encode_cpu_ms: list[float]
    png_bytes: list[int]
    extra_ms: list[float] = field(default_factory=list)  # the second picture drawn and encoded
    extra_bytes: list[int] = field(default_factory=list)

    @property
    def total_ms(self) -> list[float]:
        return [a + b for a, b in zip(self.draw_ms, self.encode_ms, strict=True)]

    @property
    def encoder_share(self) -> float:
        return sum(self.encode_ms) / sum(self.total_ms)


def measure_game(game: str, count: int) -> GameFigures:
    """Draw and encode ``count`` late boards of ``game`` at its most players (after one warm-up
    board, as a long-running bot process would be)."""
    engine = base.get(game)
    n = engine.max_players
    names = NAMES[:n]
    steps = late_steps(engine, n, count)
    view, previous, lines = steps[0]
    levels = render.board_png_levels(game)
    render.board_png(game, view, names, caption=lines, previous=previous)
    render.extra_png(game, view, names, previous=previous)
    f = GameFigures(game, n, (0, 0), [], [], [], [], [])
    for view, previous, lines in steps:
        c0, t0 = time.process_time(), time.perf_counter()
        parts = render.board_parts(game, view, names, caption=lines, previous=previous)
        c1, t1 = time.process_time(), time.perf_counter()
        png = render.encode(game, "board", parts, n, levels)
        c2, t2 = time.process_time(), time.perf_counter()
        f.draw_ms.append(1000 * (t1 - t0))
        f.encode_ms.append(1000 * (t2 - t1))
        f.draw_cpu_ms.append(1000 * (c1 - c0))
        f.encode_cpu_ms.append(1000 * (c2 - c1))
        f.png_bytes.append(len(png))
        size = (parts[0].width, sum(p.height for p in parts))
        if size[0] * size[1] > f.size[0] * f.size[1]:
            f.size = size
        t3 = time.perf_counter()
        second = render.extra_png(game, view, names, previous=previous)
        if second is not None:
            f.extra_bytes.append(len(second))
            f.extra_ms.append(1000 * (time.perf_counter() - t3))
    return f


def rows(f: GameFigures) -> list[dict[str, Any]]:
    """The bench-table rows of one game: board + PNG median and p99 against the aims, the PNG's
    largest size against its aim; the drawing alone and the encoder's share for information."""
    label = f"render {f.game} {f.players}p"
    total, draw = f.total_ms, f.draw_ms
    kb = max(f.png_bytes) / 1024

    def row(name: str, value: float, unit: str, aim: float | None) -> dict[str, Any]:
        return {
            "name": f"{label} {name}",
            "value": round(value, 1),
            "unit": unit,
            "aim": f"≤ {aim:g} {unit}" if aim is not None else "",
            "met": value <= aim if aim is not None else None,
        }

    out = [
        row("board+PNG median", statistics.median(total), "ms", AIM_MEDIAN_MS),
        row("board+PNG p99", _pct(total, 0.99), "ms", AIM_P99_MS),
        row("PNG largest", kb, "KB", AIM_PNG_KB),
        row("drawing median", statistics.median(draw), "ms", None),
        row("drawing p99", _pct(draw, 0.99), "ms", None),
        row("encoder share", 100 * f.encoder_share, "%", None),
    ]
    if f.extra_ms:
        out += [
            row("2nd picture+PNG median", statistics.median(f.extra_ms), "ms", AIM_MEDIAN_MS),
            row("2nd picture+PNG p99", _pct(f.extra_ms, 0.99), "ms", AIM_P99_MS),
            row("2nd picture PNG largest", max(f.extra_bytes) / 1024, "KB", AIM_PNG_KB),
        ]
    return out


def figures(quick: bool = False) -> list[dict[str, Any]]:
    """Every game's rows (see :func:`rows`): name, value, unit, aim ("" if none), met (None if
    no aim), after printing them per game with a verdict (:func:`main`)."""
    return main(quick)


def main(quick: bool = False) -> list[dict[str, Any]]:
    count = QUICK_SNAPSHOTS if quick else SNAPSHOTS
    print(
        f"\n[render] the largest board per game (most players, late game) as posted: "
        f"render.board_parts, then render.encode; {count} boards each; wall ms (CPU ms); "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    print(
        f"  {'game':<8}{'pl':>3}{'px':>10}  {'draw med':>14}{'draw p99':>14}{'encode med':>14}"
        f"{'total med':>14}{'total p99':>14}{'KB med':>8}{'KB max':>8}{'enc %':>7}"
    )
    out: list[dict[str, Any]] = []
    for engine in base.games():
        f = measure_game(engine.name, count)
        out += rows(f)

        def both(wall: list[float], cpu: list[float], p: float | None = None) -> str:
            if p is None:
                return f"{statistics.median(wall):6.1f} ({statistics.median(cpu):5.1f})"
            w, c = _pct(wall, p), _pct(cpu, p)
            return f"{w:6.1f} ({c:5.1f})"

        cpu_total = [a + b for a, b in zip(f.draw_cpu_ms, f.encode_cpu_ms, strict=True)]
        print(
            f"  {f.game:<8}{f.players:>3}{f'{f.size[0]}x{f.size[1]}':>10}  "
            f"{both(f.draw_ms, f.draw_cpu_ms):>14}{both(f.draw_ms, f.draw_cpu_ms, 0.99):>14}"
            f"{both(f.encode_ms, f.encode_cpu_ms):>14}{both(f.total_ms, cpu_total):>14}"
            f"{both(f.total_ms, cpu_total, 0.99):>14}"
            f"{statistics.median(f.png_bytes) / 1024:>8.1f}{max(f.png_bytes) / 1024:>8.1f}"
            f"{100 * f.encoder_share:>6.0f}%"
        )
    print(
        f"  aims: board+PNG median ≤ {AIM_MEDIAN_MS:g} ms, p99 ≤ {AIM_P99_MS:g} ms, PNG ≤ {AIM_PNG_KB:g} KB"
    )
    print(f"  {'figure':<44}{'value':>8} {'':<3} {'aim':<10} verdict")
    for r in out:
        if r["met"] is not None:
            verdict = "met" if r["met"] else "NOT met"
            print(f"  {r['name']:<44}{r['value']:>8} {r['unit']:<3} {r['aim']:<10} {verdict}")
    return out


if __name__ == "__main__":
    import sys

    main("--quick" in sys.argv)
