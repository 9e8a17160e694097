"""Limits that keep one user, channel or server from taking the bot over (every server shares one
process and one database with strangers). Each is set in ``.env``; 0 turns a limit off."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.digits import is_digits


@dataclass(frozen=True)
class Quotas:
    """How much one user, channel and server may hold open at once, when a lobby nobody starts
    is closed, and how many games one process keeps in memory (least recently used dropped,
    loaded again on use)."""

    lobbies_per_user: int = 3  # BAZAAR_MAX_LOBBIES_PER_USER: lobbies a user created that are open
    games_per_channel: int = 10  # BAZAAR_MAX_GAMES_PER_CHANNEL: lobbies and running games
    games_per_server: int = 100  # BAZAAR_MAX_GAMES_PER_SERVER: lobbies and running games
    lobby_idle: float = 86400.0  # BAZAAR_LOBBY_IDLE_HOURS (in seconds here): an untouched lobby closes
    held_games: int = 2000  # BAZAAR_MAX_HELD_GAMES: games kept loaded in memory

    SETTINGS = {
        "BAZAAR_MAX_LOBBIES_PER_USER": ("lobbies_per_user", 3),
        "BAZAAR_MAX_GAMES_PER_CHANNEL": ("games_per_channel", 10),
        "BAZAAR_MAX_GAMES_PER_SERVER": ("games_per_server", 100),
        "BAZAAR_LOBBY_IDLE_HOURS": ("lobby_idle", 24),
        "BAZAAR_MAX_HELD_GAMES": ("held_games", 2000),
    }


def read_quotas(values: Mapping[str, str]) -> Quotas:
    """The limits set in ``values`` (the environment and ``.env``), defaults for the rest.
    Raises ValueError naming a setting that is not a whole number from 0 to 1,000,000."""
    found: dict[str, float] = {}
    for name, (attr, _default) in Quotas.SETTINGS.items():
        text = (values.get(name) or "").strip()
        if not text:
            continue
        if not is_digits(text) or int(text) > 1_000_000:
            raise ValueError(f"{name} must be a whole number from 0 (no limit) to 1000000, not {text!r}")
        found[attr] = int(text) * 3600.0 if attr == "lobby_idle" else int(text)
    return Quotas(**found)  # type: ignore[arg-type]
