"""JSON payloads in the shapes Discord's API v10 sends (and discord.py 2.7 reads).

Every function returns a fresh JSON-serialisable dict; ids are strings as on the wire.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .records import (
    DM,
    Attachment,
    Channel,
    Guild,
    Member,
    Message,
    Role,
    User,
    now_iso,
    snowflake_iso,
)

if TYPE_CHECKING:
    from .world import World

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


def user_payload(user: User) -> dict[str, Any]:
    """A user object."""
    return {
        "id": str(user.id),
        "username": user.name,
        "discriminator": "0" if not user.bot else "0001",
        "global_name": user.global_name,
        "avatar": None,
        "bot": user.bot,
        "system": False,
        "public_flags": 0,
        "flags": 0,
        "banner": None,
        "accent_color": None,
        "avatar_decoration_data": None,
    }


def client_user_payload(user: User) -> dict[str, Any]:
    """The bot's own user object (GET /users/@me, READY)."""
    data = user_payload(user)
    data.update({"verified": True, "mfa_enabled": False, "locale": "en-US", "email": None, "bio": ""})
    return data


def member_payload(
    world: World, member: Member, *, with_user: bool = True, permissions: int | None = None
) -> dict[str, Any]:
    """A guild member object; ``permissions`` adds the interaction-only ``permissions`` field."""
    data: dict[str, Any] = {
        "roles": [str(r) for r in member.role_ids],
        "nick": member.nick,
        "avatar": None,
        "banner": None,
        "joined_at": member.joined_at,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
    }
    if with_user:
        data["user"] = user_payload(member.user)
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def role_payload(role: Role) -> dict[str, Any]:
    """A role object."""
    data: dict[str, Any] = {
        "id": str(role.id),
        "name": role.name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": role.position,
        "permissions": str(role.permissions),
        "managed": role.managed,
        "mentionable": False,
        "flags": 0,
    }
    if role.managed:
        data["tags"] = {"bot_id": str(role.guild_id)}
    return data


def thread_metadata(ch: Channel) -> dict[str, Any]:
    """The ``thread_metadata`` object of a thread."""
    return {
        "archived": ch.archived,
        "auto_archive_duration": ch.auto_archive_duration,
        "archive_timestamp": ch.archive_timestamp,
        "locked": ch.locked,
        "invitable": ch.invitable,
        "create_timestamp": ch.created_at,
    }


def channel_payload(world: World, ch: Channel, *, permissions_for: User | None = None) -> dict[str, Any]:
    """A channel object: text channel, thread or DM. ``permissions_for`` adds the interaction's
    ``permissions``."""
    last = str(ch.last_message_id) if ch.last_message_id else None
    if ch.is_dm:
        data: dict[str, Any] = {
            "id": str(ch.id),
            "type": DM,
            "last_message_id": last,
            "flags": 0,
            "recipients": [user_payload(world.users[ch.recipient_id])]
            if ch.recipient_id in world.users
            else [],
        }
    elif ch.is_thread:
        data = {
            "id": str(ch.id),
            "type": ch.type,
            "guild_id": str(ch.guild_id),
            "parent_id": str(ch.parent_id),
            "owner_id": str(ch.owner_id),
            "name": ch.name,
            "last_message_id": last,
            "rate_limit_per_user": 0,
            "message_count": ch.message_count,
            "member_count": len(ch.member_ids),
            "total_message_sent": ch.message_count,
            "flags": 0,
            "applied_tags": [],
            "thread_metadata": thread_metadata(ch),
        }
        if world.bot_user.id in ch.member_ids:
            data["member"] = {
                "id": str(ch.id),
                "user_id": str(world.bot_user.id),
                "join_timestamp": ch.created_at,
                "flags": 0,
            }
    else:
        data = {
            "id": str(ch.id),
            "type": ch.type,
            "guild_id": str(ch.guild_id),
            "name": ch.name,
            "position": ch.position,
            "parent_id": None,
            "topic": ch.topic,
            "nsfw": False,
            "rate_limit_per_user": 0,
            "last_message_id": last,
            "flags": 0,
            "default_auto_archive_duration": 1440,
            "permission_overwrites": [
                {"id": str(o["id"]), "type": o["type"], "allow": str(o["allow"]), "deny": str(o["deny"])}
                for o in ch.overwrites
            ],
        }
    if permissions_for is not None:
        data["permissions"] = str(world.permissions_in(ch, permissions_for))
    return data


