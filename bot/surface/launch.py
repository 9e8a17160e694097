"""Running the bot process: ``bazaar run`` (:func:`run_bot`: the database checked first, Discord
retried while it cannot be reached, one ``bazaar:`` line for what stopped it) and ``bazaar sync``
(:func:`sync_commands`); the sharded bot; and logging that keeps tokens and private views out of
the log."""

from __future__ import annotations

import asyncio
import logging
import re
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import aiohttp
import discord
from discord.ext import commands

from ..host import opening
from ..host.backup import hold_running
from ..host.config import DEFAULT_DB, Config
from ..host.store import StoreError
from . import emojis
from .app import BazaarBot

log = logging.getLogger("bot")


QUIET_LOGGERS = ("discord.http", "discord.gateway", "discord.webhook", "aiosqlite", "asyncpg")
"""Loggers whose DEBUG lines carry private data: discord.py's whole request and response bodies
and gateway events (DM texts, ephemeral answers), its webhook requests (the URL of every answer to
an interaction holds the interaction's token, good for 15 minutes of reading and editing that
answer), and aiosqlite's every statement with its parameters (stored states: every hand, the deck
order). They stay at INFO."""

_TOKEN_URL = re.compile(r"(/(?:interactions|webhooks)/\d+/)[A-Za-z0-9_.\-]{16,}")


