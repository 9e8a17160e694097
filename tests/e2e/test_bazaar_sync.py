"""``bazaar sync`` (``bot.surface.launch._sync``): the command tree goes to the dev guild when set,
else global;
no database is opened and no gateway connection is made."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.host.config import Config
from bot.surface import launch
from tests.fakediscord import FakeDiscord, RunBot

EXPECTED = [
    "game",
    "hand",
    "history",
    "leaderboard",
    "learn",
    "log",
    "move",
    "profile",
    "replay",
    "resign",
    "review",
    "rules",
    "settings",
    "stats",
    "undo",
]


async def test_sync_to_the_dev_guild_then_globally(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.add_guild("Dev")
    db = tmp_path / "never.sqlite3"
    assert await launch._sync(Config(token=fake.token, db_path=db, dev_guild_id=guild.id)) == 0
    assert await launch._sync(Config(token=fake.token, db_path=db)) == 0
    assert [(scope, sorted(names)) for scope, names in fake.command_syncs] == [
        (guild.id, EXPECTED),
        (None, EXPECTED),
    ]
    assert not db.exists() and fake.sessions == []
    game = next(c for c in fake.commands[None] if c["name"] == "game")
    assert sorted(o["name"] for o in game["options"]) == [
        "addbot",
        "end",
        "join",
        "leave",
        "list",
        "new",
        "start",
        "status",
    ]


async def test_the_bot_says_when_a_sync_is_due(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """At start the bot compares its commands with Discord's: one warning naming what differs
    (an upgrade that changed them), none once they agree."""
    from bot.surface import synccheck
    from tests.e2e.bazaar_harness import make_table

    table = make_table(fake_discord, run_bot, tmp_path)
    await table.boot(sync=False)
    with caplog.at_level("WARNING", logger="bot.surface.synccheck"):
        found = await synccheck.check(table.bot, None)
    assert found == [f"new /{name}" for name in EXPECTED]
    assert "run `bazaar sync`" in caplog.text
    assert await launch._sync(Config(token=fake_discord.token, db_path=tmp_path / "x.sqlite3")) == 0
    assert await synccheck.check(table.bot, None) == []
    game = next(c for c in fake_discord.commands[None] if c["name"] == "game")
    game["options"] = [o for o in game["options"] if o["name"] != "list"]  # an older version's tree
    assert await synccheck.check(table.bot, None) == ["changed /game"]
