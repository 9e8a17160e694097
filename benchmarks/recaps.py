"""The recap of a game's longest seeded game (issue 21, item 8): for each game at its most
players, AI games of :data:`SEEDS` seeds (``quick``: :data:`QUICK_SEEDS`) are played, the one
with the most turns is replayed into its animated recap exactly as the bot posts it
(``render.recap.recap`` with the posted boards), and its bytes (aim ≤ ``BUDGET``), frames kept
against turns (aim: every turn), shortest frame time (aim ≥ 0.8 s), length in seconds and the
time spent drawing and encoding it are reported. Nothing is asserted (the slow test
``tests/test_render_canvas.py`` asserts the budget)."""

from __future__ import annotations

import io
import time
from dataclasses import dataclass
from typing import Any

from PIL import Image

from bot.offline.demo import DEMO_NAMES, ai_game
from engines import base
from render import recap

SEEDS = range(1, 11)
QUICK_SEEDS = range(1, 4)
AIM_FRAME_MS = 800


@dataclass
class RecapFigures:
    game: str
    players: int
    seed: int
    turns: int
    made: recap.Recap
    seconds: float  # drawing and encoding it (wall)
    durations: list[int]  # each frame's time on screen, ms


def longest(game: str, seeds: range) -> tuple[int, int, list[tuple[int, str]]]:
    """``(turns, seed, moves)`` of the seeded AI game with the most turns at the most players."""
    engine = base.get(game)
    n = engine.max_players
    opts = engine.resolve_options({})
    best: tuple[int, int, list[tuple[int, str]]] | None = None
    for seed in seeds:
        _, moves = ai_game(engine, seed, n, opts)
        turns = sum(1 for _ in recap.replayed_turns(engine, seed, n, opts, moves))
        if best is None or turns > best[0]:
            best = (turns, seed, moves)
    assert best is not None
    return best


def measure(game: str, seeds: range) -> RecapFigures:
    engine = base.get(game)
    n = engine.max_players
    turns, seed, moves = longest(game, seeds)
    t0 = time.perf_counter()
    made = recap.recap(engine, seed, n, engine.resolve_options({}), moves, recap.posted(game), DEMO_NAMES[:n])
    seconds = time.perf_counter() - t0
    durations = []
    with Image.open(io.BytesIO(made.data)) as gif:
        for i in range(int(getattr(gif, "n_frames", 1))):
            gif.seek(i)
            durations.append(int(gif.info.get("duration", 0)))
    return RecapFigures(game, n, seed, turns, made, seconds, durations)


def rows(f: RecapFigures) -> list[dict[str, Any]]:
    label = f"recap {f.game} {f.players}p (seed {f.seed})"
    mb = f.made.size / 1_000_000
    shortest = min(f.durations[:-1] or f.durations)
    return [
        {
            "name": f"{label} bytes",
            "value": round(mb, 2),
            "unit": "MB",
            "aim": f"≤ {recap.BUDGET / 1_000_000:g} MB",
            "met": f.made.size <= recap.BUDGET,
        },
        {
            "name": f"{label} frames of turns",
            "value": f"{f.made.frames}/{f.turns}",
            "unit": "",
            "aim": "every turn",
            "met": f.made.frames == f.turns,
        },
        {
            "name": f"{label} shortest frame",
            "value": shortest,
            "unit": "ms",
            "aim": f"≥ {AIM_FRAME_MS} ms",
            "met": shortest >= AIM_FRAME_MS,
        },
        {
            "name": f"{label} length",
            "value": round(sum(f.durations) / 1000, 1),
            "unit": "s",
            "aim": "",
            "met": None,
        },
        {"name": f"{label} draw+encode", "value": round(f.seconds, 1), "unit": "s", "aim": "", "met": None},
    ]


def figures(quick: bool = False) -> list[dict[str, Any]]:
    """Every game's rows (see :func:`rows`), printed as they come."""
    seeds = QUICK_SEEDS if quick else SEEDS
    print(
        f"\n[recap] the longest of seeds {seeds.start}-{seeds.stop - 1} per game at its most players, "
        "as the bot posts it",
        flush=True,
    )
    out: list[dict[str, Any]] = []
    for engine in base.games():
        f = measure(engine.name, seeds)
        print(
            f"  {f.game:<8}{f.players:>2}p seed {f.seed:<3} {f.made.frames:>4}/{f.turns:<4} frames "
            f"{f.made.width}x{f.made.height} {f.made.size / 1_000_000:6.2f} MB "
            f"{sum(f.durations) / 1000:6.1f} s long, drawn in {f.seconds:5.1f} s",
            flush=True,
        )
        out += rows(f)
    return out
