"""``FakeDiscord``: an aiohttp server on 127.0.0.1 speaking enough of Discord's gateway v10 and REST
API for the real discord.py 2.7 client, with a test-facing API to build the world, act as users,
read what the bot did and wait for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from aiohttp import web

from . import rest, rest_channels, rest_emojis, rest_interactions
from .errors import FakeDiscordError, FakeDiscordTimeout
from .faults import Faults
from .gateway import MESSAGE_CONTENT, Gateway, Session
from .interactions import Driver, Interaction
from .messages import apply_mentions
from .payloads import message_payload
from .records import Channel, Message, Request, User, snowflake_iso
from .world import World

POLL_INTERVAL = 0.05
#: Starts of discord.py's log messages for exceptions that escaped bot code.
UNHANDLED_PREFIXES = (
    "Ignoring exception",
    "Unhandled exception in internal background task",
    "Exception occurred during",
)


class _BotErrorLog(logging.Handler):
    """Collects discord.py's "Ignoring exception in …" records (unhandled errors in bot code, views,
    autocomplete, event handlers, tasks.loop background tasks)."""

    def __init__(self, sink: list[str]) -> None:
        super().__init__(logging.ERROR)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if message.startswith(UNHANDLED_PREFIXES):
            if record.exc_info:
                message += "\n" + logging.Formatter().formatException(record.exc_info)
            self.sink.append(message)


class FakeDiscord(Driver, World):
    """A fake Discord for end-to-end tests. See the package docstring for a usage guide.

    ``heartbeat_interval`` (s) is sent in HELLO; ``ack_deadline`` (s, None to disable) is how
    long the bot has to acknowledge an interaction; ``default_timeout`` (s) bounds every wait;
    ``privileged_intents`` is the mask of privileged intents the application may request;
    ``shard_count`` is what ``GET /gateway/bot`` recommends (sessions that IDENTIFY with a
    ``shard`` get their shard's guilds only, see ``fakediscord.gateway``).
    """

    def __init__(
        self,
        *,
        bot_name: str = "Bazaar",
        token: str = "fake-bot-token",
        heartbeat_interval: float = 1.0,
        ack_deadline: float | None = 3.0,
        default_timeout: float = 5.0,
        privileged_intents: int = 0,
        shard_count: int = 1,
    ) -> None:
        World.__init__(self, bot_name=bot_name, token=token)
        self.shard_count = shard_count
        self.ack_deadline = ack_deadline
        self.default_timeout = default_timeout
        self.privileged_intents = privileged_intents
        #: Every REST request, in order.
        self.requests: list[Request] = []
        #: "METHOD /path" of every request no route matched (and unsupported gateway ops). Must stay empty.
        self.unknown_routes: list[str] = []
        #: Every interaction sent to the bot, in order.
        self.interactions: list[Interaction] = []
        #: Unhandled exceptions discord.py logged ("Ignoring exception in …") or that ended a bot task.
        self.bot_errors: list[str] = []
        #: Set to True in a test that expects the bot to log unhandled exceptions.
        self.allow_bot_errors = False
        #: (scope, [names]) for every bulk command overwrite; scope is a guild id or None (global).
        self.command_syncs: list[tuple[int | None, list[str]]] = []
        self.api_router = rest.Router()
        self.cdn_router = rest.Router()
        rest.install(self.api_router, self.cdn_router)
        rest_channels.install(self.api_router)
        rest_interactions.install(self.api_router)
        rest_emojis.install(self.api_router, self.cdn_router)
        self.gateway = Gateway(self, int(heartbeat_interval * 1000))
        #: Injected REST and gateway faults (see ``fakediscord.faults``).
        self.faults = Faults(self)
        self.port: int | None = None
        self._runner: web.AppRunner | None = None
        self._change = asyncio.Event()
        self._log_handler = _BotErrorLog(self.bot_errors)

    # ----------------------------------------------------------------- lifecycle
    async def start(self) -> FakeDiscord:
        """Start serving on 127.0.0.1 at a free port; returns self."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/{tail:.*}", self._entry)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        self.cdn_base = self.base_url
        logging.getLogger("discord").addHandler(self._log_handler)
        return self

    async def close(self) -> None:
        """Close every gateway connection (code 1001) and stop the server."""
        logging.getLogger("discord").removeHandler(self._log_handler)
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    async def _entry(self, request: web.Request) -> web.StreamResponse:
        if request.path in ("/", "/resume") and request.headers.get("Upgrade", "").lower() == "websocket":
            return await self.gateway.handle(request)
        return await rest.dispatch(self, request)

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>``."""
        if self.port is None:
            raise FakeDiscordError("the fake is not started (await fake.start())")
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        """The gateway URL, ``ws://127.0.0.1:<port>/``."""
        return f"ws://127.0.0.1:{self.port}/"

    @contextmanager
    def patch_discord(self) -> Iterator[FakeDiscord]:
        """Point discord.py at the fake (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY, Asset.BASE);
        restores them.
        (A bot in another process does the same through ``launch.py`` and ``FAKE_DISCORD_URL``.)"""
        from .launch import point_discord_at

        restore = point_discord_at(self.base_url)
        try:
            yield self
        finally:
            restore()

    def assert_clean(self) -> None:
        """Raise FakeDiscordError if a request hit an unknown route or the bot logged unhandled errors."""
        problems = []
        if self.unknown_routes:
            problems.append(
                f"unknown routes requested (add them to the fake or fix the bot): {self.unknown_routes}"
            )
        if self.bot_errors and not self.allow_bot_errors:
            problems.append("unhandled exceptions in the bot:\n" + "\n".join(self.bot_errors))
        if problems:
            raise FakeDiscordError("\n".join(problems))

    # ----------------------------------------------------------------- hooks
    def _emit(self, event: str, data: Any, *, guild_id: int | None = None) -> None:
        self.gateway.broadcast(event, data, guild_id)

    def _changed(self) -> None:
        self._change.set()
        self._change = asyncio.Event()

    def _unknown(self, what: str) -> None:
        self.unknown_routes.append(what)

    def _report(self) -> str:
        sessions = (
            ", ".join(
                f"{s.id[:8]}({'connected' if s.connected else 'invalid' if s.invalid else 'dropped'})"
                for s in self.gateway.sessions
            )
            or "none"
        )
        lines = ["", f"  gateway sessions: {sessions}", "  last requests:"]
        lines += [f"    {r!r}" for r in self.requests[-8:]] or ["    (none)"]
        if self.unknown_routes:
            lines.append(f"  unknown routes: {self.unknown_routes}")
        if self.bot_errors:
            lines.append("  bot errors:\n" + "\n".join(self.bot_errors[-3:]))
        return "\n".join(lines)

    # ----------------------------------------------------------------- waiting
    async def wait_for(
        self, predicate: Callable[[], Any], timeout: float | None = None, *, what: str | None = None
    ) -> Any:
        """Return ``predicate()``'s first truthy value, re-checking after every change to the records
        (and every 50 ms, for conditions outside the fake). Raises FakeDiscordTimeout after ``timeout`` s."""
        timeout = self.default_timeout if timeout is None else timeout
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            left = end - loop.time()
            if left <= 0:
                raise FakeDiscordTimeout(
                    f"timed out after {timeout} s waiting for {what or predicate}" + self._report()
                )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._change.wait(), min(left, POLL_INTERVAL))

    def mark(self) -> int:
        """An id newer than everything so far, for ``wait_message(after=…)``."""
        return self.ids.next()

    async def wait_message(
        self,
        channel: Channel | User | str,
        where: Callable[[Message], Any] | None = None,
        *,
        after: Message | Interaction | int | None = None,
        include_ephemeral: bool = False,
        timeout: float | None = None,
    ) -> Message:
        """Wait for the oldest message in ``channel`` (a User means their DM) newer than ``after``
        that satisfies ``where``; returns it."""
        floor = after.id if isinstance(after, (Message, Interaction)) else (after or 0)

        def find() -> Message | None:
            for m in self._channel_messages(channel, include_ephemeral, False):
                if m.id > floor and (where is None or where(m)):
                    return m
            return None

        found: Message = await self.wait_for(find, timeout, what=f"a message in {channel!r}")
        return found

    # ----------------------------------------------------------------- reading records
    def _channel_messages(
        self, channel: Channel | User | str, include_ephemeral: bool, include_deleted: bool
    ) -> list[Message]:
        if isinstance(channel, User):
            ch = self.dm_channel(channel)
            if ch is None:
                return []
        else:
            ch = self.channel(channel)
        return [
            m
            for m in self.message_store.values()
            if m.channel_id == ch.id
            and (include_ephemeral or not m.ephemeral)
            and (include_deleted or not m.deleted)
        ]

    def messages(
        self, channel: Channel | User | str, *, include_ephemeral: bool = False, include_deleted: bool = False
    ) -> list[Message]:
        """Messages in a channel or thread (or a user's DM), oldest first; ephemeral and deleted
        ones on request."""
        return self._channel_messages(channel, include_ephemeral, include_deleted)

    def dms(self, user: User | str) -> list[Message]:
        """Messages in the bot's DM with ``user``, oldest first."""
        return self._channel_messages(self.user(user), True, False)

    def last_message(
        self, channel: Channel | User | str, *, include_ephemeral: bool = False
    ) -> Message | None:
        """The newest message in the channel, or None."""
        msgs = self._channel_messages(channel, include_ephemeral, False)
        return msgs[-1] if msgs else None

    def unknown_emojis(self, message: Message) -> list[tuple[str, int]]:
        """The custom emojis ``message`` shows (text and components) that are not application
        emojis of the bot: Discord shows such text as ``:name:``, so a test asserts this is empty."""
        return [(name, eid) for name, eid in message.custom_emojis if eid not in self.app_emojis]

    def message(self, message_id: int) -> Message:
        """A message by id (deleted ones included); raises KeyError."""
        return self.message_store[message_id]

    @property
    def threads(self) -> list[Channel]:
        """Every thread of every guild, oldest first (deleted ones excluded)."""
        return [c for c in self.channels.values() if c.is_thread and not c.deleted]

    @property
    def sessions(self) -> list[Session]:
        """Gateway sessions, oldest first."""
        return self.gateway.sessions

    def requests_to(self, route: str) -> list[Request]:
        """Requests whose route template is ``route`` (e.g. "POST /channels/{channel_id}/messages")."""
        return [r for r in self.requests if r.route == route]

    # ----------------------------------------------------------------- gateway controls
    def drop_gateway(
        self, session: Session | None = None, *, code: int | None = None, resumable: bool = True
    ) -> int:
        """Cut the bot's gateway connection(s) abruptly (no close frame unless ``code``); returns how many.

        The client reconnects and RESUMEs (missed events are replayed) unless ``resumable=False``,
        in which case it gets INVALID_SESSION and identifies again.
        """
        count = self.gateway.drop(session, code=code, resumable=resumable)
        self._changed()
        return count

    def request_reconnect(self, session: Session | None = None) -> None:
        """Send op 7 RECONNECT: the client should resume on a new connection."""
        self.gateway.reconnect(session)

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a raw DISPATCH event to every live session (no intent filtering)."""
        for s in self.gateway.live_sessions():
            s.dispatch(event, data)

    def send_as(self, user: User | str, channel: Channel | str, content: str) -> Message:
        """Post a message as ``user`` (a person typing) and dispatch MESSAGE_CREATE.

        Sessions without the MESSAGE_CONTENT intent get empty content unless the bot is
        mentioned or it is a DM, as on Discord. Returns the Message.
        """
        user, ch = self.user(user), self.channel(channel)
        mid = self.ids.next()
        msg = Message(mid, ch.id, user, guild_id=ch.guild_id, content=content, created_at=snowflake_iso(mid))
        apply_mentions(self, msg, None)
        self.message_store[mid] = msg
        ch.last_message_id = mid
        ch.message_count += 1
        full = message_payload(self, msg)
        sees_all = ch.is_dm or self.bot_user.id in msg.mention_ids

        def for_session(session: Session) -> dict[str, Any]:
            if sees_all or session.intents & MESSAGE_CONTENT:
                return full
            return {**full, "content": "", "embeds": [], "attachments": [], "components": []}

        self._emit("MESSAGE_CREATE", for_session, guild_id=ch.guild_id)
        self._changed()
        return msg
