"""The persistent controls of looking back, each a :class:`discord.ui.DynamicItem` whose custom id
carries all its handler reads, so it works after a restart:

- ``bzr:<game>:<move>:<first|prev|next|last>``: a replay's buttons (the move they show; **Last**
  shows the newest move of a running game, whatever its number said);
- ``bzrj:<game>:<move>``: a replay's jump menu (its values are move numbers);
- ``bzh:<game>``: a ``/history`` line's button, opening the replay of that game;
- ``bzm:<game>``: **Rematch** on a final sheet; ``bzv:<game>``: **Replay** beside it.
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from . import archive_show, components, rematch
from .archive_views import TAGS
from .flood import Throttled


class ReplayButton(
    Throttled,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"bzr:(?P<game>[0-9]+):(?P<move>[0-9]+):(?P<tag>first|prev|next|last)",
):
    """A replay's button: shows its move (see :func:`.archive_show.on_replay`)."""

    def __init__(self, game: str, move: str, tag: str) -> None:
        super().__init__(discord.ui.Button(label=TAGS[tag], custom_id=f"bzr:{game}:{move}:{tag}"))
        self.game, self.move, self.tag = game, move, tag

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(match["game"], match["move"], match["tag"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await archive_show.on_replay(interaction, self.game, None if self.tag == "last" else self.move)


class JumpSelect(
    Throttled,
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"bzrj:(?P<game>[0-9]+):(?P<move>[0-9]+)",
):
    """A replay's jump menu: shows the move chosen."""

    def __init__(self, game: str, move: str) -> None:
        super().__init__(discord.ui.Select(custom_id=f"bzrj:{game}:{move}"))
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(match["game"], match["move"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await archive_show.on_jump(interaction, self.game, components.sent_values(interaction))


class GameLink(
    Throttled,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"bz(?P<kind>[hmv]):(?P<game>[0-9]+)",
):
    """A history line's replay button, a final sheet's Rematch or Replay."""

    def __init__(self, kind: str, game: str) -> None:
        super().__init__(discord.ui.Button(label="…", custom_id=f"bz{kind}:{game}"))
        self.kind, self.game = kind, game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(match["kind"], match["game"])

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.kind == "m":
            await rematch.on_rematch(interaction, self.game)
        else:
            await archive_show.on_replay(interaction, self.game, None, new=True)


ITEMS = (ReplayButton, JumpSelect, GameLink)
"""The persistent components of this module (registered by the bot at start-up)."""
