"""Creating and editing message records from REST payloads (JSON or multipart with files)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from .errors import ApiError, form_error
from .payloads import ATTACHMENT_SIZE_LIMIT, timestamp_now
from .records import EPHEMERAL, Attachment, Channel, Message, UploadedFile, User, snowflake_iso
from .validate import check_message

if TYPE_CHECKING:
    from .world import World

USER_MENTION = re.compile(r"<@!?(\d+)>")
ROLE_MENTION = re.compile(r"<@&(\d+)>")
FILE_FIELD = re.compile(r"files\[(\d+)\]")
#: Flags a client may set on a message (suppress embeds, ephemeral, suppress notifications, components v2).
SETTABLE_FLAGS = (1 << 2) | EPHEMERAL | (1 << 12) | (1 << 15)


def _file_index(upload: UploadedFile, position: int) -> int:
    m = FILE_FIELD.fullmatch(upload.field)
    return int(m.group(1)) if m else position


def build_attachments(
    world: World,
    channel: Channel,
    payload: dict[str, Any],
    files: list[UploadedFile],
    existing: list[Attachment] | None = None,
) -> list[Attachment]:
    """Return the attachment list a create/edit produces.

    ``payload["attachments"]`` lists kept attachments by id and new uploads by file index
    (as discord.py sends them); without it, every upload is added after the existing ones.
    Raises ApiError 413/40005 for a file over the size limit, 50035 for an unknown reference.
    """
    uploads: dict[int, UploadedFile] = {}
    for pos, up in enumerate(files):
        if len(up.data) > ATTACHMENT_SIZE_LIMIT:
            raise ApiError(413, 40005, "Request entity too large")
        uploads[_file_index(up, pos)] = up
    existing = existing or []
    by_id = {a.id: a for a in existing}
    result: list[Attachment] = []
    spec = payload.get("attachments")
    entries: list[dict[str, Any]]
    if spec is None:
        result = list(existing)
        entries = [{"id": i} for i in sorted(uploads)]
    else:
        entries = spec
    for i, entry in enumerate(entries):
        ref = int(entry.get("id", i))
        if ref in uploads:
            up = uploads.pop(ref)
            att = Attachment(
                world.ids.next(),
                entry.get("filename") or up.filename,
                up.data,
                content_type=guess_type(entry.get("filename") or up.filename, up.content_type),
                description=entry.get("description"),
            )
            att.url = f"{world.cdn_base}/attachments/{channel.id}/{att.id}/{att.filename}"
            world.attachments[att.id] = att
            result.append(att)
        elif ref in by_id:
            result.append(by_id[ref])
        else:
            raise form_error(f"attachments.{i}.id", f"Unknown attachment or file index {ref}.")
    return result


def guess_type(filename: str, given: str | None) -> str | None:
    """Content type Discord would report for an upload (by extension, as discord.py sends octet-stream)."""
    ext = filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
    known = {
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "webp": "image/webp",
        "txt": "text/plain; charset=utf-8",
        "json": "application/json; charset=utf-8",
        "md": "text/markdown",
    }
    return known.get(ext, given)


def apply_mentions(world: World, msg: Message, allowed: dict[str, Any] | None) -> None:
    """Fill mention_ids, pinged_ids, mention_role_ids and mention_everyone from the content."""
    content = msg.content or ""
    msg.mention_ids = [int(u) for u in dict.fromkeys(USER_MENTION.findall(content)) if int(u) in world.users]
    msg.mention_role_ids = [int(r) for r in dict.fromkeys(ROLE_MENTION.findall(content))]
    if allowed is None:
        parse, users = ["users", "roles", "everyone"], []
    else:
        parse, users = allowed.get("parse") or [], [int(u) for u in allowed.get("users") or []]
    msg.pinged_ids = [u for u in msg.mention_ids if "users" in parse or u in users]
    msg.mention_everyone = ("@everyone" in content or "@here" in content) and "everyone" in parse


def new_message(
    world: World,
    channel: Channel,
    author: User,
    payload: dict[str, Any],
    files: list[UploadedFile],
    *,
    extra_flags: int = 0,
    interaction_id: int | None = None,
    visible_to: int | None = None,
    msg_type: int = 0,
    webhook: bool = False,
    placeholder: bool = False,
) -> Message:
    """Validate a create payload and return the new Message (stored, channel counters updated).

    ``placeholder`` creates the empty "thinking" message of a deferred interaction response.
    Raises ApiError when the payload is invalid.
    """
    if not placeholder:
        check_message(payload, len(files))
    mid = world.ids.next()
    flags = (int(payload.get("flags") or 0) & SETTABLE_FLAGS) | extra_flags
    reference = None
    if payload.get("message_reference"):
        ref = payload["message_reference"]
        target = world.message_store.get(int(ref.get("message_id") or 0))
        if target is None or target.deleted:
            if ref.get("fail_if_not_exists", True):
                raise form_error("message_reference", "Unknown message", "MESSAGE_REFERENCE_UNKNOWN_MESSAGE")
        else:
            reference = {"type": 0, "message_id": str(target.id), "channel_id": str(target.channel_id)}
            if target.guild_id:
                reference["guild_id"] = str(target.guild_id)
            msg_type = 19
    msg = Message(
        mid,
        channel.id,
        author,
        guild_id=channel.guild_id,
        content=payload.get("content") or "",
        embeds=list(payload.get("embeds") or []),
        components=list(payload.get("components") or []),
        flags=flags,
        type=msg_type,
        tts=bool(payload.get("tts")),
        created_at=snowflake_iso(mid),
        interaction_id=interaction_id,
        visible_to=visible_to if flags & EPHEMERAL else None,
        message_reference=reference,
    )
    if webhook:
        msg.webhook_id = world.application_id
        msg.application_id = world.application_id
    msg.attachments = build_attachments(world, channel, payload, files)
    apply_mentions(world, msg, payload.get("allowed_mentions"))
    world.message_store[mid] = msg
    if not msg.ephemeral:
        channel.last_message_id = mid
        channel.message_count += 1
    return msg


def apply_edit(world: World, msg: Message, payload: dict[str, Any], files: list[UploadedFile]) -> None:
    """Validate an edit payload and apply it to ``msg`` in place, keeping the old version in ``msg.versions``.

    Raises ApiError (nothing changes) when the payload is invalid or would leave the message empty.
    """
    check_message(payload, len(files), editing=True)
    channel = world.channels[msg.channel_id]
    attachments = msg.attachments
    if "attachments" in payload or files:
        attachments = build_attachments(world, channel, payload, files, existing=msg.attachments)
    content = (payload["content"] or "") if "content" in payload else msg.content
    embeds = list(payload["embeds"] or []) if "embeds" in payload else msg.embeds
    components = list(payload["components"] or []) if "components" in payload else msg.components
    flags = msg.flags
    if payload.get("flags") is not None:
        requested = int(payload["flags"]) & SETTABLE_FLAGS & ~EPHEMERAL  # ephemerality cannot change
        flags = (msg.flags & ~SETTABLE_FLAGS) | (msg.flags & EPHEMERAL) | requested
    if not (content or embeds or components or attachments or flags & (1 << 15)):
        raise ApiError(400, 50006, "Cannot send an empty message")
    msg.versions.append(msg.snapshot())
    msg.content, msg.embeds, msg.components = content, embeds, components
    msg.attachments, msg.flags = attachments, flags
    if "content" in payload:
        apply_mentions(world, msg, payload.get("allowed_mentions"))
    msg.edited_at = timestamp_now()
