"""What the surface modules need of the bot, as a type: the ``commands.Bot`` with Bazaar's host
attached. ``app.BazaarBot`` is the one implementation; the other modules name this protocol
instead of importing ``app``, so ``bot/`` has no import cycle (app -> commands -> actions ->
components/publish, never back)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, cast

import discord
from discord.abc import GuildChannel, PrivateChannel
from discord.http import HTTPClient

from ..host.config import Config
from ..host.live import Batch, LiveGame
from ..host.outbox import Outbox
from ..host.service import GameService
from ..host.throttle import Throttle
from ..host.workers import Workers


class Publishing(Protocol):
    """What ``publish.Publisher`` offers the interaction handlers."""

    async def publish(self, box: Outbox | None) -> Batch | None: ...

    async def notice(self, game: LiveGame, content: str) -> discord.Message | None: ...

    async def hand(
        self, game: LiveGame, seat: int, view: dict[str, Any]
    ) -> tuple[str, bytes | None, str]: ...

    async def image(
        self, game_id: int, kind: str, what: str, view: dict[str, Any], names: Sequence[str], filename: str
    ) -> discord.File | None: ...

    async def clear_stale(self, game_id: int, channel_id: int, message_id: int) -> None: ...


class Bazaar(Protocol):
    """The bot as the surface modules use it (see ``app.BazaarBot``): Bazaar's host, and the few
    parts of ``discord.Client`` the handlers call directly."""

    config: Config
    service: GameService
    workers: Workers
    inflight: int
    now: Callable[[], float]
    throttle: Throttle
    suggest_throttle: Throttle
    http: HTTPClient

    @property
    def publisher(self) -> Publishing: ...  # read only: the bot's own Publisher is one

    def get_channel(self, id: int, /) -> GuildChannel | discord.Thread | PrivateChannel | None: ...

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None, type: discord.ChannelType | None = None
    ) -> discord.PartialMessageable: ...

    async def on_component(
        self, interaction: discord.Interaction, game_id: int, version: int, action: str
    ) -> None: ...

    async def on_pick(
        self, interaction: discord.Interaction, game_id: int, version: int, key: str | None, values: object
    ) -> None: ...

    async def on_form(
        self,
        interaction: discord.Interaction,
        game_id: int,
        version: int,
        form: str,
        pick: str | None,
        values: object,
    ) -> None: ...

    async def on_dialog(
        self, interaction: discord.Interaction, game_id: int, version: int, key: str
    ) -> None: ...


def bazaar(client: discord.Client) -> Bazaar:
    """``client`` (an interaction's ``client``) as the Bazaar bot: ``app.BazaarBot`` is the only
    client Bazaar runs, and it has every part of :class:`Bazaar`."""
    return cast(Bazaar, client)
