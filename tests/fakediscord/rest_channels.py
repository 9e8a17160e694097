"""REST routes for channels: messages (JSON or multipart), threads, thread members, channel edits, typing.

Permissions are checked as Discord does for the bot (403 / 50013 Missing Permissions, 50001
Missing Access); DMs to a user with closed DMs fail with 403 / 50007.
"""

from __future__ import annotations

from typing import Any

from .errors import CANNOT_DM, MISSING_ACCESS, MISSING_PERMISSIONS, ApiError, form_error, unknown
from .messages import apply_edit, new_message
from .payloads import channel_payload, message_payload, timestamp_now
from .records import Channel, Message
from .rest import Ctx, Reply, Router
from .world import (
    ATTACH_FILES,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    MANAGE_CHANNELS,
    MANAGE_MESSAGES,
    MANAGE_THREADS,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
)

ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)


def channel_of(ctx: Ctx) -> Channel:
    """The channel named by the path (404 / 10003 when unknown or deleted)."""
    ch = ctx.fake.channels.get(ctx.int("channel_id"))
    if ch is None or ch.deleted:
        raise unknown("Channel")
    return ch


def require(ctx: Ctx, ch: Channel, mask: int) -> None:
    """403 unless the bot has ``mask`` in ``ch`` (50001 when it cannot even see the channel)."""
    fake = ctx.fake
    if ch.is_dm:
        return
    perms = fake.permissions_in(ch, fake.bot_user)
    if not perms & VIEW_CHANNEL:
        raise ApiError(*MISSING_ACCESS)
    if ch.type == 12 and fake.bot_user.id not in ch.member_ids and not perms & MANAGE_THREADS:
        raise ApiError(*MISSING_ACCESS)
    if perms & mask != mask:
        raise ApiError(*MISSING_PERMISSIONS)


def message_of(ctx: Ctx, ch: Channel) -> Message:
    """The (non-ephemeral, not deleted) message named by the path in ``ch``; 404 / 10008 otherwise."""
    msg = ctx.fake.message_store.get(ctx.int("message_id"))
    if msg is None or msg.deleted or msg.channel_id != ch.id or msg.ephemeral:
        raise unknown("Message")
    return msg


def unarchive_for_send(ctx: Ctx, ch: Channel) -> None:
    """Sending in an archived thread unarchives it unless it is locked (then 400 / 50083)."""
    if ch.is_thread and ch.archived:
        if ch.locked:
            raise ApiError(400, 50083, "Thread is archived")
        ch.archived = False
        ch.archive_timestamp = timestamp_now()
        ctx.fake._emit("THREAD_UPDATE", channel_payload(ctx.fake, ch), guild_id=ch.guild_id)


def message_with_nonce(ctx: Ctx, ch: Channel) -> Message | None:
    """With ``enforce_nonce``, the bot's message already made in ``ch`` with the request's
    ``nonce`` (Discord then answers with it instead of making another), else None."""
    nonce = ctx.body.get("nonce")
    if nonce is None or not ctx.body.get("enforce_nonce"):
        return None
    mid = ctx.fake.nonces.get((ch.id, str(nonce)))
    msg = ctx.fake.message_store.get(mid) if mid is not None else None
    return msg if msg is not None and not msg.deleted else None


async def create_message(ctx: Ctx) -> Reply:
    fake, ch = ctx.fake, channel_of(ctx)
    if ch.is_dm:
        recipient = fake.users.get(ch.recipient_id) if ch.recipient_id is not None else None
        if recipient is not None and recipient.dm_error is not None:
            raise ApiError(*recipient.dm_error)
        if recipient is None or not recipient.dms_open or not fake.shares_guild(recipient):
            raise ApiError(*CANNOT_DM)
    mask = (SEND_MESSAGES_IN_THREADS if ch.is_thread else SEND_MESSAGES) | (ATTACH_FILES if ctx.files else 0)
    if ctx.body.get("message_reference"):
        mask |= READ_MESSAGE_HISTORY
    require(ctx, ch, mask)
    same = message_with_nonce(ctx, ch)
    if same is not None:
        return message_payload(fake, same)
    unarchive_for_send(ctx, ch)
    msg = new_message(fake, ch, fake.bot_user, ctx.body, ctx.files)
    if ctx.body.get("nonce") is not None:
        fake.nonces[(ch.id, str(ctx.body["nonce"]))] = msg.id
    fake._emit("MESSAGE_CREATE", message_payload(fake, msg), guild_id=msg.guild_id)
    return message_payload(fake, msg)


