"""Which message a request edits, and the conditions of Discord's edit refusals (see
``Faults.refuse_v2_media_edits`` and ``Faults.refuse_old_edits``).

Edits reach a message by four routes: the channel's message PATCH, the interaction webhook's
message PATCH (``@original`` or a follow-up), a component interaction's type 7 callback (update
the clicked message), and the first follow-up after a deferred message (it fills the placeholder).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .records import COMPONENTS_V2, Message, Request

if TYPE_CHECKING:
    from .server import FakeDiscord

CHANNEL_EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
WEBHOOK_EDIT = "PATCH /webhooks/{app_id}/{token}/messages/{message_id}"
CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"
FOLLOWUP = "POST /webhooks/{app_id}/{token}"
#: Discord's answer to an edit that brings new media into a V2 message (discord-api-docs#7529).
MEDIA_NOT_FOUND_ERRORS: dict[str, Any] = {
    "components": {
        "_errors": [
            {
                "code": "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
                "message": "Unfurled media item attachment not found.",
            }
        ]
    }
}
OLD_EDITS_MESSAGE = "Maximum number of edits to messages older than 1 hour reached. Try again later."


def edit_target(fake: FakeDiscord, record: Request) -> Message | None:
    """The message ``record`` edits (None when it is no edit, or names no message)."""
    parts = record.path.strip("/").split("/")
    if record.route == CHANNEL_EDIT:
        return _message(fake, parts[-1])
    if record.route == WEBHOOK_EDIT:
        handle = _handle_by_token(fake, parts[2])
        if handle is None:
            return None
        if parts[-1] == "@original":
            return handle.response  # type: ignore[no-any-return]
        return _message(fake, parts[-1])
    if record.route == CALLBACK:
        body = record.json if isinstance(record.json, dict) else {}
        handle = fake.interaction_records.get(int(parts[1])) if parts[1].isdigit() else None
        if body.get("type") == 7 and handle is not None:
            return handle.message  # type: ignore[no-any-return]
        return None
    if record.route == FOLLOWUP:
        handle = _handle_by_token(fake, parts[2])
        if handle is not None and handle.callback_type == 5:
            original = handle.response
            if original is not None and original.loading and not original.deleted:
                return original  # type: ignore[no-any-return]
    return None


def _message(fake: FakeDiscord, ref: str) -> Message | None:
    return fake.message_store.get(int(ref)) if ref.isdigit() else None


def _handle_by_token(fake: FakeDiscord, token: str) -> Any:
    return next((h for h in fake.interactions if h.token == token), None)


def _payload(record: Request) -> dict[str, Any]:
    body = record.json if isinstance(record.json, dict) else {}
    if record.route == CALLBACK:
        data = body.get("data")
        return data if isinstance(data, dict) else {}
    return body


def is_v2_media_edit(fake: FakeDiscord, record: Request) -> bool:
    """True for an edit that uploads files into a V2 message (or makes it V2 while uploading)."""
    target = edit_target(fake, record)
    if target is None or not record.files:
        return False
    flags = int(_payload(record).get("flags") or 0)
    return bool((target.flags | flags) & COMPONENTS_V2)


def is_old_edit(fake: FakeDiscord, record: Request, older_than: float) -> bool:
    """True for an edit of a message older than ``older_than`` seconds (``Message.age``); the
    deferred placeholder a follow-up fills does not count."""
    target = edit_target(fake, record)
    if target is None or record.route == FOLLOWUP:
        return False
    return target.age > older_than
