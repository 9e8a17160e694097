"""Fault injection for the fake Discord: REST errors, rate limits and slow answers, and gateway
disconnects, answered as Discord answers them.

Usage (``fake.faults`` is a :class:`Faults`)::

    fake.faults.fail("POST /channels/{channel_id}/messages", status=502, times=2)
    fake.faults.fail("POST /channels/*/messages", status=500, after=True)   # done, then the 500
    fake.faults.rate_limit("PATCH /channels/{channel_id}/messages/{message_id}", retry_after=0.2)
    fake.faults.rate_limit("*", retry_after=0.2, global_=True)
    fake.faults.slow("POST /channels/{channel_id}/messages", 4.0, where=lambda r: bool(r.files))
    fake.faults.disconnect("POST /channels/{channel_id}/messages")  # the connection breaks, no answer
    fake.faults.drop_gateway(code=4000)           # or None: no close frame; resumable=False
    fake.faults.invalid_session(resumable=True)   # op 9
    fake.faults.refuse_v2_media_edits()           # 400 on edits bringing files into a V2 message
    fake.faults.refuse_old_edits(3600)            # 429 / 30046 on edits of messages over an hour old
    fake.faults.refuse_v2(channel)                # 400 on IS_COMPONENTS_V2 in that channel

A route is the fake's route template (``"POST /channels/{channel_id}/messages"``) or a
shell-style pattern matched against the template and against the concrete ``"METHOD /path"``
(``"POST /channels/123/messages"``, ``"* /interactions/*"``). ``where`` narrows a fault to some
requests: it gets the :class:`~fakediscord.records.Request` (method, path, json, files). A fault
hits ``times`` matching requests (None: every one until :meth:`Faults.clear`); each hit is
recorded in ``fault.hits`` and ``fake.faults.log``.

What Discord sends, and what discord.py 2.7 does with it:

* 429: body ``{"message": "You are being rate limited.", "retry_after": s, "global": bool}``
  and the headers ``Retry-After``, ``X-RateLimit-Limit``/``-Remaining``/``-Reset``/
  ``-Reset-After``/``-Bucket`` (per route), ``X-RateLimit-Scope`` (user, global or shared),
  ``X-RateLimit-Global`` (global only) and ``Via`` (Discord's answers come through Google's
  front end; discord.py treats a 429 without ``Via`` as a Cloudflare ban and does not retry).
  discord.py sleeps ``retry_after`` and retries (for a global one, every request waits).
* 500, 502, 504, 524 from the REST API: discord.py retries, sleeping 1, 3, 5, 7 s between its
  five tries, then raises ``DiscordServerError``; other 5xx (503) are not retried. Webhook and
  interaction routes (callbacks, follow-ups) retry every 5xx the same way.
* ``after=True`` makes the fake do the request and then answer the error (the work was done
  but the answer was lost, as when Discord's front end times out): a retried message post is
  then answered with the message already made, since discord.py sends a nonce with
  ``enforce_nonce`` (the fake honours it as Discord does).
"""

from __future__ import annotations

import asyncio
import fnmatch
import math
import time
import zlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import refusals
from .records import Channel, Request

if TYPE_CHECKING:
    from .gateway import Session
    from .server import FakeDiscord

Where = Callable[[Request], Any] | None
#: Discord's answers come through Google's front end; discord.py retries a 429 only with this header.
VIA = "1.1 google"


@dataclass(eq=False)
class Fault:
    """One injected fault. ``kind`` is "fail", "rate_limit", "slow" or "disconnect"."""

    kind: str
    route: str
    times: int | None = 1
    where: Where = None
    status: int = 500
    code: int = 0
    message: str = ""
    after: bool = False
    retry_after: float = 0.0
    global_: bool = False
    scope: str = "user"
    seconds: float = 0.0
    #: For "fail": the ``errors`` object of the JSON body (as in a 50035 Invalid Form Body).
    errors: dict[str, Any] | None = None
    #: Whether the answer carries Discord's ``Via`` header (without it discord.py raises a 429
    #: instead of sleeping and retrying).
    via: bool = True
    #: The requests this fault hit, in order.
    hits: list[Request] = field(default_factory=list)

    @property
    def spent(self) -> bool:
        """True once the fault has hit ``times`` requests."""
        return self.times is not None and len(self.hits) >= self.times

    def matches(self, record: Request) -> bool:
        """Whether ``record`` is one this fault targets (ignoring ``times``)."""
        concrete = f"{record.method} {record.path}"
        if (
            self.route not in ("*", record.route)
            and not fnmatch.fnmatchcase(concrete, self.route)
            and not (record.route and fnmatch.fnmatchcase(record.route, self.route))
        ):
            return False
        return self.where is None or bool(self.where(record))

    def __repr__(self) -> str:
        return f"Fault({self.kind} {self.route!r} hits={len(self.hits)}/{self.times})"