class NoTokens(logging.Filter):
    """Masks interaction and webhook tokens in any log line (a second guard beside
    :data:`QUIET_LOGGERS`, for lines from any other logger that quote such a URL)."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if "/interactions/" in text or "/webhooks/" in text:
            record.msg, record.args = _TOKEN_URL.sub(r"\1***", text), ()
        return True


def _setup_logging(config: Config) -> None:
    """Log through ``discord.utils.setup_logging`` at the configured level, keeping
    :data:`QUIET_LOGGERS` at INFO or above so that no private view reaches the log, and masking
    tokens in what is logged (:class:`NoTokens`)."""
    level = config.log_level_number
    discord.utils.setup_logging(level=level, root=True)
    for handler in logging.getLogger().handlers:
        if not any(isinstance(f, NoTokens) for f in handler.filters):
            handler.addFilter(NoTokens())
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(max(level, logging.INFO))


def fail(message: str) -> None:
    """Tell the person running the bot what stopped it: one ``bazaar:`` line on stderr."""
    print(f"bazaar: {message}", file=sys.stderr, flush=True)


BAD_TOKEN = (
    "Discord rejected the token in DISCORD_TOKEN: reset it on the Bot page of your application "
    "(https://discord.com/developers/applications) and update .env."
)
RETRY_DELAYS = (5.0, 10.0, 20.0, 40.0, 60.0)
"""Seconds ``bazaar run`` waits before each new attempt while Discord cannot be reached (the last
value repeats)."""


def unreachable(err: BaseException) -> str:
    """One line saying Discord could not be reached, and why."""
    why = str(err).strip() or type(err).__name__
    return f"cannot reach Discord ({why[:160]})"


def run_retrying(
    config: Config, *, sleep: Callable[[float], None] = time.sleep, delays: Sequence[float] = RETRY_DELAYS
) -> None:
    """Run the bot; while Discord cannot be reached (no network, DNS, Discord down), say so and
    try again after ``delays`` (the last one repeating). Returns when the bot stops; other
    errors propagate. ``sleep`` is injectable for tests."""
    failures = 0
    while True:
        try:
            asyncio.run(_run(config))
            return
        except (TimeoutError, aiohttp.ClientConnectionError) as err:
            delay = delays[min(failures, len(delays) - 1)]
            failures += 1
            fail(f"{unreachable(err)}; trying again in {delay:g} s (Ctrl-C stops).")
            sleep(delay)


class ShardedBazaarBot(BazaarBot, commands.AutoShardedBot):
    """The Bazaar bot as an ``AutoShardedBot`` on the shards ``SHARD_COUNT`` / ``SHARD_IDS``
    name (one gateway connection per shard). It loads, resumes and re-posts only the games of
    guilds on its shards; DM interactions (Discord sends them to shard 0) and the turn clocks it
    claims are served for a game of any shard, from the database."""


def make_bot(config: Config, **kwargs: Any) -> BazaarBot:
    """The bot ``config`` asks for: a :class:`ShardedBazaarBot` when shards are configured,
    else a plain :class:`BazaarBot`."""
    if config.shards is None:
        return BazaarBot(config, **kwargs)
    return ShardedBazaarBot(
        config, shard_count=config.shards.count, shard_ids=list(config.shards.ids), **kwargs
    )


def refuse_new_database(db_path: Path | str) -> None:
    """A SQLite path other than the default that does not exist is a typo until shown otherwise:
    raises :class:`StoreError` saying how to create it (the default path is created as before)."""
    if isinstance(db_path, str) or db_path == Path(DEFAULT_DB) or db_path.exists():
        return
    raise StoreError(
        f"there is no database at {db_path} (BAZAAR_DB): check it for a typo, or create "
        f"an empty one with `bazaar db migrate`"
    )


async def _run(config: Config) -> None:
    refuse_new_database(config.db_path)
    database = await opening.open_database(config)  # one that cannot be used stops us before Discord
    running = None if isinstance(config.db_path, str) else hold_running(Path(config.db_path))
    try:
        async with make_bot(config, database=database) as bot:  # the bot's host closes it
            await bot.start(config.token)
    finally:
        if running is not None:
            running.close()  # (the system drops the lock of a killed process too)


def run_bot(config: Config) -> int:
    """Run the bot until interrupted. Returns the process exit code: 0 after a clean stop, 1 if
    the database cannot be used (said in one line, before Discord is contacted), 2 if Discord
    rejects the token or the intents."""
    _setup_logging(config)
    try:
        run_retrying(config)
    except KeyboardInterrupt:
        log.info("Stopped.")
    except StoreError as err:
        fail(f"not starting: {err}")
        return 1
    except discord.LoginFailure:
        fail(BAD_TOKEN)
        return 2
    except discord.PrivilegedIntentsRequired:
        fail(
            "Discord refused the gateway intents requested (Bazaar asks only for guilds, no privileged "
            "intent): check the Bot page of your application."
        )
        return 2
    return 0


async def _sync(config: Config) -> int:
    async with BazaarBot(config, sync_only=True) as bot:
        await bot.login(config.token)
        if config.dev_guild_id:
            guild = discord.Object(id=config.dev_guild_id)
            bot.tree.copy_global_to(guild=guild)
            synced = await bot.tree.sync(guild=guild)
            where = f"server {config.dev_guild_id}"
        else:
            synced = await bot.tree.sync()
            where = "every server (global commands may take up to an hour to appear)"
        log.info(
            "Synced %d commands to %s: %s", len(synced), where, ", ".join(sorted(c.name for c in synced))
        )
        return await _sync_emojis(bot)


async def _sync_emojis(bot: discord.Client) -> int:
    """Upload the game pieces as the bot's emojis (:func:`emojis.sync`); 0 when every piece has
    its emoji, 1 (said in one line) when Discord refused some or all of them."""
    try:
        done = await emojis.sync(bot)
    except discord.HTTPException as err:
        fail(f"the game pieces' emojis were not uploaded: Discord answered {err.status} {err.text}".strip())
        return 1
    log.info(
        "Emojis: %d uploaded, %d already there, %d older pictures deleted",
        len(done.uploaded),
        len(done.kept),
        len(done.deleted),
    )
    if done.refused:
        fail(
            f"{len(done.refused)} emojis were refused (their buttons show text): "
            + "; ".join(done.refused[:3])
        )
        return 1
    return 0


def sync_commands(config: Config) -> int:
    """Register the slash commands with Discord (in ``DEV_GUILD_ID`` when set, else globally).
    Returns 0 on success, 2 if the token is rejected, 1 on another Discord error."""
    _setup_logging(config)
    try:
        return asyncio.run(_sync(config))
    except discord.LoginFailure:
        fail(BAD_TOKEN)
        return 2
    except (TimeoutError, aiohttp.ClientConnectionError) as err:
        fail(f"{unreachable(err)}; the commands were not registered. Try again later.")
        return 1
    except discord.HTTPException as err:
        fail(f"syncing the commands failed: Discord answered {err.status} {err.text}".strip())
        return 1
