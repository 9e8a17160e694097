"""The soak: one real bot process plays a simulated week on an injected clock.

300 games in play (``benchmarks/fixture.py``: real seeded games of the four kinds, some with AI
seats) across 30 servers, each game in its own thread of the fake Discord of the tests, 24-hour
turn clocks. The bot (:mod:`benchmarks.soakbot`: the real config, store, bot and worker pool)
runs on a clock :data:`SPEED` times faster than the wall clock, so a simulated week takes a few
real minutes. The players here follow every game from the database and act as people do: most
answer after a while (an exponential wait, :data:`ACT_MEAN_H` simulated hours on average), some
walk away for good (their turns expire; after three in a row the AI takes their seat over), a
few resign. Once every simulated day the bot process is killed (SIGKILL) and started again.

Reported: the moves acknowledged to players (answered "Played") against those stored (each
acknowledged move must be in the database: none lost to a kill), how late the latest due turn
clock was handled (from its deadline to the stored expiry, in real seconds: the aim is under
2 s; deadlines that passed while the bot was down get the restart grace and are left out), the
boards' p99 (from the ``/move`` to the board showing it), expiries, AI takeovers, resignations,
restarts, and the peak memory of the bot process (its own peak, and with its workers).

``--quick``: 60 games on 6 servers, two simulated days, a kill each simulated half-day.
"""

from __future__ import annotations

import asyncio
import logging
import math
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

from .soakplayers import DAY, Shape, Soak
from .table import Figure, aim_at_most

ROOT = Path(__file__).resolve().parent.parent
for extra in (ROOT, ROOT / "tests", ROOT / "tests" / "e2e"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

AIM_LATE_S = 2.0
AIM_BOARD_P99_MS = 2000.0
DOWN_S = 600.0  # simulated seconds the bot is down at each kill (its start-up is not simulated time)

FULL = Shape(300, 30, 7.0, 1.0, 2400.0)  # a week in 252 s of wall clock, and the restarts
QUICK = Shape(60, 6, 2.0, 0.5, 4800.0)  # two days in 36 s, and the restarts


async def _soak(shape: Shape, folder: Path) -> tuple[Soak, dict[str, Any]]:
    import botprocess
    from fakediscord import FakeDiscord

    fake = FakeDiscord(ack_deadline=None, default_timeout=120.0)
    await fake.start()
    soak = Soak(shape, folder)
    bot: Any = None
    try:
        db = await soak.setup(fake)
        soak.starts = {gid: g.version for gid, g in soak.games.items()}
        from .load import Boards

        _watch_boards(fake, soak, Boards)
        botprocess.LAUNCH = ROOT / "benchmarks" / "soakbot.py"
        env = {"BAZAAR_LOG_LEVEL": "INFO", "BAZAAR_SOAK_SPEED": repr(shape.speed), "BAZAAR_SOAK_TICK": "0.1"}
        log_path = folder / "soak-bot.log"
        started = time.perf_counter()
        bot = await soak.run_bot(fake, db, env, log_path)
        print(
            f"  soak: {shape.days:g} simulated days at {shape.speed:g}x, a kill every {shape.kill_every:g} "
            f"day(s) ...",
            flush=True,
        )
        bot = await _days(soak, fake, db, env, log_path, bot)
        for _ in range(100):  # the last answers
            soak.poll(db)
            await soak.act(fake)
            if not any(g.flight for g in soak.games.values()):
                break
            await asyncio.sleep(0.1)
        soak.memory(bot.pid)
        code = await bot.stop()
        soak.poll(db)
        extra = {"exit": code, "problems": bot.problems(), "wall_s": time.perf_counter() - started, "db": db}
    finally:
        if bot is not None and bot.alive():
            bot.proc.kill()
        await fake.close()
    return soak, extra


def _watch_boards(fake: Any, soak: Soak, boards: Any) -> None:
    """Let the soak note every board the fake shows, as it is posted or edited."""
    fake.message_store = boards(fake.message_store, soak.latest)
    inner = fake._changed

    def changed() -> None:
        soak.changed()
        inner()

    fake._changed = changed


async def _days(soak: Soak, fake: Any, db: Path, env: dict[str, str], log_path: Path, bot: Any) -> Any:
    """The simulated days: the players act, the soak follows the games, and the bot is killed
    and started again every ``kill_every`` days; returns the bot process running at the end."""
    shape = soak.shape
    end = soak.sim0 + shape.days * DAY
    next_kill = soak.sim0 + shape.kill_every * DAY
    tick = 0
    while soak.sim() < end:
        soak.poll(db)
        await soak.act(fake)
        tick += 1
        if tick % 10 == 0:
            soak.memory(bot.pid)
        if soak.sim() >= next_kill:
            t0 = time.perf_counter()
            soak.memory(bot.pid)
            await bot.kill()
            soak.sim0, soak.real0 = soak.sim() + DOWN_S, None  # down a simulated while
            bot = await soak.run_bot(fake, db, env, log_path)
            soak.tally.restarts += 1
            soak.tally.restart_s.append(time.perf_counter() - t0)
            next_kill += shape.kill_every * DAY
        await asyncio.sleep(0.05)
    return bot


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, math.ceil(len(ordered) * q / 100) - 1))]


