"""The seeded fuzz of ``test_fuzz.py``: random hostile interactions (commands with odd options,
forged payloads and custom ids, clicks by the wrong people, autocomplete) interleaved with
legitimate moves, across one game of every registered kind in play at once.

Hostile interactions are sent in phases during which no legitimate move is made, so the
database must come out of each phase exactly as it went in; every hostile interaction is made
so that it cannot be a legal move or a legal draft (a text or id that the engine would accept
from an awaited player is never sent as "hostile"). Legitimate moves are made between phases
by the awaited people, through ``/move`` or the message's controls.
"""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

from engines import base
from tests.e2e.bazaar_harness import Table, buttons, selects
from tests.fakediscord import Channel, Message, User

STRING, INTEGER, BOOLEAN, NUMBER = 3, 4, 5, 10
ODD = [
    "",
    " ",
    "\u200f",
    "\u200e\u202e",
    "a\u200db",
    "\x00",
    "e\u0301\u0301\u0301",
    "🎲🏺👨‍👩‍👧",
    "𝕏𝔸",
    "\ufeff",
    "\n\n",
    "**@everyone**",
    "<@1>",
    "' OR 1=1 --",
    "%s%n{0}{s0}",
    "{s1}",
    "#",
    "\\",
    "``",
    "ａｂｃ",
    "İı",
    "\u0000draw",
    "done\u0000",
    "pass\u200b",
    "\t",
    "‮take a1",
]
NUMBERS = [0, -1, 2**63, 2**63 - 1, 2**64, -(2**63) - 1, 10**30, 1, 51, 999999]
COMMANDS = [
    "move",
    "hand",
    "resign",
    "log",
    "rules",
    "game new",
    "game join",
    "game leave",
    "game addbot",
    "game start",
    "game status",
    "game list",
    "game end",
]

# controls a person may rightly use whoever the rules await, so never sent as hostile: a board's
# "Undo (name)" (its mover's; tests/e2e/test_undo.py refuses it to the others) and a final
# sheet's Rematch and Review (they open a lobby, store a review)
ANYONES = ("bzbu:", "bzm:", "bzrev:")


def odd_text(rng: random.Random) -> str:
    """A random odd string (odd characters, long runs, empty) of at most 4,000 characters."""
    return _odd(rng)[:4000]


