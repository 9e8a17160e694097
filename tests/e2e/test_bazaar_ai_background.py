"""AI play never keeps the bot offline (issue 23, item 2): the AI seats a crashed run left
awaited play in the background once the bot is connected, not in ``setup_hook`` before the
gateway connects. The AI's search is held until the test lets it go: the restarted bot must be
ready (and answer) while it is held."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from bot.host import thinking
from bot.host.workers import Workers
from tests.e2e.bazaar_harness import Table, hang_the_ai, make_table
from tests.fakediscord import Channel, FakeDiscord, RunBot

T = TypeVar("T")


class HeldAI(Workers):
    """Thread workers whose AI searches wait for ``go`` (boards are drawn at once)."""

    def __init__(self) -> None:
        super().__init__(0)
        self.go = asyncio.Event()
        self.held = asyncio.Event()

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        if fn is thinking.think:
            self.held.set()
            await self.go.wait()
        return await super().run(fn, *args)


async def _leave_the_ai_owing(table: Table, monkeypatch: pytest.MonkeyPatch) -> tuple[int, Channel, int, int]:
    """Play until a person's move hands the turn to the AI, then store that move and "die"
    before the AI answers. Returns (game id, thread, the person's seat, that move's version)."""
    gid, thread = await table.start_game("ann", (), 1)
    game, seat, to_ai = await table.play_until_the_ai_is_next(gid, thread)  # ann's next move hands it over
    version = game.row.version
    hit = hang_the_ai(monkeypatch, table.bot)
    await table.fake.slash(table.user_of(game, seat), thread, "move", action=to_ai[0], wait=False)
    await asyncio.wait_for(hit.wait(), 10)
    await table.running.kill(release=table.bot.service.store.close)
    return gid, thread, seat, version


async def test_the_bot_comes_online_before_the_ai_it_owes_plays(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = make_table(fake_discord, run_bot, tmp_path)
    await table.boot()
    gid, thread, seat, version = await _leave_the_ai_owing(table, monkeypatch)

    workers = HeldAI()
    boot = asyncio.ensure_future(table.boot(sync=False, workers=workers))
    await asyncio.wait_for(workers.held.wait(), 30)  # the owed AI search has begun, and is held
    runner = await asyncio.wait_for(boot, 30)  # ...yet the bot is connected and ready
    assert runner is table.runner and table.bot.is_ready()
    assert len(await table.db_moves(gid)) == version + 1  # the AI has not answered yet
    assert table.bot.inflight > 0  # its background play counts as work in flight (settle waits)

    workers.go.set()
    await table.settle()
    moves = await table.db_moves(gid)
    assert moves[version + 1][2] == "ai"  # the AI answered, in the background
    game = await table.bot.service.get(gid)
    assert game.row.status != "active" or not any(game.ai_plays(s) for s in game.awaited())