async def get_message(ctx: Ctx) -> Reply:
    ch = channel_of(ctx)
    require(ctx, ch, VIEW_CHANNEL | READ_MESSAGE_HISTORY)
    return message_payload(ctx.fake, message_of(ctx, ch))


async def edit_message(ctx: Ctx) -> Reply:
    fake, ch = ctx.fake, channel_of(ctx)
    require(ctx, ch, VIEW_CHANNEL)
    msg = message_of(ctx, ch)
    if msg.author is not fake.bot_user:
        raise ApiError(403, 50005, "Cannot edit a message authored by another user")
    apply_edit(fake, msg, ctx.body, ctx.files)
    fake._emit("MESSAGE_UPDATE", message_payload(fake, msg), guild_id=msg.guild_id)
    return message_payload(fake, msg)


async def delete_message(ctx: Ctx) -> Reply:
    fake, ch = ctx.fake, channel_of(ctx)
    msg = message_of(ctx, ch)
    require(ctx, ch, VIEW_CHANNEL | (0 if msg.author is fake.bot_user else MANAGE_MESSAGES))
    delete(ctx, msg)
    return None


def delete(ctx: Ctx, msg: Message) -> None:
    """Mark ``msg`` deleted and tell the client."""
    msg.deleted = True
    data: dict[str, Any] = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
    if msg.guild_id:
        data["guild_id"] = str(msg.guild_id)
    if not msg.ephemeral:
        ctx.fake._emit("MESSAGE_DELETE", data, guild_id=msg.guild_id)