def _odd(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.1:
        return rng.choice(ODD) * rng.choice((100, 1000, 4000 // max(1, len(rng.choice(ODD)) or 1)))
    if r < 0.15:
        return "x" * 4000
    return "".join(
        rng.choice(ODD + ["take", "b4", "bid", "7", " ", "sell", "t5", "!"]) for _ in range(rng.randint(1, 6))
    )


def odd_value(rng: random.Random) -> tuple[int, Any]:
    """A random option value of a random JSON type, with the option type it claims."""
    return rng.choice(
        [
            (STRING, odd_text(rng)),
            (INTEGER, rng.choice(NUMBERS)),
            (BOOLEAN, rng.random() < 0.5),
            (NUMBER, rng.choice((1.5, -0.0, 1e300))),
            (STRING, None),
            (STRING, [1, "a"]),
            (STRING, {"a": 1}),
            (STRING, str(rng.choice(NUMBERS))),
        ]
    )


class Fuzz:
    """One fuzz run on ``table`` (booted): ``await setup()``, then ``await run(total)``."""

    def __init__(self, table: Table, seed: int, *, batch: int = 40) -> None:
        self.t = table
        self.fake = table.fake
        self.rng = random.Random(seed)
        self.batch = batch
        self.games: dict[str, int] = {}  # kind -> game id in play
        self.places: dict[int, Channel] = {}
        self.legit: dict[int, list[tuple[int, str]]] = {}
        self.sent: Counter[str] = Counter()
        self.refused_legit = 0
        self.checkpoints: list[dict[int, int]] = []  # game id -> version, after each phase
        self.seen: dict[tuple[int, int], int] = {}  # (message id, version index) -> phase
        self.logs: list[tuple[str, int]] = []  # (log line, phase)
        self.phase_of: dict[int, int] = {}  # interaction id -> phase
        self.legit_ids: set[int] = set()  # interactions of the legitimate moves
        self.handler = _Collect(self)
        self.outsider: User = table.players["eve"]
        self.stranger: User = self.fake.user("mal")
        self.stranger_msg: Message | None = None

    # ------------------------------------------------------------------ set-up
    async def setup(self) -> None:
        """One game of every registered kind, two people and AI seats up to three players."""
        logging.getLogger("bot").addHandler(self.handler)
        logging.getLogger("bot").setLevel(logging.DEBUG)
        for i, engine in enumerate(base.games()):
            await self.open_game(engine, i)
        lounge = self.fake.channel("lounge")
        self.stranger_msg = self.fake.send_as(self.stranger, lounge, "a copied control")
        self.checkpoint()

    async def open_game(self, engine: base.Engine, i: int) -> None:
        people = (f"p{i}a", f"p{i}b")
        n = max(engine.min_players, min(3, engine.max_players))
        hidden = {o.name: True for o in engine.options if o.kind is bool and "hidden" in o.name}
        opts = " ".join(f"{k}=true" for k in hidden)
        extra = {"options": opts} if opts else {}
        gid, place = await self.t.start_game(people[0], people[1:], n - 2, game=engine.name, **extra)
        self.games[engine.name] = gid
        self.places[gid] = place
        self.legit[gid] = []

    def close(self) -> None:
        logging.getLogger("bot").removeHandler(self.handler)
        logging.getLogger("bot").setLevel(logging.NOTSET)

    # ------------------------------------------------------------------ the run
    async def run(self, total: int) -> None:
        """Send ``total`` hostile interactions in phases of ``batch``; after each phase, one
        legitimate move in one game (in turn)."""
        kinds = list(self.games)
        phase = 0
        while sum(self.sent.values()) < total:
            before = self.dump()
            first = len(self.fake.interactions)
            n = min(self.batch, total - sum(self.sent.values()))
            handles = [await self.hostile() for _ in range(n)]
            await asyncio.gather(*(h for h in handles if h is not None))
            await self.t.settle(timeout=60)
            after = self.dump()
            assert after == before, (
                f"hostile phase {phase} changed the database: "
                + _diff(before, after)
                + "\n"
                + _sent(self.fake.interactions[first:])
            )
            self.checkpoint()
            await self.legit_move(kinds[phase % len(kinds)])
            self.checkpoint()
            phase += 1

    def checkpoint(self) -> None:
        """Note every game's version, and which phase first showed each message version."""
        k = len(self.checkpoints)
        self.checkpoints.append(
            {
                gid: self.t.bot.service._games[gid].row.version
                for gid in self.places
                if gid in self.t.bot.service._games
            }
        )
        for i in self.fake.interactions:
            self.phase_of.setdefault(i.id, k)
        for msg in list(self.fake.message_store.values()):
            for j in range(len(msg.versions) + 1):
                self.seen.setdefault((msg.id, j), k)

    def dump(self) -> dict[str, list[str]]:
        """Every stored row but what the bot posted where (``messages``)."""
        with sqlite3.connect(self.t.db_path) as db:
            names = [n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            return {n: sorted(map(repr, db.execute(f"SELECT * FROM {n}"))) for n in names if n != "messages"}

    # ------------------------------------------------------------------ legitimate moves
    async def legit_move(self, kind: str) -> None:
        gid = self.games[kind]
        game = await self.t.bot.service.get(gid)
        if game.row.status != "active":
            return
        humans = [s for s in game.awaited() if not game.ai_plays(s)]
        if not humans:
            return
        before = [m for m in await self.t.db_moves(gid) if m[2] == "player"]
        via = "button" if self.rng.random() < 0.5 else "move"
        first = len(self.fake.interactions)
        seat, action = await self._play(gid, via)
        self.legit_ids.update(i.id for i in self.fake.interactions[first:])
        after = [m for m in await self.t.db_moves(gid) if m[2] == "player"]
        new = after[len(before) :]
        assert after[: len(before)] == before
        if new:
            assert new == [(seat, action, "player")], (gid, seat, action, new)
            self.legit[gid].append((seat, action))
        else:
            self.refused_legit += 1

    async def _play(self, gid: int, via: str) -> tuple[int, str]:
        t = self.t
        game = await t.bot.service.get(gid)
        seat = next(s for s in game.awaited() if not game.ai_plays(s))
        engine = game.engine
        action = engine.choose(engine.view(game.state, seat), engine.legal_actions(game.state, seat))
        user = t.user_of(game, seat)
        place = self.places[gid]
        if via != "move" and not await t.offers(user, place, gid, game.row.version, action):
            via = "move"
        if via == "move":
            await self.fake.slash(user, place, "move", action=action, timeout=60)
        else:
            msg = await t.control(user, place, gid, game.row.version, action)
            await t.use(user, msg, gid, game.row.version, action)
        # a move that ends the game leaves its recap to the long-job lane, which posts it (and
        # records the final sheet) later: wait for it, so the next hostile phase starts quiet
        await t.settle(timeout=60)
        await t.recaps_posted()
        return seat, action

    # ------------------------------------------------------------------ hostile interactions
    def _anyone(self) -> User:
        people = [u for n, u in self.t.players.items() if n != "mod"]
        return self.rng.choice(people + [self.outsider] * 2)

    def _legal_for(self, user: User, gid: int | None, version: int | None, action: Any) -> bool:
        """Whether ``action`` (at ``version``, None for any) would be a legal move of ``user`` in
        game ``gid`` (None: any game)."""
        if not isinstance(action, str):
            return False
        for g in self.t.bot.service._games.values():
            if (gid is not None and g.id != gid) or g.state is None or g.row.status != "active":
                continue
            seat = g.seat_of(user.id)
            if seat is None or seat.seat not in g.awaited():
                continue
            if version is not None and version != g.row.version:
                continue
            try:
                base.play(g.engine, g.state, seat.seat, action, version=g.row.version)
                return True
            except Exception:
                continue
        return False

    def _awaited_anywhere(self, user: User) -> bool:
        """Whether the rules await ``user`` in any game (a message picked for a click may be a
        DM of any of their games)."""
        for g in self.t.bot.service._games.values():
            seat = g.seat_of(user.id)
            if g.state is not None and seat is not None and seat.seat in g.awaited():
                return True
        return False

    async def hostile(self) -> Awaitable[Any] | None:
        """Start one random hostile interaction; returns what to await for its answer."""
        r = self.rng.random()
        makers: list[tuple[float, Callable[[], Awaitable[Any] | None]]] = [
            (0.22, self._command),
            (0.14, self._raw_command),
            (0.12, self._autocomplete),
            (0.24, self._forged_click),
            (0.12, self._wrong_clicker),
            (0.06, self._forged_select),
            (0.05, self._stranger_click),
            (0.05, self._reading),
        ]
        acc = 0.0
        for weight, make in makers:
            acc += weight
            if r < acc:
                return make()
        return self._forged_click()

    def _start(self, kind: str, coro: Awaitable[Any]) -> Awaitable[Any]:
        self.sent[kind] += 1
        return asyncio.ensure_future(coro)

    def _place(self) -> tuple[int, Channel]:
        gid = self.rng.choice(list(self.places))
        place = self.places[gid] if self.rng.random() < 0.85 else self.t.channel
        return gid, place

    async def _slash(self, user: User, place: Channel, command: str, **kw: Any) -> Any:
        h = await self.fake.slash(user, place, command, wait=False, **kw)
        return await h.wait_done(timeout=60)

    def _command(self) -> Awaitable[Any] | None:
        """A command with odd but well-formed options (Discord's own checks pass)."""
        rng, user = self.rng, self._anyone()
        gid, place = self._place()
        command = rng.choice(COMMANDS)
        values: dict[str, Any] = {}
        if rng.random() < 0.4 and command not in ("game list", "rules", "game new"):
            values["game"] = rng.choice([gid, *self.places, 0, 999_999, 2**53])
        if command == "move":
            values["action"] = (
                odd_text(rng) if rng.random() < 0.7 else self._someones_action(gid) + odd_text(rng)
            )[:4000]
            if self._legal_for(user, values.get("game"), None, values["action"]):
                return None
        elif command in ("resign", "game end"):
            if self._seated(user) or user is self.t.players["mod"]:
                user = self.outsider
        elif command in ("rules", "game new"):
            values["game"] = rng.choice([e.name for e in base.games()])
            if command == "game new":
                values["clock"] = rng.choice(["0m", "soon", "31d", "\u200f1h", "-5m", "x" * 100])
                if rng.random() < 0.7:
                    values["options"] = odd_text(rng)[:6000]
        elif command == "log" and rng.random() < 0.5:
            values["count"] = rng.randint(1, 50)
        elif command in ("hand", "game status") and rng.random() < 0.7:
            return self._raw(command, [{"type": INTEGER, "name": "game", "value": rng.choice(NUMBERS)}])
        return self._start(f"/{command}", self._slash(user, place, command, options=values))

    def _raw(self, command: str, options: list[dict[str, Any]]) -> Awaitable[Any]:
        user = self._anyone()
        _, place = self._place()
        return self._start(f"raw /{command}", self._slash(user, place, command, raw_options=options))

    def _raw_command(self) -> Awaitable[Any] | None:
        """A command whose options are of the wrong JSON type, out of range, or missing."""
        rng = self.rng
        command = rng.choice(COMMANDS)
        names = {
            "move": ["action", "game"],
            "log": ["count", "game"],
            "rules": ["game"],
            "game new": ["game", "options", "clock"],
        }.get(command, ["game"])
        options = []
        for name in names:
            if rng.random() < 0.7:
                otype, value = odd_value(rng)
                options.append({"type": otype, "name": name, "value": value})
        if command == "game new":
            options = [o for o in options if o["name"] != "clock"] + [
                {"type": STRING, "name": "clock", "value": "0m"}
            ]
        if command in ("resign", "game end", "move"):
            user = self.outsider  # (a forged /move by a player might be a legal move)
            _, place = self._place()
            return self._start(f"raw /{command}", self._slash(user, place, command, raw_options=options))
        return self._raw(command, options)

    def _seated(self, user: User) -> bool:
        return any(g.seat_of(user.id) for g in self.t.bot.service._games.values())

    def _someones_action(self, gid: int) -> str:
        g = self.t.bot.service._games[gid]
        if g.state is None or not g.awaited():
            return "done"
        legal = g.engine.legal_actions(g.state, g.awaited()[0])
        return self.rng.choice(legal) if legal else "done"

    def _autocomplete(self) -> Awaitable[Any]:
        rng, user = self.rng, self._anyone()
        gid, place = self._place()
        r = rng.random()
        if r < 0.5:
            prefix = (
                odd_text(rng)[:100] if rng.random() < 0.5 else self._someones_action(gid)[: rng.randint(0, 6)]
            )
            coro = self.fake.autocomplete(user, place, "move", focused="action", action=prefix, timeout=60)
        elif r < 0.75:
            coro = self.fake.autocomplete(
                user,
                place,
                "game status",
                focused="game",
                game=rng.choice(["", "1", "#", odd_text(rng)[:50]]),
                timeout=60,
            )
        elif r < 0.9:
            coro = self.fake.autocomplete(
                user,
                place,
                "game new",
                focused="options",
                timeout=60,
                options={"game": rng.choice([e.name for e in base.games()]), "options": odd_text(rng)[:100]},
            )
        else:
            otype, value = odd_value(rng)
            coro = self.fake.autocomplete(
                user,
                place,
                "move",
                focused="action",
                timeout=60,
                raw_options=[
                    {"type": otype, "name": "action", "value": value},
                    {"type": INTEGER, "name": "game", "value": gid},
                ],
            )
        return self._start("autocomplete", coro)

    def _forged_id(self, gid: int, user: User) -> str:
        """A custom id of the wrong game, version, shape or content, never one that ``user``
        could legally use now."""
        rng = self.rng
        g = self.t.bot.service._games[gid]
        v = g.row.version
        other = rng.choice([x for x in self.places if x != gid] or [gid])
        action = self._someones_action(gid)
        recent = self.fake.messages(self.places[gid])[-3:]
        real = [c for m in recent for c in m.custom_ids if not c.startswith(ANYONES)]
        shapes = [
            f"bz:{other}:{self.t.bot.service._games[other].row.version}:{action}",
            f"bz:{gid}:{rng.randint(0, max(0, v - 1))}:{action}" if v else f"bz:{gid}:{v + 10**6}:{action}",
            f"bz:{gid}:{v + 10**6 + rng.randint(0, 99)}:{action}",
            f"bz:{gid}:{2**64}:{action}",
            f"bz:{2**64}:{v}:{action}",
            f"bz:{gid}:{v}:{odd_text(rng)[:60] or 'x'}",
            f"bzs:{gid}:{v + 10**6}:{rng.choice(['p', 'pick', 'k' * 70])}",
            f"bzf:{gid}:{max(0, v - 1) if v else v + 5}:f:p",
            f"bzfs:{gid}:{v + 10**7}:f",
            f"bz:{gid}:0:!{rng.choice(['join', 'leave', 'addbot', 'start', 'end', 'hand'])}",
            odd_text(rng)[:100] or "x",
            (rng.choice(real)[: rng.randint(0, 12)] if real else "bz:"),
            f"bz:{gid}:{v}:{action}\u200b",
            f"bz:{gid}:{v}:{action.upper()}\x00",
        ]
        cid = rng.choice(shapes)[:100]
        if cid.startswith("bz:") and cid.count(":") >= 3:
            _, g_, v_, act = cid.split(":", 3)
            if g_.isdigit() and v_.isdigit() and self._legal_for(user, int(g_), int(v_), act):
                return f"bz:{gid}:{v + 10**6}:{act}"
        return cid

    def _message_of(self, gid: int, user: User) -> Message | None:
        def visible(m: Message) -> bool:
            return not m.deleted and (not m.ephemeral or m.visible_to == user.id)

        msgs = [m for m in self.fake.messages(self.places[gid])[-6:] if visible(m)]
        if self.rng.random() < 0.2:
            dms = [m for m in self.fake.dms(user)[-4:] if visible(m)]
            msgs = dms or msgs
        return self.rng.choice(msgs) if msgs else None

    def _forged_click(self) -> Awaitable[Any] | None:
        user = self._anyone()
        gid, _ = self._place()
        cid = self._forged_id(gid, user)
        ctype = 3 if cid.startswith(("bzs", "bzf:")) else 2
        values = [self._someones_action(gid)] if ctype == 3 else None
        if (
            ctype == 3
            and self._awaited_anywhere(user)
            and f":{self.t.bot.service._games[gid].row.version}" in cid
        ):
            user = self.outsider
        msg = self._message_of(gid, user)
        if msg is None:
            return None
        return self._start(
            "forged id", self.fake.click_raw(user, msg, cid, component_type=ctype, values=values, timeout=60)
        )

    def _forged_select(self) -> Awaitable[Any] | None:
        """A real menu id with values that are not strings, not offered, or too many; or a real
        menu used by someone who is not awaited."""
        rng = self.rng
        gid, _ = self._place()
        user = self._anyone()
        if self._awaited_anywhere(user):
            user = self.outsider
        msg = self._message_of(gid, user)
        if msg is None:
            return None
        ids = [s["custom_id"] for s in selects(msg)] or [
            f"bzs:{gid}:{self.t.bot.service._games[gid].row.version}"
        ]
        values: list[Any] = rng.choice(
            [
                [1],
                [None],
                [["x"]],
                ["x" * 101],
                ["a"] * 26,
                [odd_text(rng)[:100]],
                [self._someones_action(gid)] * 2,
                [],
            ]
        )
        return self._start(
            "forged select",
            self.fake.click_raw(user, msg, rng.choice(ids), component_type=3, values=values, timeout=60),
        )

    def _wrong_clicker(self) -> Awaitable[Any] | None:
        """A real button or menu of a board clicked by someone the rules do not await."""
        gid, _ = self._place()
        user = self._anyone()
        if self._awaited_anywhere(user):
            user = self.outsider
        msg = self._message_of(gid, user)
        if msg is None or msg.ephemeral:
            return None
        bs = [
            b
            for b in buttons(msg)
            if b.get("custom_id") and not b.get("disabled") and not str(b["custom_id"]).startswith(ANYONES)
        ]
        ss = [s for s in selects(msg) if s.get("options")]
        if bs and (not ss or self.rng.random() < 0.7):
            b = self.rng.choice(bs)
            return self._start(
                "wrong clicker", self.fake.click(user, msg, b["custom_id"], wait=True, timeout=60)
            )
        if ss:
            s = self.rng.choice(ss)
            k = max(1, s.get("min_values", 1))
            vals = [o["value"] for o in s["options"][:k]]
            return self._start("wrong clicker", self.fake.select(user, msg, s["custom_id"], vals, timeout=60))
        return None

    def _stranger_click(self) -> Awaitable[Any]:
        """A control of a game used from another server."""
        gid = self.rng.choice(list(self.places))
        cid = self.rng.choice(
            [
                f"bz:{gid}:0:!hand",
                f"bz:{gid}:0:!join",
                f"bz:{gid}:{self.t.bot.service._games[gid].row.version}:{self._someones_action(gid)}",
            ]
        )
        assert self.stranger_msg is not None
        if self.rng.random() < 0.5:
            return self._start(
                "other server", self.fake.click_raw(self.stranger, self.stranger_msg, cid, timeout=60)
            )
        command = self.rng.choice(["move", "hand", "game status", "log", "game join"])
        options: dict[str, Any] = {"game": gid}
        if command == "move":
            options["action"] = self._someones_action(gid)
        return self._start(
            "other server", self._slash(self.stranger, self.fake.channel("lounge"), command, options=options)
        )

    def _reading(self) -> Awaitable[Any]:
        """Reading commands that change nothing (and answer with private views): /hand,
        My hand, /game status, /log, /game list."""
        gid = self.rng.choice(list(self.places))
        g = self.t.bot.service._games[gid]
        user = self.t.user_of(g, self.rng.choice([s.seat for s in g.seats if s.user_id]))
        place = self.places[gid]
        command = self.rng.choice(["hand", "game status", "log", "game list", "my hand"])
        if command == "my hand":
            msg = next(
                (m for m in reversed(self.fake.messages(place)) if f"bz:{gid}:0:!hand" in m.custom_ids), None
            )
            if msg is not None:
                return self._start("reading", self.fake.click(user, msg, f"bz:{gid}:0:!hand", timeout=60))
            command = "hand"
        return self._start("reading", self._slash(user, place, command))


def _sent(interactions: list[Any]) -> str:
    """What each interaction sent and got back, one line each."""
    out = []
    for i in interactions:
        answer = i.followups[-1] if i.followups else i.response
        out.append(
            f"{i.user.name} {i.label!r} {str(i.payload.get('data'))[:200]} -> "
            f"{(answer.text if answer else i.choices)!r:.120}"
        )
    return "\n".join(out)


def _diff(before: dict[str, list[str]], after: dict[str, list[str]]) -> str:
    """The rows that differ, per table."""
    out = []
    for name in sorted(set(before) | set(after)):
        gone = sorted(set(before.get(name, [])) - set(after.get(name, [])))
        new = sorted(set(after.get(name, [])) - set(before.get(name, [])))
        if gone or new:
            out.append(f"{name}: -{[g[:300] for g in gone]} +{[n[:300] for n in new]}")
    return "; ".join(out)


class _Collect(logging.Handler):
    """Every log line of the bot, with the phase it was written in."""

    def __init__(self, fuzz: Fuzz) -> None:
        super().__init__(logging.DEBUG)
        self.fuzz = fuzz

    def emit(self, record: logging.LogRecord) -> None:
        line = record.getMessage()
        if record.exc_info:
            line += "\n" + logging.Formatter().formatException(record.exc_info)
        self.fuzz.logs.append((line, len(self.fuzz.checkpoints)))
