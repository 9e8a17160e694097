"""The load bench's choice of stretches (benchmarks/load.py ``Plan``), with a stand-in for the bot:
every aimed rate is run and reported, also after a lower one fell behind; the next stretch waits
(a bounded time) for what an overloaded one left unanswered; lower rates are tried only when the
lowest aimed rate misses; a stretch that fell behind reports its p99 as a lower bound. No timing."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from benchmarks.load import AIMED, Phase, Plan
from benchmarks.load_report import phase_rows


class FakeLoad:
    """Answers each rate as ``p99_at(rate)`` ms; rates above ``keeps_up`` fall behind, leaving
    ``leaves`` moves unanswered, which the bot answers during the next recovery wait."""

    def __init__(
        self, keeps_up: float, p99_at: Callable[[float], float] = lambda rate: 100.0, leaves: int = 3
    ) -> None:
        self.keeps_up, self.p99_at, self.leaves = keeps_up, p99_at, leaves
        self.calls: list[tuple[Any, ...]] = []
        self.waiting = 0

    async def recover(self, timeout: float) -> int:
        self.calls.append(("recover", timeout, self.waiting))
        self.waiting = 0
        return 0

    async def poisson(self, rate: float, seconds: float) -> Phase:
        self.calls.append(("poisson", rate, seconds, self.waiting))
        phase = Phase(f"{rate:g} moves/s", seconds, sent=int(rate * seconds))
        phase.boards = [self.p99_at(rate)] * 100
        if rate > self.keeps_up:
            phase.overloaded_at, phase.backlog = 4.0, int(rate * 5)
            phase.lost, phase.waited = self.leaves, [30_000.0] * self.leaves
            self.waiting = self.leaves
        return phase

    async def burst(self, count: int) -> Phase:
        self.calls.append(("burst", count, self.waiting))
        phase = Phase(f"burst of {count}", 0.0, sent=count)
        phase.boards = [500.0] * count
        return phase


def _run(plan: Plan, load: FakeLoad) -> list[Phase]:
    return asyncio.run(plan.run(load))


def test_every_aimed_rate_is_run_though_the_first_falls_behind() -> None:
    load = FakeLoad(keeps_up=5.0, p99_at=lambda rate: 100.0 if rate <= 2.5 else 400.0)
    phases = _run(Plan(list(AIMED), 60.0, 3, 20.0, 100, 30.0, recover_s=45.0), load)
    stretches = [c[1:3] for c in load.calls if c[0] == "poisson"]
    # 10, 20, 40 (all fall behind), then halving from the lowest aimed: 5 (misses: p99 400 ms), 2.5 (meets)
    assert stretches == [(10.0, 60.0), (20.0, 60.0), (40.0, 60.0), (5.0, 20.0), (2.5, 20.0)]
    assert [p.name for p in phases][-1] == "burst of 100"
    # before every stretch but the first, a recovery wait; no stretch started with moves waiting
    kinds = [c[0] for c in load.calls]
    assert kinds == ["poisson"] + ["recover", "poisson"] * 4 + ["recover", "burst"]
    assert all(c[-1] == 0 for c in load.calls if c[0] in ("poisson", "burst"))
    assert all(c[1] == 45.0 for c in load.calls if c[0] == "recover")
    assert [p.meets() for p in phases[:5]] == [False, False, False, False, True]


def test_no_lower_rates_when_the_lowest_aimed_rate_meets_the_aim() -> None:
    load = FakeLoad(keeps_up=25.0)
    _run(Plan(list(AIMED), 60.0, 3, 20.0, 100, 30.0), load)
    assert [c[1] for c in load.calls if c[0] == "poisson"] == [10.0, 20.0, 40.0]


def test_quick_plan_runs_the_three_rates_and_the_burst() -> None:
    load = FakeLoad(keeps_up=0.0)
    phases = _run(Plan(list(AIMED), 2.0, 0, 2.0, 15, 10.0, recover_s=5.0, tail_s=1.0), load)
    assert [p.name for p in phases] == ["10 moves/s", "20 moves/s", "40 moves/s", "burst of 15"]


def test_a_stretch_that_fell_behind_reports_a_lower_bound_and_why() -> None:
    phase = Phase("40 moves/s", 60.0, sent=200)
    phase.boards = [100.0] * 90
    phase.overloaded_at, phase.backlog, phase.lost, phase.waited = 7.0, 200, 10, [31_000.0] * 10
    board, lag = phase_rows(phase, 500, "load", drain_s=30.0)
    assert board.met is False
    assert board.value.startswith("> 31000 ms (fell behind after 7 s, 200 moves waiting; 10 unanswered")
    kept = Phase("10 moves/s", 60.0, sent=600)
    kept.boards = [100.0] * 600
    board, _ = phase_rows(kept, 500, "load", drain_s=30.0)
    assert board.met is True and board.value == "100 ms"


def test_a_burst_with_unanswered_moves_reports_the_last_board_as_a_lower_bound() -> None:
    phase = Phase("burst of 100", 0.0, sent=100)
    phase.boards, phase.first_sent, phase.last_board = [900.0] * 95, 10.0, 11.0
    phase.lost, phase.drained_at = 5, 40.0
    ack, last = phase_rows(phase, 500, "load", drain_s=30.0)
    assert last.met is False and last.value == "> 30000 ms (5 unanswered after the 30 s wait)"
