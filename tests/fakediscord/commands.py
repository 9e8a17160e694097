"""Application commands: storing what the bot synced, and turning a test's call into interaction options.

``resolve_command`` finds the synced command a user can run in a channel; ``build_options``
checks and converts keyword arguments against the command's option definitions (types,
choices, ranges, required options) and returns the ``options`` and ``resolved`` payloads
exactly as Discord would send them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import FakeDiscordError
from .payloads import attachment_payload, channel_payload, member_payload, role_payload, user_payload
from .records import Attachment, Channel, Role, User

if TYPE_CHECKING:
    from .world import World

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11
TYPE_NAMES = {
    3: "string",
    4: "integer",
    5: "boolean",
    6: "user",
    7: "channel",
    8: "role",
    9: "mentionable",
    10: "number",
    11: "attachment",
}


def stored_command(
    world: World, data: dict[str, Any], guild_id: int | None, previous: dict[str, Any] | None
) -> dict[str, Any]:
    """The command object Discord stores and returns for one entry of a bulk overwrite."""
    cmd = dict(data)
    cmd["id"] = previous["id"] if previous else str(world.ids.next())
    cmd["application_id"] = str(world.application_id)
    cmd["version"] = str(world.ids.next())
    cmd.setdefault("type", 1)
    cmd.setdefault("options", [])
    cmd.setdefault("nsfw", False)
    perms = cmd.get("default_member_permissions")
    cmd["default_member_permissions"] = None if perms is None else str(perms)
    if guild_id is not None:
        cmd["guild_id"] = str(guild_id)
    else:
        cmd.setdefault("contexts", None)
        cmd.setdefault("integration_types", [0])
    return cmd


def resolve_command(
    world: World, user: User, channel: Channel, path: str
) -> tuple[dict[str, Any], list[str], list[dict[str, Any]]]:
    """Find the command for ``path`` ("game new") usable by ``user`` in ``channel``.

    Returns (command, [sub-names], leaf option definitions). Raises FakeDiscordError naming the
    commands that do exist when the path is wrong, or why the command is not available.
    """
    names = path.split()
    if not names:
        raise FakeDiscordError("empty command path")
    guild = world.guild_of(channel)
    scopes: list[int | None] = ([guild.id] if guild else []) + [None]
    cmd = None
    for scope in scopes:
        cmd = next(
            (c for c in world.commands.get(scope, []) if c["name"] == names[0] and c.get("type", 1) == 1),
            None,
        )
        if cmd is not None:
            break
    if cmd is None:
        available = sorted(
            {c["name"] for s in scopes for c in world.commands.get(s, []) if c.get("type", 1) == 1}
        )
        raise FakeDiscordError(
            f"no slash command /{names[0]} is synced for this channel; synced: {available} "
            "(did the bot sync its command tree?)"
        )
    _check_available(world, user, channel, cmd)
    options = cmd.get("options") or []
    subs: list[str] = []
    for name in names[1:]:
        group = [o for o in options if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)]
        opt = next((o for o in group if o["name"] == name), None)
        if opt is None:
            raise FakeDiscordError(
                f"/{' '.join([names[0], *subs])} has no subcommand {name!r}; "
                f"it has {[o['name'] for o in group]}"
            )
        subs.append(name)
        options = opt.get("options") or []
    leftover = [o["name"] for o in options if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)]
    if leftover:
        raise FakeDiscordError(f"/{path} needs a subcommand: {leftover}")
    return cmd, subs, options


def _check_available(world: World, user: User, channel: Channel, cmd: dict[str, Any]) -> None:
    guild = world.guild_of(channel)
    if guild is None:
        contexts = cmd.get("contexts")
        if (
            "guild_id" in cmd
            or cmd.get("dm_permission") is False
            or (contexts is not None and 1 not in contexts)
        ):
            raise FakeDiscordError(f"/{cmd['name']} cannot be used in DMs (guild-only command)")
        return
    if user.id not in guild.members:
        raise FakeDiscordError(f"{user!r} is not a member of {guild!r}")
    contexts = cmd.get("contexts")
    if contexts is not None and 0 not in contexts:
        raise FakeDiscordError(f"/{cmd['name']} is not available in guilds (contexts={contexts})")
    required = cmd.get("default_member_permissions")
    if required is not None:
        have = world.base_permissions(guild, user)
        if int(required) == 0 and have != (1 << 53) - 1 or have & int(required) != int(required):
            raise FakeDiscordError(
                f"Discord hides /{cmd['name']} from {user!r}: it needs permissions "
                f"{int(required):#x} (default_member_permissions)"
            )


def nest_options(
    subs: list[str], leaf: list[dict[str, Any]], definitions: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Wrap leaf option values in their subcommand (group) options, as Discord nests them."""
    options = leaf
    types = []
    defs = definitions
    for name in subs:
        opt = next(o for o in defs if o["name"] == name)
        types.append(opt["type"])
        defs = opt.get("options") or []
    for name, otype in reversed(list(zip(subs, types, strict=True))):
        options = [{"type": otype, "name": name, "options": options}]
    return options


