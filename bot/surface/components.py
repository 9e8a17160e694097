"""Persistent buttons and select menus.

Every component is a :class:`discord.ui.DynamicItem` whose custom id carries the game id and
version: ``bz:<game>:<version>:<action>`` for a button (``!join``, ``!leave``, ``!addbot``,
``!start``, ``!hand`` are lobby/hand controls, anything else is an action text),
``bzs:<game>:<version>[:<pick>]`` for a prompt's menu, ``bzf:<game>:<version>:<form>:<pick>`` for
a form's menu and ``bzfs:<game>:<version>:<form>`` for its Send button (``controls.py`` lays
prompts out with them). The bot registers the classes in ``setup_hook``, so controls on messages
posted before a restart keep working, and a click on an old board is refused as stale by the
version check.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Self, TypeVar

import discord

# re-exported: a step with this many actions or fewer gets buttons
from engines.prompt import MAX_BUTTONS as MAX_BUTTONS

from .context import bazaar
from .flood import Throttled

CONTROLS = ("!join", "!leave", "!addbot", "!start", "!hand")
PER_ROW = 5  # Discord's limit of buttons in an action row
MAX_ROWS = 4  # rows a turn message may use for its action buttons plus "My hand"

_Kind = TypeVar("_Kind", bound="discord.ui.Item[Any]")


def _posted(item: discord.ui.Item[Any], kind: type[_Kind]) -> _Kind:
    """``item`` (the component Discord sent back for a custom id of ours) as the ``kind`` of
    component that custom id is given to; anything else is a clear error, not a wrong game move."""
    if not isinstance(item, kind):
        raise TypeError(f"custom id of a {kind.__name__} came on a {type(item).__name__}")
    return item


def sent_values(interaction: discord.Interaction) -> object:
    """The values a menu interaction carries, exactly as sent (``actions`` checks them)."""
    data: object = interaction.data or {}
    return data.get("values", []) if isinstance(data, dict) else []


def known(custom_id: object) -> bool:
    """Whether ``custom_id`` has the shape of one of :data:`DYNAMIC_ITEMS` (the bot posts no other
    components)."""
    return isinstance(custom_id, str) and any(
        cls.__discord_ui_compiled_template__.fullmatch(custom_id) for cls in DYNAMIC_ITEMS
    )


def button_id(game_id: int, version: int, action: str) -> str:
    """The custom id of a button."""
    return f"bz:{game_id}:{version}:{action}"


def select_id(game_id: int, version: int) -> str:
    """The custom id of an action select menu."""
    return f"bzs:{game_id}:{version}"


class GameButton(
    Throttled,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"bz:(?P<game>[0-9]+):(?P<version>[0-9]+):(?P<action>.+)",
):
    """A lobby control, the "My hand" button, or one legal action of the current step."""

    def __init__(
        self,
        game_id: int,
        version: int,
        action: str,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: discord.PartialEmoji | None = None,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=(label or action)[:80],
                style=style,
                emoji=emoji,
                custom_id=button_id(game_id, version, action),
            ),
            row=row,
        )
        self.game_id = game_id
        self.version = version
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        sent = _posted(item, discord.ui.Button)
        return cls(
            int(match["game"]), int(match["version"]), match["action"], label=sent.label, style=sent.style
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        await bazaar(interaction.client).on_component(interaction, self.game_id, self.version, self.action)


class ActionSelect(
    Throttled,
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"bzs:(?P<game>[0-9]+):(?P<version>[0-9]+)(?::(?P<key>[A-Za-z0-9_]+))?",
):
    """A menu of a prompt. Without a key (``bzs:<game>:<version>``, also every menu posted before
    prompts existed) its one value is the action text; with one (``bzs:<game>:<version>:<key>``)
    the values go through the pick ``key`` of the clicker's prompt, which builds the action
    (e.g. ``accept t3 t7`` from two cards picked)."""

    def __init__(
        self,
        game_id: int,
        version: int,
        options: Sequence[discord.SelectOption],
        *,
        key: str | None = None,
        placeholder: str = "Choose your move…",
        min_values: int = 1,
        max_values: int = 1,
        row: int | None = None,
    ) -> None:
        cid = select_id(game_id, version) + (f":{key}" if key else "")
        super().__init__(
            discord.ui.Select(
                custom_id=cid,
                options=list(options),
                placeholder=placeholder[:150],
                min_values=min_values,
                max_values=max_values,
            ),
            row=row,
        )
        self.game_id = game_id
        self.version = version
        self.key = key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        sent = _posted(item, discord.ui.Select)
        return cls(int(match["game"]), int(match["version"]), sent.options, key=match["key"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await bazaar(interaction.client).on_pick(
            interaction, self.game_id, self.version, self.key, sent_values(interaction)
        )


def form_id(game_id: int, version: int, form: str, pick: str | None = None) -> str:
    """The custom id of a form's menu (``bzf:…:<pick>``) or of its Send button (``bzfs:…``)."""
    if pick is None:
        return f"bzfs:{game_id}:{version}:{form}"
    return f"bzf:{game_id}:{version}:{form}:{pick}"


