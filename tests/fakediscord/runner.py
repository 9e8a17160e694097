"""Running a real discord.py client against the fake as a task of the test's event loop.

``BotRunner.start`` checks that discord.py points at the fake (never the real Discord), sets a
small ``guild_ready_timeout``, starts ``client.start(token)`` and waits until the client is
ready. ``stop`` is a clean shutdown (``client.close()``). ``kill`` simulates a bot process that
died: every task the bot created is cancelled, its gateway connection is cut without a close
frame and its HTTP session is released, but none of the bot's own shutdown code runs.

Tasks are attributed to a bot through a context variable set for its main task and read by a
task factory installed on the loop (tasks inherit their creator's context).
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

from .errors import FakeDiscordError

if TYPE_CHECKING:
    import discord

    from .gateway import Session
    from .server import FakeDiscord

_OWNER: contextvars.ContextVar[BotRunner | None] = contextvars.ContextVar("fakediscord_bot", default=None)


class RunBot(Protocol):
    """The e2e ``run_bot`` fixture: ``await run_bot(client, **BotRunner options)`` starts the
    client against the test's fake and returns its ready :class:`BotRunner`."""

    def __call__(
        self, client: discord.Client, *, token: str | None = None, guild_ready_timeout: float = 0.05
    ) -> Awaitable[BotRunner]: ...


def install_task_factory(loop: asyncio.AbstractEventLoop) -> None:
    """Make ``loop`` record which bot created each task (idempotent)."""
    previous = loop.get_task_factory()
    if getattr(previous, "fakediscord", False):
        return

    def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Future[Any]:
        task = previous(loop, coro, **kwargs) if previous else asyncio.Task(coro, loop=loop, **kwargs)
        owner = _OWNER.get()
        if owner is not None:
            owner._tasks.add(task)
        return task

    factory.fakediscord = True  # type: ignore[attr-defined]
    factory.previous = previous  # type: ignore[attr-defined]
    loop.set_task_factory(factory)


def uninstall_task_factory(loop: asyncio.AbstractEventLoop) -> None:
    """Restore the loop's previous task factory."""
    current = loop.get_task_factory()
    if getattr(current, "fakediscord", False):
        loop.set_task_factory(current.previous)  # type: ignore[union-attr]


class BotRunner:
    """One discord.py client running against a FakeDiscord."""

    def __init__(
        self,
        fake: FakeDiscord,
        client: discord.Client,
        *,
        token: str | None = None,
        guild_ready_timeout: float = 0.05,
    ) -> None:
        self.fake = fake
        self.client = client
        self.token = token or fake.token
        self.guild_ready_timeout = guild_ready_timeout
        self.task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Future[Any]] = set()
        self._starting = False
        self._start_failed = False
        self.killed = False

    async def start(self, timeout: float | None = None) -> BotRunner:
        """Start the client and wait until it is ready; returns self.

        Raises FakeDiscordError if discord.py is not patched to the fake, or if the client
        stops (e.g. LoginFailure, PrivilegedIntentsRequired) or is not ready in time.
        """
        import discord.gateway
        import discord.http

        if (
            not discord.http.Route.BASE.startswith(self.fake.base_url)
            or str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) != self.fake.ws_url
        ):
            raise FakeDiscordError(
                "discord.py is not pointed at this fake: use fake.patch_discord() "
                "(the fake_discord fixture does it)"
            )
        state = getattr(self.client, "_connection", None)
        if state is not None:
            state.guild_ready_timeout = self.guild_ready_timeout
        loop = asyncio.get_running_loop()
        install_task_factory(loop)
        ctx = contextvars.copy_context()
        ctx.run(_OWNER.set, self)
        self._starting = True
        task = loop.create_task(self._main(), name=f"fakediscord-bot-{id(self.client):x}", context=ctx)
        self.task = task
        self._tasks.add(task)
        try:
            await self.fake.wait_for(
                lambda: self.client.is_ready() or task.done(), timeout, what="the bot to become ready"
            )
        finally:
            self._starting = False
        if self.task.done():
            self._start_failed = True
            exc = self.task.exception() if not self.task.cancelled() else None
            raise FakeDiscordError(f"the bot stopped while starting: {exc!r}") from exc
        return self

    async def _main(self) -> None:
        try:
            await self.client.start(self.token)
        except Exception as exc:
            if not self._starting:
                self.fake.bot_errors.append(f"the bot's client task died: {exc!r}")
            raise

    @property
    def session(self) -> Session | None:
        """The fake gateway session this client holds, if any."""
        ws = getattr(self.client, "ws", None)
        sid = getattr(ws, "session_id", None)
        return next((s for s in self.fake.sessions if s.id == sid), None)

    async def wait_until_resumed(self, resumes: int = 1, timeout: float | None = None) -> None:
        """Wait until this client's session has been resumed ``resumes`` times and is connected again."""
        await self.fake.wait_for(
            lambda: (s := self.session) is not None and s.resumes >= resumes and s.connected,
            timeout,
            what=f"the bot to resume {resumes} time(s)",
        )

    def _stop_keep_alive_threads(self) -> None:
        """Stop this client's heartbeat threads, including one of a websocket still being opened."""
        import threading

        from discord.gateway import KeepAliveHandler

        for thread in threading.enumerate():
            if isinstance(thread, KeepAliveHandler) and getattr(thread.ws, "_connection", None) is getattr(
                self.client, "_connection", False
            ):
                thread.stop()

    async def stop(self, timeout: float = 5.0) -> None:
        """Clean shutdown: ``client.close()`` then wait for the client task to end."""
        if self.task is None or self.killed:
            return
        if not self.client.is_closed():
            await self.client.close()
        if not self.task.done():
            done, _ = await asyncio.wait([self.task], timeout=timeout)
            if not done:
                self.task.cancel()
                await asyncio.gather(self.task, return_exceptions=True)
        self._stop_keep_alive_threads()
        if (
            self.task.done()
            and not self.task.cancelled()
            and self.task.exception() is not None
            and not self._start_failed
        ):
            exc = self.task.exception()
            if not isinstance(exc, asyncio.CancelledError):
                self.fake.bot_errors.append(f"the bot's client task ended with {exc!r}")

    async def kill(self, release: Callable[[], Awaitable[Any]] | None = None) -> None:
        """Simulate the bot process dying: cancel all its tasks, cut its gateway connection with no
        close frame, release its sockets. ``release`` may free other OS-level resources the dead
        process held (e.g. close its SQLite connection) without running the bot's shutdown code."""
        if self.task is None or self.killed:
            return
        self.killed = True
        session = self.session
        ws = getattr(self.client, "ws", None)
        self._stop_keep_alive_threads()
        pending = [t for t in self._tasks if not t.done() and t is not asyncio.current_task()]
        for t in pending:
            t.cancel()
        if pending:
            await asyncio.wait(pending, timeout=5)
        if session is not None:
            self.fake.drop_gateway(session)
        socket = getattr(ws, "socket", None)
        if socket is not None and not socket.closed:
            conn = getattr(socket, "_conn", None)
            transport = getattr(conn, "transport", None)
            if transport is not None:
                transport.abort()
        await self.client.http.close()
        if release is not None:
            await release()
        self.fake._changed()
