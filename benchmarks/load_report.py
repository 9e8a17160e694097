"""The load bench's figures (see :mod:`benchmarks.load`): it runs the load, then reports each
stretch at a rate (its ``/move`` -> board p99 against the aim, a lower bound when the bot fell
behind, and the bot's loop lag), the burst (its slowest acknowledgement and its last board), the
highest rate that met the aim, and whatever the bot logged as a problem."""

from __future__ import annotations

import asyncio
import logging
import os
import statistics
from pathlib import Path
from typing import Any

from .load import AIM_LAG_MS, AIM_P99_MS, AIMED, BACKLOG_S, SHARDED_SECONDS, Phase, Plan, percentile
from .load_run import measure
from .table import Figure, aim_at_most


def rows(quick: bool, folder: Path, shards: int = 0) -> list[Figure]:
    """Run the load and report it (see the module docstring): against one process on SQLite, or
    (``shards`` > 0) against that many shard processes sharing PostgreSQL."""
    logging.getLogger("discord").setLevel(logging.ERROR)
    seconds = SHARDED_SECONDS if shards else 60.0
    if quick:
        n_games, plan = 30, Plan(list(AIMED), 2.0, 0, 2.0, 15, 10.0, recover_s=5.0, tail_s=1.0)
    else:
        n_games, plan = 500, Plan(list(AIMED), seconds, 3, 20.0, 100, 30.0, recover_s=30.0)
    label = f"load ({shards} shards, PostgreSQL)" if shards else "load"
    results, extra = asyncio.run(measure(folder, n_games, plan, shards=shards))
    figs: list[Figure] = []
    for phase in results:
        figs += phase_rows(phase, n_games, label, plan.drain_s)
    return figs + _summary(results, extra, label)


def _summary(results: list[Phase], extra: dict[str, Any], label: str) -> list[Figure]:
    """The highest rate that met the aim, and the bot's exit and problems if it had any."""
    met = [p.rate for p in results if p.rate is not None and p.meets()]
    tried = ", ".join(f"{p.rate:g}" for p in results if p.rate is not None)
    figs = [
        Figure(
            f"{label}: highest rate with p99 < 250 ms",
            f"{max(met):g} moves/s" if met else "none measured",
            "",
            None,
            note=f"of the rates run ({tried} moves/s)",
        )
    ]
    for problem in extra["problems"][:3]:  # the whole record, for whoever reads the bench's output
        print("  a bot logged:\n    " + problem.replace("\n", "\n    "), flush=True)
    if extra["exit"] != 0 or extra["problems"]:
        figs.append(
            Figure(
                f"{label}: the bot's log",
                f"exit {extra['exit']}, {len(extra['problems'])} problems",
                "clean",
                False,
                note=(extra["problems"] or [""])[0][:200],
            )
        )
    return figs


def phase_rows(phase: Phase, n_games: int, label: str = "load", drain_s: float = 0.0) -> list[Figure]:
    """The figures of one stretch: at a rate, or (``phase.rate`` None) the burst."""
    detail = _detail(phase)
    if phase.rate is not None:
        return _rate_rows(phase, n_games, label, drain_s, detail)
    return _burst_rows(phase, n_games, label, drain_s, detail)


