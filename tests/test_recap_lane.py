"""The workers' long-job lane (bot/host/workers.py ``Workers.run_long``), where recaps are drawn
(a whole game's boards: 3 to 16 CPU-seconds): its own process at a lowered CPU priority, never
the board pool, so a board is not queued behind a running recap; it ends with the bot."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from bot.host import drawing
from bot.host.workers import LANE_NICE, Workers, WorkersClosed
from tests.test_workers import wait_for_go  # the held long job: says it started, waits for go


def niceness() -> int:
    return os.nice(0)


def thread_names() -> list[str]:
    return [t.name for t in threading.enumerate()]


async def _started(path: Path, job: asyncio.Future[Any], limit: float = 60.0) -> None:
    end = time.monotonic() + limit  # a worker process may take seconds to start
    while not path.exists() and not job.done() and time.monotonic() < end:
        await asyncio.sleep(0.01)
    assert path.exists(), "the long job did not start"


@pytest.mark.parametrize("size", [1, 0])
async def test_a_board_is_not_queued_behind_a_running_recap(tmp_path: Path, size: int) -> None:
    """With one board worker (a shard process's pool) or threads: while a long job holds the
    lane, board jobs are drawn at once; the long job is still running when they are back."""
    workers = Workers(size)
    started, go = tmp_path / "started", tmp_path / "go"
    try:
        long_job = asyncio.ensure_future(workers.run_long(wait_for_go, str(started), str(go)))
        await _started(started, long_job)
        boards = await asyncio.wait_for(asyncio.gather(*(workers.run(drawing.warm) for _ in range(3))), 60)
        assert not long_job.done()  # the boards did not wait for it
        go.touch()
        lane_pid, went = await long_job
        assert went
        if size:
            assert set(boards) == {boards[0]} and lane_pid not in boards  # another process
            assert workers.lane_pids() == [lane_pid]
    finally:
        go.touch()
        workers.close()


async def test_the_lane_runs_at_a_lower_cpu_priority_and_watches_the_bot() -> None:
    workers = Workers(1)
    try:
        board, lane = await workers.run(niceness), await workers.run_long(niceness)
        assert lane == min(19, board + LANE_NICE)
        assert "bazaar-orphan-watch" in await workers.run_long(thread_names)  # ends if the bot dies
    finally:
        workers.close()


async def test_closing_ends_the_lane_process_and_its_running_job(tmp_path: Path) -> None:
    workers = Workers(1)
    started, go = tmp_path / "started", tmp_path / "go"
    long_job = asyncio.ensure_future(workers.run_long(wait_for_go, str(started), str(go)))
    await _started(started, long_job)
    [pid] = workers.lane_pids()
    workers.close()
    with pytest.raises(WorkersClosed):
        await asyncio.wait_for(long_job, 30)
    end = time.monotonic() + 10
    while time.monotonic() < end and _alive(pid):
        await asyncio.sleep(0.05)
    assert not _alive(pid)
    assert await workers.run_long(niceness) >= LANE_NICE  # a closed pool starts again on demand
    workers.close()


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state != "Z"


async def test_a_thread_job_that_outlives_close_gives_its_result_to_nobody() -> None:
    workers = Workers(0)
    go = threading.Event()
    job = asyncio.ensure_future(workers.run_long(go.wait, 30))
    await asyncio.sleep(0.05)
    workers.close()
    go.set()
    with pytest.raises(WorkersClosed):
        await asyncio.wait_for(job, 30)


_BOT = """
import asyncio, os, sys, time
from bot.host.workers import Workers

async def main():
    workers = Workers(1)
    print(await workers.run_long(os.getpid), flush=True)
    time.sleep(120)

asyncio.run(main())
"""


async def test_the_lane_process_ends_when_the_bot_is_killed() -> None:
    """A bot killed outright (no close): its recap lane's process sees it gone and ends."""
    import signal
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    bot = subprocess.Popen([sys.executable, "-c", _BOT], cwd=root, stdout=subprocess.PIPE, text=True)
    assert bot.stdout is not None
    out = bot.stdout
    try:
        line = await asyncio.wait_for(asyncio.to_thread(out.readline), 60)
        lane = int(line)
        assert lane != bot.pid and _alive(lane)
        bot.send_signal(signal.SIGKILL)
        bot.wait(10)
        end = time.monotonic() + 15
        while time.monotonic() < end and _alive(lane):
            await asyncio.sleep(0.1)
        assert not _alive(lane), "the lane's process outlived the bot"
    finally:
        if bot.poll() is None:
            bot.kill()
        out.close()
