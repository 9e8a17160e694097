"""``bazaar arena``: seeded games between AI levels, with win shares and confidence intervals.

Each game seats two levels, A and B, alternately (A B A B … in game 0, B A B A … in game 1, so
each level sits in each seat equally often over a pair of games), and the two games of a pair
share their seed: the same deal is played with the seats swapped, so the luck of the deal cancels
out of the comparison. A game's statistic is A's win
credit (1 per win, split between tied winners, summed over A's seats) minus what equal strength
would give it (A's seats over the player count); its mean over the games comes with a 95%
confidence interval (normal approximation), and A beats B with 95% confidence when the interval
lies above 0. Also printed: each level's wins per seat, the mean score margin (A's mean seat score
minus B's; a seat that scores nothing counts 0), the escape rate where a game has escapes (seats
that had an escape among their legal moves, as ``Engine.irreversible`` names it, and took one),
and the milliseconds per AI move (median and 99th percentile, moves with one legal action left
out), with how many took longer than the level's time cap.

Every AI move comes from ``engines.search.choose`` with the seat's own view only, seeded from the
game's seed, its version and the seat (``engines.search.ai_seed``), as the bot does. Searches play
their iteration budget in full (no time cap, unlike the bot), so a busy machine gives the same
games, only slower; the milliseconds per move then show whether the budgets fit the caps.
"""

from __future__ import annotations

import concurrent.futures as cf
import math
import multiprocessing
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engines import base, search


@dataclass
class GameResult:
    seed: int
    levels: list[str]
    ranks: list[int]
    scores: list[int | None]
    winners: list[int]
    could_escape: list[bool]
    escaped: list[bool]
    ms: dict[str, list[float]] = field(default_factory=dict)
    capped: dict[str, int] = field(default_factory=dict)
    moves: int = 0


def seat_levels(index: int, n: int, a: str, b: str) -> list[str]:
    """The level of each seat in game ``index``: A and B alternately, starting with A in even games."""
    return [a if (s + index) % 2 == 0 else b for s in range(n)]


def play(
    game: str, n: int, options: dict[str, Any], seed: int, levels: Sequence[str], cap: bool = False
) -> GameResult:
    """One seeded game with ``levels[s]`` playing seat ``s`` (searches in full unless ``cap``)."""
    import engines

    engines.load_all()
    engine = base.get(game)
    state = engine.setup(seed, n, options)
    could = [False] * n
    ms: dict[str, list[float]] = {}
    capped: dict[str, int] = {}
    version = 0
    while engine.outcome(state) is None:
        seat = base.first_awaited(engine, state)
        legal = engine.legal_actions(state, seat)
        if engine.has_escapes and not could[seat] and any(engine.irreversible(state, seat, a) for a in legal):
            could[seat] = True
        view = engine.view(state, seat)
        started = time.perf_counter()
        found = search.choose(engine, view, legal, levels[seat], search.ai_seed(seed, version, seat), cap=cap)
        if len(legal) > 1:
            took = time.perf_counter() - started
            ms.setdefault(levels[seat], []).append(took * 1000)
            over = found.capped or took > search.TIME_CAPS.get(levels[seat], float("inf"))
            capped[levels[seat]] = capped.get(levels[seat], 0) + int(over)
        state = base.play(engine, state, seat, found.action).state
        version += 1
    out = engine.outcome(state)
    assert out is not None
    return GameResult(
        seed,
        list(levels),
        list(out.ranks),
        list(out.scores),
        list(out.winners),
        could,
        [s is not None for s in out.scores],
        ms,
        capped,
        version,
    )


def _play_job(args: tuple[str, int, dict[str, Any], int, list[str]]) -> GameResult:
    return play(*args)


