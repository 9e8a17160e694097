"""REST routes for application emojis (the bot's own emojis, usable in every server) and their
images on the fake's CDN.

Checked as Discord checks them: a name of 2-32 characters of ``[A-Za-z0-9_]``, unique within
the application (400 / 50035 otherwise); an image given as a ``data:image/...;base64,`` URI of at
most 256 KiB; at most 2000 emojis per application (400 / 30008); 404 / 10014 for an unknown emoji.
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any

from aiohttp import web

from .errors import ApiError, form_error, unknown
from .payloads import user_payload
from .rest import Ctx, Reply, Router

NAME = re.compile(r"^[A-Za-z0-9_]{2,32}$")
DATA_URI = re.compile(r"^data:image/(png|jpeg|jpg|gif|webp);base64,(.*)$", re.DOTALL)
IMAGE_MAX = 256 * 1024
EMOJIS_MAX = 2000


def emoji_payload(ctx: Ctx, emoji: dict[str, Any]) -> dict[str, Any]:
    """An emoji object as Discord returns an application emoji."""
    return {
        "id": str(emoji["id"]),
        "name": emoji["name"],
        "roles": [],
        "user": user_payload(ctx.fake.bot_user),
        "require_colons": True,
        "managed": False,
        "animated": emoji["animated"],
        "available": True,
    }


def _app(ctx: Ctx) -> None:
    if ctx.int("app_id") != ctx.fake.application_id:
        raise unknown("Application")


def _emoji(ctx: Ctx) -> dict[str, Any]:
    _app(ctx)
    emoji = ctx.fake.app_emojis.get(ctx.int("emoji_id"))
    if emoji is None:
        raise ApiError(404, 10014, "Unknown Emoji")
    return emoji


def check_name(ctx: Ctx, name: Any, *, own_id: int | None = None) -> str:
    """The emoji name, checked (format, and unique among the application's other emojis)."""
    if not isinstance(name, str) or not NAME.match(name):
        raise form_error(
            "name",
            "Must be between 2 and 32 in length and contain only alphanumeric characters and underscores.",
            "BASE_TYPE_BAD_LENGTH"
            if isinstance(name, str) and not 2 <= len(name) <= 32
            else "EMOJI_NAME_INVALID",
        )
    for other in ctx.fake.app_emojis.values():
        if other["name"] == name and other["id"] != own_id:
            raise form_error(
                "name",
                "An application emoji with this name already exists.",
                "APPLICATION_EMOJI_NAME_ALREADY_TAKEN",
            )
    return name


def decode_image(value: Any) -> tuple[str, bytes]:
    """(image kind, bytes) of a ``data:image/...;base64,`` URI; 400 / 50035 when it is not one or
    is larger than 256 KiB."""
    m = DATA_URI.match(value) if isinstance(value, str) else None
    if m is None:
        raise form_error(
            "image", "Invalid image data (a data:image/...;base64, URI is required).", "IMAGE_INVALID"
        )
    try:
        data = base64.b64decode(m.group(2), validate=True)
    except (binascii.Error, ValueError):
        raise form_error("image", "Invalid image data (bad base64).", "IMAGE_INVALID") from None
    if not data:
        raise form_error("image", "Invalid image data (empty).", "IMAGE_INVALID")
    if len(data) > IMAGE_MAX:
        raise form_error("image", "File cannot be larger than 256.0 kb.", "BINARY_TYPE_MAX_SIZE")
    return m.group(1), data


async def list_emojis(ctx: Ctx) -> Reply:
    _app(ctx)
    return {"items": [emoji_payload(ctx, e) for e in ctx.fake.app_emojis.values()]}


async def get_emoji(ctx: Ctx) -> Reply:
    return emoji_payload(ctx, _emoji(ctx))


async def create_emoji(ctx: Ctx) -> Reply:
    _app(ctx)
    fake = ctx.fake
    name = check_name(ctx, ctx.body.get("name"))
    kind, data = decode_image(ctx.body.get("image"))
    if len(fake.app_emojis) >= EMOJIS_MAX:
        raise ApiError(400, 30008, f"Maximum number of emojis reached ({EMOJIS_MAX})")
    eid = fake.ids.next()
    emoji = {"id": eid, "name": name, "animated": kind == "gif"}
    fake.app_emojis[eid] = emoji
    fake.app_emoji_images[eid] = data
    return 201, emoji_payload(ctx, emoji)


async def edit_emoji(ctx: Ctx) -> Reply:
    emoji = _emoji(ctx)
    if "name" in ctx.body:
        emoji["name"] = check_name(ctx, ctx.body["name"], own_id=emoji["id"])
    return emoji_payload(ctx, emoji)


async def delete_emoji(ctx: Ctx) -> Reply:
    emoji = _emoji(ctx)
    del ctx.fake.app_emojis[emoji["id"]]
    ctx.fake.app_emoji_images.pop(emoji["id"], None)
    return None


async def emoji_image(ctx: Ctx) -> Reply:
    stem = ctx.params["emoji_file"].split(".", 1)[0]
    data = ctx.fake.app_emoji_images.get(int(stem)) if stem.isdigit() else None
    if data is None:
        raise ApiError(404, 0, "404: Not Found")
    return web.Response(body=data, headers={"Content-Type": "image/png"})


def install(router: Router, cdn: Router) -> None:
    """Register this module's routes."""
    router.add("GET", "/applications/{app_id}/emojis", list_emojis)
    router.add("POST", "/applications/{app_id}/emojis", create_emoji)
    router.add("GET", "/applications/{app_id}/emojis/{emoji_id}", get_emoji)
    router.add("PATCH", "/applications/{app_id}/emojis/{emoji_id}", edit_emoji)
    router.add("DELETE", "/applications/{app_id}/emojis/{emoji_id}", delete_emoji)
    cdn.add("GET", "/emojis/{emoji_file}", emoji_image, auth=False)
