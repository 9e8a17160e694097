"""What the surface modules need of the bot, as a type: the ``commands.Bot`` with Bazaar's host
attached. ``app.BazaarBot`` is the one implementation; the other modules name this protocol
instead of importing ``app``, so ``bot/`` has no import cycle (app -> commands -> actions ->
components/publish, never back)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import discord
from discord.ext import commands

from ..host.live import Batch, LiveGame
from ..host.service import GameService
from ..host.store import Store
from ..host.throttle import Throttle
from ..host.workers import Workers


class Publishing(Protocol):
    """What ``publish.Publisher`` offers the interaction handlers."""

    async def publish(self, game: LiveGame) -> Batch | None: ...

    async def refresh_lobby(self, game: LiveGame) -> None: ...

    async def notice(self, game: LiveGame, content: str) -> discord.Message | None: ...

    async def hand(
        self, game: LiveGame, seat: int, view: dict[str, Any]
    ) -> tuple[str, discord.File | None]: ...

    async def image(
        self, game_id: int, kind: str, what: str, view: dict[str, Any], names: Sequence[str], filename: str
    ) -> discord.File | None: ...


class Bazaar(Protocol):
    """The bot as the surface modules use it (see ``app.BazaarBot``)."""

    store: Store
    service: GameService
    publisher: Publishing
    workers: Workers
    inflight: int
    now: Any
    throttle: Throttle
    suggest_throttle: Throttle

    async def on_component(self, interaction: Any, game_id: int, version: int, action: str) -> None: ...

    async def on_pick(
        self, interaction: Any, game_id: int, version: int, key: str, values: list[str]
    ) -> None: ...

    async def on_form(
        self, interaction: Any, game_id: int, version: int, form: str, pick: str | None, values: list[str]
    ) -> None: ...


def bazaar(client: commands.Bot | Any) -> Bazaar:
    """``client`` (an interaction's ``client``) as the Bazaar bot."""
    return client  # type: ignore[no-any-return]
