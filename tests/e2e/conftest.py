"""Fixtures for end-to-end tests of the real discord.py client against the local fake Discord.

- ``fake_discord``: a started FakeDiscord with discord.py patched to it (Route.BASE,
  DEFAULT_GATEWAY, Asset.BASE restored afterwards). At teardown it fails the test if any request
  hit an unknown route or the bot logged an unhandled exception (set
  ``fake.allow_bot_errors = True`` in a test that expects one).
- ``run_bot``: ``runner = await run_bot(client)`` starts a ``discord.Client``/``commands.Bot`` as a
  task (small ``guild_ready_timeout``) and returns once it is ready; ``await runner.stop()``
  shuts it down cleanly, ``await runner.kill()`` simulates a crash. Bots still running at the
  end of the test are stopped before the fake closes.
- ``e2e_db``: the backend of the test's tables; the tests of ``PG_E2E_MODULES`` run on both, and
  so does a test of another module marked ``both_backends``.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import discord
import pytest

from tests.e2e import bazaar_harness
from tests.fakediscord import BotRunner, FakeDiscord, RunBot
from tests.fakediscord.runner import uninstall_task_factory

HERE = Path(__file__).resolve().parent


# the modules whose tests run on PostgreSQL as well as SQLite (a representative part of the suite:
# a whole game, restarts, turns, and one module per game's particular flows); a test that works on
# the SQLite file itself is marked ``sqlite_only``
PG_E2E_MODULES = {
    "test_bazaar_game",
    "test_bazaar_ratings",
    "test_bazaar_restart",
    "test_bazaar_turns",
    "test_kathai",
    "test_learn",
    "test_phraya",
    "test_ra_auction",
}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run each test of :data:`PG_E2E_MODULES`, and each test marked ``both_backends``, on both
    backends (``[sqlite]``, ``[postgres]``)."""
    if (
        metafunc.module.__name__.rpartition(".")[2] in PG_E2E_MODULES
        or metafunc.definition.get_closest_marker("both_backends") is not None
    ) and (
        "e2e_db" in metafunc.fixturenames and metafunc.definition.get_closest_marker("sqlite_only") is None
    ):
        metafunc.parametrize("e2e_db", ["sqlite", "postgres"], indirect=True)


@pytest.fixture(autouse=True)
def e2e_db(request: pytest.FixtureRequest) -> Iterator[str]:
    """The backend of this test's tables: ``sqlite`` (a file in its folder) unless parametrised
    to ``postgres`` (a fresh schema on the test server, see tests/pgserver.py)."""
    backend = getattr(request, "param", "sqlite")
    if backend != "postgres":
        yield backend
        return
    bazaar_harness.DB_TARGET = str(request.getfixturevalue("pg_url"))
    try:
        yield backend
    finally:
        bazaar_harness.DB_TARGET = None


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
async def run_bot(fake_discord: FakeDiscord) -> AsyncIterator[RunBot]:
    """``await run_bot(client, **BotRunner options)`` → a ready BotRunner; stops leftovers at teardown."""
    runners: list[BotRunner] = []

    async def start(
        client: discord.Client, *, token: str | None = None, guild_ready_timeout: float = 0.05
    ) -> BotRunner:
        runner = BotRunner(fake_discord, client, token=token, guild_ready_timeout=guild_ready_timeout)
        runners.append(runner)
        return await runner.start()

    yield start
    for runner in reversed(runners):
        await runner.stop()
    uninstall_task_factory(asyncio.get_running_loop())