def rows(quick: bool, folder: Path) -> list[Figure]:
    """Run the soak (see the module docstring) and report it."""
    logging.getLogger("discord").setLevel(logging.ERROR)
    shape = QUICK if quick else FULL
    soak, extra = asyncio.run(_soak(shape, folder))
    figs = _figures(shape, soak, extra)
    problems = extra["problems"]
    for problem in problems[:3]:
        print("  the bot logged:\n    " + problem.replace("\n", "\n    "), flush=True)
    if extra["exit"] != 0 or problems:
        figs.append(
            Figure(
                "soak: the bot's log",
                f"exit {extra['exit']}, {len(problems)} problems",
                "clean",
                False,
                note=(problems or [""])[0][:200],
            )
        )
    return figs


def _counts(db: Path) -> tuple[int, int, int]:
    """``(AI takeovers, expiries, games finished)`` as stored."""
    con = sqlite3.connect(db)
    try:
        takeovers = con.execute("SELECT COUNT(*) FROM seats WHERE ai_takeover = 1").fetchone()[0]
        clocks = con.execute(
            "SELECT COUNT(DISTINCT game_id || ':' || version) FROM moves WHERE by = 'clock'"
        ).fetchone()[0]
        finished = con.execute("SELECT COUNT(*) FROM games WHERE status = 'finished'").fetchone()[0]
    finally:
        con.close()
    return int(takeovers), int(clocks), int(finished)


def _figures(shape: Shape, soak: Soak, extra: dict[str, Any]) -> list[Figure]:
    """The soak's rows of the bench table."""
    t = soak.tally
    acked, found, stored = soak.stored_vs_acked(extra["db"])
    takeovers, clocks, finished = _counts(extra["db"])
    label = f"soak ({shape.games} games, {shape.servers} servers, {shape.days:g} days)"
    late = max(t.late_s, default=float("nan"))
    return [
        Figure(
            f"{label}: moves acknowledged / stored",
            f"{acked} / {found}",
            "equal",
            acked == found,
            note=f"{stored} player moves stored in all (a kill between a commit and its answer leaves a "
            f"move stored but not acknowledged); {t.refused} refused, {t.unanswered} unanswered",
        ),
        aim_at_most(
            f"{label}: latest due clock handled",
            late,
            AIM_LATE_S,
            "s",
            fmt="{:.2f}",
            note=f"{len(t.late_s)} expiries timed, median {_percentile(t.late_s, 50):.2f} s, p99 "
            f"{_percentile(t.late_s, 99):.2f} s, {sum(x >= AIM_LATE_S for x in t.late_s)} at 2 s or more "
            f"({t.graced} after a restart's grace "
            f"left out); real seconds from the deadline to the stored expiry",
        ),
        aim_at_most(
            f"{label}: boards p99",
            _percentile(t.boards_ms, 99),
            AIM_BOARD_P99_MS,
            "ms",
            fmt="{:.0f}",
            note=f"{len(t.boards_ms)} boards, median {_percentile(t.boards_ms, 50):.0f} ms, from /move to "
            f"the board showing it",
        ),
        Figure(
            f"{label}: peak memory",
            f"{t.peak_bot_kb / 1024:.0f} MB",
            "",
            None,
            note=f"the bot process's peak RSS; {t.peak_all_kb / 1024:.0f} MB at most with its workers",
        ),
        Figure(
            f"{label}: what happened",
            f"{shape.kill_every:g}-day kills: {t.restarts}",
            "",
            None,
            note=f"{clocks} expiries, {takeovers} AI takeovers, {t.walked} people walked away, {t.resigned} "
            f"resigned, {finished} games finished; restarts took {max(t.restart_s, default=0):.1f} s at "
            f"most; {extra['wall_s']:.0f} s of wall clock",
        ),
    ]


def main(argv: list[str]) -> int:
    import tempfile

    from .table import render_table

    with tempfile.TemporaryDirectory(prefix="bazaar-soak-") as tmp:
        print(render_table(rows("--quick" in argv, Path(tmp))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
