"""The worker pool (bot/host/workers.py) and the drawing jobs the publisher sends it
(bot/host/drawing.py): a board drawn in another process is the board drawn here, the event loop
keeps running while a job runs, and the bot's posts go through its pool with views only."""

from __future__ import annotations

import asyncio
import os
import random
import threading
import time
from pathlib import Path

import pytest

import render
from bot.host import drawing
from bot.host.workers import Workers
from engines import base
from render.common import to_png

HERE = Path(__file__).resolve().parent


def wait_for_go(started: str, go: str, limit: float = 60.0) -> tuple[int, bool]:
    """A job that says it started (creates ``started``) and then waits for the test's event loop
    to create ``go``; returns (its process id, whether ``go`` came before ``limit`` seconds)."""
    Path(started).touch()
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if Path(go).exists():
            return os.getpid(), True
        time.sleep(0.01)
    return os.getpid(), False


def _views(kind: str, n: int = 3) -> tuple[base.View, base.View]:
    engine = base.get(kind)
    rng = random.Random(3)
    state = engine.setup(5, n, {})
    for _ in range(6):
        seat = base.first_awaited(engine, state)
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    return engine.view(state, None), engine.view(state, 0)


async def _loop_runs_during_a_job(workers: Workers, tmp_path: Path) -> int:
    """Run :func:`wait_for_go` in ``workers``; the loop must create the go file while the job is
    running (it waits for it). Returns the job's process id."""
    started, go = tmp_path / "started", tmp_path / "go"
    job = asyncio.ensure_future(workers.run(wait_for_go, str(started), str(go)))
    for _ in range(6000):  # up to a minute for a worker process to start
        if started.exists() or job.done():
            break
        await asyncio.sleep(0.01)
    assert started.exists(), "the job did not start"
    go.touch()  # only possible if the loop is free while the job runs
    pid, went = await job
    assert went, "the job never saw the loop's go: the loop was blocked while it ran"
    return pid


async def test_process_pool_draws_in_another_process_while_the_loop_runs(tmp_path: Path) -> None:
    workers = Workers(1)
    try:
        pid = await _loop_runs_during_a_job(workers, tmp_path)
        assert pid != os.getpid()
        assert await workers.run(drawing.warm) == pid  # one worker, reused
        public, mine = _views("pralaya")
        names = ["Ann", "Bob", "Cy"]
        png = await workers.run(drawing.board, "pralaya", public, names, ["Ann drew"], None)
        # the same bytes as here: the worker made the same house palette (render.house)
        assert png == render.board_png("pralaya", public, names, caption=["Ann drew"])
        hand = await workers.run(drawing.picture, "pralaya", "hand", mine, names)
        assert hand == to_png(render.get("pralaya").hand(mine, names))
        assert await workers.run(drawing.view_text, "pralaya", mine, names) == render.get("pralaya").text(
            mine, names
        )
        with pytest.raises(AttributeError):  # a failing job raises here, the pool goes on
            await workers.run(drawing.picture, "pralaya", "no_such_drawing", mine, names)
        assert await workers.run(drawing.warm) == pid
    finally:
        workers.close()


async def test_thread_workers_leave_the_loop_free_too(tmp_path: Path) -> None:
    workers = Workers(0)
    try:
        assert await _loop_runs_during_a_job(workers, tmp_path) == os.getpid()
    finally:
        workers.close()


def test_the_size_follows_bazaar_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BAZAAR_WORKERS", "3")
    assert Workers().size == 3
    monkeypatch.setenv("BAZAAR_WORKERS", "0")
    assert Workers().size == 0
    monkeypatch.setenv("BAZAAR_WORKERS", "many")
    assert Workers().size == len(os.sched_getaffinity(0))


OWNER = """
import asyncio, sys
from bot.host import drawing
from bot.host.workers import Workers

async def main():
    workers = Workers(1)
    print(await workers.run(drawing.warm), flush=True)
    await asyncio.sleep(600)

asyncio.run(main())
"""


