"""The fake gateway (v10, JSON text frames, no compression).

HELLO → IDENTIFY → READY + one GUILD_CREATE per guild; HEARTBEAT → ACK; RESUME → replay of
the missed dispatches + RESUMED, or INVALID_SESSION when the session is unknown or was closed
cleanly.

Shards, as Discord routes them: an IDENTIFY may carry ``shard: [id, count]`` (close 4010 when
``id`` is not below ``count``, 4011 when it has no shard while the fake's ``shard_count`` is
above 1 and its guilds are many, see :data:`SHARDING_REQUIRED_AT`); a session then gets the
guilds of ``(guild_id >> 22) % count == id`` only (READY, GUILD_CREATE, every guild event and
guild interaction), and DMs (events and interactions without a guild) go to shard 0 only.
discord.py asks for ``compress=zlib-stream`` in the URL, but it only decompresses *binary* frames:
text frames are read as plain JSON, so the fake simply sends text.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from .payloads import guild_create_payload, ready_payload

if TYPE_CHECKING:
    from .server import FakeDiscord

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE_STATE, RESUME, RECONNECT, REQUEST_MEMBERS = (
    0,
    1,
    2,
    3,
    4,
    6,
    7,
    8,
)
INVALID_SESSION, HELLO, HEARTBEAT_ACK = 9, 10, 11

GUILDS, GUILD_MEMBERS, GUILD_PRESENCES = 1 << 0, 1 << 1, 1 << 8
GUILD_MESSAGES, DIRECT_MESSAGES, MESSAGE_CONTENT = 1 << 9, 1 << 12, 1 << 15
PRIVILEGED = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT

OnSent = Callable[[], None] | None
SHARDING_REQUIRED_AT = 2500
INVALID_SHARD, SHARDING_REQUIRED = 4010, 4011


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard Discord sends ``guild_id``'s events to: ``(guild_id >> 22) % shard_count``;
    0 for a DM (no guild)."""
    if guild_id is None or shard_count <= 1:
        return 0
    return (guild_id >> 22) % shard_count


def intent_for(event: str, guild_id: int | None) -> int:
    """The intent bit a session needs to receive ``event`` (0: always sent)."""
    if event.startswith("MESSAGE_"):
        return GUILD_MESSAGES if guild_id else DIRECT_MESSAGES
    if event.startswith(("GUILD_MEMBER_", "THREAD_MEMBERS")):
        return GUILD_MEMBERS
    if event.startswith(("GUILD_", "CHANNEL_", "THREAD_")):
        return GUILDS
    return 0


class Connection:
    """One websocket connection; frames are sent in order by a writer task."""

    def __init__(self, ws: web.WebSocketResponse, request: web.Request) -> None:
        self.ws = ws
        self.transport = request.transport
        self.path = request.path
        self.query = dict(request.query)
        self.session: Session | None = None
        self.heartbeats = 0
        self.closed = False
        self.close_code: int | None = None
        #: The code the fake closed this connection with (None: the client closed it, or it broke).
        self.closed_by_server: int | None = None
        self._queue: asyncio.Queue[tuple[dict[str, Any] | None, OnSent]] = asyncio.Queue()
        self._writer = asyncio.get_running_loop().create_task(
            self._write(), name="fake-discord-gateway-writer"
        )

    def send(self, frame: dict[str, Any], on_sent: OnSent = None) -> None:
        """Queue a frame (sent after every frame queued before it)."""
        if not self.closed:
            self._queue.put_nowait((frame, on_sent))

    async def _write(self) -> None:
        while True:
            frame, on_sent = await self._queue.get()
            if frame is None:
                return
            try:
                await self.ws.send_str(json.dumps(frame))
            except (ConnectionError, RuntimeError):
                self.closed = True
                return
            if on_sent is not None:
                on_sent()

    def abort(self) -> None:
        """Drop the TCP connection without a close frame (a crash or a network cut)."""
        self.closed = True
        if self.transport is not None:
            self.transport.abort()

    async def close(self, code: int) -> None:
        """Close with a close frame carrying ``code``."""
        await self.flush()
        self.closed = True
        self.closed_by_server = code
        await self.ws.close(code=code)

    async def flush(self) -> None:
        """Wait until every queued frame has been written (or the connection died)."""
        if not self._writer.done():
            self._queue.put_nowait((None, None))
            await asyncio.wait([self._writer], timeout=2)

    def stop_writer(self) -> None:
        """Cancel the writer task (after the connection ended)."""
        self._writer.cancel()


