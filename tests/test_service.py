"""bot.service: the Discord-free host, on a toy engine registered only for these tests.

Covers lobbies, moves and their refusals (nothing changes in the database), the version check,
two moves at once, AI seats, loading by replay checked against the snapshot, the turn clock with
an injected clock, resigning and ending, and the private-view digest.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from bot.host.clock import BadDuration
from bot.host.live import Listing, LiveGame, Refusal, private_digest, private_part
from bot.host.parsing import parse_options
from bot.host.service import GameService
from bot.host.store import Store
from engines import base
from engines.base import (
    BadNotation,
    BadOption,
    Engine,
    Event,
    GameOver,
    IllegalAction,
    NotYourTurn,
    Option,
    Outcome,
    RuleError,
    StaleState,
)
from tests.store_internals import row_of, sqlite_of


@dataclass(frozen=True)
class NimState:
    pile: int
    turn: int
    taken: tuple[int, ...]
    secret: tuple[int, ...]


async def start_up(service: GameService) -> list[LiveGame]:
    """What start-up does with the stored games: ``load_all`` then the background
    ``check_dormant``; returns the games newly flagged by either."""
    flagged = await service.load_all()
    more, _ = await service.check_dormant()
    return flagged + more


class ToyNim(Engine):
    """Take 1–3 from a pile; whoever takes the last one wins. Each seat holds a secret number."""

    name = "toynim"
    title = "Toy Nim"
    min_players = 2
    max_players = 3
    options = (Option("pile", int, 9, "starting pile", 3, 60),)
    summary = "Take 1 to 3; the last taker wins."

    def setup(self, seed: int, n_players: int, options: Mapping[str, Any] | None = None) -> NimState:
        import random

        opts = self.resolve_options(options)
        self.check_players(n_players)
        rng = random.Random(seed)
        return NimState(
            opts["pile"], 0, (0,) * n_players, tuple(rng.randrange(1000, 9999) for _ in range(n_players))
        )

    def to_move(self, state: NimState) -> tuple[int, ...]:
        return () if state.pile == 0 else (state.turn,)

    def legal_actions(self, state: NimState, seat: int) -> list[str]:
        if seat not in self.to_move(state):
            return []
        return [f"take {k}" for k in range(1, min(3, state.pile) + 1)]

    def apply(self, state: NimState, seat: int, action: str) -> tuple[NimState, list[Event]]:
        if action not in self.legal_actions(state, seat):
            raise IllegalAction(f"You cannot {action} now.")
        k = int(action.split()[1])
        taken = list(state.taken)
        taken[seat] += k
        new = replace(
            state,
            pile=state.pile - k,
            turn=(seat + 1) % len(taken),
            taken=tuple(taken),
            secret=tuple(s + (k if i == seat else 0) for i, s in enumerate(state.secret)),
        )
        return new, [
            Event("take", "{s%d} takes %d" % (seat, k), {"seat": seat}),
            Event("secret", f"your secret is now {new.secret[seat]}", private_to=seat),
        ]

    def view(self, state: NimState, viewer: int | None) -> dict[str, Any]:
        return {
            "game": self.name,
            "viewer": viewer,
            "n_players": len(state.taken),
            "to_move": list(self.to_move(state)),
            "over": state.pile == 0,
            "headline": f"pile {state.pile}",
            "pile": state.pile,
            "taken": list(state.taken),
            "secret": state.secret[viewer] if viewer is not None else None,
        }

    def outcome(self, state: NimState) -> Outcome | None:
        if state.pile:
            return None
        n = len(state.taken)
        winner = (state.turn - 1) % n
        ranks = tuple(1 if s == winner else 2 for s in range(n))
        return Outcome(
            ranks, tuple(state.taken), ("taken",), tuple({"taken": t} for t in state.taken), (winner,)
        )

    def parse(self, text: str) -> str:
        t = " ".join(str(text).lower().split())
        if not re.fullmatch(r"take [0-9]+", t):
            raise BadNotation(f"`{text}` is not a move: write `take 1`, `take 2` or `take 3`.")
        return t

    def choose(self, view: base.View, legal: Sequence[str]) -> str:
        return legal[-1]

    def secrets(self, state: NimState, viewer: int | None) -> list[str]:
        return [str(s) for i, s in enumerate(state.secret) if i != viewer]


@pytest.fixture
def toy() -> Iterator[ToyNim]:
    engine = ToyNim()
    base.register(engine)
    yield engine
    base.unregister(engine.name)


class Clock:
    def __init__(self) -> None:
        self.t = 1_700_000_000.0

    def __call__(self) -> float:
        return self.t


class ToyHost(GameService):
    """The host of these tests, with its injected clock and the record of its clock pokes."""

    def __init__(self, store: Store, clock: Clock) -> None:
        self.clock = clock
        self.pokes: list[int] = []
        super().__init__(
            store,
            now=clock,
            seed_source=lambda: 42,
            on_clock_change=lambda: self.pokes.append(1),
            ai_level="easy",
        )


@pytest.fixture(name="host")
async def host_fixture(tmp_path: Path, toy: ToyNim) -> AsyncIterator[ToyHost]:
    clock = Clock()
    store = await Store.open(tmp_path / "db.sqlite3", now=clock)
    svc = ToyHost(store, clock)
    yield svc
    await store.close()


async def _started(svc: GameService, humans: int = 2, ais: int = 0, **kw: Any) -> int:
    g = await svc.create(
        kind="toynim",
        options=kw.get("options"),
        clock=kw.get("clock"),
        guild_id=1,
        channel_id=100,
        user_id=10,
        name="Ann",
    )
    for i in range(1, humans):
        await svc.join(g.id, 10 + i, f"P{i}")
    for _ in range(ais):
        await svc.add_ai(g.id, 10)
    await svc.start(g.id, 10)
    return g.id


async def _db(svc: GameService, gid: int) -> tuple[int, list[tuple[int, str]], tuple[int, str, str] | None]:
    row = await svc.store.game(gid)
    assert row is not None
    return (
        row.version,
        [(m.seat, m.action) for m in await svc.store.moves(gid)],
        await svc.store.snapshot(gid),
    )


def test_parse_options(toy: ToyNim) -> None:
    assert parse_options(toy, "pile=12") == {"pile": 12}
    assert parse_options(toy, None) == {"pile": 9}
    with pytest.raises(BadOption, match="no option `size`"):
        parse_options(toy, "size=3")
    with pytest.raises(BadOption, match="between 3 and 60"):
        parse_options(toy, "pile=1")
    with pytest.raises(BadOption, match="name=value"):
        parse_options(toy, "pile 12")


async def test_lobby_rules(host: ToyHost) -> None:
    g = await host.create(
        kind="toynim", options="pile=5", clock="1h", guild_id=1, channel_id=100, user_id=10, name="Ann"
    )
    assert g.row.options == {"pile": 5} and g.row.clock_seconds == 3600 and g.row.seed == 42
    with pytest.raises(BadOption, match="no game called"):
        await host.create(
            kind="chess", options=None, clock=None, guild_id=1, channel_id=100, user_id=10, name="A"
        )
    with pytest.raises(BadDuration):
        await host.create(
            kind="toynim", options=None, clock="10s", guild_id=1, channel_id=100, user_id=10, name="A"
        )
    with pytest.raises(Refusal, match="already in"):
        await host.join(g.id, 10, "Ann")
    with pytest.raises(BadOption, match="2–3 players"):
        await host.start(g.id, 10)
    await host.join(g.id, 11, "Bob")
    with pytest.raises(Refusal, match="Only the creator"):
        await host.start(g.id, 11)
    await host.add_ai(g.id, 11)
    with pytest.raises(Refusal, match="full"):
        await host.join(g.id, 12, "Cy")
    with pytest.raises(Refusal, match="Only players"):
        await host.add_ai(g.id, 12)
    await host.leave(g.id, 11)
    assert [s.name for s in g.seats] == ["Ann", "AI 1"]
    await host.start(g.id, 10)
    assert g.row.status == "active" and g.state is not None
    with pytest.raises(Refusal, match="already started"):
        await host.join(g.id, 12, "Cy")
    with pytest.raises(Refusal, match="/resign"):
        await host.leave(g.id, 10)


async def test_last_person_leaving_closes_the_lobby(host: ToyHost) -> None:
    g = await host.create(
        kind="toynim", options=None, clock=None, guild_id=1, channel_id=100, user_id=10, name="Ann"
    )
    await host.add_ai(g.id, 10)
    await host.leave(g.id, 10)
    assert g.row.status == "ended"
    with pytest.raises(Refusal, match="is over"):
        await host.join(g.id, 11, "Bob")


async def test_moves_and_refusals_change_nothing(host: ToyHost) -> None:
    gid = await _started(host)
    g = await host.get(gid)
    assert g.awaited() == (0,)
    before = await _db(host, gid)
    errors: list[tuple[int, str, type[RuleError | Refusal]]] = [
        (11, "take 1", NotYourTurn),
        (10, "xyzzy", BadNotation),
        (10, "take 7", IllegalAction),
        (99, "take 1", Refusal),
    ]
    for user, text, err in errors:
        with pytest.raises(err) as e:
            await host.move(gid, user, text)
        assert isinstance(e.value, (RuleError, Refusal)) and e.value.reason
    with pytest.raises(StaleState):
        await host.move(gid, 10, "take 1", expected_version=3)
    assert await _db(host, gid) == before
    await host.move(gid, 10, "TAKE  2", expected_version=0)
    version, moves, snap = await _db(host, gid)
    assert version == 1 and moves == [(0, "take 2")] and snap is not None and snap[0] == 1
    with pytest.raises(StaleState):  # the old board's button
        await host.move(gid, 11, "take 1", expected_version=0)
    batch = host.take_batch(g)
    assert batch is not None
    assert batch.started and [s.action for s in batch.steps] == [None, "take 2"]
    assert host.take_batch(g) is None


async def test_two_moves_at_once_exactly_one_applies(host: ToyHost) -> None:
    gid = await _started(host)
    results = await asyncio.gather(
        host.move(gid, 10, "take 1", expected_version=0),
        host.move(gid, 10, "take 1", expected_version=0),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    assert any(isinstance(r, (StaleState, NotYourTurn)) for r in results)
    version, moves, _ = await _db(host, gid)
    assert version == 1 and moves == [(0, "take 1")]


async def test_ai_seats_play_until_a_person_is_awaited_and_game_finishes(host: ToyHost) -> None:
    gid = await _started(host, humans=1, ais=2, options="pile=20")
    g = await host.get(gid)
    while g.row.status == "active":
        assert g.awaited() == (0,)
        await host.move(gid, 10, "take 1")
    assert g.row.status == "finished" and g.row.deadline is None
    _, moves, _ = await _db(host, gid)
    assert {m[0] for m in moves} == {0, 1, 2}
    with pytest.raises(GameOver):
        await host.move(gid, 10, "take 1")
    batch = host.take_batch(g)
    assert batch is not None
    assert batch.closed and batch.row.status == "finished"
    by = {s.by for s in batch.steps}
    assert by == {"setup", "player", "ai"}


async def test_restart_replays_and_checks_the_snapshot(host: ToyHost, tmp_path: Path) -> None:
    gid = await _started(host)
    await host.move(gid, 10, "take 2")
    await host.move(gid, 11, "take 3")
    state = (await host.get(gid)).state
    fresh = GameService(host.store, now=host.clock, ai_level="easy")
    assert await start_up(fresh) == []
    g2 = await fresh.get(gid)
    assert base.state_fingerprint(g2.state) == base.state_fingerprint(state) and g2.row.attention is None
    # a tampered snapshot: the game is flagged (once), moves are refused, nothing crashes
    await sqlite_of(host.store).execute("UPDATE snapshots SET fingerprint = 'x' WHERE game_id = ?", (gid,))
    third = GameService(host.store, now=host.clock, ai_level="easy")
    flagged = await start_up(third)
    assert [g.id for g in flagged] == [gid] and "snapshot" in (flagged[0].row.attention or "")
    with pytest.raises(Refusal, match="needs attention"):
        await third.move(gid, 10, "take 1")
    assert await start_up(GameService(host.store, now=host.clock, ai_level="easy")) == []  # told once only
    assert third.clock_entries() == []


async def test_a_log_that_no_longer_replays_is_flagged(host: ToyHost) -> None:
    gid = await _started(host)
    await host.move(gid, 10, "take 2")
    await sqlite_of(host.store).execute("DROP TRIGGER moves_append_only_update")
    await sqlite_of(host.store).execute("UPDATE moves SET action = 'take 9' WHERE game_id = ?", (gid,))
    flagged = await start_up(GameService(host.store, now=host.clock, ai_level="easy"))
    why = flagged[0].row.attention
    assert why is not None
    assert "move 1 no longer replays (the rules refuse it now)" in why
    assert "take 9" not in why and "9" not in why.replace("move 1", "")  # the move's text may be secret


async def test_an_attention_notice_names_no_hidden_card(
    host: ToyHost, caplog: pytest.LogCaptureFixture
) -> None:
    """The toy's secret numbers stand for hidden cards: a move that names one (as `swap t32`
    names the card put back) and no longer replays is flagged without its text, in the notice
    and in the log."""
    from bot.host import wording

    gid = await _started(host)
    game = await host.get(gid)
    secret = list(game.engine.secrets(game.state, None))[0]
    await host.move(gid, 10, "take 2")
    await sqlite_of(host.store).execute("DROP TRIGGER moves_append_only_update")
    await sqlite_of(host.store).execute(
        "UPDATE moves SET action = ? WHERE game_id = ?", (f"take {secret}", gid)
    )
    with caplog.at_level("DEBUG"):
        flagged = await start_up(GameService(host.store, now=host.clock, ai_level="easy"))
    assert secret not in wording.attention(flagged[0])
    ours = [r.getMessage() for r in caplog.records if r.name.split(".")[0] not in ("aiosqlite", "asyncio")]
    assert ours and not any(secret in line for line in ours)  # (aiosqlite is kept at INFO by the bot)


async def test_turn_clock_reminds_expires_and_hands_over(host: ToyHost) -> None:
    gid = await _started(host, clock="10m", options="pile=60")
    g = await host.get(gid)
    entry = host.clock_entries()[0]
    assert entry.deadline == host.clock.t + 600 and entry.remind_at == host.clock.t + 300
    assert await host.remind(gid) == [] and await host.expire(gid) is None  # not due
    host.clock.t += 300
    assert await host.remind(gid) == [0]
    assert await host.remind(gid) == []  # once
    for k in (1, 2, 3):
        seat = g.awaited()[0]
        if seat == 1:  # Bob plays his own turns, so only Ann's clock runs out
            await host.move(gid, 11, "take 1")
        host.clock.t += 600
        box = await host.expire(gid)
        assert box is not None and box.game_id == gid
        assert g.seats[0].expiries == k and g.seats[0].ai_takeover == (k == 3)
    batch = host.take_batch(g)
    assert batch is not None
    notes = batch.notes
    assert sum("Time ran out" in n for n in notes) == 3 and any("missed 3 turns" in n for n in notes)
    _, moves, _ = await _db(host, gid)
    assert [m for m in moves if m[0] == 0]
    bys = [m.by for m in await host.store.moves(gid)]
    assert bys.count("clock") == 3
    # handed over: Ann's seat is played by the AI as soon as it is awaited
    await host.move(gid, 11, "take 1")
    assert g.awaited() == (1,)
    assert (await host.store.moves(gid))[-1].by == "ai"
    # Ann reclaims with /move even though it is not her turn
    with pytest.raises(NotYourTurn, match="back in control"):
        await host.move(gid, 10, "take 1")
    assert g.seats[0].ai_takeover is False and g.seats[0].expiries == 0
    await host.move(gid, 11, "take 1")
    assert g.awaited() == (0,)


async def test_resign_and_end(host: ToyHost) -> None:
    gid = await _started(host, humans=3)
    with pytest.raises(Refusal, match="Only the creator"):
        await host.end(gid, 11, can_manage=False)
    await host.resign(gid, 10)  # Ann was to move: the AI plays for her at once
    g = await host.get(gid)
    assert g.seats[0].is_ai and g.awaited() == (1,)
    with pytest.raises(Refusal, match="resigned"):
        await host.move(gid, 10, "take 1")
    await host.end(gid, 12, can_manage=True)
    assert g.row.status == "ended"
    with pytest.raises(Refusal, match="already over"):
        await host.end(gid, 10, can_manage=True)
    batch = host.take_batch(g)
    assert batch is not None and batch.closed


async def test_everyone_resigning_ends_the_game(host: ToyHost) -> None:
    gid = await _started(host, humans=1, ais=1)
    box = await host.resign(gid, 10)
    assert box.batch.row.status == "ended" and box.batch.closed


async def test_find_resolves_the_game_of_a_channel(host: ToyHost) -> None:
    with pytest.raises(Refusal, match="no game in this channel"):
        await host.find(guild_id=1, channel_id=100, user_id=10)
    a = await _started(host)
    assert (await host.find(guild_id=1, channel_id=100, user_id=10)).id == a
    b = await host.create(
        kind="toynim", options=None, clock=None, guild_id=1, channel_id=100, user_id=20, name="Zed"
    )
    assert (await host.find(guild_id=1, channel_id=100, user_id=20)).id == b.id
    assert (await host.find(guild_id=1, channel_id=100, user_id=10)).id == a
    assert (await host.find(guild_id=1, channel_id=100, user_id=55)).id == a  # the active one
    await host.join(b.id, 10, "Ann")
    await host.set_thread(a, 777)
    assert (await host.find(guild_id=1, channel_id=777, user_id=10)).id == a
    with pytest.raises(Refusal) as elsewhere:
        await host.find(guild_id=2, channel_id=100, user_id=10, game_id=a)
    with pytest.raises(Refusal) as hidden:
        await host.find(
            guild_id=1, channel_id=100, user_id=10, game_id=a, sees=lambda row: row.thread_id != 777
        )
    with pytest.raises(Refusal) as nowhere:
        await host.find(guild_id=1, channel_id=100, user_id=10, game_id=999)
    # one refusal, whether the game is on another server, in a channel the member cannot see, or
    # nowhere: nothing tells a stranger that a number is taken
    texts = {str(e.value).replace(f"#{a}", "#N").replace("#999", "#N") for e in (elsewhere, hidden, nowhere)}
    assert texts == {"There is no game #N here. `/game list` shows the games you can see."}
    listed = await host.list_games(1, sees=lambda row: row.thread_id != 777)
    assert a not in [g.id for g in listed] and b.id in [g.id for g in listed]


async def test_a_number_from_elsewhere_is_refused_before_the_game_is_loaded(
    host: ToyHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = await _started(host)
    fresh = GameService(host.store, now=host.clock, ai_level="easy")

    async def no_load(*a: Any, **k: Any) -> None:
        raise AssertionError("the game was loaded before the server check")

    monkeypatch.setattr(fresh, "_load", no_load)
    for guild, sees in ((2, None), (1, lambda row: False)):
        with pytest.raises(Refusal, match="no game #"):
            await fresh.find(guild_id=guild, channel_id=100, user_id=10, game_id=g, sees=sees)


async def test_history_reads_like_the_events(host: ToyHost) -> None:
    gid = await _started(host)
    await host.move(gid, 10, "take 2")
    await host.move(gid, 11, "take 1")
    hist = await host.history(gid, last=1)
    assert hist == [(2, 1, "take 1", "player", ["{s1} takes 1"])]  # private events left out


def test_private_part_and_digest(toy: ToyNim) -> None:
    assert private_part({"a": 1, "b": [1, {"c": 2}]}, {"a": 1, "b": [1, {"c": 3}]}) == {"b": [None, {"c": 2}]}
    assert private_part({"a": 1}, {"a": 1}) is None
    s = toy.setup(1, 2)
    d0 = private_digest(toy, s, 0)
    s2, _ = toy.apply(s, 0, "take 1")  # seat 0's secret changes
    assert private_digest(toy, s2, 0) != d0
    s3, _ = toy.apply(s2, 1, "take 1")  # only public things change for seat 0
    assert private_digest(toy, s3, 0) == private_digest(toy, s2, 0)


async def test_complete_for_and_private_view(host: ToyHost) -> None:
    gid = await _started(host)
    g = await host.get(gid)
    assert host.complete_for(g, 10, "") == [("take 1", "take 1"), ("take 2", "take 2"), ("take 3", "take 3")]
    assert host.complete_for(g, 10, "2") == [("take 2", "take 2")]
    assert host.complete_for(g, 11, "") == [] and host.complete_for(g, 99, "") == []
    seat, view = host.private_view(g, 11)
    assert seat == 1 and view["secret"] == g.state.secret[1]
    with pytest.raises(Refusal):
        host.private_view(g, 99)


async def test_concurrent_loads_share_one_live_game(host: ToyHost) -> None:
    gid = await _started(host)
    fresh = GameService(host.store, now=host.clock, ai_level="easy")
    a, b = await asyncio.gather(fresh.get(gid), fresh.get(gid))
    assert a is b and a.lock is b.lock


async def test_a_failing_ai_plays_the_first_legal_action_and_logs_no_move(
    host: ToyHost, toy: ToyNim, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seat's legal actions may reveal what it hides, so the log line names the game and seat only."""

    def broken(view: base.View, legal: Sequence[str]) -> None:
        raise RuntimeError("ai bug")

    monkeypatch.setattr(toy, "choose", broken)
    gid = await _started(host, humans=1, ais=1)
    await host.move(gid, 10, "take 1")
    assert [(m.seat, m.action, m.by) for m in await host.store.moves(gid)][1] == (1, "take 1", "ai")
    line = next(r for r in caplog.records if "AI failed" in r.getMessage())
    assert f"Game {gid}" in line.getMessage() and "take" not in line.getMessage()


