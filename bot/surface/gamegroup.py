"""``/game new|join|leave|addbot|start|status|list|end``: the lobby and a game's upkeep, as one
group cog. The work is in ``lobby.py``, ``newgame.py`` and ``actions.py``."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from . import actions, handling, inputs, levels, lobby, newgame
from .choices import GAME_NUMBER, Choice, game_choices, game_number_autocomplete, options_autocomplete

FORM_UNRATED = "`rated:false` does not go with `form:true` yet: give the options as `options:` text instead."


@app_commands.guild_only()
class GameGroup(
    commands.GroupCog, group_name="game", group_description="Create, join and manage Bazaar games"
):
    """``/game …``: ``join``, ``leave``, ``addbot``, ``start``, ``status``, ``list``, ``end``, and
    ``new`` offering the games registered when the cog is made."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()
        group = self.app_command
        assert group is not None  # a GroupCog always has its group
        group.add_command(new_command(game_choices()))

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


async def setup(bot: commands.Bot) -> None:
    """Add ``/game`` to ``bot``."""
    await bot.add_cog(GameGroup(bot))