def _alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "State:\tZ" not in status


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_a_worker_ends_when_the_bot_process_is_killed(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys

    root = HERE.parent
    owner = subprocess.Popen([sys.executable, "-c", OWNER], cwd=root, stdout=subprocess.PIPE, text=True)
    assert owner.stdout is not None
    out = owner.stdout
    try:
        worker = int(out.readline())
        assert worker != owner.pid and _alive(worker)
        owner.send_signal(signal.SIGKILL)
        owner.wait()
        for _ in range(300):  # the worker notices within about a second; allow a busy machine 30
            if not _alive(worker):
                break
            time.sleep(0.1)
        assert not _alive(worker), "the worker outlived the process that started it"
    finally:
        owner.kill()
        owner.wait()
        out.close()


def test_a_failing_job_in_thread_workers_raises_its_own_error() -> None:
    """In a fresh process (no process pool made yet, so ``concurrent.futures.process`` is not
    imported), a job's exception reaches the caller as itself."""
    import subprocess
    import sys

    script = (
        "import asyncio\n"
        "from bot.host.workers import Workers\n"
        "def boom():\n"
        "    raise KeyError('boom')\n"
        "async def main():\n"
        "    w = Workers(0)\n"
        "    try:\n"
        "        await w.run(boom)\n"
        "    except KeyError as err:\n"
        "        print('raised', err)\n"
        "    finally:\n"
        "        w.close()\n"
        "asyncio.run(main())\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=HERE.parent, capture_output=True, text=True, timeout=120
    )
    assert out.stdout.strip() == "raised 'boom'", out.stderr[-2000:]


def _held(name: str, started: list[str], go: threading.Event) -> str:
    """A job that notes it started, then waits for the test's ``go`` (a threading.Event)."""
    started.append(name)
    go.wait(30)
    return name


async def test_boards_never_wait_behind_ai_searches_and_watched_games_come_first() -> None:
    """With every AI slot held by a slow AI search and more AI jobs queued, a board still runs
    at once (and ends while the searches go on); once the searches end, the AI of a game people
    play starts before the AI of games nobody plays that were queued earlier. Today's pool is
    first come, first served: the board would wait behind the queued searches."""

    from bot.host import jobgate

    workers = Workers(0)  # 4 threads: 3 for AI jobs, one kept for boards
    started: list[str] = []
    go = threading.Event()
    try:

        async def job(name: str, level: int) -> str:
            with jobgate.priority(level):
                return await workers.run(_held, name, started, go)

        slow = [asyncio.ensure_future(job(f"alone{i}", jobgate.AI_ALONE)) for i in range(4)]
        watched = asyncio.ensure_future(job("watched", jobgate.AI_WATCHED))
        for _ in range(500):
            if len(started) >= 3:
                break
            await asyncio.sleep(0.01)
        board = await asyncio.wait_for(workers.run(str.upper, "board"), 30)
        assert board == "BOARD"
        assert sorted(started) == ["alone0", "alone1", "alone2"], started  # the board's slot stayed free
        go.set()
        await asyncio.wait_for(asyncio.gather(*slow, watched), 30)
        assert started[3:] == ["watched", "alone3"], started
    finally:
        go.set()
        workers.close()


async def test_a_job_cancelled_while_waiting_for_the_gate_gives_no_slot_away() -> None:
    from bot.host import jobgate

    gate = jobgate.Gate(2)  # AI: one slot, boards: both
    await gate.enter(jobgate.AI_ALONE)
    waiting = asyncio.ensure_future(gate.enter(jobgate.AI_WATCHED))
    await asyncio.sleep(0)
    assert not waiting.done()  # the second slot is kept for boards
    waiting.cancel()
    await asyncio.gather(waiting, return_exceptions=True)
    await asyncio.wait_for(gate.enter(jobgate.BOARD), 5)
    assert gate.running == 2
    gate.leave()
    gate.leave()
    assert gate.running == 0 and not gate._waiting
    await asyncio.wait_for(gate.enter(jobgate.AI_ALONE), 5)
