"""A prompt's dialog (``engines.prompt.Dialog``) drawn as a Discord modal.

The dialog's button is persistent (``bzd:<game>:<version>:<dialog>``); a click opens the modal as
the first answer to the interaction (nothing is deferred before it, so it is within Discord's
3 seconds). The modal holds one labelled select menu per pick of the dialog, built from the
clicker's prompt as it is now; on submit, the values go back through that same dialog of the
clicker's prompt (asked again, never trusted from the modal), which builds the action that is
then played like any move (:mod:`dialog_flow`). The modal's custom id
(``bzdm:<game>:<version>:<dialog>``) names what it was opened for; the bot keeps no copy of it, so
a dialog sent after a restart is served like any other.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Self

import discord

from engines import prompt as pr

from .context import bazaar
from .flood import Throttled

MAX_TITLE = 45  # characters of a modal's title and of a label's text


def dialog_id(game_id: int, version: int, key: str) -> str:
    """The custom id of a dialog's button."""
    return f"bzd:{game_id}:{version}:{key}"


class DialogButton(
    Throttled,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"bzd:(?P<game>[0-9]+):(?P<version>[0-9]+):(?P<key>[A-Za-z0-9_]+)",
):
    """The button that opens a dialog of the clicker's prompt as a modal."""

    def __init__(
        self, game_id: int, version: int, key: str, *, label: str = "Open…", row: int | None = None
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=discord.ButtonStyle.primary,
                custom_id=dialog_id(game_id, version, key),
            ),
            row=row,
        )
        self.game_id, self.version, self.key = game_id, version, key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        label = item.label if isinstance(item, discord.ui.Button) and item.label else "Open…"
        return cls(int(match["game"]), int(match["version"]), match["key"], label=label)

    async def callback(self, interaction: discord.Interaction) -> None:
        await bazaar(interaction.client).on_dialog(interaction, self.game_id, self.version, self.key)


MODAL_ID = re.compile(r"bzdm:(?P<game>[0-9]+):(?P<version>[0-9]+):(?P<key>[A-Za-z0-9_]+)")
"""The custom id of a dialog's modal: the game, the version and the dialog it was opened for."""


def modal(game_id: int, version: int, dialog: pr.Dialog, fmt: Callable[[str], str]) -> discord.ui.Modal:
    """The modal of ``dialog``: a labelled select menu per pick (custom id: the pick's key).
    ``fmt`` puts player names in the engine's texts (``{s1}``). It is sent stopped, so discord.py
    keeps no copy: its submit is read from the interaction alone (:func:`answers`), which works
    after a restart of the bot and however long the player takes."""
    out = discord.ui.Modal(
        title=fmt(dialog.title)[:MAX_TITLE], custom_id=f"bzdm:{game_id}:{version}:{dialog.key}"
    )
    for pick in dialog.picks:
        menu: discord.ui.Select[discord.ui.Modal] = discord.ui.Select(
            custom_id=pick.key,
            options=[
                discord.SelectOption(
                    label=fmt(c.label)[:100] or c.value[:100],
                    value=c.value[:100],
                    description=fmt(c.description)[:100] or None,
                )
                for c in pick.choices
            ],
            min_values=pick.min,
            max_values=pick.max,
            required=pick.min > 0,
        )
        out.add_item(discord.ui.Label(text=fmt(pick.placeholder)[:MAX_TITLE], component=menu))
    out.stop()
    return out


def answers(interaction: discord.Interaction) -> dict[str, object]:
    """What a modal submit carries: each field's custom id and its ``values`` (a menu, a checkbox
    group) or ``value`` (a radio group, a text, a checkbox), exactly as sent (unchecked)."""
    data: object = interaction.data or {}
    rows = data.get("components", []) if isinstance(data, dict) else []
    out: dict[str, object] = {}
    for row in rows if isinstance(rows, list) else []:
        if not isinstance(row, dict):
            continue
        inner = [row.get("component")] if row.get("type") == 18 else row.get("components") or []
        for comp in inner if isinstance(inner, list) else []:
            if isinstance(comp, dict) and isinstance(comp.get("custom_id"), str):
                out[comp["custom_id"]] = comp["values"] if "values" in comp else comp.get("value")
    return out


ITEMS = (DialogButton,)
"""The persistent components of this module (registered by the bot at start-up)."""
