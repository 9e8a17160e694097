"""What the slash commands offer as choices and completions: the registered games (a fixed
list), a game's options as typed so far, the caller's moves, the open games' numbers."""

from __future__ import annotations

import discord
from discord import app_commands

from engines import base

from . import handling, inputs
from .context import bazaar

Choice = app_commands.Choice

GAME_NUMBER = "the game's number (see /game list); needed only where several games run"


def game_choices() -> list[Choice[str]]:
    """One choice per registered game ("Pralaya (2–5 players)" → ``pralaya``); Discord shows them
    as a fixed list, so a game name can never be mistyped. Built when the commands are set up, so
    every game registered by then is offered."""
    return [
        Choice(name=f"{e.title} ({e.min_players}–{e.max_players} players)", value=e.name)
        for e in base.games()
    ][:25]


async def options_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """What was typed so far, extended by each option not yet given (``name=default``)."""
    try:
        engine = base.get(inputs.typed(getattr(interaction.namespace, "game", "")))
    except base.BadOption:
        return []
    typed = inputs.typed(current).strip()
    given = {tok.split("=", 1)[0].strip().lower() for tok in typed.replace(",", " ").split() if "=" in tok}
    out = [Choice(name=typed[:100], value=typed[:100])] if typed else []
    last = typed.split()[-1] if typed.split() else ""
    stem = typed[: len(typed) - len(last)] if last and "=" not in last else (typed + " " if typed else "")
    for o in engine.options:
        if o.name in given or (last and "=" not in last and not o.name.startswith(last.lower())):
            continue
        default = str(o.default).lower() if isinstance(o.default, bool) else o.default
        picks = [default, *[c for c in o.choices if c != default]] if o.kind is str else [default]
        for v in picks:
            value = f"{stem}{o.name}={v}".strip()
            if len(value) <= 100:
                out.append(Choice(name=f"{value}  ({o.help})"[:100], value=value))
    return out[:25]


async def move_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """The caller's moves for what they typed so far, from the engine's ``complete`` (its legal
    actions filtered, or the next words for a game whose list is huge); 25 at most."""
    bot = bazaar(interaction.client)
    try:
        game = await bot.service.find(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id or 0,
            user_id=interaction.user.id,
            game_id=getattr(interaction.namespace, "game", None),
            sees=handling.sees(interaction),
        )
    except Exception:
        return []
    out = []
    for value, label in bot.service.complete_for(game, interaction.user.id, inputs.typed(current))[:25]:
        # a label that begins with its text (a move that goes on: "swap … then a card") is shown alone
        name = label if label == value or label.startswith(value + " ") else f"{label} — {value}"
        out.append(Choice(name=name[:100], value=value[:100]))
    return out


async def game_number_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[int]]:
    """Open games of this server whose number starts with what was typed."""
    bot = bazaar(interaction.client)
    try:
        games = await bot.service.list_games(interaction.guild_id, handling.sees(interaction))
    except Exception:
        return []
    cur = inputs.typed(current).strip().lstrip("#")
    return [
        Choice(name=f"#{g.id} {g.engine.title} ({g.row.status}) — " + ", ".join(g.names), value=g.id)
        for g in games
        if str(g.id).startswith(cur)
    ][:25]