async def test_a_game_id_as_text_is_the_same_live_game_and_garbage_is_refused(host: ToyHost) -> None:
    """A command option may carry the game's id as a string ("1"): it must find the one live game
    (a second load would replace it and could race a commit), and anything that is not a game
    number is refused before any lookup."""
    gid = await _started(host)
    g = await host.get(gid)
    assert await host.get(str(gid)) is g and await host.get(f"#{gid}") is g
    bad_ids: tuple[Any, ...] = ("x", "", "1.5", str(2**63), 2**70, -1, 0, True, None, "9" * 40)
    for bad in bad_ids:
        with pytest.raises(Refusal):
            await host.get(bad)
    moves, snap = await host.store.history(gid)
    assert moves == await host.store.moves(gid) and snap == await host.store.snapshot(gid)


HOSTILE = ["{s1}", "<@123456789012345678> @everyone", "**bold** [x](https://evil.example)"]


def test_names_are_text_not_markup_or_mentions() -> None:
    from bot.host.names import shown

    assert base.format_text("{s0} takes 1; {s1} waits", ["{s1}", "Bob"]) == "{s1} takes 1; Bob waits"
    s = shown("<@123456789012345678> @everyone **b** [x](y) `c` _i_ ~~s~~ ||p|| > q")
    assert "<@1" not in s and "@everyone" not in s
    for raw in ("**", "[x]", "`c`", "_i_", "~~", "||"):
        assert raw not in s, raw
    assert shown("Ann") == "Ann" and shown("AI 1 (easy)") == "AI 1 (easy)"


