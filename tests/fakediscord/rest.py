"""The fake REST API: routing, body parsing, recording, and the small routes (gateway, users, apps,
guilds, DMs, commands, files).

Every request is recorded in ``fake.requests``. Routes are matched by this module's own table
(method + template), so an unknown route is recorded in ``fake.unknown_routes`` and answered
404. Answers are JSON with ``Content-Type: application/json`` exactly (what discord.py checks).
"""

from __future__ import annotations

import asyncio
import json
import re
import struct
import zlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .commands import stored_command
from .errors import CANNOT_DM, ApiError, unknown
from .payloads import (
    app_info_payload,
    channel_payload,
    client_user_payload,
    member_payload,
    role_payload,
    user_payload,
)
from .records import Guild, Request, UploadedFile
from .validate import check_commands

if TYPE_CHECKING:
    from .server import FakeDiscord

API_PREFIX = re.compile(r"^/api/v(\d+)(/.*)$")


@dataclass
class Ctx:
    """What a route handler gets: path parameters, query, parsed JSON body and uploaded files."""

    fake: FakeDiscord
    request: web.Request
    params: dict[str, str]
    query: dict[str, str]
    json: Any = None
    files: list[UploadedFile] = field(default_factory=list)

    def int(self, name: str) -> int:
        """Path parameter ``name`` as an int (404 if it is not a snowflake)."""
        try:
            return int(self.params[name])
        except ValueError:
            raise ApiError(404, 0, "404: Not Found") from None

    @property
    def body(self) -> dict[str, Any]:
        """The JSON body as a dict (empty when there is none)."""
        return self.json if isinstance(self.json, dict) else {}


Reply = Any  # dict/list -> 200 JSON, None -> 204, (status, body) -> that
Handler = Callable[[Ctx], Awaitable[Reply]]


class Router:
    """A list of (method, template) routes; templates use ``{name}`` for one path segment."""

    def __init__(self) -> None:
        self.routes: list[tuple[str, str, re.Pattern[str], Handler, bool]] = []

    def add(self, method: str, template: str, handler: Handler, *, auth: bool = True) -> None:
        """Register ``handler`` for ``method template``; ``auth`` requires the bot token."""
        pattern = re.compile(
            "^"
            + re.sub(
                r"\{(\w+)\}", r"(?P<\1>[^/]+)", re.escape(template).replace(r"\{", "{").replace(r"\}", "}")
            )
            + "$"
        )
        self.routes.append((method, template, pattern, handler, auth))

    def match(self, method: str, path: str) -> tuple[str, Handler, dict[str, str], bool] | None:
        """Return (template, handler, params, auth) for the first matching route, or None."""
        for m, template, pattern, handler, auth in self.routes:
            if m == method:
                found = pattern.match(path)
                if found:
                    return template, handler, found.groupdict(), auth
        return None


def json_response(body: Any, status: int = 200) -> web.Response:
    """A response whose Content-Type is exactly ``application/json``."""
    return web.Response(
        body=json.dumps(body).encode(), status=status, headers={"Content-Type": "application/json"}
    )


_BOUNDARY = re.compile(r'boundary="?([^";]+)"?')
_PARAM = re.compile(r'(\w+)="([^"]*)"')


def parse_multipart(raw: bytes, ctype: str) -> list[tuple[dict[str, str], dict[str, str], bytes]]:
    """Split a whole multipart/form-data body into ``(headers, disposition params, data)`` per
    part (headers keyed in lower case). Raises ApiError 400 when it has no boundary.

    The body is read whole first, as it arrived in however many TCP segments (a bot in another
    process sends it in pieces); aiohttp's streaming reader warns when a boundary is split."""
    m = _BOUNDARY.search(ctype)
    if m is None:
        raise ApiError(400, 50109, "The multipart body has no boundary.")
    delimiter = b"\r\n--" + m.group(1).encode()
    out = []
    for chunk in (b"\r\n" + raw).split(delimiter)[1:]:
        if chunk.startswith(b"--"):
            break  # the closing delimiter
        head, _, data = chunk.partition(b"\r\n\r\n")
        headers = {}
        for line in head.decode("utf-8", "replace").split("\r\n"):
            name, sep, value = line.partition(":")
            if sep:
                headers[name.strip().lower()] = value.strip()
        params = dict(_PARAM.findall(headers.get("content-disposition", "")))
        out.append((headers, params, data))
    return out


