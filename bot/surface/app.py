"""The Discord application: the ``commands.Bot`` subclass (running it: :mod:`.launch`).

``setup_hook`` has the host open the database (applying migrations; :mod:`bot.host.opening`:
the bot never touches it) and build the game service on it, reads the active games' rows (a game
loads, its replay checked against its snapshot, on first use; those flagged as needing attention
and those whose turn ran out while the bot was down load now), registers the persistent
components, adds the commands, tells players of any game that needs attention (or that checks
out again and is playable), gives a grace to turns whose clock ran out while the bot was down,
posts what a previous run stored but never posted (unless Discord shows it already), says which
turns got a grace, and starts the turn clock. Once connected, the AI seats that run left awaited
play in the background (``service.ai``: start-up never waits for AI play), and the other stored
games are checked in the background (:meth:`BazaarBot._check_dormant`). Only
the ``guilds`` intent is used (no privileged intents). Neither the token nor a private view is logged.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from ..host import drawing, heartbeat, opening, wording
from ..host import service as service_mod
from ..host.clock import TurnClock
from ..host.clock_shared import claim_owner
from ..host.config import Config
from ..host.live import LiveGame, Refusal
from ..host.looplag import LagMonitor
from ..host.opening import Database
from ..host.service import GameService
from ..host.shards import ALL
from ..host.store import StoreError
from ..host.throttle import Throttle
from ..host.workers import Workers
from . import actions, dialog_flow, emojis, inputs, submits, synccheck, text
from . import commands as bot_commands
from .flood import BazaarTree
from .items import ITEMS, known
from .publish import Publisher

log = logging.getLogger("bot")


def intents() -> discord.Intents:
    """Guild events only: enough for channels, threads and interactions; nothing privileged."""
    i = discord.Intents.none()
    i.guilds = True
    return i


def _no_voice_warnings() -> None:
    """The bot never joins a voice channel: silence discord.py's start-up warnings about the
    missing voice libraries (PyNaCl, davey)."""
    for flag in ("warn_nacl", "warn_dave"):
        if hasattr(discord.VoiceClient, flag):
            setattr(discord.VoiceClient, flag, False)


class BazaarBot(commands.Bot):
    """The Bazaar bot. ``now``, ``seed_source`` and ``throttle_clock`` (the flood guard's monotonic
    clock) are injectable for tests; with ``sync_only`` the hook only builds the command tree (for
    ``bazaar sync``); ``repost_delays`` are the pauses (s) before posting again a board Discord
    refused (see ``retry``); ``database``, when given, is the database already opened
    (:func:`bot.host.opening.open_database`; else the host opens ``config.db_path``): the bot only
    passes it on to the host (:func:`bot.host.opening.open_service`), which owns and closes it;
    ``workers`` is the pool that draws boards and thinks for the AI
    (default: ``config.workers`` processes, else one per core), owned by the bot and closed with it."""

    def __init__(
        self,
        config: Config,
        *,
        now: Callable[[], float] = time.time,
        seed_source: Callable[[], int] | None = None,
        sync_only: bool = False,
        clock_max_sleep: float = 300.0,
        throttle_clock: Callable[[], float] = time.monotonic,
        repost_delays: Sequence[float] | None = None,
        database: Database | None = None,
        workers: Workers | None = None,
        **kwargs: Any,
    ) -> None:
        _no_voice_warnings()
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            tree_cls=BazaarTree,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            **kwargs,
        )
        self.config = config
        self.now = now
        self.seed_source = seed_source
        self.sync_only = sync_only
        self.clock_max_sleep = clock_max_sleep
        self._database = database  # until setup_hook passes it on to the host; never used here
        self.workers = workers if workers is not None else Workers(config.workers)  # AI search, drawing
        self.service: GameService = None  # type: ignore[assignment]
        self.publisher = Publisher(self)
        self.lag = LagMonitor(record=config.lag_log)
        self._warming: asyncio.Task[None] | None = None
        self._checking: asyncio.Task[None] | None = None
        self._sweeping: asyncio.Task[None] | None = None
        self._lobbies: asyncio.Task[None] | None = None
        self._beating: asyncio.Task[None] | None = None
        self._synccheck: asyncio.Task[list[str]] | None = None
        if repost_delays is not None:  # pauses before posting again a board Discord refused
            self.publisher.retry.delays = tuple(repost_delays)
        self.clock: TurnClock | None = None
        self.bazaar_shards = config.shards or ALL  # the Discord shards this process connects
        self.claim_owner = claim_owner()  # whose turn clock claims (a shared database)
        self.inflight = 0  # interaction handlers running (see actions.guard)
        burst, rate = config.rate_limit
        self.throttle = Throttle(burst, rate, clock=throttle_clock)  # commands and clicks per user
        self.suggest_throttle = Throttle(burst * 4, rate * 4, clock=throttle_clock)  # autocomplete
        self.tree.error(self.on_app_command_error)

    async def setup_hook(self) -> None:
        await bot_commands.setup(self)
        if self.sync_only:
            return
        await emojis.load(self)  # the pieces' emojis for buttons and menus (text labels without)
        self.lag.start()
        self.service = await opening.open_service(  # the host opens the database if none was given
            self.config,
            database=self._database,
            now=self.now,
            seed_source=self.seed_source,
            on_clock_change=self._poke_clock,
            workers=self.workers,
            holds=self.bazaar_shards.holds,
            claims=(self.claim_owner, self.config.clock_lease),
        )
        self._database = None  # the service owns it now
        self.service.ai.publish = self.publisher.publish  # AI stretches played in the background
        self.service.ai.on_busy = self._ai_busy
        flagged = await self.service.load_all()
        self.add_dynamic_items(*ITEMS)
        active = sum(1 for g in self.service.loaded() if g.row.status == "active") + len(
            self.service.dormant()
        )
        where = f", {self.bazaar_shards.describe()}" if self.config.shards else ""
        log.info(
            "Bazaar ready: database %s%s, %d active game(s) resumed (loaded on first use)",
            self.service.posts.describe(),
            where,
            active,
        )
        for game in flagged:
            await self.publisher.notice(game, text.clip(wording.attention(game)))
        for game in self.service.take_recovered():
            await self.publisher.notice(game, text.clip(wording.playable_again(game)))
        rearmed = await self.service.rearm_overdue()  # first, so boards posted now show the new deadline
        await self._repost()  # (the AI seats a previous run left awaited play once connected: on_ready)
        for game, seats, grace in rearmed:
            people = [wording.mention(game.seats[s]) for s in seats]
            if people:
                await self.publisher.notice(game, wording.rearmed(game.title, people, grace))
        self.clock = opening.turn_clock(  # on a shared database: deadlines claimed there, each fires once
            self.service, self.on_clock_due, poll=self.config.clock_poll, max_sleep=self.clock_max_sleep
        )
        self.clock.start()

    async def on_ready(self) -> None:
        """Once connected (the first time only): start the worker processes and check the
        stored games not loaded yet, in the background, so neither delays being ready."""
        if self._warming is None and not self.sync_only:
            self._resume_ai()  # in the background: AI play never keeps the bot offline
            self._warming = asyncio.create_task(self._warm_workers(), name="bazaar-warm-workers")
            self._checking = asyncio.create_task(self._check_dormant(), name="bazaar-check-dormant")
            self._lobbies = asyncio.create_task(self._lobby_loop(), name="bazaar-idle-lobbies")
            self._synccheck = asyncio.create_task(
                synccheck.check(self, self.config.dev_guild_id), name="bazaar-sync-check"
            )
            if self.config.heartbeat is not None:
                self._beating = asyncio.create_task(
                    self._heartbeat_loop(self.config.heartbeat), name="bazaar-heartbeat"
                )
            if self.service.posts.shared:
                self._sweeping = asyncio.create_task(self._sweep_loop(), name="bazaar-sweep-unposted")

    async def _check_dormant(self) -> None:
        """In the background after start-up: check the stored games not loaded yet (see
        ``GameService.check_dormant``), tell the players of any that needs attention, and let
        AI seats the last run left awaited play. Failures are logged."""
        t0 = time.perf_counter()
        try:
            flagged, checked = await self.service.check_dormant()
            for game in flagged:
                await self.publisher.notice(game, text.clip(wording.attention(game)))
        except Exception:
            log.exception("Checking the stored games failed")
            return
        self._resume_ai()
        log.info(
            "Checked %d stored game(s) not loaded at start-up in %.2f s; %d need attention",
            checked,
            time.perf_counter() - t0,
            len(flagged),
        )

    async def _warm_workers(self) -> None:
        """Start the worker processes and load the renderers in them, so the first board is not
        drawn by a process still starting. A failure is logged (the pool
        starts on first use instead)."""
        try:
            await asyncio.gather(*(self.workers.run(drawing.warm) for _ in range(max(1, self.workers.size))))
        except Exception:
            log.exception("Starting the worker processes failed")

    async def _repost(self) -> None:
        """Post the boards (or score sheets) that a previous run stored but never posted: it
        stopped between a move's transaction and its post. Failures are logged per game."""
        for gid, posted in await self.service.posts.unposted():
            await self._post_unposted(gid, posted, service_mod.RESTARTED)

    async def sweep_unposted(self) -> int:
        """With a database other processes share: post the boards of this process's games that
        another process stored (a DM click, a turn clock it claimed) but never posted, because
        it stopped in between; a move stored ``config.repost_after`` seconds ago (up to a week)
        counts. A game this process is posting itself (a batch pending, a retry waiting) is
        left to that. Then the AI seats of those games play what they owe (the other process
        may have stopped before their answers). Returns how many games were posted; failures
        are logged per game."""
        now = self.now()
        done = []
        for gid, posted in await self.service.posts.unposted(
            (now - 7 * 86400, now - self.config.repost_after)
        ):
            if self.service.posts.publishing(gid):
                continue
            if self.publisher.retry.waiting(gid):
                continue
            if await self._post_unposted(gid, posted, service_mod.UNPOSTED):
                done.append(gid)
        if done:  # the AI seats the stopped process left owing their answers play now (in the background)
            await self.service.resume_ai(done)
        return len(done)

    LOBBY_SWEEP = 600.0
    """Seconds between looks for lobbies idle past ``BAZAAR_LOBBY_IDLE_HOURS``."""

    async def close_idle_lobbies(self) -> int:
        """Close the lobbies nobody touched for ``BAZAAR_LOBBY_IDLE_HOURS`` and post why (their
        lobby message loses its buttons). Returns how many were closed."""
        boxes = await self.service.close_idle_lobbies()
        for box in boxes:
            await self.publisher.publish(box)
        return len(boxes)

    async def _heartbeat_loop(self, path: Path) -> None:
        """Rewrite the heartbeat file every ``heartbeat.EVERY`` seconds while connected."""
        while True:
            if self.is_ready() and not self.is_closed():
                try:
                    await asyncio.to_thread(heartbeat.beat, path)
                except OSError as err:
                    log.warning("Writing the heartbeat %s failed: %s", path, err)
            await asyncio.sleep(heartbeat.EVERY)

    async def _lobby_loop(self) -> None:
        """Run :meth:`close_idle_lobbies` every :data:`LOBBY_SWEEP` seconds while the bot runs;
        a failure is logged and the next look runs."""
        while True:
            try:
                closed = await self.close_idle_lobbies()
                if closed:
                    log.info("Closed %d lobby(ies) nobody started in time", closed)
            except Exception:
                log.exception("Closing idle lobbies failed")
            await asyncio.sleep(self.LOBBY_SWEEP)

    async def _sweep_loop(self) -> None:
        """Run :meth:`sweep_unposted` every ``config.repost_after / 3`` seconds (at most a
        minute) while the bot runs; a failing sweep is logged and the next one runs."""
        pause = min(60.0, self.config.repost_after / 3)
        while True:
            await asyncio.sleep(pause)
            try:
                await self.sweep_unposted()
            except StoreError as err:
                log.warning("Looking for unposted boards failed (%s); trying again shortly", err)
            except Exception:
                log.exception("Looking for unposted boards failed")

    async def _post_unposted(self, gid: int, posted: int | None, note: str) -> int:
        """Post what game ``gid`` stored after version ``posted`` (see :meth:`publish.Publisher.landed`:
        what Discord already shows is kept), if its guild is on this process's shards; 1 if it
        was posted, else 0. Failures are logged."""
        try:
            row = await self.service.posts.stored_game(gid)
            if row is None or not self.bazaar_shards.holds(row.guild_id):
                return 0  # another process's shard: that process posts it
            box = await self.service.requeue(gid, posted, note)
            if await self.publisher.publish(box, recover=True) is None:
                return 0  # another process posts it (or has), see publish.postclaims
            log.info("Game %s: posted what was stored but never posted", gid)
            return 1
        except Exception:
            log.exception("Game %s: posting what was stored but never posted failed", gid)
            return 0

    def _resume_ai(self) -> None:
        """Let the AI seats a previous run left awaited (it stopped between a person's move and
        the AI's answers) play, in the background (``service.ai``: each action posted as it is
        played). Failures are logged."""
        self.inflight += 1  # until the stretches are handed to service.ai (which counts them)
        task = asyncio.get_running_loop().create_task(self.service.resume_ai(), name="bazaar-resume-ai")
        task.add_done_callback(self._resumed)

    def _resumed(self, task: asyncio.Task[list[LiveGame]]) -> None:
        self.inflight -= 1
        if task.cancelled():
            return
        if task.exception() is not None:
            log.error("Resuming the AI seats after the restart failed", exc_info=task.exception())
            return
        for game in task.result():
            log.info("Game %s: the AI plays what it owed when the last run stopped", game.id)

    def _ai_busy(self, delta: int) -> None:
        """An AI stretch started (+1) or ended (-1) in the background: work in flight."""
        self.inflight += delta

    def _poke_clock(self) -> None:
        if self.clock is not None:
            self.clock.poke()

    async def on_clock_due(self, game_id: int, kind: str) -> None:
        """The turn clock's consequences: a half-time reminder, or the AI playing at expiry."""
        self.inflight += 1
        try:
            await self._clock_due(game_id, kind)
        finally:
            self.inflight -= 1

    async def _clock_due(self, game_id: int, kind: str) -> None:
        if kind == "remind":
            seats = await self.service.remind(game_id)
            if seats:
                game = await self.service.get(game_id)
                people = [wording.mention(game.seats[s]) for s in seats]
                left = (game.row.deadline or self.now()) - self.now()
                await self.publisher.notice(game, wording.reminder(game.title, people, left))
        elif kind == "ai":
            due = await self.service.ai_due(game_id)
            if due is not None:
                await self.publisher.publish(due)
        else:
            expired = await self.service.expire(game_id)
            if expired is not None:
                await self.publisher.publish(expired)

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Last resort for command errors: a readable reason for bad input, otherwise a log line
        with the game id and an apology."""
        reply = actions.reply
        gid = interaction.extras.get("game_id")
        if isinstance(error, (app_commands.CommandSignatureMismatch, app_commands.CommandNotFound)):
            log.info("A command did not match the bot's (a stale registration?): %s", error)
            await reply(interaction, inputs.CHANGED)
        elif isinstance(error, app_commands.NoPrivateMessage):
            await reply(interaction, "Bazaar games live in server channels: use this command there.")
        elif isinstance(error, app_commands.TransformerError):
            await reply(interaction, f"`{str(error.value)[:40]}` is not a valid value here.")
        elif isinstance(error, app_commands.CheckFailure):
            await reply(interaction, "You cannot use this command here.")
        elif isinstance(original := getattr(error, "original", None), Refusal):
            await reply(interaction, original.reason)
        else:
            cmd = interaction.command.qualified_name if interaction.command else "?"
            log.error("Command /%s failed (game %s)", cmd, gid, exc_info=error)
            await reply(interaction, text.apology(gid))

    async def on_component(
        self, interaction: discord.Interaction, game_id: int, version: int, action: str
    ) -> None:
        """A persistent component was clicked (see ``components``)."""
        await actions.on_button(interaction, game_id, version, action)

    async def on_pick(
        self, interaction: discord.Interaction, game_id: int, version: int, key: str | None, values: object
    ) -> None:
        """A prompt's menu was used (see ``components.ActionSelect``)."""
        await actions.on_pick(interaction, game_id, version, key, values)

    async def on_form(
        self,
        interaction: discord.Interaction,
        game_id: int,
        version: int,
        form: str,
        pick: str | None,
        values: object,
    ) -> None:
        """A form's menu or Send button was used (see ``components.FormSelect``, ``FormSend``)."""
        await actions.on_form(interaction, game_id, version, form, pick, values)

    async def on_dialog(self, interaction: discord.Interaction, game_id: int, version: int, key: str) -> None:
        """A prompt's dialog button was clicked (see ``dialogs.DialogButton``): its modal opens."""
        await dialog_flow.open_dialog(interaction, game_id, version, key)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Serve a modal's submit (:mod:`submits`), and answer a component whose custom id has none
        of the shapes the bot posts (a message of an older build, or a forged id): no handler
        would, and Discord would show "This interaction failed"."""
        if interaction.type is discord.InteractionType.modal_submit:
            await submits.on_modal(interaction)  # the bot keeps no modals: each is read from its submit
        elif interaction.type is discord.InteractionType.component:
            data: dict[str, Any] = dict(interaction.data or {})
            cid = data.get("custom_id")
            if not known(cid):
                await actions.reply(interaction, inputs.OLD_CONTROL)

    async def idle(self, timeout: float = 5.0) -> bool:
        """Wait (up to ``timeout`` s) until no interaction handler is running; True if idle."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while self.inflight and loop.time() < end:
            await asyncio.sleep(0.01)
        return not self.inflight

    async def close(self) -> None:
        """Stop the clock, let running handlers finish (a few seconds at most), then disconnect
        and close the database (``service.close``, after everything that uses it)."""
        if self.clock is not None:
            await self.clock.stop()
        if self.service is not None:
            await self.service.ai.stop()  # after the action each stretch plays: the next run resumes
            await self.service.ratings.stop()  # the first start's catch-up: the next start resumes it
        for task in (
            self._checking,
            self._warming,
            self._sweeping,
            self._lobbies,
            self._beating,
            self._synccheck,
        ):
            if task is not None and not task.done():
                task.cancel()
        if not await self.idle():
            log.warning("Closing with %d interaction handler(s) still running", self.inflight)
        await self.publisher.retry.stop()  # after the handlers: none of them schedules a retry now
        await self.publisher.recaps.stop()  # drawn and posted by the next run
        await super().close()
        if self.service is not None:
            await self.service.close()  # the database, last of what uses it
        if self._database is not None:  # given, but stopped before the host took it (no Discord)
            await opening.close_database(self._database)
        self.workers.close()
        await self.lag.stop()
