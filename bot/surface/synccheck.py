"""At start, compare the slash commands this version defines with those Discord has registered
for the bot (in ``DEV_GUILD_ID`` when set, else globally) and say in one log line when
``bazaar sync`` is due (an upgrade added, removed or changed a command)."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any

import discord

log = logging.getLogger(__name__)


def _shape(command: Mapping[str, Any]) -> tuple[Any, ...]:
    """What a user sees of a command: its name, type, description and options (recursively),
    leaving out what Discord adds by itself (ids, versions, defaults)."""
    options = tuple(sorted((_shape(o) for o in command.get("options") or []), key=lambda t: str(t[0])))
    choices = tuple(sorted(str(c.get("value")) for c in command.get("choices") or []))
    return (
        command.get("name"),
        int(command.get("type") or 1),
        command.get("description") or "",
        bool(command.get("required")),
        bool(command.get("autocomplete")),
        choices,
        options,
    )


def differences(local: Iterable[Mapping[str, Any]], remote: Iterable[Mapping[str, Any]]) -> list[str]:
    """``["new /x", "changed /game", "removed /old"]``: how Discord's commands differ from ours."""
    ours = {c["name"]: _shape(c) for c in local}
    theirs = {c["name"]: _shape(c) for c in remote}
    out = [f"new /{n}" for n in sorted(ours.keys() - theirs.keys())]
    out += [f"changed /{n}" for n in sorted(ours.keys() & theirs.keys()) if ours[n] != theirs[n]]
    out += [f"removed /{n}" for n in sorted(theirs.keys() - ours.keys())]
    return out


async def check(bot: discord.ext.commands.Bot, guild_id: int | None) -> list[str]:
    """Log one line when Discord's registered commands differ from this version's; returns the
    differences (empty when none, or when Discord could not be asked: logged)."""
    guild = discord.Object(id=guild_id) if guild_id else None
    try:
        remote = await bot.tree.fetch_commands(guild=guild)
    except (discord.HTTPException, OSError) as err:
        log.info("Could not compare the slash commands with Discord's (%s)", err)
        return []
    local = [c.to_dict(bot.tree) for c in bot.tree.get_commands(guild=None)]
    found = differences(local, [c.to_dict() for c in remote])
    if found:
        where = f"in server {guild_id}" if guild_id else "globally"
        log.warning(
            "The slash commands registered %s differ from this version's (%s): run `bazaar sync`",
            where,
            ", ".join(found[:8]) + (" …" if len(found) > 8 else ""),
        )
    return found