async def parse_body(request: web.Request) -> tuple[Any, list[UploadedFile]]:
    """Return (JSON payload, files) from a JSON or multipart/form-data body."""
    ctype = request.headers.get("Content-Type", "")
    raw = await request.read()
    if ctype.startswith("multipart/form-data"):
        payload: Any = None
        files: list[UploadedFile] = []
        for headers, params, data in parse_multipart(raw, ctype):
            name = params.get("name", "")
            if "filename" in params:
                files.append(UploadedFile(name, params["filename"], data, headers.get("content-type")))
            elif name == "payload_json":
                payload = json.loads(data.decode())
            else:
                payload = payload or {}
                payload[name] = data.decode()
        return payload, files
    if not raw:
        return None, []
    try:
        return json.loads(raw), []
    except ValueError:
        raise ApiError(400, 50109, "The request body contains invalid JSON.") from None


async def dispatch(fake: FakeDiscord, request: web.Request) -> web.StreamResponse:
    """The single aiohttp handler: route, parse, run, record, answer."""
    path = request.path
    m = API_PREFIX.match(path)
    router, rel = (fake.api_router, m.group(2)) if m else (fake.cdn_router, path)
    record = Request(
        request.method,
        rel,
        None,
        dict(request.query),
        headers={
            k: v
            for k, v in request.headers.items()
            if k.lower() in ("authorization", "x-audit-log-reason", "content-type")
        },
    )
    record.at = asyncio.get_running_loop().time()
    fake.requests.append(record)
    try:
        if m and m.group(1) != "10":
            raise ApiError(400, 50041, f"Invalid API version v{m.group(1)} (the fake speaks v10)")
        found = router.match(request.method, rel)
        if found is None:
            fake._unknown(f"{request.method} {path}")
            raise ApiError(404, 0, "404: Not Found")
        template, handler, params, auth = found
        record.route = f"{request.method} {template}"
        if auth and request.headers.get("Authorization") != f"Bot {fake.token}":
            raise ApiError(401, 0, "401: Unauthorized")
        try:
            record.json, record.files = await parse_body(request)
        except ConnectionResetError:
            # the client died while sending (a killed bot process): nothing was asked of Discord
            record.dropped = True
            fake._changed()
            return web.Response(status=400)
        ctx = Ctx(fake, request, params, dict(request.query), record.json, record.files)
        result = await fake.faults.around(record, lambda: handler(ctx), request)
    except ApiError as err:
        record.status = err.status
        fake._changed()
        return json_response(err.body(), err.status)
    if isinstance(result, web.StreamResponse):
        record.status = result.status
        fake._changed()
        return result
    status, body = result if isinstance(result, tuple) else (200 if result is not None else 204, result)
    record.status = status
    fake._changed()
    if body is None:
        return web.Response(status=status)
    return json_response(body, status)


# --------------------------------------------------------------------- small routes
async def get_gateway(ctx: Ctx) -> Reply:
    return {"url": ctx.fake.ws_url.rstrip("/")}


async def get_gateway_bot(ctx: Ctx) -> Reply:
    return {
        "url": ctx.fake.ws_url.rstrip("/"),
        "shards": ctx.fake.shard_count,
        "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
    }


async def get_me(ctx: Ctx) -> Reply:
    return client_user_payload(ctx.fake.bot_user)


async def get_user(ctx: Ctx) -> Reply:
    user = ctx.fake.users.get(ctx.int("user_id"))
    if user is None:
        raise unknown("User")
    return user_payload(user)


async def get_app(ctx: Ctx) -> Reply:
    return app_info_payload(ctx.fake)


async def open_dm(ctx: Ctx) -> Reply:
    fake = ctx.fake
    user = fake.users.get(int(ctx.body.get("recipient_id", 0)))
    if user is None:
        raise unknown("User")
    if user.bot:
        raise ApiError(*CANNOT_DM)
    return channel_payload(fake, fake.open_dm(user))


def _guild(ctx: Ctx) -> Guild:
    guild = ctx.fake.guilds.get(ctx.int("guild_id"))
    if guild is None:
        raise unknown("Guild")
    return guild


async def get_guild(ctx: Ctx) -> Reply:
    from .payloads import guild_create_payload

    data = guild_create_payload(ctx.fake, _guild(ctx))
    for key in (
        "channels",
        "threads",
        "members",
        "voice_states",
        "presences",
        "joined_at",
        "large",
        "member_count",
    ):
        data.pop(key, None)
    return data


async def get_guild_channels(ctx: Ctx) -> Reply:
    guild = _guild(ctx)
    return [
        channel_payload(ctx.fake, c) for c in guild.channels.values() if not c.is_thread and not c.deleted
    ]


async def get_guild_roles(ctx: Ctx) -> Reply:
    return [role_payload(r) for r in _guild(ctx).roles.values()]


async def get_member(ctx: Ctx) -> Reply:
    guild = _guild(ctx)
    member = guild.members.get(ctx.int("user_id"))
    if member is None:
        raise unknown("Member")
    return member_payload(ctx.fake, member)


