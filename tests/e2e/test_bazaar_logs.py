"""What reaches the log: never the token, and never a private view, even at BAZAAR_LOG_LEVEL=DEBUG
(discord.py's own DEBUG lines carry request and response bodies, so DM texts and hands)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.host.config import Config
from bot.surface import launch
from tests.e2e.bazaar_harness import make_table
from tests.fakediscord import FakeDiscord, RunBot


@pytest.fixture
def restore_logging() -> Iterator[None]:
    """Put the root handlers and the levels the bot's set-up touches back afterwards."""
    root = logging.getLogger()
    names = ("discord", "discord.http", "discord.gateway", "discord.client", "aiosqlite")
    saved = (list(root.handlers), root.level, {n: logging.getLogger(n).level for n in names})
    yield
    for h in list(root.handlers):
        if h not in saved[0]:
            root.removeHandler(h)
    root.setLevel(saved[1])
    for n, level in saved[2].items():
        logging.getLogger(n).setLevel(level)


async def test_debug_logging_keeps_hands_and_the_token_out(
    fake_discord: FakeDiscord,
    run_bot: RunBot,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    restore_logging: None,
) -> None:
    fake = fake_discord
    launch._setup_logging(Config(token=fake.token, db_path=tmp_path / "x.sqlite3", log_level="DEBUG"))
    caplog.set_level(logging.DEBUG)
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 1)
    for i in range(4):
        await table.play_one(gid, thread, "button" if i % 2 else "move")
    dms = fake.dms(table.players["ann"]) + fake.dms(table.players["bob"])
    assert dms and any(r.levelname == "DEBUG" for r in caplog.records)
    assert "your private view" not in caplog.text
    for m in dms:
        hand_text = m.text.split("\n", 1)[-1]
        assert hand_text not in caplog.text
    # nor the stored state (every hand, the deck order), which the database layer's DEBUG lines
    # would print with each statement's parameters
    snapshot = await table.bot.service.store.snapshot(gid)
    assert snapshot is not None
    state_json = snapshot[1]
    assert state_json[:120] not in caplog.text and state_json[-120:] not in caplog.text
    assert fake.token not in caplog.text


async def test_run_bot_refuses_a_corrupt_database_with_one_clear_line(
    fake_discord: FakeDiscord,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
    restore_logging: None,
) -> None:
    """``bazaar run`` on a corrupt file: exit code 1, one ``bazaar:`` line on stderr naming the
    file and what to do, no critical log line, the file untouched, the token nowhere (the real
    run_bot, in a thread, against the fake)."""
    import asyncio

    fake = fake_discord
    path = tmp_path / "bazaar.sqlite3"
    junk = b"this is not a database " * 100
    path.write_bytes(junk)
    caplog.set_level(logging.INFO)
    code = await asyncio.to_thread(launch.run_bot, Config(token=fake.token, db_path=path))
    assert code == 1 and path.read_bytes() == junk
    err = capsys.readouterr().err.splitlines()
    said = [line for line in err if line.startswith("bazaar: ")]
    assert len(said) == 1 and str(path) in said[0] and "restore a backup" in said[0], err
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert fake.token not in caplog.text + "\n".join(err) and fake.interactions == []
