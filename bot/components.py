"""Persistent buttons and select menus.

Every component is a :class:`discord.ui.DynamicItem` whose custom id carries the game id and
version: ``bz:<game>:<version>:<action>`` for a button (``!join``, ``!leave``, ``!addbot``,
``!start``, ``!hand`` are lobby/hand controls, anything else is an action text) and
``bzs:<game>:<version>`` for a select menu whose values are action texts. The bot registers the
classes in ``setup_hook``, so buttons on messages posted before a restart keep working, and a
click on an old board is refused as stale by the version check.
"""
from __future__ import annotations

from typing import Sequence

import discord

CONTROLS = ("!join", "!leave", "!addbot", "!start", "!hand")
MAX_BUTTONS = 5      # a step with this many legal actions or fewer gets one row of buttons
MAX_SELECT = 25      # Discord's limit of options in a select menu
MAX_ID = 100         # Discord's limit on a custom id


def button_id(game_id: int, version: int, action: str) -> str:
    """The custom id of a button."""
    return f"bz:{game_id}:{version}:{action}"


def select_id(game_id: int, version: int) -> str:
    """The custom id of an action select menu."""
    return f"bzs:{game_id}:{version}"


class GameButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=r"bz:(?P<game>[0-9]+):(?P<version>[0-9]+):(?P<action>.+)"):
    """A lobby control, the "My hand" button, or one legal action of the current step."""

    def __init__(self, game_id: int, version: int, action: str, *, label: str | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=(label or action)[:80], style=style,
                                           custom_id=button_id(game_id, version, action)), row=row)
        self.game_id = game_id
        self.version = version
        self.action = action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match) -> "GameButton":  # type: ignore[override]
        return cls(int(match["game"]), int(match["version"]), match["action"], label=item.label,
                   style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        from . import actions
        await actions.on_button(interaction, self.game_id, self.version, self.action)


class ActionSelect(discord.ui.DynamicItem[discord.ui.Select],
                   template=r"bzs:(?P<game>[0-9]+):(?P<version>[0-9]+)"):
    """A select menu of the current step's legal actions (values are action texts)."""

    def __init__(self, game_id: int, version: int, options: Sequence[discord.SelectOption],
                 row: int | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=select_id(game_id, version), options=list(options),
                                           placeholder="Choose your move…", min_values=1, max_values=1),
                         row=row)
        self.game_id = game_id
        self.version = version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,
                             match) -> "ActionSelect":  # type: ignore[override]
        return cls(int(match["game"]), int(match["version"]), item.options)

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        from . import actions
        values = (interaction.data or {}).get("values") or self.item.values
        await actions.on_button(interaction, self.game_id, self.version, values[0] if values else "")


def lobby_view(game_id: int) -> discord.ui.View:
    """Join, Leave, Add AI and Start."""
    view = discord.ui.View(timeout=None)
    view.add_item(GameButton(game_id, 0, "!join", label="Join", style=discord.ButtonStyle.success))
    view.add_item(GameButton(game_id, 0, "!leave", label="Leave"))
    view.add_item(GameButton(game_id, 0, "!addbot", label="Add AI"))
    view.add_item(GameButton(game_id, 0, "!start", label="Start", style=discord.ButtonStyle.primary))
    return view


def turn_view(game_id: int, version: int, choices: Sequence[tuple[str, str]] | None) -> discord.ui.View:
    """The turn message's components: buttons (≤ :data:`MAX_BUTTONS` choices) or a select menu
    (≤ :data:`MAX_SELECT`) for ``(action, label)`` choices, plus "My hand". Larger lists, or
    actions too long for an id, get only "My hand" (``/move`` autocompletes them)."""
    view = discord.ui.View(timeout=None)
    choices = list(choices or [])
    fits = all(len(button_id(game_id, version, a)) <= MAX_ID and not a.startswith("!") for a, _ in choices)
    if choices and fits and len(choices) <= MAX_BUTTONS:
        for action, label in choices:
            view.add_item(GameButton(game_id, version, action, label=label, style=discord.ButtonStyle.primary, row=0))
    elif choices and len(choices) <= MAX_SELECT and all(len(a) <= 100 for a, _ in choices):
        options = [discord.SelectOption(label=(label or action)[:100], value=action,
                                        description=action[:100] if label and label != action else None)
                   for action, label in choices]
        view.add_item(ActionSelect(game_id, version, options, row=0))
    view.add_item(GameButton(game_id, 0, "!hand", label="My hand", row=1))
    return view

