"""Configuration of the bot: read from the environment, or from a ``.env`` file (environment wins).

``load_config`` is what ``bazaar run`` and ``bazaar sync`` call. The token is never part of a
``repr`` or a log line.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import dotenv_values

from bot.digits import is_digits

from .quotas import Quotas, read_quotas
from .shards import Shards, parse_shards
from .store_schema import is_postgres_url
from .throttle import DEFAULT_BURST, DEFAULT_RATE, parse_rate_limit

DEFAULT_DB = "data/bazaar.sqlite3"
AI_LEVELS = ("easy", "normal", "hard")  # engines.search.LEVELS (the host does not import the search here)
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class ConfigError(Exception):
    """The configuration is missing or invalid; the message is one line a person can act on."""


@dataclass(frozen=True)
class Config:
    """Everything the bot needs to run. ``token`` is hidden from ``repr``."""

    token: str = field(repr=False)
    db_path: Path | str = field(default=Path(DEFAULT_DB), repr=False)  # a SQLite file, or a postgresql:// URL
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    ai_grace: float = 20.0  # seconds AI seats wait for people awaited beside them (trade replies)
    rate_limit: tuple[int, float] = (DEFAULT_BURST, DEFAULT_RATE)  # per-user flood guard; (0, 0) = off
    ai_level: str | None = None  # the AI's default level (BAZAAR_AI_LEVEL); None: each game's own
    workers: int | None = None  # worker processes for AI search and drawing (BAZAAR_WORKERS); None: cores
    lag_log: Path | None = None  # a file to append the event loop's lag samples to (benchmarks)
    shards: Shards | None = None  # SHARD_COUNT / SHARD_IDS: an AutoShardedBot on those shards
    clock_lease: float = 60.0  # seconds a process holds a turn clock it claimed (shared database)
    clock_poll: float = 5.0  # seconds between looks for due turn clocks in a shared database
    repost_after: float = 90.0  # a shared database: a board stored this long ago and not posted is posted
    quotas: Quotas = field(default_factory=Quotas)  # per user, channel and server (bot.host.quotas)
    heartbeat: Path | None = None  # BAZAAR_HEARTBEAT: touched while connected, for `bazaar health`
    confirm: bool = True  # BAZAAR_CONFIRM: a private Confirm/Cancel before a move that cannot be taken back

    @property
    def log_level_number(self) -> int:
        """The ``logging`` level number of :attr:`log_level`."""
        return logging.getLevelNamesMapping()[self.log_level]


def _merged(env_file: str | os.PathLike[str] | None, environ: Mapping[str, str] | None) -> dict[str, str]:
    values: dict[str, str] = {}
    if env_file is not None and Path(env_file).is_file():
        values.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
    values.update(os.environ if environ is None else environ)
    return values


def load_config(
    env_file: str | os.PathLike[str] | None = ".env",
    *,
    environ: Mapping[str, str] | None = None,
    require_token: bool = True,
) -> Config:
    """Read ``DISCORD_TOKEN``, ``BAZAAR_DB``, ``DEV_GUILD_ID``, ``BAZAAR_LOG_LEVEL`` (or
    ``LOG_LEVEL``), ``BAZAAR_AI_GRACE``, ``BAZAAR_RATE_LIMIT``, ``BAZAAR_AI_LEVEL``,
    ``BAZAAR_WORKERS``, ``BAZAAR_LAG_LOG`` (a file the event loop's lag samples are appended
    to, for benchmarks), ``SHARD_COUNT`` and ``SHARD_IDS`` (see :mod:`bot.host.shards`),
    ``BAZAAR_CLOCK_LEASE`` and ``BAZAAR_CLOCK_POLL`` (seconds; the turn clocks claimed from a
    shared database), ``BAZAAR_REPOST_AFTER`` (seconds; in a shared database, a move stored this
    long ago whose board no process posted is posted by the game's own process),
    ``BAZAAR_CONFIRM`` (on or off: a private Confirm/Cancel before an irreversible move).

    Values come from ``environ`` (default ``os.environ``) over the ``env_file`` (if it exists).
    Returns a :class:`Config`. Raises :class:`ConfigError` when the token is missing (unless
    ``require_token`` is false) or when a value is malformed.
    """
    values = _merged(env_file, environ)
    token = _token(values, require_token)
    db = _database(values)
    dev_guild_id = _dev_guild_id(values)
    level = _log_level(values)
    ai_grace = _seconds(values, "BAZAAR_AI_GRACE", "20", 0, 3600)
    rate_limit = _rate_limit(values)
    ai_level = _ai_level(values)
    workers = _workers(values)
    lag_text = (values.get("BAZAAR_LAG_LOG") or "").strip()
    shards = _shards(values, db)
    lease = _seconds(values, "BAZAAR_CLOCK_LEASE", "60", 1, 3600)
    poll = _seconds(values, "BAZAAR_CLOCK_POLL", "5", 0.05, 300)
    repost_after = _seconds(values, "BAZAAR_REPOST_AFTER", "90", 1, 86400)
    heartbeat_text = (values.get("BAZAAR_HEARTBEAT") or "").strip()
    confirm = _switch(values, "BAZAAR_CONFIRM", True)
    try:
        quotas = read_quotas(values)
    except ValueError as err:
        raise ConfigError(f"{err}.") from None
    return Config(
        token=token,
        db_path=db if is_postgres_url(db) else Path(db),
        dev_guild_id=dev_guild_id,
        log_level=level,
        ai_grace=ai_grace,
        rate_limit=rate_limit,
        ai_level=ai_level,
        workers=workers,
        lag_log=Path(lag_text) if lag_text else None,
        shards=shards,
        clock_lease=lease,
        clock_poll=poll,
        repost_after=repost_after,
        quotas=quotas,
        heartbeat=Path(heartbeat_text) if heartbeat_text else None,
        confirm=confirm,
    )


# -- one reader per setting: its value, or ConfigError with one line saying what is wrong


def _token(values: Mapping[str, str], required: bool) -> str:
    token = (values.get("DISCORD_TOKEN") or "").strip()
    if required and not token:
        raise ConfigError(
            "DISCORD_TOKEN is not set: create an application at "
            "https://discord.com/developers/applications, copy the token from its Bot page, "
            "and put DISCORD_TOKEN=<token> in .env or the environment."
        )
    return token


def _database(values: Mapping[str, str]) -> str:
    """``BAZAAR_DB`` as given: a SQLite file path or a postgresql:// URL."""
    db = (values.get("BAZAAR_DB") or "").strip() or DEFAULT_DB
    if "://" in db and not is_postgres_url(db):
        raise ConfigError(
            f"BAZAAR_DB must be a SQLite file path or a postgresql:// URL, not {db.split('://')[0]}://…."
        )
    return db


def _dev_guild_id(values: Mapping[str, str]) -> int | None:
    guild_text = (values.get("DEV_GUILD_ID") or "").strip()
    if not guild_text:
        return None
    if not is_digits(guild_text):
        raise ConfigError(
            f"DEV_GUILD_ID must be a server id (digits only; right-click the server with "
            f"Developer Mode on, Copy Server ID), not {guild_text!r}."
        )
    return int(guild_text)


def _log_level(values: Mapping[str, str]) -> str:
    level = (values.get("BAZAAR_LOG_LEVEL") or values.get("LOG_LEVEL") or "").strip().upper() or "INFO"
    if level not in LOG_LEVELS:
        raise ConfigError(f"BAZAAR_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}.")
    return level


def _switch(values: Mapping[str, str], name: str, default: bool) -> bool:
    """An on/off setting: ``on``, ``true``, ``yes``, ``1`` or ``off``, ``false``, ``no``, ``0``
    (empty: ``default``)."""
    text = (values.get(name) or "").strip().lower()
    if not text:
        return default
    if text in ("on", "true", "yes", "1"):
        return True
    if text in ("off", "false", "no", "0"):
        return False
    raise ConfigError(f"{name} must be on or off, not {text!r}.")


def _rate_limit(values: Mapping[str, str]) -> tuple[int, float]:
    rate_text = (values.get("BAZAAR_RATE_LIMIT") or "").strip() or f"{DEFAULT_BURST}/{DEFAULT_RATE:g}"
    try:
        return parse_rate_limit(rate_text)
    except ValueError as err:
        raise ConfigError(f"BAZAAR_RATE_LIMIT is {rate_text!r}: {err}.") from None


def _ai_level(values: Mapping[str, str]) -> str | None:
    ai_level = (values.get("BAZAAR_AI_LEVEL") or "").strip().lower() or None
    if ai_level is not None and ai_level not in AI_LEVELS:
        raise ConfigError(f"BAZAAR_AI_LEVEL must be one of {', '.join(AI_LEVELS)}, not {ai_level!r}.")
    return ai_level


def _workers(values: Mapping[str, str]) -> int | None:
    workers_text = (values.get("BAZAAR_WORKERS") or "").strip()
    if not workers_text:
        return None
    if not is_digits(workers_text) or int(workers_text) > 256:
        raise ConfigError(
            f"BAZAAR_WORKERS must be a number of processes from 0 (threads, no "
            f"processes) to 256, not {workers_text!r}."
        )
    return int(workers_text)


def _shards(values: Mapping[str, str], db: str) -> Shards | None:
    """``SHARD_COUNT`` and ``SHARD_IDS``; some of the shards only with a shared (PostgreSQL) ``db``."""
    try:
        shards = parse_shards(values.get("SHARD_COUNT") or "", values.get("SHARD_IDS") or "")
    except ValueError as err:
        raise ConfigError(f"{err}.") from None
    if shards is not None and shards.partial and not is_postgres_url(db):
        raise ConfigError(
            f"SHARD_IDS={','.join(map(str, shards.ids))} runs only some of the {shards.count} shards, "
            "so other processes run the rest: they must share one PostgreSQL database "
            "(BAZAAR_DB=postgresql://…), not a SQLite file."
        )
    return shards


def _seconds(values: Mapping[str, str], name: str, default: str, low: float, high: float) -> float:
    """The number of seconds in ``values[name]`` (``default`` when empty). Raises
    :class:`ConfigError` when it is not a number from ``low`` to ``high``."""
    text = (values.get(name) or "").strip() or default
    try:
        value = float(text)
    except ValueError:
        value = low - 1
    if not low <= value <= high:
        raise ConfigError(f"{name} must be a number of seconds from {low:g} to {high:g}, not {text!r}.")
    return value