def build_options(
    world: World,
    user: User,
    channel: Channel,
    definitions: list[dict[str, Any]],
    values: dict[str, Any],
    *,
    focused: str | None = None,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Convert ``values`` to interaction options in declaration order, plus the ``resolved`` data.

    For autocomplete (``focused`` set) required options may be missing and the focused value
    is sent as typed (a string) with ``focused: true``. Raises FakeDiscordError on an unknown
    option, a missing required one, a wrong type, a value outside the choices or range.
    """
    by_name = {d["name"]: d for d in definitions}
    unknown = [k for k in values if k not in by_name]
    if unknown:
        raise FakeDiscordError(f"unknown option(s) {unknown}; the command takes {list(by_name)}")
    if focused is not None:
        if focused not in by_name:
            raise FakeDiscordError(f"cannot focus {focused!r}; the command takes {list(by_name)}")
        if not by_name[focused].get("autocomplete"):
            raise FakeDiscordError(f"option {focused!r} has no autocomplete")
    options: list[dict[str, Any]] = []
    resolved: dict[str, dict[str, Any]] = {}
    for d in definitions:
        name = d["name"]
        if name == focused:
            typed = values.get(name, "")
            options.append({"type": d["type"], "name": name, "value": typed, "focused": True})
            continue
        if name not in values:
            if d.get("required") and focused is None:
                raise FakeDiscordError(f"missing required option {name!r} ({TYPE_NAMES.get(d['type'])})")
            continue
        value = _convert(world, user, channel, d, values[name], resolved)
        options.append({"type": d["type"], "name": name, "value": value})
    return options, resolved


def _convert(
    world: World,
    user: User,
    channel: Channel,
    d: dict[str, Any],
    value: Any,
    resolved: dict[str, dict[str, Any]],
) -> Any:
    otype, name = d["type"], d["name"]
    if otype == STRING:
        if not isinstance(value, str):
            raise FakeDiscordError(f"option {name!r} takes a string, got {value!r}")
        if not d.get("min_length", 0) <= len(value) <= d.get("max_length", 6000):
            raise FakeDiscordError(
                f"option {name!r}: length {len(value)} outside {d.get('min_length', 0)}.."
                f"{d.get('max_length', 6000)}"
            )
        return _check_choice(d, value)
    if otype in (INTEGER, NUMBER):
        wrong = not isinstance(value, int) if otype == INTEGER else not isinstance(value, (int, float))
        if isinstance(value, bool) or wrong:
            if d.get("choices") and isinstance(value, str):
                return _check_choice(d, value)
            raise FakeDiscordError(f"option {name!r} takes {TYPE_NAMES[otype]}, got {value!r}")
        lo, hi = d.get("min_value"), d.get("max_value")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise FakeDiscordError(f"option {name!r}: {value} outside {lo}..{hi}")
        return _check_choice(d, value if otype == INTEGER else float(value))
    if otype == BOOLEAN:
        if not isinstance(value, bool):
            raise FakeDiscordError(f"option {name!r} takes a boolean, got {value!r}")
        return value
    if otype in (USER, MENTIONABLE) and isinstance(value, User):
        _resolve_user(world, channel, value, resolved)
        return str(value.id)
    if otype in (ROLE, MENTIONABLE) and isinstance(value, Role):
        resolved.setdefault("roles", {})[str(value.id)] = role_payload(value)
        return str(value.id)
    if otype == CHANNEL and isinstance(value, Channel):
        types = d.get("channel_types")
        if types and value.type not in types:
            raise FakeDiscordError(f"option {name!r} accepts channel types {types}, got {value.type}")
        data = channel_payload(world, value, permissions_for=user)
        resolved.setdefault("channels", {})[str(value.id)] = data
        return str(value.id)
    if otype == ATTACHMENT:
        att = value if isinstance(value, Attachment) else _upload(world, channel, value)
        resolved.setdefault("attachments", {})[str(att.id)] = attachment_payload(att)
        return str(att.id)
    raise FakeDiscordError(f"option {name!r} ({TYPE_NAMES.get(otype, otype)}) cannot take {value!r}")


def _check_choice(d: dict[str, Any], value: Any) -> Any:
    choices = d.get("choices")
    if not choices:
        return value
    for ch in choices:
        if ch["value"] == value:
            return value
    for ch in choices:
        if ch["name"] == value:
            return ch["value"]
    raise FakeDiscordError(
        f"option {d['name']!r}: {value!r} is not one of the choices {[c['value'] for c in choices]}"
    )


def _resolve_user(world: World, channel: Channel, user: User, resolved: dict[str, dict[str, Any]]) -> None:
    resolved.setdefault("users", {})[str(user.id)] = user_payload(user)
    guild = world.guild_of(channel)
    member = guild.members.get(user.id) if guild else None
    if member is not None:
        perms = world.permissions_in(channel, user)
        resolved.setdefault("members", {})[str(user.id)] = member_payload(
            world, member, with_user=False, permissions=perms
        )


def _upload(world: World, channel: Channel, value: Any) -> Attachment:
    if not (isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], (bytes, bytearray))):
        raise FakeDiscordError("an attachment option takes an Attachment or a (filename, bytes) pair")
    filename, data = value
    att = Attachment(world.ids.next(), filename, bytes(data))
    att.url = f"{world.cdn_base}/attachments/{channel.id}/{att.id}/{filename}"
    world.attachments[att.id] = att
    return att