def _detail(phase: Phase) -> str:
    """The note every figure of a stretch carries: boards, acknowledgements, loop lags, CPU
    per move, and what was skipped, refused, carried over or left unanswered."""
    nan = float("nan")
    med = statistics.median(phase.boards) if phase.boards else nan
    lagmax = max(phase.lags, default=nan)
    answered = len(phase.boards)
    cpu = ", ".join(f"{k} {v / answered:.3f}" for k, v in phase.cpu.items()) if answered else "-"
    wall = max(1e-9, phase.ended - phase.started)
    cores = sum(v for k, v in phase.cpu.items() if k != "players+fake") / wall
    cpu += f" (the bot and its workers, recap lane included, got {cores:.2f} cores"
    cpu += f" over the {wall:.0f} s; machine load average {os.getloadavg()[0]:.1f})"
    detail = (
        f"{answered} boards, median {med:.0f} ms; ack p99 {percentile(phase.acks, 99):.0f} ms, "
        f"max {max(phase.acks, default=nan):.0f} ms; bot loop lag max {lagmax:.0f} ms; "
        f"CPU s per move: {cpu}; "
        f"{phase.skipped} arrivals found no idle game, {len(phase.refused)} refused, {phase.lost} unanswered "
        f"after the drain; the players' own loop lag p99 {percentile(phase.driver_lags, 99):.0f} ms"
    )
    if phase.carried:
        detail += f"; it began with {phase.carried} moves of earlier stretches still unanswered"
    if phase.refused:
        detail += f"; refusals: {sorted(set(phase.refused))[:2]}"
    return detail


def _rate_rows(phase: Phase, n_games: int, label: str, drain_s: float, detail: str) -> list[Figure]:
    """A stretch at a rate: its ``/move`` -> board p99 (a lower bound when the bot fell behind)
    and the bot's loop lag p99 (aimed at for 20 moves/s only)."""
    assert phase.rate is not None
    aimed = phase.rate in AIMED
    sending = phase.seconds if phase.overloaded_at is None else phase.overloaded_at
    board = aim_at_most(
        f"{label} {phase.name}: /move -> board p99",
        phase.p99,
        AIM_P99_MS,
        "ms",
        "{:.0f}",
        note=f"{n_games} games, {phase.sent} moves sent in {sending:.0f} s of {phase.seconds:g}; " + detail,
    )
    if phase.behind:  # what it measured is a lower bound: the bot did not keep up
        why = []
        if phase.overloaded_at is not None:
            why.append(f"fell behind after {phase.overloaded_at:.0f} s, {phase.backlog} moves waiting")
        if phase.lost:
            why.append(f"{phase.lost} unanswered after the {drain_s:g} s wait")
        note = board.note
        if phase.overloaded_at is not None:
            note += f"; it stopped sending once {BACKLOG_S:g} s of moves were waiting"
        board = Figure(board.name, f"> {board.value} ({'; '.join(why)})", board.aim, False, note)
    lag99 = percentile(phase.lags, 99)
    lag = aim_at_most(f"{label} {phase.name}: bot event-loop lag p99", lag99, AIM_LAG_MS, "ms", "{:.1f}")
    if phase.rate != 20.0:
        lag = Figure(lag.name, lag.value, "", None)
    if not aimed:
        board = Figure(board.name, board.value, board.aim, None, board.note)
    return [board, lag]


def _burst_rows(phase: Phase, n_games: int, label: str, drain_s: float, detail: str) -> list[Figure]:
    """The burst: its slowest acknowledgement and its last board (a lower bound when some
    moves were never answered)."""
    worst_ack = max(phase.acks, default=float("inf"))
    last = 1000 * (phase.last_board - phase.first_sent) if phase.boards else float("inf")
    if phase.lost:  # some never came: the last board came at least as late as the wait's end
        last = max(last if phase.boards else 0.0, 1000 * (phase.drained_at - phase.first_sent))
    lag99 = percentile(phase.lags, 99)
    figs = [
        aim_at_most(
            f"{label} {phase.name}: slowest acknowledgement",
            worst_ack,
            1000,
            "ms",
            "{:.0f}",
            note=f"{n_games} games; " + detail,
        ),
        aim_at_most(
            f"{label} {phase.name}: last board",
            last,
            1500,
            "ms",
            "{:.0f}",
            note=f"from the first interaction sent; p99 of each move {phase.p99:.0f} ms; bot "
            f"loop lag p99 {lag99:.0f} ms",
        ),
    ]
    if phase.lost:
        last_fig = figs[1]
        value = f"> {last_fig.value} ({phase.lost} unanswered after the {drain_s:g} s wait)"
        figs[1] = Figure(last_fig.name, value, last_fig.aim, False, last_fig.note)
    return figs
