"""The AI levels as people read them: what each does, and how often the hard one wins against the
normal one in each game, as measured by the arena (:mod:`bot.offline.levelrates` writes
``levelrates.json``; nothing here is typed by hand)."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from discord import app_commands

RATES = Path(__file__).with_name("levelrates.json")

DOES = {
    "easy": "a simple plan (the game's rule of thumb, at once)",
    "normal": "looks ahead (searches about a second)",
    "hard": "thinks longest (searches up to three seconds)",
}


@functools.cache
def rates() -> dict[str, Any]:
    """The measured figures (empty when the file is missing or unreadable)."""
    try:
        found: dict[str, Any] = json.loads(RATES.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return found


def hard_rate(game: str) -> str:
    """ "wins 58% of its games against normal (2 players, 12 games, measured 2026-12-04)", or ""."""
    figures = rates()
    one = figures.get("games", {}).get(game)
    if not one:
        return ""
    return (
        f"wins {one['hard_win_rate']:.0%} of its seats' games against normal, where an even match "
        f"wins {one['even_rate']:.0%} ({one['players']} players, {one['games']} games, measured "
        f"{figures.get('measured', '?')})"
    )


def lobby_line(game: str) -> str:
    """The lobby's line on the AI levels."""
    rate = hard_rate(game)
    hard = f"hard {DOES['hard'].split(' (')[0]}" + (f", and {rate}" if rate else "")
    return (
        f"AI levels: easy plays {DOES['easy'].split(' (')[0]}; normal {DOES['normal'].split(' (')[0]}; "
        f"{hard}. `/game addbot level:` chooses one."
    )


def choices() -> list[app_commands.Choice[str]]:
    """``/game addbot``'s level choices, each saying what the level does (and, for hard, its
    measured range of win rates against normal over the games)."""
    games = rates().get("games", {})
    shares = sorted(round(g["hard_win_rate"] * 100) for g in games.values())
    hard = DOES["hard"]
    if shares:
        hard = f"thinks longest; beat normal in {shares[0]}–{shares[-1]}% of measured games"
    return [
        app_commands.Choice(name=f"easy: {DOES['easy']}"[:100], value="easy"),
        app_commands.Choice(name=f"normal: {DOES['normal']}"[:100], value="normal"),
        app_commands.Choice(name=f"hard: {hard}"[:100], value="hard"),
    ]
