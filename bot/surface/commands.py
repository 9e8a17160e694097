"""The slash commands: ``/game new|join|leave|addbot|start|status|list|end``, ``/move``, ``/hand``,
``/resign``, ``/rules`` and ``/log``, with their autocompletes. The work is in ``actions.py`` and
``lobby.py``."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from engines import base

from . import (
    actions,
    archive,
    coaching,
    handling,
    inputs,
    ladder,
    learning,
    levels,
    lobby,
    newgame,
    rulescards,
    serversettings,
    undoing,
)
from .context import bazaar

log = logging.getLogger(__name__)
Choice = app_commands.Choice


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


FORM_UNRATED = "`rated:false` does not go with `form:true` yet: give the options as `options:` text instead."
GAME_NUMBER = "the game's number (see /game list); needed only where several games run"


@app_commands.guild_only()
class GameGroup(app_commands.Group, name="game", description="Create, join and manage Bazaar games"):
    """``/game …``"""

    @app_commands.command(name="join", description="Join the game lobby here")
    @app_commands.describe(game=GAME_NUMBER)
    @app_commands.autocomplete(game=game_number_autocomplete)
    async def join(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await lobby.lobby_op(interaction, "join", inputs.game_ref(game))

    @app_commands.command(name="leave", description="Leave the game lobby here")
    @app_commands.describe(game=GAME_NUMBER)
    @app_commands.autocomplete(game=game_number_autocomplete)
    async def leave(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await lobby.lobby_op(interaction, "leave", inputs.game_ref(game))

    @app_commands.command(name="addbot", description="Add an AI player to the lobby")
    @app_commands.describe(game=GAME_NUMBER, level="How strong the AI plays (default: normal)")
    @app_commands.choices(level=levels.choices())  # what each does, hard's measured rate
    @app_commands.autocomplete(game=game_number_autocomplete)
    async def addbot(
        self, interaction: discord.Interaction, game: int | None = None, level: str | None = None
    ) -> None:
        await lobby.lobby_op(interaction, "addbot", inputs.game_ref(game), level=inputs.ai_level(level))

    @app_commands.command(name="start", description="Start the game (its creator)")
    @app_commands.describe(game=GAME_NUMBER)
    @app_commands.autocomplete(game=game_number_autocomplete)
    async def start(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await lobby.lobby_op(interaction, "start", inputs.game_ref(game))

    @app_commands.command(name="status", description="Show a game's board, players and clock")
    @app_commands.describe(game=GAME_NUMBER)
    @app_commands.autocomplete(game=game_number_autocomplete)
    async def status(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await actions.status(interaction, inputs.game_ref(game))

    @app_commands.command(name="list", description="List the open games on this server")
    async def list_(self, interaction: discord.Interaction) -> None:
        await actions.game_list(interaction)

    @app_commands.command(name="end", description="End a game early (its creator or Manage Server)")
    @app_commands.describe(game=GAME_NUMBER)
    @app_commands.autocomplete(game=game_number_autocomplete)
    async def end(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await actions.end(interaction, inputs.game_ref(game))


class Bazaar(commands.Cog):
    """All of Bazaar's slash commands."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="move", description="Play your move (autocomplete lists your legal moves)")
    @app_commands.describe(action="your move, e.g. take b4", game=GAME_NUMBER)
    @app_commands.autocomplete(action=move_autocomplete)
    @app_commands.autocomplete(game=game_number_autocomplete)
    @app_commands.guild_only()
    async def move(self, interaction: discord.Interaction, action: str, game: int | None = None) -> None:
        await actions.move(interaction, inputs.action(action), inputs.game_ref(game))

    @app_commands.command(name="hand", description="See your private view (only you see the answer)")
    @app_commands.describe(game=GAME_NUMBER)
    @app_commands.autocomplete(game=game_number_autocomplete)
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await actions.hand(interaction, inputs.game_ref(game))

    @app_commands.command(name="resign", description="Leave the game; the AI plays your seat")
    @app_commands.describe(game=GAME_NUMBER)
    @app_commands.autocomplete(game=game_number_autocomplete)
    @app_commands.guild_only()
    async def resign(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await actions.resign(interaction, inputs.game_ref(game))

    @app_commands.command(name="log", description="The last moves of the game here")
    @app_commands.describe(game=GAME_NUMBER, count="how many moves (default 15, at most 50)")
    @app_commands.autocomplete(game=game_number_autocomplete)
    @app_commands.guild_only()
    async def log(
        self,
        interaction: discord.Interaction,
        game: int | None = None,
        count: app_commands.Range[int, 1, 50] = 15,
    ) -> None:
        await actions.move_log(interaction, inputs.game_ref(game), inputs.number(count, "count", lo=1, hi=50))


def new_command(choices: list[Choice[str]]) -> app_commands.Command[Any, ..., None]:
    """``/game new``, offering ``choices`` as the games."""

    @app_commands.command(name="new", description="Open a lobby for a game in this channel")
    @app_commands.describe(
        game="which game",
        options="game options as name=value, e.g. open_hands=true",
        clock="time per turn, e.g. 24h, 90m, 1h30m (at least 1m; default 24h)",
        form="choose the options in a dialog (checkboxes and choices) before the lobby opens",
        hints="a Hint button with each player's controls (default on; never in a rated game)",
        rated="whether the game counts on the ratings (default: true)",
    )
    @app_commands.choices(game=choices)
    @app_commands.choices(hints=[Choice(name="on", value="on"), Choice(name="off", value="off")])
    @app_commands.autocomplete(options=options_autocomplete)
    async def new(
        interaction: discord.Interaction,
        game: str,
        options: str | None = None,
        clock: str | None = None,
        form: bool = False,
        hints: str = "on",
        rated: bool = True,
    ) -> None:
        if form is True and hints == "off":  # the options dialog does not carry it (yet)
            await actions.reply(
                interaction,
                "The options dialog (`form:true`) cannot turn hints off yet: "
                "use `hints:off` without `form:true`. No lobby was opened.",
            )
            return
        if rated is not True and form is True:
            await handling.reply(interaction, FORM_UNRATED)
            return
        if form is True:  # a bool as Discord sends it (a forged value opens no dialog)
            await newgame.ask(
                interaction,
                inputs.game_kind(game),
                inputs.text(options, "options", limit=inputs.MAX_OPTIONS),
                inputs.text(clock, "clock", limit=inputs.MAX_CLOCK),
            )
            return
        await lobby.new_game(
            interaction,
            inputs.game_kind(game),
            inputs.text(options, "options", limit=inputs.MAX_OPTIONS),
            inputs.text(clock, "clock", limit=inputs.MAX_CLOCK),
            hints=hints != "off",
            rated=rated is not False,
        )

    return new


def rules_command(choices: list[Choice[str]]) -> app_commands.Command[Any, ..., None]:
    """``/rules``, offering ``choices`` as the games."""

    @app_commands.command(name="rules", description="A game's rules summary and options")
    @app_commands.describe(game="which game")
    @app_commands.choices(game=choices)
    async def rules(interaction: discord.Interaction, game: str) -> None:
        await rulescards.rules(interaction, inputs.game_kind(game))

    return rules


async def setup(bot: commands.Bot) -> None:
    """Add the commands to ``bot``'s tree; ``/game new`` and ``/rules`` offer the games registered
    now as fixed choices."""
    await bot.add_cog(Bazaar(bot))
    await bot.add_cog(coaching.Coaching(bot))
    await bot.add_cog(undoing.Undoing(bot))
    await bot.add_cog(learning.Learning(bot))
    await bot.add_cog(serversettings.ServerSettings(bot))
    await bot.add_cog(ladder.Ladder(bot))
    choices = game_choices()
    await archive.setup(bot, choices)  # /history, /replay, /stats
    group = GameGroup()
    group.add_command(new_command(choices))
    bot.tree.add_command(group)
    bot.tree.add_command(rules_command(choices))
