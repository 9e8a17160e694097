"""Players driving several games at once against a bot in another process, and what they saw.

A :class:`Ledger` keeps every move the test sent (by ``/move`` or a board button) with its
interaction; :func:`drive` plays one game until told to stop, reading the game from the bot's
database (the seed and move log replayed by the engine, as any player could follow the boards)
and choosing a legal move for each person awaited. :func:`boards` reads the board messages per
game version from the fake's records, and :class:`GameDb` the stored game back.
"""

from __future__ import annotations

import asyncio
import functools
import json
import random
import re
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.host.store import digest
from engines import base
from tests.fakediscord import Channel, FakeDiscord, Interaction, Message, User

PLAYED = "✅ Played `"
RESTARTED = "♻️ I was restarted before posting this"


# ---------------------------------------------------------------------- the database, read back


@dataclass
class StoredGame:
    id: int
    kind: str
    seed: int
    options: dict[str, Any]
    status: str
    version: int
    attention: str | None
    thread_id: int | None
    channel_id: int
    seats: list[dict[str, Any]]
    moves: list[tuple[int, int, str, str]]  # (version, seat, action, by)
    snapshot: tuple[int, str] | None  # (version, fingerprint)

    @property
    def engine(self) -> base.Engine:
        return base.get(self.kind)

    @property
    def place_id(self) -> int:
        return self.thread_id or self.channel_id

    def people(self) -> set[int]:
        """Seats a person plays (not an AI, not handed to the AI)."""
        return {s["seat"] for s in self.seats if not s["is_ai"] and not s["ai_takeover"]}

    def state(self) -> Any:
        """The state after replaying the move log from the seed."""
        return base.replay(
            self.engine,
            self.seed,
            len(self.seats),
            self.options,
            [(seat, action) for _, seat, action, _ in self.moves],
        )

    def replays_to_snapshot(self) -> bool:
        """Whether the replayed log gives the stored snapshot (and versions agree)."""
        if self.snapshot is None or self.snapshot[0] != self.version or len(self.moves) != self.version:
            return False
        return digest(base.state_fingerprint(self.state())) == self.snapshot[1]


