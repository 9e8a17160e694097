"""The bot of the soak (:mod:`benchmarks.soak`): the real ``bazaar run`` (its config, store,
bot, worker pool and turn clock) pointed at the soak's fake Discord, on an injected clock. The
clock reads ``BAZAAR_SOAK_SIM0`` (simulated Unix seconds) while the bot starts, and from the
instant it is connected runs ``BAZAAR_SOAK_SPEED`` times faster than the wall clock; that instant
is written to the file ``BAZAAR_SOAK_SYNC``, so the soak's players follow the same clock. (A
start-up takes seconds of wall clock on a loaded machine, which would be hours simulated.) The
turn clock looks every ``BAZAAR_SOAK_TICK`` real seconds at most (its sleeps are real, its
deadlines simulated).

Run: ``FAKE_DISCORD_URL=… DISCORD_TOKEN=… BAZAAR_DB=… BAZAAR_SOAK_…=… python -m benchmarks.soakbot``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for extra in (ROOT, ROOT / "tests"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))


class SimClock:
    """Simulated Unix seconds: ``sim0`` until :meth:`go`, then ``speed`` times the wall clock."""

    def __init__(self, sim0: float, speed: float) -> None:
        self.sim0 = sim0
        self.speed = speed
        self.real0: float | None = None

    def __call__(self) -> float:
        if self.real0 is None:
            return self.sim0
        return self.sim0 + (time.time() - self.real0) * self.speed

    def go(self, sync: Path) -> None:
        self.real0 = time.time()
        sync.write_text(repr(self.real0))


async def _run(clock: SimClock, tick: float, sync: Path) -> None:
    from bot.host.config import load_config
    from bot.host.store import Store
    from bot.surface import launch

    config = load_config(None)
    store = await Store.open(config.db_path, now=clock)
    async with launch.make_bot(config, database=store, now=clock, clock_max_sleep=tick) as bot:

        async def ready() -> None:
            await bot.wait_until_ready()
            clock.go(sync)

        started = asyncio.create_task(ready())
        try:
            await bot.start(config.token)
        finally:
            started.cancel()


def main() -> int:
    from fakediscord.launch import ENV, point_discord_at

    from bot.host.config import load_config
    from bot.surface import launch

    point_discord_at(os.environ[ENV])
    launch._setup_logging(load_config(None))
    clock = SimClock(float(os.environ["BAZAAR_SOAK_SIM0"]), float(os.environ["BAZAAR_SOAK_SPEED"]))
    tick, sync = float(os.environ.get("BAZAAR_SOAK_TICK", "0.2")), Path(os.environ["BAZAAR_SOAK_SYNC"])
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_run(clock, tick, sync))
    return 0


if __name__ == "__main__":
    sys.exit(main())
