"""``bazaar run`` and ``bazaar sync`` in the situations a person meets: a token Discord rejects
(against the fake Discord) and Discord out of reach (an unused local port): one ``bazaar:`` line
each, ``run`` retrying with back-off, no traceback and no voice-library warnings."""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest

from bot.host.config import Config
from bot.surface import launch
from tests.fakediscord import FakeDiscord


@pytest.fixture(autouse=True)
def restore_logging() -> Iterator[None]:
    """run_bot installs a root handler on the (captured) stderr: take it off again afterwards."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


def _unused_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port: int = s.getsockname()[1]
    s.close()
    return port


def _db(tmp_path: Path) -> Path:
    """An existing (empty) database file: a path other than the default must exist (a typo is refused)."""
    path = tmp_path / "db.sqlite3"
    path.touch()
    return path


async def test_a_rejected_token_is_one_line_and_exit_2(
    fake_discord: FakeDiscord, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = Config(token="not-the-token", db_path=_db(tmp_path))
    assert await asyncio.to_thread(launch.run_bot, config) == 2
    assert await asyncio.to_thread(launch.sync_commands, config) == 2
    err = capsys.readouterr().err
    lines = [x for x in err.splitlines() if x.startswith("bazaar:")]
    assert lines == [f"bazaar: {launch.BAD_TOKEN}"] * 2
    assert "Traceback" not in err
    assert "PyNaCl" not in err and "davey" not in err
    assert fake_discord.sessions == []


@pytest.fixture
def no_discord(monkeypatch: pytest.MonkeyPatch) -> None:
    """discord.py pointed at a local port where nothing listens."""
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{_unused_port()}/api/v10")


def test_run_retries_with_back_off_while_discord_is_unreachable(
    no_discord: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    waits: list[float] = []

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        if len(waits) == 7:
            raise KeyboardInterrupt  # the person stops it

    config = Config(token="t", db_path=_db(tmp_path))
    with pytest.raises(KeyboardInterrupt):
        launch.run_retrying(config, sleep=sleep, delays=(1.0, 2.0, 4.0))
    assert waits == [1.0, 2.0, 4.0, 4.0, 4.0, 4.0, 4.0]
    err = capsys.readouterr().err
    lines = [x for x in err.splitlines() if x.startswith("bazaar:")]
    assert len(lines) == 7 and all("cannot reach Discord" in x for x in lines)
    assert "trying again in 1 s" in lines[0] and "trying again in 4 s" in lines[-1]
    assert "Traceback" not in err


def test_run_stops_cleanly_after_ctrl_c_during_a_retry(
    no_discord: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def sleep(seconds: float) -> None:
        raise KeyboardInterrupt

    real = launch.run_retrying
    monkeypatch.setattr(launch, "run_retrying", lambda config: real(config, sleep=sleep))
    assert launch.run_bot(Config(token="t", db_path=_db(tmp_path))) == 0
    assert "Traceback" not in capsys.readouterr().err


def test_sync_says_discord_is_unreachable_and_exits_1(
    no_discord: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert launch.sync_commands(Config(token="t", db_path=_db(tmp_path))) == 1
    err = capsys.readouterr().err
    lines = [x for x in err.splitlines() if x.startswith("bazaar:")]
    assert len(lines) == 1 and "cannot reach Discord" in lines[0] and "not registered" in lines[0]
    assert "Traceback" not in err
