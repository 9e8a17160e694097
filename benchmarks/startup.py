"""Start-up and memory: the real ``bazaar run`` (its own process, pointed at the fake Discord of
the tests) on a database of 10,000 stored games (``benchmarks/fixture.py``: finished and in
play), timed from the process start to its gateway session being connected (discord.py runs the
whole ``setup_hook`` before it connects), with its resident memory then; the background check of
the stored games it did not load; and the memory one live (loaded) game holds.

Figures only; nothing is asserted.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from .table import Figure, aim_at_most

ROOT = Path(__file__).resolve().parent.parent
for extra in (ROOT, ROOT / "tests", ROOT / "tests" / "e2e"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))


def rss_mb(pid: int) -> float:
    """Resident memory of process ``pid`` in MB (``VmRSS``), 0.0 if it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def cpu_s(pid: int) -> float:
    """CPU seconds (user + system) process ``pid`` has used so far, 0.0 if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load_average() -> float:
    """The machine's 1-minute load average (other work competing for its cores)."""
    return os.getloadavg()[0]


def children(pid: int) -> list[int]:
    """Child process ids of ``pid`` (its worker processes)."""
    out: list[int] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            out += [int(x) for x in (task / "children").read_text().split()]
    except OSError:
        pass
    return out


async def _run_bot(db: Path, folder: Path, timeout: float) -> dict[str, Any]:
    import logging

    from botprocess import BotProcess
    from fakediscord import FakeDiscord

    logging.getLogger("aiohttp").setLevel(logging.ERROR)
    fake = FakeDiscord(ack_deadline=None, default_timeout=timeout)
    await fake.start()
    bot = BotProcess(fake, db, folder / "startup-bot.log", cwd=folder, env={"BAZAAR_LOG_LEVEL": "INFO"})
    try:
        t0 = time.perf_counter()
        await bot.start(timeout)
        ready = time.perf_counter() - t0
        cpu_ready = cpu_s(bot.pid)
        rss_ready = rss_mb(bot.pid)
        load = load_average()
        checked = None
        end = time.perf_counter() + timeout
        while time.perf_counter() < end:
            m = re.search(r"Checked (\d+) stored game\(s\) not loaded at start-up in ([\d.]+) s", bot.log())
            if m:
                checked = (int(m.group(1)), float(m.group(2)))
                break
            await asyncio.sleep(0.2)
        rss_after = rss_mb(bot.pid)
        workers = [rss_mb(c) for c in children(bot.pid)]
        code = await bot.stop()
        problems = bot.problems()
    finally:
        if bot.proc is not None and bot.alive():
            bot.proc.kill()
        await fake.close()
    return {
        "ready_s": ready,
        "cpu_ready": cpu_ready,
        "load": load,
        "rss_ready": rss_ready,
        "rss_after": rss_after,
        "checked": checked,
        "workers": workers,
        "exit": code,
        "problems": problems,
    }


def memory_per_game(db: Path, count: int) -> dict[str, float]:
    """In a fresh process: RSS before and after loading ``count`` games in play (``get``), per game."""
    out = subprocess.run(
        [sys.executable, "-m", "benchmarks.startup", "memory", str(db), str(count)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    figures: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])  # printed by _memory
    return figures


async def _memory(db: Path, count: int) -> dict[str, float]:
    import gc

    import engines
    from bot.host.service import GameService
    from bot.host.store import Store

    engines.load_all()
    store = await Store.open(db)
    service = GameService(store)
    await service.load_all()
    ids = service.dormant()[:count]
    await service.get(ids[0])  # first use imports and warms what every load needs
    gc.collect()
    before = rss_mb(os.getpid())
    t0 = time.perf_counter()
    for gid in ids[1:]:
        await service.get(gid)
    load_s = time.perf_counter() - t0
    gc.collect()
    after = rss_mb(os.getpid())
    await store.close()
    n = len(ids) - 1
    return {
        "n": n,
        "before": before,
        "after": after,
        "per_game_kb": 1024 * (after - before) / n,
        "load_ms": 1000 * load_s / n,
    }


