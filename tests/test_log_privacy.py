"""At BAZAAR_LOG_LEVEL=DEBUG no interaction token reaches the log: discord.py's webhook logger
(which writes every interaction answer's URL, token included) stays at INFO, and any line that
quotes such a URL has the token masked."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from bot.host.config import load_config
from bot.surface import launch

TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEyMzQ1Njc4OnNlY3JldHRva2Vu"


@pytest.fixture
def debug_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    quiet = {n: logging.getLogger(n).level for n in launch.QUIET_LOGGERS}
    launch._setup_logging(load_config(None, environ={"DISCORD_TOKEN": "x", "BAZAAR_LOG_LEVEL": "DEBUG"}))
    yield
    for h in root.handlers:
        if h not in handlers:
            root.removeHandler(h)
    root.setLevel(level)
    for n, lv in quiet.items():
        logging.getLogger(n).setLevel(lv)


def test_no_interaction_token_at_debug(capsys: pytest.CaptureFixture[str], debug_logging: None) -> None:
    url = f"https://discord.com/api/v10/webhooks/123456789012345678/{TOKEN}/messages/@original"
    logging.getLogger("discord.webhook.async_").debug("PATCH %s with %s has returned 200", url, {})
    logging.getLogger("discord.client").debug(
        "answered %s", f"/interactions/987654321098765432/{TOKEN}/callback"
    )
    logging.getLogger("bazaar.test").info("a plain line stays as it is")
    err = capsys.readouterr().err
    assert TOKEN not in err
    assert "/interactions/987654321098765432/***" in err
    assert "a plain line stays as it is" in err
    assert logging.getLogger("discord.webhook.async_").getEffectiveLevel() >= logging.INFO
