"""Shared set-up for the Bazaar end-to-end tests and ``benchmarks/e2e.py``: a guild with a
channel and players on the fake Discord, the real :class:`bot.app.BazaarBot` on a database (a
SQLite file, or a fresh PostgreSQL schema: :data:`DB_TARGET`),
an injected clock, and small helpers to read the game back from the database.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import pytest
from PIL import Image

import render
from bot.host.config import Config
from bot.host.live import Batch, LiveGame
from bot.host.store import GameRow, Store
from bot.host.store_pg import dollar
from bot.surface.app import BazaarBot
from engines import base
from render import caption
from tests.fakediscord import BotRunner, Channel, FakeDiscord, Guild, Interaction, Message, RunBot, User
from tests.fakediscord.records import walk_components
from tests.store_internals import pool_of, sqlite_of

GAME_TITLE = re.compile(r"\*\*(?P<title>[^*#]+) #(?P<id>\d+)\*\*")
DB_TARGET: str | None = None
"""The database new tables use instead of a SQLite file in the test's folder: a fresh
PostgreSQL schema's URL while the e2e conftest's ``e2e_db`` fixture runs a test on PostgreSQL."""


def poke(bot: BazaarBot) -> None:
    """Wake the bot's turn clock (it reads the injected time; nothing sleeps)."""
    assert bot.clock is not None, "the bot's turn clock is not running"
    bot.clock.poke()


def never_publish(monkeypatch: pytest.MonkeyPatch, bot: BazaarBot) -> None:
    """Make ``bot`` hang before posting anything, as a bot that dies between storing a move and
    posting it."""

    async def hang(game: LiveGame, *, recover: bool = False) -> Batch | None:
        await asyncio.Event().wait()
        return None

    monkeypatch.setattr(bot.publisher, "publish", hang)


def hang_the_ai(monkeypatch: pytest.MonkeyPatch, bot: BazaarBot) -> asyncio.Event:
    """Make ``bot``'s AI seats never answer, as a bot process that dies while its AI thinks;
    returns an event set when an AI seat is asked to play."""
    asked = asyncio.Event()

    async def dies_thinking(game: LiveGame, seat: int, *, timeout: bool = False) -> base.Played | None:
        asked.set()
        await asyncio.Event().wait()
        return None

    monkeypatch.setattr(bot.service.duties, "ai_play", dies_thinking)
    return asked


def moved_past(game: LiveGame, version: int) -> Callable[[], bool]:
    """A wait's condition: the held game ``game`` is past ``version``."""
    return lambda: game.row.version > version


