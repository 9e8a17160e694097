"""Opening the game host: the database, the :class:`~bot.host.service.GameService` on it, and
the turn clock that runs from it.

The host opens, owns and closes the database; the Discord layer (``bot/surface``) never touches
it. At most it holds the handle :func:`open_database` returns (a :data:`Database`) and passes it
on to :func:`open_service`: ``bazaar run`` opens the database before contacting Discord, so a
database that cannot be used stops the bot first, and tests hand in one they opened. From then
on the service owns it and ``service.close()`` closes it, after everything that uses it has stopped.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from .clock import Handler, TurnClock
from .clock_shared import SharedClock
from .config import Config
from .service import GameService
from .store import Store
from .workers import Workers

Database = Store
"""What the surface holds of the database: a handle passed on to the host, never used."""


async def open_database(config: Config, *, now: Callable[[], float] = time.time) -> Database:
    """Open ``config.db_path`` (applying migrations); raises ``StoreError`` if it cannot be used."""
    return await Store.open(config.db_path, now=now)


async def close_database(database: Database) -> None:
    """Close a database :func:`open_database` opened that no service took (the bot stopped
    before it started its host, e.g. Discord unreachable); closing it again does nothing."""
    await database.close()


async def open_service(
    config: Config,
    *,
    database: Database | None = None,
    now: Callable[[], float] = time.time,
    seed_source: Callable[[], int] | None = None,
    on_clock_change: Callable[[], None] | None = None,
    workers: Workers | None = None,
    holds: Callable[[int | None], bool] | None = None,
    claims: tuple[str, float] | None = None,
) -> GameService:
    """The game service on ``database`` (else on ``config.db_path``, opened here), with the AI's
    grace and level and the quotas of ``config``; ``holds`` tells the games of this process's
    shards, ``claims`` (owner, lease seconds) names its turn clock claims on a shared database.
    The service owns the database from here: ``service.close()`` closes it."""
    store = database if database is not None else await open_database(config, now=now)
    try:
        service = GameService(
            store,
            now=now,
            seed_source=seed_source,
            ai_grace=config.ai_grace,
            on_clock_change=on_clock_change,
            workers=workers,
            ai_level=config.ai_level,
            holds=holds,
            quotas=config.quotas,
        )
    except BaseException:
        if database is None:  # opened here, owned by nobody yet
            await store.close()
        raise
    service.claims = claims
    return service


def turn_clock(service: GameService, handler: Handler, *, poll: float, max_sleep: float) -> TurnClock:
    """The turn clock running ``handler(game_id, kind)`` for ``service``'s games: on a database
    other processes share, a :class:`~bot.host.clock_shared.SharedClock` claiming the due
    deadlines in it (every ``poll`` seconds at most, and at most ``max_sleep``; owner and lease
    from ``service.claims``), else a :class:`~bot.host.clock.TurnClock` on the deadlines held in
    memory (sleeping ``max_sleep`` seconds at most). A shared database without claims is an
    error: a clock in memory would fire each deadline once per process."""
    if service.posts.shared:
        if service.claims is None:
            raise ValueError("a turn clock on a shared database needs service.claims (owner, lease)")
        owner, lease = service.claims
        return SharedClock(
            service.clock_entries,
            handler,
            store=service.store,
            owner=owner,
            lease=lease,
            poll=min(poll, max_sleep),
            now=service.now,
        )
    return TurnClock(service.clock_entries, handler, now=service.now, max_sleep=max_sleep)