def _bucket(route: str | None) -> str:
    return f"{zlib.crc32((route or '').encode()):08x}"


def rate_limit_response(fault: Fault, record: Request) -> web.Response:
    """A 429 as Discord sends it for ``fault`` (see the module docstring)."""
    import json

    body: dict[str, Any] = {
        "message": "You are being rate limited.",
        "retry_after": fault.retry_after,
        "global": fault.global_,
    }
    if fault.global_:
        body["code"] = 0
    headers = {
        "Content-Type": "application/json",
        "Via": VIA,
        "Retry-After": str(max(1, math.ceil(fault.retry_after))),
        "X-RateLimit-Scope": "global" if fault.global_ else fault.scope,
    }
    if fault.global_:
        headers["X-RateLimit-Global"] = "true"
    else:
        headers.update(
            {
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": f"{time.time() + fault.retry_after:.3f}",
                "X-RateLimit-Reset-After": f"{fault.retry_after:.3f}",
                "X-RateLimit-Bucket": _bucket(record.route),
            }
        )
    return web.Response(body=json.dumps(body).encode(), status=429, headers=headers)


def error_response(fault: Fault) -> web.Response:
    """A 5xx (or other status) answer for ``fault``: JSON like Discord's API errors."""
    import json

    body: dict[str, Any] = {"code": fault.code, "message": fault.message or f"{fault.status}: Injected fault"}
    if fault.errors:
        body["errors"] = fault.errors
    headers = {"Content-Type": "application/json"}
    if fault.via:
        headers["Via"] = VIA
    return web.Response(body=json.dumps(body).encode(), status=fault.status, headers=headers)


def _spent(fault: Fault) -> bool:
    return fault.spent