def rows(quick: bool, folder: Path) -> list[Figure]:
    """Build the fixture, start the bot on it, measure; the database is left in ``folder`` for
    the store benchmark (returned through :data:`LAST_DB`)."""
    from . import fixture

    games = 200 if quick else 10_000
    db = folder / f"startup-{games}.sqlite3"
    info = fixture.build(db, games, pool_scale=0.3 if quick else 1.0)
    global LAST_DB, LAST_INFO
    LAST_DB, LAST_INFO = db, info
    print(
        f"  fixture: {games:,} games ({info['active']:,} in play, {info['finished']:,} finished, "
        f"{info['with_ai']:,} with an AI seat), {info['moves']:,} moves, {info['bytes'] / 2**20:.0f} MB, "
        f"from {info['pool']} distinct played games, built in {info['build_s']:.1f} s",
        flush=True,
    )
    run = asyncio.run(_run_bot(db, folder, 300.0))
    mem = memory_per_game(db, 100 if quick else 1000)
    return [*_start_figures(games, info, run), _memory_figure(mem), *_log_figures(run)]


def _start_figures(games: int, info: dict[str, Any], run: dict[str, Any]) -> list[Figure]:
    """Time and memory to ready, and the background check of the stored games after it."""
    figs = [
        aim_at_most(
            f"start-up: ready with {games:,} stored games",
            run["ready_s"],
            3.0,
            "s",
            "{:.2f}",
            note="process start to gateway session connected (setup_hook done); the process used "
            f"{run['cpu_ready']:.2f} s of CPU by then (machine load average {run['load']:.1f} "
            f"on {os.cpu_count()} cores); {info['active']:,} games in play, loaded lazily",
        ),
        aim_at_most(
            "start-up: resident memory when ready",
            run["rss_ready"],
            200,
            "MB",
            "{:.0f}",
            note="the bot's own process; its worker processes: "
            + ", ".join(f"{w:.0f}" for w in run["workers"])
            + " MB",
        ),
    ]
    if run["checked"] is not None:
        n, secs = run["checked"]
        figs.append(
            Figure(
                "start-up: background check of stored games",
                f"{n:,} games in {secs:.1f} s",
                "",
                None,
                note="replay vs snapshot of each game not loaded, after ready; "
                f"resident memory after it {run['rss_after']:.0f} MB",
            )
        )
    else:
        figs.append(Figure("start-up: background check of stored games", "did not finish", "", False))
    return figs


def _memory_figure(mem: dict[str, float]) -> Figure:
    return Figure(
        "memory per live game",
        f"{mem['per_game_kb']:.0f} KB",
        "",
        None,
        note=f"RSS growth over {mem['n']:.0f} games loaded on first use "
        f"({mem['before']:.0f} -> {mem['after']:.0f} MB; {mem['load_ms']:.1f} ms per load)",
    )


def _log_figures(run: dict[str, Any]) -> list[Figure]:
    """The bot's own record: its problems printed, and a failed figure when it logged any or did
    not exit cleanly."""
    for problem in run["problems"][:3]:  # the whole record, for whoever reads the bench's output
        print("  the bot logged:\n    " + problem.replace("\n", "\n    "), flush=True)
    if run["exit"] == 0 and not run["problems"]:
        return []
    return [
        Figure(
            "start-up: the bot's log",
            f"exit {run['exit']}, {len(run['problems'])} problems",
            "clean",
            False,
            note=(run["problems"] or [""])[0][:200],
        )
    ]


LAST_DB: Path | None = None
LAST_INFO: dict[str, Any] = {}


if __name__ == "__main__":
    if sys.argv[1:2] == ["memory"]:
        print(json.dumps(asyncio.run(_memory(Path(sys.argv[2]), int(sys.argv[3])))))
