"""Creating and editing message records from REST payloads (JSON or multipart with files)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from .errors import ApiError, form_error
from .payloads import ATTACHMENT_SIZE_LIMIT, timestamp_now
from .records import COMPONENTS_V2, EPHEMERAL, Attachment, Channel, Message, UploadedFile, User, snowflake_iso
from .v2 import number_ids, resolve_media
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
    """Fill mention_ids, pinged_ids, mention_role_ids and mention_everyone from the content and,
    in a V2 message, every TextDisplay (Discord pings mentions there as in content)."""
    content = "\n".join([msg.content or "", *(msg.text_displays if msg.v2 else [])])
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
    flags = (int(payload.get("flags") or 0) & SETTABLE_FLAGS) | extra_flags
    if not placeholder:
        check_v2_allowed(channel, flags)
        check_message(payload, len(files))
        check_emojis(world, payload.get("components") or [])
    mid = world.ids.next()
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
    msg.components = finish_components(msg.components, msg.attachments, flags)
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
    flags = edited_flags(msg, payload)
    channel = world.channels[msg.channel_id]
    check_v2_allowed(channel, flags)
    content = (payload["content"] or "") if "content" in payload else msg.content
    embeds = list(payload["embeds"] or []) if "embeds" in payload else msg.embeds
    v2 = bool(flags & COMPONENTS_V2)
    check_message({**payload, "content": content, "embeds": embeds}, len(files), editing=True, v2=v2)
    check_emojis(world, payload.get("components") or [])
    attachments = msg.attachments
    if "attachments" in payload or files:
        attachments = build_attachments(world, channel, payload, files, existing=msg.attachments)
    components = list(payload["components"] or []) if "components" in payload else msg.components
    components = finish_components(components, attachments, flags)
    if not (content or embeds or components or attachments or v2):
        raise ApiError(400, 50006, "Cannot send an empty message")
    msg.versions.append(msg.snapshot())
    msg.content, msg.embeds, msg.components = content, embeds, components
    msg.attachments, msg.flags = attachments, flags
    if "content" in payload or (v2 and "components" in payload):
        apply_mentions(world, msg, payload.get("allowed_mentions"))
    msg.edited_at = timestamp_now()


def edited_flags(msg: Message, payload: dict[str, Any]) -> int:
    """The flags ``msg`` has after an edit with ``payload``: ephemerality cannot change, and
    IS_COMPONENTS_V2 cannot be removed once set (400 / 50035 when an edit's flags drop it)."""
    if payload.get("flags") is None:
        return msg.flags
    requested = int(payload["flags"]) & SETTABLE_FLAGS & ~EPHEMERAL
    if msg.flags & COMPONENTS_V2 and not requested & COMPONENTS_V2:
        raise form_error(
            "flags",
            "The IS_COMPONENTS_V2 flag cannot be removed from a message once set.",
            "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
        )
    return (msg.flags & ~SETTABLE_FLAGS) | (msg.flags & EPHEMERAL) | requested


def check_v2_allowed(channel: Channel, flags: int) -> None:
    """400 / 50035 for a V2 message in a channel that refuses V2 (``fake.faults.refuse_v2``)."""
    if flags & COMPONENTS_V2 and channel.refuses_v2:
        raise form_error(
            "flags",
            "IS_COMPONENTS_V2 is not available in this channel.",
            "MESSAGE_FLAGS_COMPONENTS_V2_UNAVAILABLE",
        )


def finish_components(
    components: list[dict[str, Any]], attachments: list[Attachment], flags: int
) -> list[dict[str, Any]]:
    """The components as stored: for a V2 message, media references resolved to the message's
    attachments (400 when one names none) and every component numbered (``id``), as Discord does."""
    if not flags & COMPONENTS_V2:
        return components
    out = resolve_media(components, attachments)
    number_ids(out)
    return out


def check_emojis(world: World, components: list[Any]) -> None:
    """400 / 50035 when a button or select option shows a custom emoji (one with an ``id``) that is
    not one of the application's emojis (``world.app_emojis``)."""
    from .v2 import emoji_refs

    for path, emoji in emoji_refs(components):
        eid = emoji.get("id")
        if eid is None:
            continue
        if not str(eid).isdigit() or int(eid) not in world.app_emojis:
            raise form_error(
                f"{path}.id",
                f"Invalid emoji: {emoji!r} is not an emoji of this application.",
                "BUTTON_COMPONENT_INVALID_EMOJI",
            )