class Faults:
    """The faults injected into a :class:`~fakediscord.server.FakeDiscord` (``fake.faults``)."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.active: list[Fault] = []
        #: (fault, request) of every hit, in order.
        self.log: list[tuple[Fault, Request]] = []

    # ----------------------------------------------------------------- REST faults
    def fail(
        self,
        route: str,
        status: int = 500,
        *,
        times: int | None = 1,
        after: bool = False,
        code: int = 0,
        message: str = "",
        where: Where = None,
    ) -> Fault:
        """Answer ``times`` matching requests with ``status``; with ``after`` the fake does the
        request first (its effects stay) and then answers the error."""
        return self._add(
            Fault("fail", route, times, where, status=status, code=code, message=message, after=after)
        )

    def rate_limit(
        self,
        route: str = "*",
        retry_after: float = 0.2,
        *,
        global_: bool = False,
        scope: str = "user",
        times: int | None = 1,
        where: Where = None,
    ) -> Fault:
        """Answer ``times`` matching requests with a 429 (per route, or ``global_``) asking to
        retry after ``retry_after`` seconds; ``scope`` is "user" or "shared" for a route limit."""
        return self._add(
            Fault(
                "rate_limit",
                route,
                times,
                where,
                status=429,
                retry_after=retry_after,
                global_=global_,
                scope=scope,
            )
        )

    def slow(self, route: str, seconds: float, *, times: int | None = 1, where: Where = None) -> Fault:
        """Hold ``times`` matching requests for ``seconds`` before doing them."""
        return self._add(Fault("slow", route, times, where, seconds=seconds))

    def disconnect(
        self, route: str, *, times: int | None = 1, after: bool = False, where: Where = None
    ) -> Fault:
        """Break the connection of ``times`` matching requests without an answer (the client sees
        ``ServerDisconnectedError``, which discord.py does not retry); with ``after`` the request
        is done first."""
        return self._add(Fault("disconnect", route, times, where, status=0, after=after))

    # ----------------------------------------------------------------- Discord's edit refusals
    def refuse_v2_media_edits(self, *, times: int | None = None) -> Fault:
        """Edits that upload files into a Components V2 message (channel PATCH, interaction
        ``@original``/follow-up PATCH, a type 7 update, the follow-up filling a deferred
        placeholder) fail with 400 / 50035 "unfurled media item attachment not found", as
        Discord answers them (discord-api-docs issue 7529); nothing changes."""
        fake = self.fake
        return self._refuse(
            lambda r: refusals.is_v2_media_edit(fake, r),
            times,
            status=400,
            code=50035,
            message="Invalid Form Body",
            errors=refusals.MEDIA_NOT_FOUND_ERRORS,
        )

    def refuse_old_edits(self, older_than: float = 3600.0, *, times: int | None = None) -> Fault:
        """Edits of messages older than ``older_than`` seconds (by ``Message.age``: its id's time
        plus ``Message.aged``, see ``fake.age_messages``) fail as Discord's limit on them answers:
        429 with code 30046 and no ``Via`` header, so discord.py raises ``HTTPException``
        (status 429, code 30046) at once instead of retrying; nothing changes."""
        fake = self.fake
        return self._refuse(
            lambda r: refusals.is_old_edit(fake, r, older_than),
            times,
            status=429,
            code=30046,
            message=refusals.OLD_EDITS_MESSAGE,
            via=False,
        )

    def refuse_v2(self, channel: Channel, refuse: bool = True) -> None:
        """From now on (until called with ``refuse=False``) every message with the
        IS_COMPONENTS_V2 flag in ``channel`` (posts, edits, interaction responses there) fails
        with 400 / 50035 on ``flags``, as where V2 is not available; nothing changes."""
        channel.refuses_v2 = refuse

    def clear(self) -> None:
        """Remove every fault (their hits stay in :attr:`log`)."""
        self.active.clear()

    def _refuse(self, matches: Callable[[Request], bool], times: int | None, **answer: Any) -> Fault:
        """A ``fail`` fault on every route for the requests ``matches`` picks, answered as
        ``answer`` says (status, code, message, ...)."""
        return self._add(Fault("fail", "*", times, matches, **answer))

    def _add(self, fault: Fault) -> Fault:
        self.active.append(fault)
        return fault

    def _take(self, record: Request) -> list[Fault]:
        """The faults that hit ``record`` (at most one answering fault, after any slow ones)."""
        hit: list[Fault] = []
        for fault in list(self.active):
            if fault.spent or not fault.matches(record):
                continue
            if fault.kind != "slow" and any(f.kind != "slow" for f in hit):
                continue
            fault.hits.append(record)
            self.log.append((fault, record))
            hit.append(fault)
            if _spent(fault):  # (not fault.spent: mypy keeps it False from the check above)
                self.active.remove(fault)
        return hit

    async def around(
        self, record: Request, handle: Callable[[], Awaitable[Any]], request: web.Request | None = None
    ) -> Any:
        """Run ``handle`` (the route handler) for ``record`` with the faults that hit it: a
        :class:`aiohttp.web.Response` for an injected answer, else what ``handle`` returns.
        ``request`` is the aiohttp request (its connection is what a disconnect breaks)."""
        hit = self._take(record)
        for fault in hit:
            if fault.kind == "slow":
                await asyncio.sleep(fault.seconds)
        answer = next((f for f in hit if f.kind != "slow"), None)
        if answer is None:
            return await handle()
        if answer.kind == "rate_limit":
            return rate_limit_response(answer, record)
        if answer.after:
            await handle()
        if answer.kind == "disconnect":
            if request is not None and request.transport is not None:
                request.transport.abort()
            return web.Response(status=499)  # never delivered: the connection is gone
        return error_response(answer)

    # ----------------------------------------------------------------- gateway faults
    def drop_gateway(
        self, session: Session | None = None, *, code: int | None = None, resumable: bool = True
    ) -> int:
        """Cut the gateway connection(s): ``code`` None drops TCP with no close frame (the client
        sees 1006), else a close frame with that code (4000 unknown error, …); ``resumable=False``
        also ends the session, so the client's RESUME is answered with op 9. Returns how many
        connections were cut."""
        return self.fake.drop_gateway(session, code=code, resumable=resumable)

    def reconnect(self, session: Session | None = None) -> None:
        """Send op 7 RECONNECT: the client closes and resumes on a new connection."""
        self.fake.request_reconnect(session)

    def invalid_session(self, session: Session | None = None, *, resumable: bool = False) -> int:
        """Send op 9 INVALID_SESSION (``d`` = ``resumable``) on the live connection(s). Not
        resumable: the session ends (the client must IDENTIFY again, and what it missed is
        lost). Resumable: the client closes and RESUMEs, getting what it missed. Returns how
        many connections were told."""
        return self.fake.gateway.invalidate(session, resumable=resumable)
