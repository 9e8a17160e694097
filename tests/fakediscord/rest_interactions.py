"""REST routes for interaction callbacks and the interaction webhook (follow-ups, @original edits).

Behaves like Discord: one initial response per interaction (a second one gets 400 / 40060),
none after the acknowledgement deadline (404 / 10062), follow-ups only after the initial
response, and the first follow-up after a deferred message replaces the "thinking" placeholder.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from .errors import ApiError, form_error, unknown
from .interactions import APPLICATION_COMMAND, AUTOCOMPLETE, MESSAGE_COMPONENT, MODAL_SUBMIT, Interaction
from .messages import (
    SETTABLE_FLAGS,
    apply_edit,
    build_attachments,
    check_emojis,
    check_v2_allowed,
    finish_components,
    new_message,
)
from .modals import check_modal
from .payloads import message_payload, timestamp_now
from .records import COMPONENTS_V2, EPHEMERAL, LOADING, Choice, Message
from .rest import Ctx, Reply, Router
from .rest_channels import delete
from .validate import check_choices, check_message

if TYPE_CHECKING:
    from .server import FakeDiscord

VALID_CALLBACKS = {
    APPLICATION_COMMAND: {4, 5, 9},
    MESSAGE_COMPONENT: {4, 5, 6, 7, 9},
    AUTOCOMPLETE: {8},
    MODAL_SUBMIT: {4, 5, 6, 7},
}


def _truthy(value: str | None) -> bool:
    return (value or "").lower() in ("1", "true")


def _announce(fake: FakeDiscord, msg: Message, created: bool) -> None:
    if not msg.ephemeral:
        fake._emit(
            "MESSAGE_CREATE" if created else "MESSAGE_UPDATE",
            message_payload(fake, msg),
            guild_id=msg.guild_id,
        )


async def callback(ctx: Ctx) -> Reply:
    fake = ctx.fake
    handle = fake.interaction_records.get(ctx.int("interaction_id"))
    if handle is None or handle.token != ctx.params["token"]:
        raise unknown("interaction")
    if handle.callbacks:
        raise ApiError(400, 40060, "Interaction has already been acknowledged.")
    if handle.expired:
        raise unknown("interaction")
    body = ctx.body
    rtype, data = body.get("type"), body.get("data") or {}
    if rtype not in VALID_CALLBACKS[handle.type]:
        raise form_error(
            "type",
            f"Callback type {rtype} is not valid for a {handle.kind} interaction.",
            "INTERACTION_CALLBACK_TYPE_INVALID",
        )
    msg: Message | None = None
    bot, user, channel = fake.bot_user, handle.user, handle.channel
    if rtype == 4:
        msg = new_message(
            fake,
            channel,
            bot,
            data,
            ctx.files,
            interaction_id=handle.id,
            visible_to=user.id,
            msg_type=20 if handle.type == APPLICATION_COMMAND else 0,
            webhook=True,
        )
        _announce(fake, msg, True)
    elif rtype == 5:
        msg = new_message(
            fake,
            channel,
            bot,
            {"flags": data.get("flags")},
            [],
            extra_flags=LOADING,
            interaction_id=handle.id,
            visible_to=user.id,
            webhook=True,
            placeholder=True,
            msg_type=20 if handle.type == APPLICATION_COMMAND else 0,
        )
        _announce(fake, msg, True)
    elif rtype in (6, 7):
        msg = handle.message
        if msg is None or msg.deleted:
            raise unknown("Message")
        if rtype == 7:
            apply_edit(fake, msg, data, ctx.files)
            handle.edits.append(data)
            _announce(fake, msg, False)
    elif rtype == 8:
        check_choices(data.get("choices"))
        handle.choices = [Choice(c["name"], c["value"]) for c in data["choices"]]
    elif rtype == 9:
        handle.modal = check_modal(data)
    handle.callbacks.append(body)
    handle.acked_at = asyncio.get_running_loop().time()
    handle.response = msg
    if not _truthy(ctx.query.get("with_response")):
        return None
    info: dict[str, Any] = {"id": str(handle.id), "type": handle.type}
    resource: dict[str, Any] = {"type": rtype}
    if msg is not None:
        info.update(
            {
                "response_message_id": str(msg.id),
                "response_message_loading": rtype == 5,
                "response_message_ephemeral": msg.ephemeral,
            }
        )
        if rtype in (4, 5, 7):
            resource["message"] = message_payload(fake, msg)
    return {"interaction": info, "resource": resource}


def _handle(ctx: Ctx, *, acked: bool = True) -> Interaction:
    fake = ctx.fake
    if ctx.int("app_id") != fake.application_id:
        raise unknown("Webhook")
    handle = next((h for h in fake.interactions if h.token == ctx.params["token"]), None)
    if handle is None or (acked and not handle.callbacks):
        raise unknown("Webhook")
    return handle


def _target(ctx: Ctx, handle: Interaction) -> Message:
    ref = ctx.params["message_id"]
    if ref == "@original":
        msg = handle.response
    else:
        msg = next((m for m in handle.messages if str(m.id) == ref), None)
    if msg is None or msg.deleted:
        raise unknown("Message")
    return msg


def _fill_placeholder(ctx: Ctx, msg: Message, payload: dict[str, Any]) -> None:
    """Turn the deferred "thinking" message into the real response (keeps its ephemeral flag)."""
    channel = ctx.fake.channels[msg.channel_id]
    flags = (msg.flags & ~LOADING) | (int(payload.get("flags") or 0) & SETTABLE_FLAGS & ~EPHEMERAL)
    check_v2_allowed(channel, flags)
    check_message(payload, len(ctx.files), v2=bool(flags & COMPONENTS_V2))
    check_emojis(ctx.fake, payload.get("components") or [])
    attachments = build_attachments(ctx.fake, channel, payload, ctx.files)
    components = finish_components(list(payload.get("components") or []), attachments, flags)
    msg.versions.append(msg.snapshot())
    msg.content = payload.get("content") or ""
    msg.embeds = list(payload.get("embeds") or [])
    msg.components = components
    msg.attachments = attachments
    msg.flags = flags
    msg.edited_at = timestamp_now()
    from .messages import apply_mentions

    apply_mentions(ctx.fake, msg, payload.get("allowed_mentions"))


async def followup(ctx: Ctx) -> Reply:
    fake = ctx.fake
    handle = _handle(ctx)
    if handle.type == AUTOCOMPLETE:
        raise unknown("Webhook")
    original = handle.response
    if handle.callback_type == 5 and original is not None and original.loading and not original.deleted:
        _fill_placeholder(ctx, original, ctx.body)
        msg = original
        _announce(fake, msg, False)
    else:
        msg = new_message(
            fake,
            handle.channel,
            fake.bot_user,
            ctx.body,
            ctx.files,
            interaction_id=handle.id,
            visible_to=handle.user.id,
            webhook=True,
        )
        _announce(fake, msg, True)
    handle.followups.append(msg)
    return message_payload(fake, msg) if _truthy(ctx.query.get("wait")) else None


async def get_webhook_message(ctx: Ctx) -> Reply:
    handle = _handle(ctx)
    return message_payload(ctx.fake, _target(ctx, handle))


async def edit_webhook_message(ctx: Ctx) -> Reply:
    fake = ctx.fake
    handle = _handle(ctx)
    msg = _target(ctx, handle)
    if msg.loading:
        _fill_placeholder(ctx, msg, ctx.body)
    else:
        apply_edit(fake, msg, ctx.body, ctx.files)
    if msg is handle.response:
        handle.edits.append(ctx.body)
    _announce(fake, msg, False)
    return message_payload(fake, msg)


async def delete_webhook_message(ctx: Ctx) -> Reply:
    handle = _handle(ctx)
    msg = _target(ctx, handle)
    delete(ctx, msg)
    if msg is handle.response:
        handle.original_deleted = True
    return None


def install(router: Router) -> None:
    """Register this module's routes (no bot token needed: the interaction token is the credential)."""
    router.add("POST", "/interactions/{interaction_id}/{token}/callback", callback, auth=False)
    router.add("POST", "/webhooks/{app_id}/{token}", followup, auth=False)
    for method, handler in (
        ("GET", get_webhook_message),
        ("PATCH", edit_webhook_message),
        ("DELETE", delete_webhook_message),
    ):
        router.add(method, "/webhooks/{app_id}/{token}/messages/{message_id}", handler, auth=False)
