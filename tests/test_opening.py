"""The host opens, owns and closes the database (``bot/host/opening.py``), on both backends
(``backend_target``): the service opens it or takes one already opened, builds the turn clock
the database asks for (claims in a shared one), and ``service.close()`` closes it; a bot that
stops before its host started still closes the database it was handed, and never uses it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.host import opening
from bot.host.clock import TurnClock
from bot.host.clock_shared import SharedClock
from bot.host.config import Config
from bot.host.workers import Workers
from bot.surface.app import BazaarBot


async def _handler(game_id: int, kind: str) -> None:
    raise AssertionError("no clock is started here")


async def _closed(database: opening.Database) -> bool:
    """Whether ``database`` refuses a read (it was closed)."""
    try:
        await database.games()
    except Exception:
        return True
    return False


async def test_the_service_opens_the_database_builds_its_clock_and_closes_it(
    backend_target: str | Path,
) -> None:
    config = Config(token="x", db_path=backend_target, ai_level="easy", ai_grace=7.0)
    service = await opening.open_service(config, claims=("me", 30.0))
    try:
        assert await service.store.games() == [] and service.claims == ("me", 30.0)
        assert service.core.default_ai_level == "easy" and service.core.ai_grace == 7.0
        assert service.quotas is config.quotas
        clock = opening.turn_clock(service, _handler, poll=5.0, max_sleep=300.0)
        if service.posts.shared:  # PostgreSQL: deadlines claimed in the database, under our name
            assert isinstance(clock, SharedClock) and (clock.owner, clock.lease) == ("me", 30.0)
            assert clock.max_sleep == 5.0 and clock.store is service.store
        else:
            assert type(clock) is TurnClock and clock.max_sleep == 300.0
    finally:
        await service.close()
    assert await _closed(service.store)
    await service.close()  # again: nothing happens


async def test_a_service_takes_the_database_it_is_given(backend_target: str | Path) -> None:
    config = Config(token="x", db_path=backend_target)
    database = await opening.open_database(config)
    service = await opening.open_service(config, database=database)
    assert service.store is database and service.claims is None
    if service.posts.shared:  # a clock in memory would fire each deadline once per process
        with pytest.raises(ValueError, match="claims"):
            opening.turn_clock(service, _handler, poll=5.0, max_sleep=300.0)
    await service.close()
    assert await _closed(database)


async def test_a_bot_stopped_before_its_host_started_closes_the_database_it_was_handed(
    tmp_path: Path,
) -> None:
    config = Config(token="x", db_path=tmp_path / "bazaar.sqlite3")
    database = await opening.open_database(config)
    bot = BazaarBot(config, database=database, workers=Workers(0))
    assert not await _closed(database)
    await bot.close()  # as when Discord cannot be reached: setup_hook never ran
    assert await _closed(database)
