"""Recaps (a whole game's boards: 3 to 16 CPU-seconds) are drawn at most one worker fewer than the
pool has at once, so the boards of other games always find a worker free."""
from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from bot.host.store import MoveRow
from bot.surface.publish import Publisher


class _Store:
    async def moves(self, game_id: int) -> list[MoveRow]:
        return [MoveRow(game_id, 1, 0, "x", "player", None, 0.0)]


@pytest.mark.parametrize("size, most", [(0, 1), (1, 1), (2, 1), (3, 2), (4, 3)])
async def test_recaps_leave_a_worker_for_boards(size, most):
    bot = SimpleNamespace(workers=SimpleNamespace(size=size), store=_Store())
    publisher = Publisher(bot)  # type: ignore[arg-type]
    running, peak = 0, 0

    async def job(fn, *args):
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        await asyncio.sleep(0.02)
        running -= 1
        return b"GIF89a"

    publisher.job = job  # type: ignore[method-assign]
    batch = SimpleNamespace(row=SimpleNamespace(seed=1, options={}), engine=SimpleNamespace(name="toy"),
                            seats=[0, 1], names=["A", "B"])
    files = await asyncio.gather(*(publisher.recap(gid, batch) for gid in range(1, 7)))  # type: ignore[arg-type]
    assert all(f is not None and f.filename == f"toy-{gid}-recap.gif" for gid, f in zip(range(1, 7), files))
    assert peak == most
