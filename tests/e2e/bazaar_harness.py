"""Shared set-up for the Bazaar end-to-end tests and ``benchmarks/e2e.py``: a guild with a
channel and players on the fake Discord, the real :class:`bot.app.BazaarBot` on a database file,
an injected clock, and small helpers to read the game back from the database.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable, Callable

import discord

from bot.app import BazaarBot
from bot.config import Config
from engines import base
from fakediscord import BotRunner, Channel, FakeDiscord, Guild, Message, User

GAME_TITLE = re.compile(r"\*\*(?P<title>[^*#]+) #(?P<id>\d+)\*\*")


class FakeTime:
    """An injected clock (Unix seconds) that only moves when a test moves it."""

    def __init__(self, t: float = 1_750_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@dataclass
class Table:
    """One server with a #games channel, its players, and the bot(s) started on ``db_path``."""

    fake: FakeDiscord
    start_bot: Callable[..., Awaitable[BotRunner]]
    db_path: Path
    guild: Guild
    channel: Channel
    players: dict[str, User]
    now: FakeTime = field(default_factory=FakeTime)
    seed: int = 7
    runner: BotRunner | None = None

    @property
    def bot(self) -> BazaarBot:
        assert self.runner is not None
        return self.runner.client  # type: ignore[return-value]

    async def boot(self, *, sync: bool = True) -> BotRunner:
        """Start a new BazaarBot on the table's database (and sync its commands)."""
        bot = BazaarBot(Config(token=self.fake.token, db_path=self.db_path), now=self.now,
                        seed_source=lambda: self.seed)
        self.runner = await self.start_bot(bot)
        if sync:
            await bot.tree.sync()
        return self.runner

    async def settle(self, timeout: float | None = None) -> None:
        """Wait until every interaction sent so far is acknowledged and no handler is running."""
        await self.fake.wait_for(lambda: all(i.acked for i in self.fake.interactions
                                             if i.kind != "autocomplete" and i.sent_at is not None)
                                 and self.bot.inflight == 0, timeout, what="the bot to settle")

    async def new_game(self, creator: str, game: str, **options: Any) -> tuple[int, Message]:
        """``/game new`` by ``creator``; returns the game id and the lobby message."""
        mark = self.fake.mark()
        h = await self.fake.slash(self.players[creator], self.channel, "game new", game=game, **options)
        assert h.ephemeral and "Opened" in h.content, h.content
        lobby = await self.fake.wait_message(self.channel, lambda m: "lobby" in m.content, after=mark)
        return int(GAME_TITLE.search(lobby.content)["id"]), lobby

    def user_of(self, game: Any, seat: int) -> User:
        """The fake user sitting in ``seat`` of a live game."""
        uid = game.seats[seat].user_id
        return next(u for u in self.players.values() if u.id == uid)

    def last_turn(self, place: Channel) -> Message:
        """The newest turn message (a board with "· move N") in ``place``."""
        turns = [m for m in self.fake.messages(place) if "· move " in m.content]
        assert turns, f"no turn message in {place!r}"
        return turns[-1]

    async def play_one(self, game_id: int, place: Channel, via: str = "move") -> tuple[int, str]:
        """Let the awaited person play the AI's pick, through ``/move`` or the turn message's
        button/select (``via`` = "move" or "button"); waits until the bot has settled. Returns
        ``(seat, action)``."""
        game = await self.bot.service.get(game_id)
        seat = game.awaited()[0]
        engine = game.engine
        action = engine.choose(engine.view(game.state, seat), engine.legal_actions(game.state, seat))
        user = self.user_of(game, seat)
        if via == "move":
            h = await self.fake.slash(user, place, "move", action=action)
            assert h.ephemeral and h.content.startswith("✅ Played"), h.content
        else:
            msg = self.last_turn(place)
            version = game.row.version
            button, menu = f"bz:{game_id}:{version}:{action}", f"bzs:{game_id}:{version}"
            if button in msg.custom_ids:
                await self.fake.click(user, msg, button)
            elif menu in msg.custom_ids:
                await self.fake.select(user, msg, menu, [action])
            else:
                raise AssertionError(f"no component for {action!r} on {msg.custom_ids}")
        await self.settle()
        return seat, action

    async def start_game(self, creator: str, joiners: tuple[str, ...], ais: int, game: str = "pralaya",
                         **options: Any) -> tuple[int, Channel]:
        """Open, fill (lobby buttons) and start a game; returns its id and where it is played."""
        gid, lobby = await self.new_game(creator, game, **options)
        for name in joiners:
            await self.fake.click(self.players[name], lobby, label="Join")
            await self.settle()
        for _ in range(ais):
            await self.fake.click(self.players[creator], lobby, label="Add AI")
            await self.settle()
        start = await self.fake.click(self.players[creator], lobby, label="Start")
        await self.settle()
        assert start.followups and "has started" in start.followups[-1].content, start.followups
        row = await self.bot.store.game(gid)
        assert row.status == "active", row
        return gid, self.fake.channel(row.place_id)

    async def db_moves(self, game_id: int) -> list[tuple[int, str, str]]:
        """``(seat, action, by)`` of every stored move."""
        return [(m.seat, m.action, m.by) for m in await self.bot.store.moves(game_id)]

    async def db_state(self, game_id: int) -> tuple[int, str, int]:
        """``(version, status, number of moves)`` as stored."""
        row = await self.bot.store.game(game_id)
        return row.version, row.status, len(await self.bot.store.moves(game_id))


def make_table(fake: FakeDiscord, start_bot: Callable[..., Awaitable[BotRunner]], tmp_path: Path,
               names: tuple[str, ...] = ("ann", "bob", "cy"), **guild_options: Any) -> Table:
    """A guild "Bazaar Test" with #games and members ``names`` (plus a moderator "mod")."""
    guild = fake.add_guild("Bazaar Test", channels=["games"], **guild_options)
    channel = fake.channel("games")
    players = {n: fake.add_user(n, guild=guild) for n in names}
    players["mod"] = fake.add_user("mod", guild=guild, permissions=discord.Permissions(manage_guild=True))
    return Table(fake, start_bot, tmp_path / "bazaar.sqlite3", guild, channel, players)


def replay_states(engine: base.Engine, seed: int, n: int, options: dict[str, Any],
                  moves: list[tuple[int, str, str]]) -> list[Any]:
    """The state after setup and after each move (index = version)."""
    state = engine.setup(seed, n, options)
    out = [state]
    for seat, action, _ in moves:
        state = base.play(engine, state, seat, action).state
        out.append(state)
    return out


def buttons(msg: Message) -> list[dict[str, Any]]:
    """Every button of a message (flattened from its action rows)."""
    out = []
    for row in msg.components:
        for c in row.get("components", []):
            if c.get("type") == 2:
                out.append(c)
    return out


def selects(msg: Message) -> list[dict[str, Any]]:
    """Every select menu of a message."""
    return [c for row in msg.components for c in row.get("components", []) if c.get("type") == 3]