class GameDb:
    """Reads the bot's SQLite file (WAL: reading beside the writing bot is safe)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _query(self, sql: str, args: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        db = sqlite3.connect(self.path, timeout=30)
        try:
            db.row_factory = sqlite3.Row
            return list(db.execute(sql, args))
        finally:
            db.close()

    def ids(self) -> list[int]:
        return [r["id"] for r in self._query("SELECT id FROM games ORDER BY id")]

    def game(self, game_id: int) -> StoredGame:
        db = sqlite3.connect(self.path, timeout=30)
        try:
            db.row_factory = sqlite3.Row
            db.execute("BEGIN")  # one read transaction: the row, log and snapshot belong together
            g = db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
            seats = [
                dict(r) for r in db.execute("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
            ]
            moves = [
                (r["version"], r["seat"], r["action"], r["by"])
                for r in db.execute("SELECT * FROM moves WHERE game_id = ? ORDER BY version", (game_id,))
            ]
            snap = db.execute(
                "SELECT version, fingerprint FROM snapshots WHERE game_id = ?", (game_id,)
            ).fetchone()
            db.execute("COMMIT")
        finally:
            db.close()
        return StoredGame(
            g["id"],
            g["kind"],
            g["seed"],
            json.loads(g["options"]),
            g["status"],
            g["version"],
            g["attention"],
            g["thread_id"],
            g["channel_id"],
            seats,
            moves,
            (snap[0], snap[1]) if snap else None,
        )


# ---------------------------------------------------------------------- boards in the fake


def board_version(msg: Message, game: StoredGame, title: str) -> int | None:
    """The game version a message of the bot shows as the board of ``game`` (the final sheet
    shows its last version), or None if it is no board of that game."""
    first = (msg.text or "").split("\n", 1)[0]
    m = re.fullmatch(rf"\*\*{re.escape(title)}\*\* · move (\d+)", first)
    if m:
        return int(m.group(1))
    if first == f"🏁 **{title}** is over.":
        return game.version  # one final sheet per game: it shows the end
    return None


def boards(fake: FakeDiscord, game: StoredGame, title: str) -> dict[int, list[Message]]:
    """Board messages (turn boards and the final sheet) of ``game`` by the version they show now
    (a board edited in place shows its latest version only)."""
    out: dict[int, list[Message]] = {}
    for msg in fake.messages(fake.channel(game.place_id)):
        if msg.author is not fake.bot_user:
            continue
        v = board_version(msg, game, title)
        if v is not None:
            out.setdefault(v, []).append(msg)
    return out


# ---------------------------------------------------------------------- sending moves


@dataclass
class Sent:
    """One move sent by a player: at ``version`` (what they saw), through ``via``."""

    game_id: int
    version: int
    seat: int
    action: str
    via: str  # "move" or "button"
    handle: Interaction
    burst: int
    #: How the player saw it acknowledged ("reply" or "board"), decided before the next restart.
    acked: str | None = None

    def reply(self) -> str | None:
        """The final text the player got (the /move answer or a refusal's follow-up), if any."""
        h = self.handle
        if self.via == "move":
            return h.text if h.response is not None and not h.response.loading else None
        return h.followups[-1].text if h.followups else None

    def acknowledged_by_reply(self) -> bool:
        return self.via == "move" and (self.reply() or "").startswith(PLAYED)


@dataclass
class Ledger:
    sent: list[Sent] = field(default_factory=list)
    refused: list[Sent] = field(default_factory=list)


@dataclass
class Player:
    """A game the test drives: its id, title, where it is played and its users by seat."""

    game_id: int
    title: str
    place: Channel
    users: dict[int, User]


def _board_shows_past(fake: FakeDiscord, player: Player, version: int, game: StoredGame) -> bool:
    for msg in fake.messages(player.place):
        if msg.author is fake.bot_user:
            v = board_version(msg, game, player.title)
            if v is not None and v > version:
                return True
    return False


def _answered(
    fake: FakeDiscord, player: Player, game: StoredGame, batch: list[Sent], stop: asyncio.Event
) -> bool:
    """Whether each move of ``batch`` was answered: a /move reply (or refusal), or a board button's
    move shown by a board of a later version (or the driving was stopped)."""
    return stop.is_set() or all(
        s.reply() is not None or (s.via == "button" and _board_shows_past(fake, player, s.version, game))
        for s in batch
    )


async def drive(
    fake: FakeDiscord,
    db: GameDb,
    player: Player,
    rng: random.Random,
    ledger: Ledger,
    stop: asyncio.Event,
    burst: int,
) -> None:
    """Play ``player``'s game until ``stop`` is set or the game is over: for each person awaited
    a legal move (the AI's pick or a random one), through the board's button when it has one
    (and one person is awaited) or ``/move``; each next move waits until the last was answered
    (a /move reply, a refusal, or a board showing a later version)."""
    while not stop.is_set():
        game = db.game(player.game_id)
        if game.status != "active":
            return
        engine = game.engine
        state = game.state()
        awaited = [s for s in engine.to_move(state) if s in game.people()]
        if not awaited:
            await asyncio.sleep(0.1)
            continue
        board = next(
            (
                m
                for m in reversed(fake.messages(player.place))
                if m.author is fake.bot_user and board_version(m, game, player.title) == game.version
            ),
            None,
        )
        batch: list[Sent] = []
        for seat in awaited:
            legal = engine.legal_actions(state, seat)
            action = (
                rng.choice(legal) if rng.random() < 0.3 else engine.choose(engine.view(state, seat), legal)
            )
            button = f"bz:{player.game_id}:{game.version}:{action}"
            user = player.users[seat]
            if len(awaited) == 1 and board is not None and button in board.custom_ids and rng.random() < 0.5:
                h = await fake.click(user, board, button, wait=False)
                via = "button"
            else:
                h = await fake.slash(user, player.place, "move", action=action, wait=False)
                via = "move"
            batch.append(Sent(player.game_id, game.version, seat, action, via, h, burst))
        ledger.sent.extend(batch)

        answered = functools.partial(_answered, fake, player, game, batch, stop)
        await fake.wait_for(answered, 120, what=f"answers in game {player.game_id}")
        for s in batch:
            text = s.reply()
            if text is not None and not text.startswith(PLAYED):
                ledger.refused.append(s)
