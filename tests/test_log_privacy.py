"""What reaches a log stays private. At BAZAAR_LOG_LEVEL=DEBUG no interaction token reaches the
log: discord.py's webhook logger (which writes every interaction answer's URL, token included)
stays at INFO, and any line that quotes such a URL has the token masked. A ``/log`` entry is what
a spectator saw of a move: its public events, and its text only when the engine says the text is
not private."""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator

import pytest

from bot.host import replay
from bot.host.config import load_config
from bot.surface import launch
from engines import base

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


@pytest.mark.parametrize(("name", "options"), [("kathai", {}), ("phraya", {"hidden_hands": True})])
def test_a_log_entry_is_what_a_spectator_saw(name: str, options: dict[str, bool]) -> None:
    engine = base.get(name)
    state = engine.setup(3, 3, options)
    rng = random.Random(3)
    shown = hidden = 0
    for version in range(1, 200):
        if not engine.to_move(state):
            break
        seat = engine.to_move(state)[0]
        action = engine.playout_action(state, seat, rng)
        played = base.play(engine, state, seat, action)
        _, _, text, by, events = replay.entry(engine, version, seat, played, "player", state)
        assert events == [e.text for e in base.events_for(played.events, None)]
        private = engine.private_action(state, seat, action)
        assert text == ("" if private else action) and by == "player"
        shown, hidden = shown + (not private), hidden + private
        state = played.state
    assert shown and (hidden if name == "kathai" else not hidden), (shown, hidden)
