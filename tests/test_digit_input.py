"""Digit-like characters that are not ASCII digits (superscripts, other scripts) are refused like
any bad number, with the usual clear message, never let through to an ``int`` that raises."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.digits import is_digits
from bot.host.clock import BadDuration, parse_duration
from bot.host.config import ConfigError, load_config
from bot.host.live import Refusal
from bot.host.parsing import game_number
from bot.host.shards import parse_shards
from bot.offline.movelog import LogError, loads
from bot.surface.inputs import ids
from engines.base import StaleState

ODD = ["²", "¹²", "#²", "٣", "1²", "①"]


def test_is_digits_takes_ascii_digits_only() -> None:
    assert is_digits("0") and is_digits("0123456789")
    assert not any(is_digits(s) for s in ["", " 1", "-1", "1.0", *ODD])


@pytest.mark.parametrize("text", ODD)
def test_a_game_number_of_odd_digits_is_refused(text: str) -> None:
    with pytest.raises(Refusal, match="is not a game number"):
        game_number(text)


@pytest.mark.parametrize("text", ["²", "²h", "٣h", "1h²m", "①m"])
def test_a_clock_of_odd_digits_is_refused(text: str) -> None:
    with pytest.raises(BadDuration, match="is not a duration"):
        parse_duration(text)


def test_a_custom_id_of_odd_digits_is_stale_not_a_crash() -> None:
    with pytest.raises(StaleState):
        ids(7, "²")
    with pytest.raises(Refusal):
        ids("²", 3)


def test_settings_of_odd_digits_are_refused(tmp_path: Path) -> None:
    for name, value in (("DEV_GUILD_ID", "¹²³"), ("BAZAAR_WORKERS", "²")):
        with pytest.raises(ConfigError, match=name):
            load_config(None, environ={"DISCORD_TOKEN": "x", name: value})
    with pytest.raises(ValueError, match="SHARD_COUNT"):
        parse_shards("²", "")
    with pytest.raises(ValueError, match="SHARD_IDS"):
        parse_shards("2", "0,¹")


def test_a_move_log_with_an_odd_seat_is_a_log_error() -> None:
    text = "game: pralaya\nseed: 1\nplayers: 2\n² take a1\n"
    with pytest.raises(LogError, match="expected"):
        loads(text)