class FormSelect(
    Throttled,
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"bzf:(?P<game>[0-9]+):(?P<version>[0-9]+):(?P<form>[A-Za-z0-9_]+):(?P<pick>[A-Za-z0-9_]+)",
):
    """One menu of a form: picking stores the values in the clicker's draft (nothing is played
    until Send)."""

    def __init__(
        self,
        game_id: int,
        version: int,
        form: str,
        pick: str,
        options: Sequence[discord.SelectOption],
        *,
        placeholder: str = "",
        min_values: int = 1,
        max_values: int = 1,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=form_id(game_id, version, form, pick),
                options=list(options),
                placeholder=placeholder[:150] or None,
                min_values=min_values,
                max_values=max_values,
            ),
            row=row,
        )
        self.game_id, self.version, self.form, self.pick = game_id, version, form, pick

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        sent = _posted(item, discord.ui.Select)
        return cls(int(match["game"]), int(match["version"]), match["form"], match["pick"], sent.options)

    async def callback(self, interaction: discord.Interaction) -> None:
        await bazaar(interaction.client).on_form(
            interaction, self.game_id, self.version, self.form, self.pick, sent_values(interaction)
        )


class FormSend(
    Throttled,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"bzfs:(?P<game>[0-9]+):(?P<version>[0-9]+):(?P<form>[A-Za-z0-9_]+)",
):
    """A form's Send button: the action is built from the clicker's draft and played."""

    def __init__(
        self, game_id: int, version: int, form: str, *, label: str = "Send", row: int | None = None
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80], style=discord.ButtonStyle.success, custom_id=form_id(game_id, version, form)
            ),
            row=row,
        )
        self.game_id, self.version, self.form = game_id, version, form

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        sent = _posted(item, discord.ui.Button)
        return cls(int(match["game"]), int(match["version"]), match["form"], label=sent.label or "Send")

    async def callback(self, interaction: discord.Interaction) -> None:
        await bazaar(interaction.client).on_form(interaction, self.game_id, self.version, self.form, None, [])


DYNAMIC_ITEMS = (GameButton, ActionSelect, FormSelect, FormSend)
"""Every persistent component class (registered by the bot at start-up)."""


def lobby_view(game_id: int) -> discord.ui.View:
    """Join, Leave, Add AI and Start."""
    view = discord.ui.View(timeout=None)
    view.add_item(GameButton(game_id, 0, "!join", label="Join", style=discord.ButtonStyle.success))
    view.add_item(GameButton(game_id, 0, "!leave", label="Leave"))
    view.add_item(GameButton(game_id, 0, "!addbot", label="Add AI"))
    view.add_item(GameButton(game_id, 0, "!start", label="Start", style=discord.ButtonStyle.primary))
    return view


def button_rows(actions: Sequence[str], per_row: int = PER_ROW, max_rows: int = MAX_ROWS) -> list[list[int]]:
    """How to lay out ``actions`` as buttons: a list of rows, each a list of indexes into
    ``actions`` in the given order, at most ``per_row`` to a row. Runs of consecutive actions
    with the same first word ("bid 4", "bid 7", then "pass") are kept apart: a run of several
    starts a new row, and so does whatever follows it; single actions share a row ("draw",
    "invoke"). When that would leave no room for "My hand" within ``max_rows`` rows, the
    actions are simply packed ``per_row`` to a row. Returns [] for no actions."""
    if not actions:
        return []
    packed = [list(range(i, min(i + per_row, len(actions)))) for i in range(0, len(actions), per_row)]
    runs: list[list[int]] = []
    for i, action in enumerate(actions):
        verb = action.split(" ", 1)[0]
        if runs and actions[runs[-1][-1]].split(" ", 1)[0] == verb:
            runs[-1].append(i)
        else:
            runs.append([i])
    rows: list[list[int]] = []
    previous: list[int] = []
    for run in runs:
        if not rows or len(run) > 1 or len(previous) > 1:
            rows.append([])
        for i in run:
            if len(rows[-1]) >= per_row:
                rows.append([])
            rows[-1].append(i)
        previous = run
    return rows if hand_row(rows, per_row) < max_rows else packed


def hand_row(rows: Sequence[Sequence[int]], per_row: int = PER_ROW) -> int:
    """The row "My hand" goes on below ``rows`` of buttons: the last row if it has room, else the
    next one (0 with no rows)."""
    if not rows:
        return 0
    return len(rows) - 1 if len(rows[-1]) < per_row else len(rows)
