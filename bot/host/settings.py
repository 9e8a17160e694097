"""Every setting the bot reads from the environment or ``.env``, with its default and meaning:
the one list ``.env.example`` follows (a test compares them, and compares this list with what
:func:`bot.host.config.load_config` reads) and ``bazaar run --help`` prints."""

from __future__ import annotations

SETTINGS: tuple[tuple[str, str, str], ...] = (
    (
        "DISCORD_TOKEN",
        "",
        "the bot's token (Developer Portal -> your application -> Bot -> Reset Token); required",
    ),
    (
        "BAZAAR_DB",
        "data/bazaar.sqlite3",
        "a SQLite file, or a postgresql:// URL (a SQLite path other than the default must exist: "
        "`bazaar db migrate` creates it)",
    ),
    ("DEV_GUILD_ID", "", "a server id: `bazaar sync` registers the commands there at once (else globally)"),
    ("BAZAAR_LOG_LEVEL", "INFO", "DEBUG, INFO, WARNING or ERROR (LOG_LEVEL is read too)"),
    ("BAZAAR_AI_GRACE", "20", "seconds AI seats wait for people awaited beside them (trade replies)"),
    ("BAZAAR_RATE_LIMIT", "8/2", "the per-user flood guard: a burst, then so many a second (or off)"),
    (
        "BAZAAR_AI_LEVEL",
        "",
        "the AI's default level for every game: easy, normal or hard (empty: each game's own)",
    ),
    ("BAZAAR_WORKERS", "", "worker processes for boards and AI search (0: threads; empty: one per core)"),
    ("BAZAAR_LAG_LOG", "", "a file the event loop's lag samples are appended to (benchmarks)"),
    (
        "BAZAAR_HEARTBEAT",
        "",
        "a file the running bot touches every 30 s while connected; `bazaar health` checks it"
        " (the image sets it)",
    ),
    ("SHARD_COUNT", "", "Discord shards in all, across every process (empty: no sharding)"),
    ("SHARD_IDS", "", "the shards this process connects, e.g. 0,1 (needs a PostgreSQL BAZAAR_DB)"),
    ("BAZAAR_CLOCK_LEASE", "60", "seconds a process holds a turn clock it claimed (shared database)"),
    ("BAZAAR_CLOCK_POLL", "5", "seconds between looks for due turn clocks (shared database)"),
    (
        "BAZAAR_REPOST_AFTER",
        "90",
        "seconds after which a stored move whose board no process posted is posted (shared database)",
    ),
    ("BAZAAR_MAX_LOBBIES_PER_USER", "3", "open lobbies one person may have created (0: no limit)"),
    ("BAZAAR_MAX_GAMES_PER_CHANNEL", "10", "lobbies and running games in one channel (0: no limit)"),
    ("BAZAAR_MAX_GAMES_PER_SERVER", "100", "lobbies and running games in one server (0: no limit)"),
    (
        "BAZAAR_LOBBY_IDLE_HOURS",
        "24",
        "hours a lobby nobody joins, leaves or starts stays open (0: for ever)",
    ),
    (
        "BAZAAR_CONFIRM",
        "on",
        "on: a move that cannot be taken back (an escape, a last sun, a bribe) asks its player a"
        " private Confirm/Cancel first; off: it is played at once",
    ),
    (
        "BAZAAR_MAX_HELD_GAMES",
        "2000",
        "games kept loaded in memory; the least recently used are dropped (0: all)",
    ),
)
"""``(name, default, meaning)`` of each setting, in the order ``.env.example`` lists them."""

ALIASES = frozenset({"LOG_LEVEL"})
"""Older names still read, left out of ``.env.example``."""


def help_text() -> str:
    """The settings as ``bazaar run --help`` lists them."""
    width = max(len(name) for name, _, _ in SETTINGS)
    lines = ["settings (environment or .env; see .env.example):"]
    for name, default, meaning in SETTINGS:
        lines.append(f"  {name:<{width}}  {meaning}" + (f" [default: {default}]" if default else ""))
    return "\n".join(lines)
