"""Fixtures for end-to-end tests of the real discord.py client against the local fake Discord.

- ``fake_discord``: a started FakeDiscord with discord.py patched to it (Route.BASE,
  DEFAULT_GATEWAY, Asset.BASE restored afterwards). At teardown it fails the test if any request
  hit an unknown route or the bot logged an unhandled exception (set
  ``fake.allow_bot_errors = True`` in a test that expects one).
- ``run_bot``: ``runner = await run_bot(client)`` starts a ``discord.Client``/``commands.Bot`` as a
  task (small ``guild_ready_timeout``) and returns once it is ready; ``await runner.stop()``
  shuts it down cleanly, ``await runner.kill()`` simulates a crash. Bots still running at the
  end of the test are stopped before the fake closes.
"""
from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any, AsyncIterator, Awaitable, Callable

import pytest

from fakediscord import BotRunner, FakeDiscord
from fakediscord.runner import uninstall_task_factory

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test under tests/e2e with the ``e2e`` marker."""
    for item in items:
        if HERE in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A running FakeDiscord, discord.py patched to it; asserts no unknown routes / bot errors at teardown."""
    slack = float(os.environ.get("FAKE_DISCORD_SLACK") or 1)  # >1 on a machine loaded by other work
    fake = FakeDiscord(ack_deadline=3.0 * slack, default_timeout=5.0 * slack)
    await fake.start()
    try:
        with fake.patch_discord():
            yield fake
    finally:
        await fake.close()
    fake.assert_clean()


@pytest.fixture
async def run_bot(fake_discord: FakeDiscord) -> AsyncIterator[Callable[..., Awaitable[BotRunner]]]:
    """``await run_bot(client, **BotRunner options)`` → a ready BotRunner; stops leftovers at teardown."""
    runners: list[BotRunner] = []

    async def start(client: Any, **options: Any) -> BotRunner:
        runner = BotRunner(fake_discord, client, **options)
        runners.append(runner)
        return await runner.start()

    yield start
    for runner in reversed(runners):
        await runner.stop()
    uninstall_task_factory(asyncio.get_running_loop())