@dataclass(eq=False)
class Session:
    """A gateway session: survives a dropped connection until it is resumed, invalidated or replaced."""

    id: str
    intents: int
    identify: dict[str, Any]
    seq: int = 0
    buffer: list[tuple[dict[str, Any], OnSent]] = field(default_factory=list)
    connection: Connection | None = None
    invalid: bool = False
    resumes: int = 0
    shard: tuple[int, int] | None = None  # (id, count) from IDENTIFY; None: unsharded, every guild

    def holds(self, guild_id: int | None) -> bool:
        """Whether Discord sends this session the events of ``guild_id`` (None: a DM, shard 0)."""
        if self.shard is None:
            return True
        return shard_of(guild_id, self.shard[1]) == self.shard[0]

    @property
    def members_intent(self) -> bool:
        """True when the session asked for GUILD_MEMBERS."""
        return bool(self.intents & GUILD_MEMBERS)

    @property
    def connected(self) -> bool:
        """True while a live connection carries this session."""
        return self.connection is not None and not self.connection.closed

    def dispatch(self, event: str, data: dict[str, Any], on_sent: OnSent = None) -> int:
        """Send (or buffer, while disconnected) a DISPATCH frame; returns its sequence number."""
        self.seq += 1
        frame = {"op": DISPATCH, "t": event, "s": self.seq, "d": data}
        self.buffer.append((frame, on_sent))
        del self.buffer[:-2000]
        conn = self.connection
        if conn is not None and not conn.closed:  # (self.connected)
            conn.send(frame, on_sent)
        return self.seq


