"""The host's part of ``/learn`` (bot/host/learning.py): two asks at once open one guided game,
and an ask while it runs finds it without opening another place."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.host.service import GameService
from bot.host.store import Store


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[GameService]:
    store = await Store.open(tmp_path / "db.sqlite3", now=lambda: 1_700_000_000.0)
    yield GameService(store, now=lambda: 1_700_000_000.0, seed_source=lambda: 42, ai_level="easy")
    await store.close()


async def test_two_asks_at_once_open_one_guided_game(host: GameService) -> None:
    opened: list[int] = []

    async def open_place() -> tuple[int | None, int, int | None]:
        opened.append(len(opened))
        await asyncio.sleep(0.01)  # the thread is being made while the second ask arrives
        return 1, 100, 500 + len(opened)

    (first, new1), (second, new2) = await asyncio.gather(
        host.learning.learn_in("pralaya", 10, "Ann", open_place),
        host.learning.learn_in("pralaya", 10, "Ann", open_place),
    )
    assert opened == [0] and first.id == second.id and [new1 is None, new2 is None].count(True) == 1
    started = new1 or new2  # the one that opened it has the start's outbox
    assert started is not None and started.game_id == first.id and started.batch.started
    again, new = await host.learning.learn_in("pralaya", 10, "Ann", open_place)
    assert again.id == first.id and new is None and opened == [0]
    other, new = await host.learning.learn_in("ra", 10, "Ann", open_place)  # another game: its own
    assert new is not None and other.id != first.id and opened == [0, 1]