def title_id(content: str) -> int:
    """The game id in a message's bold title (``**Pralaya #12**``)."""
    found = GAME_TITLE.search(content)
    assert found is not None, content
    return int(found["id"])


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
    """One server with a #games channel, its players, and the bot(s) started on ``db_path`` (a
    SQLite file, or a PostgreSQL URL when the test runs on that backend)."""

    fake: FakeDiscord
    start_bot: RunBot
    db_path: Path | str
    guild: Guild
    channel: Channel
    players: dict[str, User]
    now: FakeTime = field(default_factory=FakeTime)
    seed: int = 7
    runner: BotRunner | None = None
    rate_limit: tuple[int, float] = (0, 0.0)  # the flood guard is off: tests click faster than people
    throttle_clock: Callable[[], float] | None = None  # the flood guard's clock (default: monotonic)
    ai_level: str | None = "easy"  # the AI's default level: the heuristic, so games play out fast
    workers: int = 0  # AI search and drawing in threads (no worker processes to start per test)
    confirm: bool = False  # no Confirm/Cancel before irreversible moves (test_confirm.py turns it on)

    @property
    def running(self) -> BotRunner:
        """The runner of the bot booted last."""
        assert self.runner is not None, "the table's bot was never booted"
        return self.runner

    @property
    def bot(self) -> BazaarBot:
        client = self.running.client
        assert isinstance(client, BazaarBot), client
        return client

    async def boot(self, *, sync: bool = True, **bot_options: Any) -> BotRunner:
        """Start a new BazaarBot on the table's database (and sync its commands);
        ``bot_options`` go to BazaarBot (e.g. ``repost_delays``)."""
        if self.throttle_clock is not None:
            bot_options.setdefault("throttle_clock", self.throttle_clock)
        bot = BazaarBot(
            Config(
                token=self.fake.token,
                db_path=self.db_path,
                rate_limit=self.rate_limit,
                ai_level=self.ai_level,
                workers=self.workers,
                confirm=self.confirm,
            ),
            now=self.now,
            seed_source=lambda: self.seed,
            **bot_options,
        )
        self.runner = await self.start_bot(bot)
        if sync:
            await bot.tree.sync()
        return self.runner

    async def settle(self, timeout: float | None = None) -> None:
        """Wait until every interaction sent so far is acknowledged and no handler is running."""
        await self.fake.wait_for(
            lambda: (
                all(
                    i.acked
                    for i in self.fake.interactions
                    if i.kind != "autocomplete" and i.sent_at is not None
                )
                and self.bot.inflight == 0
            ),
            timeout,
            what="the bot to settle",
        )

    async def recaps_posted(self, timeout: float = 120.0) -> None:
        """Wait until the recaps of the games that ended are drawn and posted (they follow the
        final score sheet as messages of their own, drawn in the workers' long-job lane)."""
        await self.settle()
        await self.fake.wait_for(lambda: not self.bot.publisher.recaps.pending(), timeout, what="the recaps")

    async def new_game(self, creator: str, game: str, **options: Any) -> tuple[int, Message]:
        """``/game new`` by ``creator``; returns the game id and the lobby message."""
        mark = self.fake.mark()
        h = await self.fake.slash(
            self.players[creator], self.channel, "game new", options={"game": game, **options}
        )  # `options` is a command option too
        assert h.ephemeral and "Opened" in h.text, h.text
        lobby = await self.fake.wait_message(self.channel, lambda m: "lobby" in m.text, after=mark)
        return title_id(lobby.text), lobby

    def user_of(self, game: Any, seat: int) -> User:
        """The fake user sitting in ``seat`` of a live game."""
        uid = game.seats[seat].user_id
        return next(u for u in self.players.values() if u.id == uid)

    async def play_until_the_ai_is_next(self, game_id: int, place: Channel) -> tuple[Any, int, list[str]]:
        """Play the person's moves until one would hand the turn to an AI seat; returns the live
        game, the person's seat and the moves of theirs that would (none is played)."""
        svc = self.bot.service
        for _ in range(40):
            game = await svc.get(game_id)
            seat = next(s for s in game.awaited() if not game.ai_plays(s))
            engine = game.engine
            to_ai = [
                a
                for a in engine.legal_actions(game.state, seat)
                if any(game.ai_plays(s) for s in engine.to_move(base.play(engine, game.state, seat, a).state))
            ]
            if to_ai:
                return game, seat, to_ai
            await self.play_one(game_id, place, "move")
        raise AssertionError("the AI never got the turn")

    def last_turn(self, place: Channel) -> Message:
        """The newest turn message (a board with "· move N") in ``place``."""
        turns = [m for m in self.fake.messages(place) if "· move " in m.text]
        assert turns, f"no turn message in {place!r}"
        return turns[-1]

    async def play_one(self, game_id: int, place: Channel, via: str = "move") -> tuple[int, str]:
        """Let the awaited person play the AI's pick, through ``/move`` or the turn message's
        button/select (``via`` = "move" or "button"); waits until the bot has settled. Returns
        ``(seat, action)``."""
        game = await self.bot.service.get(game_id)
        seat = next(s for s in game.awaited() if not game.ai_plays(s))
        engine = game.engine
        action = engine.choose(engine.view(game.state, seat), engine.legal_actions(game.state, seat))
        user = self.user_of(game, seat)
        if via != "move" and not await self.offers(user, place, game_id, game.row.version, action):
            via = "move"  # no button or menu plays this one (a form builds it): typed instead
        if via == "move":
            h = await self.fake.slash(user, place, "move", action=action)
            assert h.ephemeral and h.text.startswith("✅ Played"), h.text
        else:
            msg = await self.control(user, place, game_id, game.row.version, action)
            await self.use(user, msg, game_id, game.row.version, action)
        await self.settle()
        return seat, action

    async def offers(self, user: User, place: Channel, game_id: int, version: int, action: str) -> bool:
        """Whether a button or the one menu of the board or of ``user``'s My hand plays ``action``."""
        ids = {f"bz:{game_id}:{version}:{action}", f"bzs:{game_id}:{version}"}
        if ids & set(self.last_turn(place).custom_ids):
            return True
        return bool(ids & set((await self.open_hand(user, place, game_id)).custom_ids))

    async def control(self, user: User, place: Channel, game_id: int, version: int, action: str) -> Message:
        """The message whose button or menu plays ``action`` at ``version`` for ``user``: the
        newest turn message, or (when the board offers the moves only privately) the ephemeral
        answer to "My hand". Raises AssertionError if neither offers it."""
        msg = self.last_turn(place)
        ids = (f"bz:{game_id}:{version}:{action}", f"bzs:{game_id}:{version}")  # a button or the one menu
        if not set(ids) & set(msg.custom_ids):
            msg = await self.open_hand(user, place, game_id)
        assert set(ids) & set(msg.custom_ids), f"no component for {action!r} on {msg.custom_ids}"
        return msg

    async def use(
        self, user: User, msg: Message, game_id: int, version: int, action: str, *, wait: bool = True
    ) -> Interaction:
        """Click the button of ``action`` on ``msg`` (or choose it in the menu); returns the
        interaction handle."""
        button = f"bz:{game_id}:{version}:{action}"
        if button in msg.custom_ids:
            return await self.fake.click(user, msg, button, wait=wait)
        return await self.fake.select(user, msg, f"bzs:{game_id}:{version}", [action], wait=wait)

    async def open_hand(self, user: User, place: Channel, game_id: int) -> Message:
        """Press "My hand" on the newest turn message as ``user``; returns the ephemeral answer
        (the private view, with the caller's moves when they are awaited)."""
        h = await self.fake.click(user, self.last_turn(place), f"bz:{game_id}:0:!hand")
        await self.settle()
        panel = h.followups[-1]
        assert panel.ephemeral and panel.visible_to == user.id, panel
        return panel

    async def start_game(
        self, creator: str, joiners: tuple[str, ...], ais: int, game: str = "pralaya", **options: Any
    ) -> tuple[int, Channel]:
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
        assert start.followups and "has started" in start.followups[-1].text, start.followups
        row = await self.stored(gid)
        assert row.status == "active", row
        return gid, self.fake.channel(row.place_id)

    async def db_moves(self, game_id: int) -> list[tuple[int, str, str]]:
        """``(seat, action, by)`` of every stored move."""
        return [(m.seat, m.action, m.by) for m in await self.bot.service.store.moves(game_id)]

    async def stored(self, game_id: int) -> GameRow:
        """The game's row as stored (it must exist)."""
        row = await self.bot.service.store.game(game_id)
        assert row is not None, f"no game #{game_id} in the database"
        return row

    async def db_state(self, game_id: int) -> tuple[int, str, int]:
        """``(version, status, number of moves)`` as stored."""
        row = await self.stored(game_id)
        return row.version, row.status, len(await self.bot.service.store.moves(game_id))


