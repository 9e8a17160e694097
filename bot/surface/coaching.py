"""Hints and reviews in Discord (the work is in :mod:`bot.host.coaching`).

* the **Hint** button (``bzhint:<game>:<version>``) sits with a player's own controls (the My hand
  answer) in a game that allows hints; a click answers privately with the hard AI's move from the
  clicker's view and one line of why, at most once a seat a turn;
* the **Review** button (``bzrev:<game>``) on a finished game's final sheet, and ``/review
  game:<n>``, answer a player of that game privately with the three moves that lost the most win
  chance, each with the board as they saw it then. The review is computed in the long-job lane
  the first time and read from the store after that.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Self

import discord
from discord import app_commands
from discord.ext import commands

import render

from ..host.live import LiveGame
from . import drawn, inputs, layout
from .flood import Throttled
from .handling import bot_of, defer, guard, reply, reply_shown, target

HINT_LABEL = "Hint"
REVIEW_LABEL = "Review"


class HintButton(
    Throttled,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"bzhint:(?P<game>[0-9]+):(?P<version>[0-9]+)",
):
    """A player's Hint button for the turn of ``version``."""

    def __init__(self, game_id: int, version: int, *, row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=HINT_LABEL, style=discord.ButtonStyle.secondary, custom_id=f"bzhint:{game_id}:{version}"
            ),
            row=row,
        )
        self.game_id = game_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await hint(interaction, self.game_id, self.version)


class ReviewButton(
    Throttled,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"bzrev:(?P<game>[0-9]+)",
):
    """The Review button of a finished game's final sheet."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=REVIEW_LABEL, style=discord.ButtonStyle.primary, custom_id=f"bzrev:{game_id}"
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await review(interaction, self.game_id, component=True)


ITEMS = (HintButton, ReviewButton)


def with_hint(
    make: Callable[[], discord.ui.View] | None, game_id: int, version: int
) -> Callable[[], discord.ui.View]:
    """The controls ``make`` lays out (none: an empty row) with the Hint button added beside My
    hand where there is one, else after the last control: on that row if it has room, else on the
    row below."""

    def build() -> discord.ui.View:
        out = make() if make is not None else discord.ui.View(timeout=None)
        rows = {getattr(i, "custom_id", ""): getattr(i, "_rendered_row", None) or 0 for i in out.children}
        hand = [r for cid, r in rows.items() if cid.endswith(":!hand")]
        last = hand[0] if hand else max(rows.values(), default=0)
        for row in (last, last + 1, None):
            try:
                out.add_item(HintButton(game_id, version, row=row))
                break
            except ValueError:  # that row is full (or there are no rows left: the first with room)
                continue
        return out

    return build


def with_review(view: discord.ui.View, game_id: int) -> discord.ui.View:
    """``view`` (a final sheet's controls) with the Review button added."""
    view.add_item(ReviewButton(game_id))
    return view


async def hint_allowed(interaction: discord.Interaction, game: LiveGame) -> bool:
    """Whether the clicker's own controls in ``game`` get a Hint button: they are awaited, the
    game gives hints and they have not had this turn's."""
    bot = bot_of(interaction)
    seat = bot.service.awaited_seat(game, interaction.user.id)
    if seat is None:
        return False
    return await bot.service.coaching.hint_left(game, seat)


async def hint(interaction: discord.Interaction, game_id: int, version: int) -> None:
    """A Hint click: the hint, privately."""
    bot = bot_of(interaction)
    async with guard(interaction, "hint"):
        await defer(interaction)
        game = await target(interaction, game_id, component=True)
        line = await bot.service.coaching.hint(game, interaction.user.id, version)
        await reply(interaction, f"💡 **Hint** ({game.title}, move {version + 1}): {line}")


async def review(interaction: discord.Interaction, game_id: int | None, *, component: bool = False) -> None:
    """``/review`` or a Review click: the asker's review, privately, once it is ready."""
    bot = bot_of(interaction)
    async with guard(interaction, "review"):
        await defer(interaction)
        game = await target(interaction, game_id, component=component)
        found = await bot.service.coaching.review(game, interaction.user.id)
        if not found.moments:
            await reply(
                interaction,
                f"🔎 **Review of {game.title}**: none of your moves lost win chance by the hard AI's "
                "estimate. Well played.",
            )
            return
        pngs = []
        for view in found.views:
            png = await drawn.png(interaction.client, game.id, game.engine.name, "hand", view, game.names)
            if png is not None:
                pngs.append(png)
        lines = [
            f"🔎 **Review of {game.title}** — your {len(found.moments)} costliest moves, as you saw them:"
        ]
        lines += [f"{i}. {m.line()}" for i, m in enumerate(found.moments, 1)]
        lines.append(
            "-# Win chance by the hard AI's estimate (mostly the win, partly the place); a quick "
            "pass over all your moves chose the ones it looked at closely."
        )
        await reply_shown(
            interaction,
            layout.Shown(
                "\n".join(lines),
                footer=f"{game.engine.name.capitalize()} — only you see this",
                accent=render.seat_colour(found.seat),
                pngs=pngs,
                filename=f"{game.engine.name}-{game.id}-review.png",
            ),
        )


class Coaching(commands.Cog):
    """``/review``."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(
        name="review", description="Your three costliest moves of a finished game, privately"
    )
    @app_commands.describe(game="the finished game's number")
    async def review_command(self, interaction: discord.Interaction, game: int) -> None:
        await review(interaction, inputs.game_ref(game))


async def setup(bot: commands.Bot) -> None:
    """Add ``/review`` to ``bot``."""
    await bot.add_cog(Coaching(bot))
