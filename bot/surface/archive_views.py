"""The controls of looking back, built (their persistent handlers are in :mod:`.archive_items`): a replay's
buttons and jump menu, a history's replay buttons, a final sheet's Rematch and Replay."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from ..host.archive import Frame, Past
from . import components

TAGS = {"first": "⏮ First", "prev": "◀ Previous", "next": "Next ▶", "last": "Last ⏭"}


def replay_id(game_id: int, move: int, tag: str) -> str:
    return f"bzr:{game_id}:{move}:{tag}"


def jump_id(game_id: int, move: int) -> str:
    return f"bzrj:{game_id}:{move}"


def replay_view(frame: Frame) -> discord.ui.View:
    """A replay's controls: first, previous, next, last, and the jump menu."""
    view = discord.ui.View(timeout=None)
    k, last = frame.move, frame.last
    targets = {"first": 0, "prev": max(0, k - 1), "next": min(last, k + 1), "last": last}
    for tag, label in TAGS.items():
        at_end = k == last and frame.status != "active"  # a running game's Last looks for newer moves
        off = (
            (tag in ("first", "prev") and k == 0)
            or (tag == "next" and k == last)
            or (tag == "last" and at_end)
        )
        button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
            label=label,
            style=discord.ButtonStyle.secondary,
            custom_id=replay_id(frame.game_id, targets[tag], tag),
            disabled=off,
            row=0,
        )
        view.add_item(button)
    options = [
        discord.SelectOption(label=label[:100], value=str(j), default=j == k) for j, label in frame.jumps
    ]
    view.add_item(
        discord.ui.Select(
            custom_id=jump_id(frame.game_id, k), options=options, placeholder="Jump to a move…", row=1
        )
    )
    return view


def history_view(games: Sequence[Past]) -> discord.ui.View | None:
    """A button per game of a history (numbered as its lines), opening its replay."""
    if not games:
        return None
    view = discord.ui.View(timeout=None)
    for i, g in enumerate(games[: components.PER_ROW * 4]):
        view.add_item(
            discord.ui.Button(
                label=f"{i + 1}. Replay #{g.row.id}",
                style=discord.ButtonStyle.secondary,
                custom_id=f"bzh:{g.row.id}",
                row=i // components.PER_ROW,
            )
        )
    return view


def final_view(game_id: int) -> discord.ui.View:
    """The controls of a final sheet: Rematch and Replay."""
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Button(label="Rematch", style=discord.ButtonStyle.success, custom_id=f"bzm:{game_id}")
    )
    view.add_item(
        discord.ui.Button(label="Replay", style=discord.ButtonStyle.secondary, custom_id=f"bzv:{game_id}")
    )
    return view