async def get_active_threads(ctx: Ctx) -> Reply:
    fake, guild = ctx.fake, _guild(ctx)
    threads = [t for t in guild.threads if not t.archived]
    members = [
        {"id": str(t.id), "user_id": str(fake.bot_user.id), "join_timestamp": t.created_at, "flags": 0}
        for t in threads
        if fake.bot_user.id in t.member_ids
    ]
    return {"threads": [channel_payload(fake, t) for t in threads], "members": members}


# --------------------------------------------------------------------- application commands
def _scope(ctx: Ctx) -> int | None:
    if ctx.int("app_id") != ctx.fake.application_id:
        raise unknown("Application")
    if "guild_id" in ctx.params:
        return _guild(ctx).id
    return None


async def get_commands(ctx: Ctx) -> Reply:
    return ctx.fake.commands.get(_scope(ctx), [])


async def put_commands(ctx: Ctx) -> Reply:
    fake, scope = ctx.fake, _scope(ctx)
    check_commands(ctx.json)
    old = {(c.get("type", 1), c["name"]): c for c in fake.commands.get(scope, [])}
    fake.commands[scope] = [
        stored_command(fake, c, scope, old.get((c.get("type", 1), c["name"]))) for c in ctx.json
    ]
    fake.command_syncs.append((scope, [c["name"] for c in fake.commands[scope]]))
    return fake.commands[scope]


async def post_command(ctx: Ctx) -> Reply:
    fake, scope = ctx.fake, _scope(ctx)
    check_commands([ctx.body])
    current = fake.commands.setdefault(scope, [])
    key = (ctx.body.get("type", 1), ctx.body.get("name"))
    previous = next((c for c in current if (c.get("type", 1), c["name"]) == key), None)
    cmd = stored_command(fake, ctx.body, scope, previous)
    if previous is not None:
        current[current.index(previous)] = cmd
        return cmd
    current.append(cmd)
    return 201, cmd


def _command(ctx: Ctx) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    current = ctx.fake.commands.get(_scope(ctx), [])
    cmd = next((c for c in current if c["id"] == ctx.params["command_id"]), None)
    if cmd is None:
        raise unknown("application command")
    return current, cmd


async def get_command(ctx: Ctx) -> Reply:
    return _command(ctx)[1]


async def delete_command(ctx: Ctx) -> Reply:
    current, cmd = _command(ctx)
    current.remove(cmd)
    return None


# --------------------------------------------------------------------- files (the fake's CDN)
async def get_attachment(ctx: Ctx) -> Reply:
    att = ctx.fake.attachments.get(ctx.int("attachment_id"))
    if att is None or att.filename != ctx.params["filename"]:
        raise unknown("Attachment")
    return web.Response(
        body=att.data, headers={"Content-Type": att.content_type or "application/octet-stream"}
    )


def _tiny_png() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = zlib.compress(b"\x00\x58\x65\xf2")
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", raw)
        + chunk(b"IEND", b"")
    )


async def get_default_avatar(ctx: Ctx) -> Reply:
    return web.Response(body=_tiny_png(), headers={"Content-Type": "image/png"})


def install(router: Router, cdn: Router) -> None:
    """Register this module's routes."""
    router.add("GET", "/gateway", get_gateway)
    router.add("GET", "/gateway/bot", get_gateway_bot)
    router.add("GET", "/users/@me", get_me)
    router.add("POST", "/users/@me/channels", open_dm)
    router.add("GET", "/users/{user_id}", get_user)
    router.add("GET", "/oauth2/applications/@me", get_app)
    router.add("GET", "/applications/@me", get_app)
    router.add("GET", "/guilds/{guild_id}", get_guild)
    router.add("GET", "/guilds/{guild_id}/channels", get_guild_channels)
    router.add("GET", "/guilds/{guild_id}/roles", get_guild_roles)
    router.add("GET", "/guilds/{guild_id}/members/{user_id}", get_member)
    router.add("GET", "/guilds/{guild_id}/threads/active", get_active_threads)
    for base in ("/applications/{app_id}", "/applications/{app_id}/guilds/{guild_id}"):
        router.add("GET", f"{base}/commands", get_commands)
        router.add("PUT", f"{base}/commands", put_commands)
        router.add("POST", f"{base}/commands", post_command)
        router.add("GET", f"{base}/commands/{{command_id}}", get_command)
        router.add("DELETE", f"{base}/commands/{{command_id}}", delete_command)
    cdn.add("GET", "/attachments/{channel_id}/{attachment_id}/{filename}", get_attachment, auth=False)
    cdn.add("GET", "/embed/avatars/{index}", get_default_avatar, auth=False)