async def db_query(target: Path | str, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    """Run one statement (``?`` placeholders) on the database ``target`` past the bot's store,
    as an operator with a SQL shell would, on either backend; returns its rows."""
    store = await Store.open(target, migrate=False)
    try:
        if store.dialect == "sqlite":
            db = sqlite_of(store)
            async with db.execute(sql, args) as cur:
                rows = [tuple(r) for r in await cur.fetchall()]
            await db.commit()
            return rows
        return [tuple(r) for r in await pool_of(store).fetch(dollar(sql), *args)]
    finally:
        await store.close()


def make_table(
    fake: FakeDiscord,
    start_bot: RunBot,
    tmp_path: Path,
    names: tuple[str, ...] = ("ann", "bob", "cy"),
    **guild_options: Any,
) -> Table:
    """A guild "Bazaar Test" with #games and members ``names`` (plus a moderator "mod")."""
    guild = fake.add_guild("Bazaar Test", channels=["games"], **guild_options)
    channel = fake.channel("games")
    players = {n: fake.add_user(n, guild=guild) for n in names}
    players["mod"] = fake.add_user("mod", guild=guild, permissions=discord.Permissions(manage_guild=True))
    return Table(fake, start_bot, DB_TARGET or tmp_path / "bazaar.sqlite3", guild, channel, players)


def replay_states(
    engine: base.Engine, seed: int, n: int, options: dict[str, Any], moves: list[tuple[int, str, str]]
) -> list[Any]:
    """The state after setup and after each move (index = version)."""
    return [
        state
        for state, _ in base.replay_steps(
            engine, seed, n, options, [(seat, action) for seat, action, _ in moves]
        )
    ]


def board_pngs(
    game: str,
    seed: int,
    n: int,
    options: dict[str, Any],
    moves: list[tuple[int, str, str]],
    names: list[str],
    versions: list[int],
    messages: list[int] | None = None,
    *,
    with_strip: bool = False,
) -> list[bytes]:
    """The board pictures the bot posts at ``versions`` (in the order it posted them, from one run
    of the bot; ``messages``: the message of each, where one board was edited in place): each
    board is ``render.board_png`` of its version's spectator view (a V2 board, without its caption
    strip, unless ``with_strip``: the classic shape), with the caption of the
    moves since the board before it (the setup's for the first; an edited board's caption goes
    on with its earlier versions': see ``render.caption.lines_of``) and the marks of what changed
    since that board. A version repeated (one board shown again by an edit of its buttons) gives
    the same picture again."""
    engine = base.get(game)
    played = [(seat, action) for seat, action, _ in moves]
    steps = list(base.replay_steps(engine, seed, n, options, played))
    events_of = [[] if step is None else step.events for _, step in steps]  # by version (0: the setup)
    out: list[bytes] = []
    before: int | None = None
    lines: list[caption.Line] = []
    for i, v in enumerate(versions):
        if v == before:  # the same board again (an edit that only took its buttons away)
            out.append(out[-1])
            continue
        same = messages is not None and i > 0 and messages[i] == messages[i - 1]
        since: list[tuple[int | None, Any]] = (
            [(None, engine.events_on_setup(steps[0][0]))] if before is None else []
        )
        for k in range((0 if before is None else before) + 1, v + 1):
            since.append((played[k - 1][0], events_of[k]))
        lines = [*(lines if same else []), *caption.lines_of(since, names)]
        previous = None if before is None else engine.view(steps[before][0], None)
        out.append(
            render.board_png(
                game,
                engine.view(steps[v][0], None),
                names,
                caption=lines,
                previous=previous,
                with_strip=with_strip,
            )
        )
        before = v
    return out


def snap_text(snap: dict[str, Any]) -> str:
    """What one stored version of a message said: its content, or its TextDisplays (V2)."""
    texts = [
        c.get("content", "") for c in walk_components(snap.get("components") or []) if c.get("type") == 10
    ]
    return "\n".join(t for t in [snap.get("content") or "", *texts] if t)


def shown(fake: FakeDiscord, msg: Message) -> list[tuple[str, bytes | None]]:
    """``(content, data of the first attachment or None)`` of every version ``msg`` showed,
    oldest first (a board or DM edited in place showed several), skipping empty placeholders."""
    out = []
    for snap in [*msg.versions, msg.snapshot()]:
        said = snap_text(snap)
        if said:
            ids = snap.get("attachment_ids") or []
            out.append((said, fake.attachments[ids[0]].data if ids else None))
    return out


def action_rows(msg: Message) -> list[dict[str, Any]]:
    """Every action row of a message, wherever nested (in a V2 container, or at the top)."""
    return [c for c in walk_components(msg.components) if c.get("type") == 1]


def buttons(msg: Message) -> list[dict[str, Any]]:
    """Every button of a message's action rows."""
    return [c for row in action_rows(msg) for c in row.get("components", []) if c.get("type") == 2]


def selects(msg: Message) -> list[dict[str, Any]]:
    """Every select menu of a message."""
    return [c for row in action_rows(msg) for c in row.get("components", []) if c.get("type") == 3]


def no_controls(msg: Message) -> bool:
    """Whether a message shows no game controls (its text and pictures may stay: a V2 message
    keeps its container once its rows are taken away; a final sheet keeps its Rematch, Replay and
    Review buttons, ``bzm:``/``bzv:``/``bzrev:<game>``, for good)."""
    return all(
        str(c.get("custom_id", "")).startswith(("bzm:", "bzv:", "bzrev:"))
        for row in action_rows(msg)
        for c in row.get("components", [])
    )


# ---------------------------------------------------------------------- a toy game with secrets

TOY_CARDS = tuple(f"{gem}-{n}" for gem in ("ruby", "jade", "opal", "onyx") for n in range(11, 17))


@dataclass(frozen=True)
class SecretState:
    deck: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    turn: int
    played: int


class SecretDraw(base.Engine):
    """Draw secret cards for six turns; the biggest hand wins. Every draw has a private event
    ("you drew …") for the drawer only; views show other hands as counts."""

    name = "toysecret"
    title = "Toy Secrets"
    min_players = 2
    max_players = 3
    summary = "Draw or pass; six turns."

    def setup(self, seed: int, n_players: int, options: Any = None) -> SecretState:
        import random

        deck = list(TOY_CARDS)
        random.Random(seed).shuffle(deck)
        hands = tuple(tuple(deck[2 * i : 2 * i + 2]) for i in range(n_players))
        return SecretState(tuple(deck[2 * n_players :]), hands, 0, 0)

    def to_move(self, state: SecretState) -> tuple[int, ...]:
        return () if state.played >= 6 else (state.turn,)

    def legal_actions(self, state: SecretState, seat: int) -> list[str]:
        return ["draw", "pass"] if seat in self.to_move(state) else []

    def apply(self, state: SecretState, seat: int, action: str) -> tuple[SecretState, list[base.Event]]:
        if action not in self.legal_actions(state, seat):
            raise base.IllegalAction(f"You cannot {action} now.")
        hands, deck = list(state.hands), state.deck
        if action == "draw":
            hands[seat] = hands[seat] + (deck[0],)
            events = [
                base.Event("draw", "{s%d} draws a card" % seat, {"seat": seat}),
                base.Event("drew", f"you drew {deck[0]}", {"card": deck[0]}, private_to=seat),
            ]
            deck = deck[1:]
        else:
            events = [base.Event("pass", "{s%d} passes" % seat, {"seat": seat})]
        return SecretState(deck, tuple(hands), (seat + 1) % len(hands), state.played + 1), events

    def view(self, state: SecretState, viewer: int | None) -> dict[str, Any]:
        over = state.played >= 6
        return {
            "game": self.name,
            "viewer": viewer,
            "n_players": len(state.hands),
            "to_move": list(self.to_move(state)),
            "over": over,
            "headline": f"turn {state.played + 1}",
            "hands": [list(h) if (viewer == i or over) else len(h) for i, h in enumerate(state.hands)],
            "deck": len(state.deck),
        }

    def outcome(self, state: SecretState) -> base.Outcome | None:
        if state.played < 6:
            return None
        sizes = [len(h) for h in state.hands]
        best = max(sizes)
        ranks = tuple(1 if s == best else 2 for s in sizes)
        return base.Outcome(
            ranks,
            tuple(sizes),
            ("cards",),
            tuple({"cards": s} for s in sizes),
            tuple(i for i, r in enumerate(ranks) if r == 1),
        )

    def parse(self, text: str) -> str:
        t = " ".join(str(text).lower().split())
        if t not in ("draw", "pass"):
            raise base.BadNotation(f"`{text}` is not a move: `draw` or `pass`.")
        return t

    def choose(self, view: base.View, legal: Sequence[str]) -> str:
        return legal[0]

    def secrets(self, state: SecretState, viewer: int | None) -> list[str]:
        if state.played >= 6:
            return list(state.deck)
        mine = set(state.hands[viewer]) if viewer is not None else set()
        return [c for c in TOY_CARDS if c not in mine]


def _view_image(what: str, view: base.View) -> Image.Image:
    """A 1-pixel-high image whose pixels spell the JSON of the view it was drawn from, one nibble
    per pixel in 16 well-separated greys (so an 8-bit palette PNG keeps it exactly)."""
    import json

    data = json.dumps({"what": what, "view": view}, sort_keys=True).encode()
    nibbles = bytes(17 * x for b in data for x in (b >> 4, b & 15))
    return Image.frombytes("L", (len(nibbles), 1), nibbles).convert("RGB")


def decode_view_image(png: bytes) -> dict[str, Any]:
    """What :func:`_view_image` encoded: ``{"what", "view"}`` (read from the image's last row,
    below a caption strip if the bot put one on top)."""
    import io
    import json

    img = Image.open(io.BytesIO(png)).convert("L")
    grey = img.crop(
        (0, img.height - 1, img.width, img.height)
    ).tobytes()  # the last row: a posted board has its caption on top
    nib = [round(g / 17) for g in grey]
    decoded: dict[str, Any] = json.loads(
        bytes(16 * a + b for a, b in zip(nib[::2], nib[1::2], strict=False)).decode()
    )
    return decoded


def install_toy_secret() -> Callable[[], None]:
    """Register :class:`SecretDraw` and a renderer for it; returns the function that removes both."""
    import json
    import sys
    import types

    engine = base.register(SecretDraw())
    mod = types.ModuleType("render.toysecret")
    mod.__dict__.update(
        board=lambda view, names=None: _view_image("board", view),
        hand=lambda view, names=None: _view_image("hand", view),
        score_sheet=lambda view, names=None: _view_image("score_sheet", view),
        text=lambda view, names=None: "view " + json.dumps(view, sort_keys=True),
    )
    sys.modules["render.toysecret"] = mod

    def remove() -> None:
        base.unregister(engine.name)
        sys.modules.pop("render.toysecret", None)

    return remove