@dataclass
class Summary:
    game: str
    players: int
    a: str
    b: str
    games: int
    edge: float  # mean of (A's win credit - A's fair share)
    low: float
    high: float
    win_per_seat: dict[str, float]
    margin: float
    escape: dict[str, tuple[int, int]]  # level -> (escaped, could)
    ms: dict[str, tuple[float, float, int]]  # level -> (median, p99, moves)
    capped: dict[str, int]

    @property
    def verdict(self) -> str:
        if self.low > 0:
            return f"{self.a} > {self.b}"
        if self.high < 0:
            return f"{self.b} > {self.a}"
        return "no difference shown"


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[k]


def summarise(game: str, n: int, a: str, b: str, results: Sequence[GameResult]) -> Summary:
    edges, margins = [], []
    wins = {a: 0.0, b: 0.0}
    seats = {a: 0, b: 0}
    escape: dict[str, list[int]] = {}
    ms: dict[str, list[float]] = {}
    capped: dict[str, int] = {}
    for r in results:
        share = 1.0 / len(r.winners)
        credit = sum(share for s in r.winners if r.levels[s] == a)
        edges.append(credit - r.levels.count(a) / n)
        score = {lv: [float(r.scores[s] or 0) for s in range(n) if r.levels[s] == lv] for lv in (a, b)}
        if a != b:
            margins.append(statistics.fmean(score[a]) - statistics.fmean(score[b]))
        for s, lv in enumerate(r.levels):
            seats[lv] += 1
            wins[lv] += share if s in r.winners else 0.0
            if r.could_escape[s]:
                e = escape.setdefault(lv, [0, 0])
                e[1] += 1
                e[0] += int(r.escaped[s])
        for lv, values in r.ms.items():
            ms.setdefault(lv, []).extend(values)
        for lv, c in r.capped.items():
            capped[lv] = capped.get(lv, 0) + c
    mean = statistics.fmean(edges)
    half = 1.96 * statistics.stdev(edges) / math.sqrt(len(edges)) if len(edges) > 1 else float("inf")
    return Summary(
        game,
        n,
        a,
        b,
        len(results),
        mean,
        mean - half,
        mean + half,
        {lv: wins[lv] / seats[lv] if seats[lv] else 0.0 for lv in wins},
        statistics.fmean(margins) if margins else 0.0,
        {lv: (e[0], e[1]) for lv, e in escape.items()},
        {lv: (statistics.median(v), percentile(v, 0.99), len(v)) for lv, v in ms.items()},
        capped,
    )


def run(
    game: str, n: int, a: str, b: str, games: int, seed: int, jobs: int, options: dict[str, Any] | None = None
) -> Summary:
    """Play ``games`` seeded games of ``game`` at ``n`` players, A against B, on ``jobs`` processes."""
    work = [
        (game, n, dict(options or {}), seed * 100_003 + i // 2, seat_levels(i, n, a, b)) for i in range(games)
    ]
    if jobs <= 1:
        results = [_play_job(w) for w in work]
    else:
        ctx = multiprocessing.get_context("spawn")
        with cf.ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
            results = list(pool.map(_play_job, work))
    return summarise(game, n, a, b, results)


def report(s: Summary) -> str:
    """The summary as lines of text."""
    lines = [
        f"{s.game} {s.players}p  {s.a} vs {s.b}  {s.games} games:  {s.a}'s edge in wins per game "
        f"{s.edge:+.3f} (95% CI {s.low:+.3f} … {s.high:+.3f}) → {s.verdict}",
        "    wins per seat: "
        + ", ".join(f"{lv} {w:.1%}" for lv, w in s.win_per_seat.items())
        + f";  score margin {s.a}−{s.b}: {s.margin:+.1f}",
    ]
    if s.escape:
        lines.append(
            "    escaped when they could: "
            + ", ".join(f"{lv} {e}/{c} ({e / c:.0%})" for lv, (e, c) in s.escape.items() if c)
        )
    lines.append(
        "    ms per AI move: "
        + ", ".join(
            f"{lv} median {m:.1f} p99 {p:.1f} ({k} moves"
            + (f", {s.capped.get(lv, 0)} over the cap" if lv != "easy" else "")
            + ")"
            for lv, (m, p, k) in sorted(s.ms.items())
        )
    )
    return "\n".join(lines)
