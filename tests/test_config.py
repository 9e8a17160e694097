"""bot.config: environment over .env, the one-line error without a token, the hidden token."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.host.config import Config, ConfigError, load_config


def test_missing_token_explains_where_to_get_one(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as err:
        load_config(tmp_path / "absent.env", environ={})
    msg = str(err.value)
    assert "DISCORD_TOKEN" in msg and "discord.com/developers/applications" in msg
    assert "\n" not in msg


def test_env_file_is_read_and_environment_wins(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=from-file\nBAZAAR_DB=x/y.sqlite3\nDEV_GUILD_ID=123\nLOG_LEVEL=debug\n")
    cfg = load_config(env, environ={})
    assert (cfg.token, cfg.db_path, cfg.dev_guild_id, cfg.log_level) == (
        "from-file",
        Path("x/y.sqlite3"),
        123,
        "DEBUG",
    )
    cfg = load_config(env, environ={"DISCORD_TOKEN": "from-env", "DEV_GUILD_ID": ""})
    assert cfg.token == "from-env" and cfg.dev_guild_id is None
    assert cfg.db_path == Path("x/y.sqlite3")


def test_defaults(tmp_path: Path) -> None:
    cfg = load_config(None, environ={"DISCORD_TOKEN": "t"})
    assert cfg.db_path == Path("data/bazaar.sqlite3") and cfg.dev_guild_id is None and cfg.log_level == "INFO"
    assert cfg.log_level_number == 20
    assert cfg.rate_limit == (8, 2.0)
    assert load_config(None, environ={"DISCORD_TOKEN": "t", "BAZAAR_RATE_LIMIT": "off"}).rate_limit == (
        0,
        0.0,
    )
    assert load_config(None, environ={"DISCORD_TOKEN": "t", "BAZAAR_RATE_LIMIT": "20/5"}).rate_limit == (
        20,
        5.0,
    )


@pytest.mark.parametrize(
    "key,value,needle",
    [
        ("DEV_GUILD_ID", "abc", "DEV_GUILD_ID"),
        ("LOG_LEVEL", "loud", "LOG_LEVEL"),
        ("BAZAAR_LOG_LEVEL", "loud", "BAZAAR_LOG_LEVEL"),
        ("BAZAAR_RATE_LIMIT", "fast", "BAZAAR_RATE_LIMIT"),
        ("BAZAAR_CONFIRM", "maybe", "BAZAAR_CONFIRM"),
    ],
)
def test_malformed_values_are_refused(key: str, value: str, needle: str) -> None:
    with pytest.raises(ConfigError, match=needle):
        load_config(None, environ={"DISCORD_TOKEN": "t", key: value})


def test_confirmations_are_on_unless_turned_off() -> None:
    assert load_config(None, environ={"DISCORD_TOKEN": "t"}).confirm is True
    for off in ("off", "false", "No", "0"):
        assert load_config(None, environ={"DISCORD_TOKEN": "t", "BAZAAR_CONFIRM": off}).confirm is False
    assert load_config(None, environ={"DISCORD_TOKEN": "t", "BAZAAR_CONFIRM": "on"}).confirm is True


def test_the_log_level_name_of_env_example_wins() -> None:
    cfg = load_config(
        None, environ={"DISCORD_TOKEN": "t", "BAZAAR_LOG_LEVEL": "warning", "LOG_LEVEL": "debug"}
    )
    assert cfg.log_level == "WARNING"


def test_token_never_in_repr() -> None:
    cfg = Config(token="SECRET-TOKEN-123")
    assert "SECRET-TOKEN-123" not in repr(cfg) and "SECRET-TOKEN-123" not in str(cfg)


def test_sync_may_skip_the_token_check() -> None:
    assert load_config(None, environ={}, require_token=False).token == ""


def test_quotas_are_read_from_the_environment_with_defaults() -> None:
    from bot.host.config import ConfigError, load_config

    q = load_config(None, environ={"DISCORD_TOKEN": "x"}).quotas
    assert (q.lobbies_per_user, q.games_per_channel, q.games_per_server, q.lobby_idle) == (3, 10, 100, 86400)
    q = load_config(
        None,
        environ={
            "DISCORD_TOKEN": "x",
            "BAZAAR_MAX_LOBBIES_PER_USER": "0",
            "BAZAAR_LOBBY_IDLE_HOURS": "2",
            "BAZAAR_MAX_HELD_GAMES": "50",
        },
    ).quotas
    assert (q.lobbies_per_user, q.lobby_idle, q.held_games) == (0, 7200, 50)
    for bad in ("-1", "x", "²", "2000000"):
        with pytest.raises(ConfigError, match="BAZAAR_MAX_GAMES_PER_SERVER"):
            load_config(None, environ={"DISCORD_TOKEN": "x", "BAZAAR_MAX_GAMES_PER_SERVER": bad})
