"""The real ``bazaar`` command as a separate process pointed at a FakeDiscord of the test.

``BotProcess(fake, db_path, log_path).start()`` runs ``python tests/fakediscord/launch.py run``
with ``FAKE_DISCORD_URL``, ``DISCORD_TOKEN`` and ``BAZAAR_DB`` in its environment (and whatever
``env`` adds: ``BAZAAR_AI_GRACE``, ``SHARD_…``), in ``cwd`` (a test folder, so no developer
``.env`` is read), and returns once a new gateway session of the fake is connected. The
process's output (stdout and stderr, discord.py's log lines included) goes to ``log_path``;
:meth:`BotProcess.problems` lists its unhandled tracebacks and ERROR/CRITICAL lines.
:meth:`kill` is SIGKILL (nothing of the bot runs), :meth:`stop` a Ctrl-C (a clean stop).
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tests.fakediscord import FakeDiscord, FakeDiscordError
from tests.fakediscord.launch import ENV

LAUNCH = Path(__file__).resolve().parent.parent / "fakediscord" / "launch.py"
#: What a clean log never contains: a traceback, or a record at ERROR or CRITICAL level, as
#: discord.utils.setup_logging writes them: "[<date> <time>] [LEVEL   ] logger: message", or
#: coloured (it colours even a file inside Docker) "<date> <time> LEVEL    logger message" once
#: the colour codes (:data:`ANSI`) are taken out.
PROBLEM = re.compile(
    r"^Traceback |^bazaar: |^\[[^]]*\] \[(ERROR|CRITICAL) *\] |^\d{4}-\d\d-\d\d \S+ (ERROR|CRITICAL) "
)
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def bot_env(fake: FakeDiscord, db_path: Path | str, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of a launched bot: this one without Bazaar/Discord settings, plus the
    fake's URL, its token, the database and ``extra``."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("BAZAAR_", "DISCORD_", "DEV_GUILD", "SHARD_", ENV))
    }
    env.update(
        {
            ENV: fake.base_url,
            "DISCORD_TOKEN": fake.token,
            "BAZAAR_DB": str(db_path),
            "PYTHONUNBUFFERED": "1",
            "BAZAAR_AI_LEVEL": "easy",
            "BAZAAR_CONFIRM": "off",  # the harness plays without confirmations (tests/e2e/test_confirm.py)
            **(extra or {}),
        }
    )
    return env


async def run_cli(
    fake: FakeDiscord,
    db_path: Path | str,
    *args: str,
    cwd: Path,
    timeout: float = 120.0,
    env: Mapping[str, str] | None = None,
) -> tuple[int, str]:
    """Run ``bazaar <args>`` (e.g. ``sync``) through the launcher to its end; returns the exit
    code and its output. The fake keeps serving meanwhile."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        str(LAUNCH),
        *args,
        cwd=cwd,
        env=bot_env(fake, db_path, env),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await asyncio.wait_for(proc.communicate(), timeout)
    return proc.returncode or 0, out.decode(errors="replace")


class BotProcess:
    """One run of ``bazaar run`` in its own process."""

    def __init__(
        self,
        fake: FakeDiscord,
        db_path: Path | str,
        log_path: Path,
        *,
        cwd: Path,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.fake = fake
        self.db_path = db_path
        if isinstance(db_path, Path) and not db_path.exists():  # as `bazaar db migrate` leaves it:
            db_path.parent.mkdir(parents=True, exist_ok=True)  # a path other than the default must
            db_path.touch()  # exist, or `bazaar run` refuses it as a typo
        self.log_path = log_path
        self.cwd = cwd
        self.env = dict(env or {})
        self.proc: subprocess.Popen[bytes] | None = None
        self.session: Any = None
        self.killed = False

    async def start(self, timeout: float = 120.0) -> BotProcess:
        """Start the process and wait until it holds a connected gateway session (its start-up,
        reposts included, is done by then: discord.py runs ``setup_hook`` before connecting).
        Raises FakeDiscordError (with the log's tail) if it exits or is not connected in time."""
        known = set(map(id, self.fake.sessions))
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, str(LAUNCH), "run"],
                cwd=self.cwd,
                env=bot_env(self.fake, self.db_path, self.env),
                stdout=log,
                stderr=subprocess.STDOUT,
            )

        proc = self.proc

        def connected() -> Any:
            if proc.poll() is not None:
                raise FakeDiscordError(
                    f"the bot exited with {proc.returncode} while starting:\n" + self.tail()
                )
            return next((s for s in self.fake.sessions if id(s) not in known and s.connected), None)

        self.session = await self.fake.wait_for(connected, timeout, what="the bot process to connect")
        return self

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def alive(self) -> bool:
        """True while the process runs."""
        return self.proc is not None and self.proc.poll() is None

    async def kill(self) -> None:
        """SIGKILL the process and wait until the fake saw its gateway connection drop."""
        assert self.proc is not None
        self.killed = True
        self.proc.send_signal(signal.SIGKILL)
        await asyncio.to_thread(self.proc.wait)
        session = self.session
        if session is not None:
            await self.fake.wait_for(
                lambda: not session.connected, 30, what="the dead bot's connection to drop"
            )

    async def stop(self, timeout: float = 60.0) -> int:
        """Ctrl-C (SIGINT) and wait for the exit; returns the exit code (0 for a clean stop)."""
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                await asyncio.wait_for(asyncio.to_thread(self.proc.wait), timeout)
            except TimeoutError:
                self.proc.kill()
                await asyncio.to_thread(self.proc.wait)
                raise FakeDiscordError(
                    "the bot did not stop within %s s of Ctrl-C:\n%s" % (timeout, self.tail())
                ) from None
        return self.proc.returncode

    def log(self) -> str:
        """Everything the process wrote so far."""
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def tail(self, lines: int = 40) -> str:
        return "\n".join(self.log().splitlines()[-lines:])

    def problems(self) -> list[str]:
        """Tracebacks and ERROR/CRITICAL log lines (each with the lines that follow it)."""
        text = ANSI.sub("", self.log()).splitlines()
        out = []
        for i, line in enumerate(text):
            if PROBLEM.match(line):
                out.append("\n".join(text[i : i + 12]))
        return out