def guild_create_payload(world: World, guild: Guild, members_intent: bool = False) -> dict[str, Any]:
    """The GUILD_CREATE payload: roles, channels, active threads, and members.

    Without the GUILD_MEMBERS intent Discord sends only the bot's own member, as here.
    """
    members = [m for m in guild.members.values() if members_intent or m.user.id == world.bot_user.id]
    channels = [c for c in guild.channels.values() if not c.is_thread and not c.deleted]
    threads = [c for c in guild.channels.values() if c.is_thread and not c.deleted and not c.archived]
    return {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(guild.owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "premium_progress_bar_enabled": False,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "vanity_url_code": None,
        "preferred_locale": guild.locale,
        "features": [],
        "max_members": 500000,
        "max_video_channel_users": 25,
        "application_id": None,
        "widget_enabled": False,
        "widget_channel_id": None,
        "roles": [role_payload(r) for r in guild.roles.values()],
        "emojis": [],
        "stickers": [],
        "joined_at": guild.members[world.bot_user.id].joined_at,
        "large": False,
        "unavailable": False,
        "member_count": len(guild.members),
        "voice_states": [],
        "members": [member_payload(world, m) for m in members],
        "channels": [channel_payload(world, c) for c in channels],
        "threads": [channel_payload(world, t) for t in threads],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "lazy": True,
    }


def attachment_payload(att: Attachment, *, ephemeral: bool = False) -> dict[str, Any]:
    """An attachment object (``url`` points at the fake's own file server)."""
    data: dict[str, Any] = {
        "id": str(att.id),
        "filename": att.filename,
        "size": att.size,
        "url": att.url,
        "proxy_url": att.url,
        "content_type": att.content_type,
        "flags": 0,
    }
    if att.description is not None:
        data["description"] = att.description
    if ephemeral:
        data["ephemeral"] = True
    return data


def message_payload(world: World, msg: Message) -> dict[str, Any]:
    """A message object, including the author's member data in guilds."""
    data: dict[str, Any] = {
        "id": str(msg.id),
        "channel_id": str(msg.channel_id),
        "type": msg.type,
        "author": user_payload(msg.author),
        "content": msg.content,
        "timestamp": msg.created_at or snowflake_iso(msg.id),
        "edited_timestamp": msg.edited_at,
        "tts": msg.tts,
        "mention_everyone": msg.mention_everyone,
        "mentions": [user_payload(world.users[u]) for u in msg.mention_ids if u in world.users],
        "mention_roles": [str(r) for r in msg.mention_role_ids],
        "attachments": [attachment_payload(a, ephemeral=msg.ephemeral) for a in msg.attachments],
        "embeds": msg.embeds,
        "reactions": [],
        "pinned": False,
        "flags": msg.flags,
        "components": msg.components,
    }
    if msg.guild_id is not None:
        data["guild_id"] = str(msg.guild_id)
        guild = world.guilds.get(msg.guild_id)
        member = guild.members.get(msg.author.id) if guild else None
        if member is not None:
            data["member"] = member_payload(world, member, with_user=False)
    if msg.webhook_id is not None:
        data["webhook_id"] = str(msg.webhook_id)
    if msg.application_id is not None:
        data["application_id"] = str(msg.application_id)
    if msg.interaction_id is not None:
        inter = world.interaction_records.get(msg.interaction_id)
        if inter is not None:
            meta: dict[str, Any] = {
                "id": str(inter.id),
                "type": inter.type,
                "user": user_payload(inter.user),
                "authorizing_integration_owners": inter.payload.get("authorizing_integration_owners", {}),
            }
            if inter.message is not None:
                meta["interacted_message_id"] = str(inter.message.id)
            if inter.response is not None and inter.response is not msg:
                meta["original_response_message_id"] = str(inter.response.id)
            data["interaction_metadata"] = meta
    if msg.message_reference is not None:
        data["message_reference"] = msg.message_reference
    if msg.thread_id is not None and msg.thread_id in world.channels:
        data["thread"] = channel_payload(world, world.channels[msg.thread_id])
    return data


def app_info_payload(world: World) -> dict[str, Any]:
    """GET /oauth2/applications/@me."""
    return {
        "id": str(world.application_id),
        "name": world.bot_user.name,
        "icon": None,
        "description": "",
        "summary": "",
        "type": None,
        "rpc_origins": [],
        "bot_public": True,
        "bot_require_code_grant": False,
        "bot": user_payload(world.bot_user),
        "owner": user_payload(world.app_owner),
        "team": None,
        "verify_key": "0" * 64,
        "flags": 0,
        "hook": True,
        "tags": [],
        "redirect_uris": [],
        "interactions_endpoint_url": None,
        "approximate_guild_count": len(world.guilds),
        "integration_types_config": {"0": {}},
    }


def ready_payload(
    world: World,
    session_id: str,
    resume_url: str,
    shard: list[int] | None,
    guild_ids: list[int] | None = None,
) -> dict[str, Any]:
    """The READY dispatch: the bot user, its guilds (``guild_ids``: those of the session's
    shard; default all) as unavailable, the session and resume URL."""
    data: dict[str, Any] = {
        "v": 10,
        "user": client_user_payload(world.bot_user),
        "user_settings": {},
        "guilds": [
            {"id": str(g), "unavailable": True} for g in (world.guilds if guild_ids is None else guild_ids)
        ],
        "session_id": session_id,
        "session_type": "normal",
        "resume_gateway_url": resume_url,
        "application": {"id": str(world.application_id), "flags": 0},
        "private_channels": [],
        "relationships": [],
        "presences": [],
        "geo_ordered_rtc_regions": [],
        "guild_join_requests": [],
        "_trace": ["fake-discord"],
    }
    if shard is not None:
        data["shard"] = shard
    return data


def timestamp_now() -> str:
    """Current time, ISO-8601 (used for edits)."""
    return now_iso()