async def test_a_hostile_name_cannot_take_a_seat_ping_or_format(host: ToyHost) -> None:
    from bot.surface import text

    g = await host.create(
        kind="toynim", options=None, clock=None, guild_id=1, channel_id=100, user_id=10, name=HOSTILE[0]
    )
    await host.join(g.id, 11, HOSTILE[1])
    await host.join(g.id, 12, HOSTILE[2])
    await host.start(g.id, 10)
    gid = g.id
    game = await host.get(gid)
    await host.move(gid, 10 + game.engine.to_move(game.state)[0], "take 1")
    game = await host.get(gid)
    log = text.log(game, await host.history(gid, last=5))
    assert "{s1}" in log  # seat 0's name, shown as typed, not seat 1's
    assert "<@123456789012345678>" not in log and "@everyone" not in log
    assert "**bold**" not in log and "[x](" not in log
    lobby = text.game_list([Listing(game.row, game.seats, game.engine)])
    assert "<@123" not in lobby and "**bold**" not in lobby


async def test_log_is_served_from_the_held_game_without_replaying(
    host: ToyHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid = await _started(host)
    for k, user in enumerate((10, 11, 10, 11)):
        await host.move(gid, user, f"take {1 + k % 2}")
    want = await host.history(gid, last=3)
    assert [v for v, *_ in want] == [2, 3, 4] and want[-1][4] == ["{s1} takes 2"]

    def no_replay(*a: Any, **k: Any) -> None:
        raise AssertionError("/log replayed the game")

    monkeypatch.setattr(base, "replay_steps", no_replay)
    assert await host.history(gid, last=3) == want
    await host.move(gid, 10, "take 1")
    assert (await host.history(gid, last=1))[0][:3] == (5, 0, "take 1")
    monkeypatch.undo()
    # a restarted host fills it from the replay that loads the game, and agrees
    again = GameService(host.store, now=host.clock, ai_level="easy")
    await start_up(again)
    assert await again.history(gid, last=4) == await host.history(gid, last=4)


async def test_a_creator_who_left_has_no_say_and_a_resigned_player_no_hand(host: ToyHost) -> None:
    g = await host.create(
        kind="toynim", options=None, clock=None, guild_id=1, channel_id=100, user_id=10, name="Ann"
    )
    await host.join(g.id, 11, "Bob")
    await host.join(g.id, 12, "Cy")
    await host.leave(g.id, 10)  # the creator leaves the lobby
    with pytest.raises(Refusal, match="Only players"):
        await host.add_ai(g.id, 10)
    with pytest.raises(Refusal, match="Only the creator"):
        await host.end(g.id, 10, can_manage=False)
    with pytest.raises(Refusal, match="Only the creator"):
        await host.start(g.id, 10)
    await host.add_ai(g.id, 11)  # a player may, and may start it now the creator is gone
    await host.start(g.id, 11)
    game = await host.get(g.id)
    await host.resign(g.id, 12)
    with pytest.raises(Refusal, match="resigned"):
        host.private_view(game, 12)
    with pytest.raises(Refusal, match="Only the creator"):  # resigned: no longer a player
        await host.end(g.id, 12, can_manage=False)
    assert host.private_view(game, 11)[0] == 0
    await host.end(g.id, 11, can_manage=False)  # a player, once the creator has left
    assert (await host.get(g.id)).row.status == "ended"


async def test_ending_a_game_that_finished_meanwhile_leaves_it_finished(host: ToyHost) -> None:
    gid = await _started(host)
    await host.get(gid)
    await host.store.update_game(gid, status="finished", deadline=None)  # another process's last move
    with pytest.raises(Refusal, match="already over"):
        await host.end(gid, 10, can_manage=True)
    assert (await row_of(host.store, gid)).status == "finished"


async def test_quotas_refuse_clearly_and_change_nothing(host: ToyHost) -> None:
    from bot.host.quotas import Quotas

    host.quotas = Quotas(lobbies_per_user=2, games_per_channel=3, games_per_server=4)

    async def new(user: int, channel: int = 100, guild: int = 1) -> LiveGame:
        return await host.create(
            kind="toynim",
            options=None,
            clock=None,
            guild_id=guild,
            channel_id=channel,
            user_id=user,
            name=f"U{user}",
        )

    a, b = await new(10), await new(10)
    with pytest.raises(Refusal, match=rf"2 open lobbies \(#{a.id}, #{b.id}\)"):
        await new(10)
    await new(11)
    with pytest.raises(Refusal, match="This channel already has 3"):
        await new(12)
    await new(12, channel=200)
    with pytest.raises(Refusal, match="This server already has 4"):
        await new(13, channel=300)
    assert len(await host.store.games()) == 4  # the refusals created nothing
    await new(13, channel=300, guild=2)  # another server has its own count
    await host.end(a.id, 10, can_manage=False)
    await new(10, channel=200)  # a closed lobby frees its place


async def test_a_lobby_nobody_starts_closes_after_the_idle_time(host: ToyHost) -> None:
    from bot.host.quotas import Quotas

    host.quotas = Quotas(lobby_idle=3600)
    g = await host.create(
        kind="toynim", options=None, clock=None, guild_id=1, channel_id=100, user_id=10, name="Ann"
    )
    host.clock.t += 1800
    assert await host.close_idle_lobbies() == []
    await host.join(g.id, 11, "Bob")  # touched: the hour starts again
    host.clock.t += 3000
    assert await host.close_idle_lobbies() == []
    host.clock.t += 700
    [closed] = await host.close_idle_lobbies()
    assert closed.game_id == g.id and closed.batch.row.status == "ended"
    assert "nobody started it" in closed.batch.notes[-1]
    assert (await row_of(host.store, g.id)).status == "ended"


async def test_held_games_are_bounded_and_loaded_again_on_use(host: ToyHost) -> None:
    from bot.host.quotas import Quotas

    host.quotas = Quotas(held_games=3, games_per_channel=0, games_per_server=0, lobbies_per_user=0)
    ids = []
    for _ in range(6):
        ids.append(await _started(host))
        host.take_batch(await host.get(ids[-1]))  # published, as the bot does: nothing keeps it held
    assert len(host._games) <= 3
    before = {e for e in host.clock_entries()}
    for gid in ids:  # every running game keeps its clock, held or not
        assert any(e.game_id == gid for e in before), gid
    assert ids[0] not in host._games
    await host.move(ids[0], 10, "take 2")  # dropped from memory, loaded again, played
    again = await host.get(ids[0])
    assert again.row.version == 1 and len(host._games) <= 3