class Gateway:
    """Accepts websocket connections for a FakeDiscord and keeps its sessions."""

    def __init__(self, fake: FakeDiscord, heartbeat_interval_ms: int) -> None:
        self.fake = fake
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.sessions: list[Session] = []
        self.connections: list[Connection] = []
        #: Every frame received: (op, event name or None).
        self.received: list[dict[str, Any]] = []
        self.presence_updates: list[dict[str, Any]] = []

    # ----------------------------------------------------------------- sessions
    def live_sessions(self) -> list[Session]:
        """Sessions that still receive events (connected or resumable)."""
        return [s for s in self.sessions if not s.invalid]

    def target(self, guild_id: int | None = None) -> Session | None:
        """The session an interaction in ``guild_id`` (None: a DM) goes to: the newest live one
        of the guild's shard (shard 0 for a DM), preferring a connected one."""
        live = [s for s in self.live_sessions() if s.holds(guild_id)]
        connected = [s for s in live if s.connected]
        ranked = connected or live
        return ranked[-1] if ranked else None

    def broadcast(self, event: str, data: Any, guild_id: int | None = None) -> None:
        """Dispatch to every live session whose intents cover ``event`` and whose shard gets
        ``guild_id`` (a DM's messages go to shard 0; other events without a guild to every
        shard); ``data`` may be f(session)."""
        need = intent_for(event, guild_id)
        for s in self.live_sessions():
            if need and not s.intents & need:
                continue
            if (guild_id is not None or event.startswith("MESSAGE_")) and not s.holds(guild_id):
                continue
            s.dispatch(event, data(s) if callable(data) else data)

    # ----------------------------------------------------------------- websocket
    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """aiohttp handler for the gateway URL (and the resume URL)."""
        ws = web.WebSocketResponse(compress=False, max_msg_size=0, autoping=True)
        await ws.prepare(request)
        conn = Connection(ws, request)
        self.connections.append(conn)
        conn.send(
            {
                "op": HELLO,
                "s": None,
                "t": None,
                "d": {"heartbeat_interval": self.heartbeat_interval_ms, "_trace": ["fake-discord"]},
            }
        )
        try:
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await self._on_frame(conn, json.loads(msg.data))
                elif msg.type == WSMsgType.BINARY:
                    self.fake._unknown("GATEWAY binary frame (the fake expects JSON text)")
        finally:
            conn.closed = True
            conn.close_code = ws.close_code
            conn.stop_writer()
            session = conn.session
            if session is not None and session.connection is conn:
                if ws.close_code in (1000, 1001) and conn.closed_by_server is None:
                    session.invalid = True  # a clean close by the client ends the session, as on Discord
                session.connection = None
            self.fake._changed()
        return ws

    async def _on_frame(self, conn: Connection, frame: dict[str, Any]) -> None:
        op, data = frame.get("op"), frame.get("d")
        self.received.append({"op": op, "d": data if op != IDENTIFY else "<identify>"})
        if op == HEARTBEAT:
            conn.heartbeats += 1
            conn.send({"op": HEARTBEAT_ACK, "s": None, "t": None, "d": None})
        elif op == IDENTIFY:
            await self._identify(conn, data or {})
        elif op == RESUME:
            await self._resume(conn, data or {})
        elif op == PRESENCE:
            self.presence_updates.append(data or {})
        elif op == REQUEST_MEMBERS:
            self._request_members(conn, data or {})
        else:
            self.fake._unknown(f"GATEWAY op {op}")
        self.fake._changed()

    async def _identify(self, conn: Connection, data: dict[str, Any]) -> None:
        if data.get("token") != self.fake.token:
            await conn.close(4004)  # Authentication failed
            return
        if conn.session is not None:
            await conn.close(4005)  # Already authenticated
            return
        intents = data.get("intents")
        if intents is None:
            await conn.close(4013)  # Invalid intent(s)
            return
        if intents & PRIVILEGED & ~self.fake.privileged_intents:
            await conn.close(4014)  # Disallowed intent(s)
            return
        shard = data.get("shard")
        if shard is not None:
            if (
                not isinstance(shard, list)
                or len(shard) != 2
                or not all(isinstance(x, int) for x in shard)
                or not 0 <= shard[0] < shard[1]
            ):
                await conn.close(INVALID_SHARD)
                return
            shard = (shard[0], shard[1])
        elif self.fake.shard_count > 1 and len(self.fake.guilds) >= SHARDING_REQUIRED_AT:
            await conn.close(SHARDING_REQUIRED)
            return
        session = Session(
            secrets.token_hex(16), intents, {k: v for k, v in data.items() if k != "token"}, shard=shard
        )
        session.connection = conn
        conn.session = session
        self.sessions.append(session)
        resume_url = f"{self.fake.ws_url}resume"
        held = [g for g in self.fake.guilds.values() if session.holds(g.id)]
        session.dispatch(
            "READY",
            ready_payload(
                self.fake, session.id, resume_url, data.get("shard"), guild_ids=[g.id for g in held]
            ),
        )
        for guild in held:
            session.dispatch("GUILD_CREATE", guild_create_payload(self.fake, guild, session.members_intent))

    async def _resume(self, conn: Connection, data: dict[str, Any]) -> None:
        if data.get("token") != self.fake.token:
            await conn.close(4004)
            return
        session = next((s for s in self.sessions if s.id == data.get("session_id")), None)
        if session is None or session.invalid:
            conn.send({"op": INVALID_SESSION, "s": None, "t": None, "d": False})
            return
        old = session.connection
        if old is not None and old is not conn and not old.closed:
            old.abort()
        session.connection = conn
        session.resumes += 1
        conn.session = session
        seq = data.get("seq") or 0
        for frame, on_sent in session.buffer:
            if frame["s"] > seq:
                conn.send(frame, on_sent)
        session.dispatch("RESUMED", {"_trace": ["fake-discord"]})

    def _request_members(self, conn: Connection, data: dict[str, Any]) -> None:
        from .payloads import member_payload

        session = conn.session
        guild = self.fake.guilds.get(int(data.get("guild_id", 0)))
        if session is None or guild is None:
            return
        query = (data.get("query") or "").lower()
        ids = {int(u) for u in data.get("user_ids") or []}
        members = [
            m
            for m in guild.members.values()
            if (not ids or m.user.id in ids) and m.user.name.lower().startswith(query)
        ]
        limit = data.get("limit") or 0
        if limit:
            members = members[:limit]
        payload = {
            "guild_id": str(guild.id),
            "members": [member_payload(self.fake, m) for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "presences": [],
        }
        if data.get("nonce"):
            payload["nonce"] = data["nonce"]
        session.dispatch("GUILD_MEMBERS_CHUNK", payload)

    # ----------------------------------------------------------------- test controls
    def drop(self, session: Session | None = None, *, code: int | None = None, resumable: bool = True) -> int:
        """Cut the connection(s) of ``session`` (default: every connected session).

        ``code`` None aborts the TCP connection with no close frame; otherwise a close frame is
        sent with that code. ``resumable=False`` also invalidates the session. Returns how many
        connections were cut.
        """
        targets = [session] if session is not None else [s for s in self.sessions if s.connected]
        count = 0
        for s in targets:
            if not resumable:
                s.invalid = True
            conn = s.connection
            if conn is None or conn.closed:
                continue
            count += 1
            if code is None:
                conn.abort()
            else:
                asyncio.get_running_loop().create_task(conn.close(code))
        return count

    def invalidate(self, session: Session | None = None, *, resumable: bool = False) -> int:
        """Send op 9 INVALID_SESSION (``d`` = ``resumable``) on the connection(s) of ``session``
        (default: every connected session); not resumable also ends the session. Returns how
        many connections were told."""
        count = 0
        for s in [session] if session else [s for s in self.sessions if s.connected]:
            if not resumable:
                s.invalid = True
            if s.connection is not None and not s.connection.closed:
                s.connection.send({"op": INVALID_SESSION, "s": None, "t": None, "d": resumable})
                count += 1
        return count

    def reconnect(self, session: Session | None = None) -> None:
        """Send op 7 RECONNECT (the client should resume on a new connection)."""
        for s in [session] if session else [s for s in self.sessions if s.connected]:
            if s.connection is not None:
                s.connection.send({"op": RECONNECT, "s": None, "t": None, "d": None})

    async def close_all(self) -> None:
        """Close every open connection with 1001 (server going away)."""
        for conn in self.connections:
            if not conn.closed:
                try:
                    await asyncio.wait_for(conn.close(1001), timeout=2)
                except (TimeoutError, ConnectionError, RuntimeError):
                    conn.abort()
            conn.stop_writer()