async def list_messages(ctx: Ctx) -> Reply:
    fake, ch = ctx.fake, channel_of(ctx)
    require(ctx, ch, VIEW_CHANNEL | READ_MESSAGE_HISTORY)
    limit = max(1, min(100, int(ctx.query.get("limit", 50))))
    msgs = [
        m for m in fake.message_store.values() if m.channel_id == ch.id and not m.deleted and not m.ephemeral
    ]
    msgs.sort(key=lambda m: m.id, reverse=True)
    if "before" in ctx.query:
        msgs = [m for m in msgs if m.id < int(ctx.query["before"])]
    if "after" in ctx.query:
        msgs = [m for m in msgs if m.id > int(ctx.query["after"])][-limit:]
    if "around" in ctx.query:
        pivot = int(ctx.query["around"])
        older = [m for m in msgs if m.id <= pivot][: (limit + 1) // 2]
        newer = [m for m in msgs if m.id > pivot][-(limit // 2) :] if limit // 2 else []
        msgs = newer + older
    return [message_payload(fake, m) for m in msgs[:limit]]


async def typing(ctx: Ctx) -> Reply:
    ch = channel_of(ctx)
    require(ctx, ch, SEND_MESSAGES_IN_THREADS if ch.is_thread else SEND_MESSAGES)
    return None


async def get_channel(ctx: Ctx) -> Reply:
    ch = channel_of(ctx)
    require(ctx, ch, VIEW_CHANNEL)
    return channel_payload(ctx.fake, ch)


def _thread_args(ctx: Ctx) -> tuple[str, int]:
    name = ctx.body.get("name")
    if not isinstance(name, str) or not 1 <= len(name) <= 100:
        raise form_error("name", "Must be between 1 and 100 in length.", "BASE_TYPE_BAD_LENGTH")
    duration = ctx.body.get("auto_archive_duration") or 1440
    if duration not in ARCHIVE_DURATIONS:
        raise form_error(
            "auto_archive_duration", f"Value must be one of {ARCHIVE_DURATIONS}.", "BASE_TYPE_CHOICES"
        )
    return name, duration


def _thread_parent(ctx: Ctx) -> Channel:
    parent = channel_of(ctx)
    if parent.type != 0:
        raise ApiError(400, 50024, "Cannot execute action on this channel type")
    return parent


def _announce_thread(ctx: Ctx, th: Channel) -> Reply:
    fake = ctx.fake
    data = channel_payload(fake, th)
    fake._emit("THREAD_CREATE", {**data, "newly_created": True}, guild_id=th.guild_id)
    return 201, data


async def create_thread(ctx: Ctx) -> Reply:
    fake, parent = ctx.fake, _thread_parent(ctx)
    name, duration = _thread_args(ctx)
    ttype = int(ctx.body.get("type") or 12)
    if ttype not in (11, 12):
        raise form_error("type", "Thread type must be 11 (public) or 12 (private).", "BASE_TYPE_CHOICES")
    require(ctx, parent, CREATE_PUBLIC_THREADS if ttype == 11 else CREATE_PRIVATE_THREADS)
    th = fake.new_thread(
        parent,
        name,
        private=ttype == 12,
        auto_archive_duration=duration,
        invitable=bool(ctx.body.get("invitable", True)),
    )
    return _announce_thread(ctx, th)


async def create_thread_from_message(ctx: Ctx) -> Reply:
    fake, parent = ctx.fake, _thread_parent(ctx)
    msg = message_of(ctx, parent)
    name, duration = _thread_args(ctx)
    require(ctx, parent, CREATE_PUBLIC_THREADS | READ_MESSAGE_HISTORY)
    if msg.thread_id is not None:
        raise ApiError(400, 160004, "A thread has already been created for this message")
    th = fake.new_thread(parent, name, auto_archive_duration=duration, thread_id=msg.id)
    msg.thread_id = th.id
    return _announce_thread(ctx, th)


async def edit_channel(ctx: Ctx) -> Reply:
    fake, ch = ctx.fake, channel_of(ctx)
    body = ctx.body
    if ch.is_dm:
        raise ApiError(400, 50024, "Cannot execute action on this channel type")
    if ch.is_thread:
        if ch.owner_id != fake.bot_user.id or set(body) - {"archived", "name", "auto_archive_duration"}:
            require(ctx, ch, MANAGE_THREADS)
        else:
            require(ctx, ch, VIEW_CHANNEL)
        if "name" in body:
            ch.name = _thread_args(ctx)[0]
        if "auto_archive_duration" in body:
            ch.auto_archive_duration = _thread_args(ctx)[1]
        for key in ("archived", "locked", "invitable"):
            if key in body and body[key] is not None:
                setattr(ch, key, bool(body[key]))
        if "archived" in body:
            ch.archive_timestamp = timestamp_now()
        data = channel_payload(fake, ch)
        fake._emit("THREAD_UPDATE", data, guild_id=ch.guild_id)
        return data
    require(ctx, ch, MANAGE_CHANNELS)
    if "name" in body:
        ch.name = body["name"]
    if "topic" in body:
        ch.topic = body["topic"]
    data = channel_payload(fake, ch)
    fake._emit("CHANNEL_UPDATE", data, guild_id=ch.guild_id)
    return data


async def delete_channel(ctx: Ctx) -> Reply:
    fake, ch = ctx.fake, channel_of(ctx)
    if ch.is_dm:
        return channel_payload(fake, ch)
    if ch.is_thread:
        if ch.owner_id != fake.bot_user.id:
            require(ctx, ch, MANAGE_THREADS)
    else:
        require(ctx, ch, MANAGE_CHANNELS)
    ch.deleted = True
    data = channel_payload(fake, ch)
    if ch.is_thread:
        fake._emit(
            "THREAD_DELETE",
            {"id": str(ch.id), "guild_id": str(ch.guild_id), "parent_id": str(ch.parent_id), "type": ch.type},
            guild_id=ch.guild_id,
        )
    else:
        fake._emit("CHANNEL_DELETE", data, guild_id=ch.guild_id)
    return data


def _thread(ctx: Ctx) -> Channel:
    th = channel_of(ctx)
    if not th.is_thread:
        raise ApiError(400, 50024, "Cannot execute action on this channel type")
    return th


def _thread_member(th: Channel, uid: int) -> dict[str, Any]:
    return {"id": str(th.id), "user_id": str(uid), "join_timestamp": th.created_at, "flags": 0}


async def add_thread_member(ctx: Ctx) -> Reply:
    fake, th = ctx.fake, _thread(ctx)
    uid = fake.bot_user.id if ctx.params["user_id"] == "@me" else ctx.int("user_id")
    guild = fake.guild_of(th)
    if guild is None or uid not in guild.members:
        raise unknown("Member")
    if th.archived:
        raise ApiError(400, 50083, "Thread is archived")
    if uid != fake.bot_user.id:
        require(ctx, th, SEND_MESSAGES_IN_THREADS)
    th.member_ids.add(uid)
    fake._emit(
        "THREAD_MEMBERS_UPDATE",
        {
            "id": str(th.id),
            "guild_id": str(th.guild_id),
            "member_count": len(th.member_ids),
            "added_members": [_thread_member(th, uid)],
        },
        guild_id=th.guild_id,
    )
    return None


async def remove_thread_member(ctx: Ctx) -> Reply:
    fake, th = ctx.fake, _thread(ctx)
    uid = fake.bot_user.id if ctx.params["user_id"] == "@me" else ctx.int("user_id")
    if uid != fake.bot_user.id and th.owner_id != fake.bot_user.id:
        require(ctx, th, MANAGE_THREADS)
    th.member_ids.discard(uid)
    fake._emit(
        "THREAD_MEMBERS_UPDATE",
        {
            "id": str(th.id),
            "guild_id": str(th.guild_id),
            "member_count": len(th.member_ids),
            "removed_member_ids": [str(uid)],
        },
        guild_id=th.guild_id,
    )
    return None


async def list_thread_members(ctx: Ctx) -> Reply:
    th = _thread(ctx)
    return [_thread_member(th, uid) for uid in sorted(th.member_ids)]


async def get_thread_member(ctx: Ctx) -> Reply:
    th = _thread(ctx)
    uid = ctx.int("user_id")
    if uid not in th.member_ids:
        raise unknown("Member")
    return _thread_member(th, uid)


def install(router: Router) -> None:
    """Register this module's routes."""
    router.add("POST", "/channels/{channel_id}/messages", create_message)
    router.add("GET", "/channels/{channel_id}/messages", list_messages)
    router.add("GET", "/channels/{channel_id}/messages/{message_id}", get_message)
    router.add("PATCH", "/channels/{channel_id}/messages/{message_id}", edit_message)
    router.add("DELETE", "/channels/{channel_id}/messages/{message_id}", delete_message)
    router.add("POST", "/channels/{channel_id}/messages/{message_id}/threads", create_thread_from_message)
    router.add("POST", "/channels/{channel_id}/threads", create_thread)
    router.add("POST", "/channels/{channel_id}/typing", typing)
    router.add("GET", "/channels/{channel_id}", get_channel)
    router.add("PATCH", "/channels/{channel_id}", edit_channel)
    router.add("DELETE", "/channels/{channel_id}", delete_channel)
    router.add("GET", "/channels/{channel_id}/thread-members", list_thread_members)
    router.add("GET", "/channels/{channel_id}/thread-members/{user_id}", get_thread_member)
    router.add("PUT", "/channels/{channel_id}/thread-members/{user_id}", add_thread_member)
    router.add("DELETE", "/channels/{channel_id}/thread-members/{user_id}", remove_thread_member)
