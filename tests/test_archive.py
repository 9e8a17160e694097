"""The host's looking back (``bot/host/archive.py``, ``gamestats.py``, ``rematch.py`` and the
store's ``store_archive.py``), on both backends: a replay's frame is the spectator's view at each
move and its public lines, kept along the log; a person's history and how each game went; a
server's figures; a rematch opened once, with the same seats and options, even when two
processes are asked at once."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.host import archive, gamestats
from bot.host.live import Refusal
from bot.host.service import GameService
from bot.host.store import Store
from bot.host.store_archive import NewSeat
from engines import base
from tests.test_service import Clock, ToyHost, ToyNim


@pytest.fixture
def toy() -> Iterator[ToyNim]:
    engine = ToyNim()
    base.register(engine)
    yield engine
    base.unregister(engine.name)


@pytest.fixture(name="host")
async def host_fixture(backend_target: str | Path, toy: ToyNim) -> AsyncIterator[ToyHost]:
    clock = Clock()
    store = await Store.open(backend_target, now=clock)
    svc = ToyHost(store, clock)
    yield svc
    await store.close()


async def started(svc: GameService, ais: int = 0, levels: tuple[str | None, ...] = (), pile: int = 9) -> int:
    g = await svc.create(
        kind="toynim", options=f"pile={pile}", clock=None, guild_id=1, channel_id=100, user_id=10, name="Ann"
    )
    await svc.join(g.id, 11, "Bob")
    for i in range(ais):
        await svc.add_ai(g.id, 10, levels[i] if i < len(levels) else None)
    await svc.start(g.id, 10)
    return g.id


async def play(svc: GameService, gid: int, n: int | None = None) -> None:
    """Let the awaited people take 1 each (``n`` times, or to the end)."""
    done = 0
    while n is None or done < n:
        game = await svc.get(gid)
        if game.row.status != "active":
            return
        seat = next(s for s in game.awaited() if not game.ai_plays(s))
        user = game.seats[seat].user_id
        assert user is not None
        await svc.move(gid, user, "take 1")
        done += 1


async def test_a_frame_is_the_spectator_view_at_each_move_and_the_timeline_is_kept(
    host: ToyHost, toy: ToyNim, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid = await started(host)
    await play(host, gid, 4)
    game = await host.get(gid)
    moves = [(m.seat, m.action) for m in await host.store.moves(gid)]
    states = [s for s, _ in base.replay_steps(toy, game.row.seed, 2, game.row.options, moves)]
    for k in range(5):
        frame = await host.archive.frame(gid, k, 1)
        assert frame.move == k and frame.last == 4 and frame.status == "active"
        assert frame.view == toy.view(states[k], None) and frame.view["secret"] is None
        assert frame.previous == (toy.view(states[k - 1], None) if k else None)
        said = [line.text for line in frame.lines]
        assert said == ([f"{['Ann', 'Bob'][moves[k - 1][0]]} takes 1"] if k else [])
        assert not any("secret" in t for t in said)
        assert [j for j, _ in frame.jumps] == [0, 1, 2, 3, 4] and frame.result == ""
    assert (await host.archive.frame(gid, 99, 1)).move == 4  # clamped to the moves stored
    assert (await host.archive.frame(gid, None, 1)).move == 4
    with pytest.raises(Refusal, match="no game #"):
        await host.archive.frame(gid, 0, 2)  # another server's game
    with pytest.raises(Refusal, match="no game #"):
        await host.archive.frame(gid, 0, 1, lambda row: False)  # a place the asker cannot see

    async def no_reads(game_id: int, *, last: int | None = None) -> Any:
        raise AssertionError("the log was read again")

    real = host.store.moves
    monkeypatch.setattr(host.store, "moves", no_reads)
    assert (await host.archive.frame(gid, 2, 1)).move == 2  # from the kept timeline
    monkeypatch.setattr(host.store, "moves", real)
    await play(host, gid, 1)
    assert (await host.archive.frame(gid, None, 1)).move == 5  # a newer move: rebuilt


async def test_the_last_frame_of_a_finished_game_says_the_result(host: ToyHost) -> None:
    gid = await started(host, pile=4)
    await play(host, gid)
    frame = await host.archive.frame(gid, None, 1)
    assert frame.status == "finished" and frame.move == 4
    assert frame.result == "Result: 1st Bob (2), 2nd Ann (2)"  # Bob took the last one
    assert (await host.archive.frame(gid, 3, 1)).result == ""


async def test_history_lists_a_persons_games_and_how_each_went(host: ToyHost) -> None:
    first = await started(host, pile=4)
    await play(host, first)
    host.clock.t += 60
    second = await started(host)
    await play(host, second, 2)
    host.clock.t += 60
    lobby = await host.create(
        kind="toynim", options=None, clock=None, guild_id=1, channel_id=100, user_id=10, name="Ann"
    )
    past = await host.archive.history(1, 10)
    assert [p.row.id for p in past] == [second, first]  # newest first; a lobby is no game yet
    assert lobby.id not in [p.row.id for p in past]
    assert past[0].result == "running (move 2)" and past[1].result == "2nd with 2"
    assert past[1].names == ("Ann", "Bob") and past[1].title == f"Toy Nim #{first}"
    assert (await host.archive.history(1, 11))[1].result == "won with 2"
    assert await host.archive.history(2, 10) == []  # another server
    assert await host.archive.history(1, 10, lambda row: row.id != second) == [past[1]]
    await host.end(second, 10, can_manage=True)
    assert (await host.archive.history(1, 10))[0].result == "ended early at move 2"


async def test_a_result_is_rebuilt_once_and_kept_for_the_next_process(
    host: ToyHost, backend_target: str | Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid = await started(host, pile=4)
    await play(host, gid)
    row = await host.store.game(gid)
    assert row is not None
    first = await host.archive.outcome(row, 2)
    assert first is not None and first.winners == (1,)
    assert await host.store.outcomes_of([gid]) == {gid: first.as_dict()}
    again = await Store.open(backend_target, now=host.clock)  # another process: nothing held
    try:

        async def no_reads(game_id: int, *, last: int | None = None) -> Any:
            raise AssertionError("the log was read again")

        monkeypatch.setattr(again, "moves", no_reads)
        assert await archive.Archive(again).outcome(row, 2) == first
    finally:
        await again.close()


async def test_stats_count_lengths_seat_wins_and_the_ai_against_people(host: ToyHost) -> None:
    for _ in range(2):
        gid = await started(host, ais=1, levels=("hard",), pile=6)
        await play(host, gid)
    running = await started(host)
    await play(host, running, 1)
    figures = await gamestats.stats(host.archive, 1, "toynim")
    assert figures.games == 2 and figures.counted == 2
    rows = [await host.store.game(g) for g in (1, 2)]
    assert figures.average_moves == sum(r.version for r in rows if r) / 2
    assert figures.by_players == {3: 2}
    outcomes = [await host.archive.outcome(r, 3) for r in rows if r]
    wins: dict[int, int] = {}
    for o in outcomes:
        assert o is not None
        for w in o.winners:
            wins[w] = wins.get(w, 0) + 1
    assert dict(figures.wins[3]) == wins
    ai = figures.ai["hard"]
    assert ai.games == 2 and ai.ahead + ai.behind + ai.level == 4  # two people each game
    assert await gamestats.stats(host.archive, 2, "toynim") == gamestats.Stats("toynim")


async def test_stats_leave_guided_games_out(host: ToyHost, monkeypatch: pytest.MonkeyPatch) -> None:
    """A finished game with the guide's AI seats (a /learn lesson) counts in no figure."""
    from bot.host.guides import GUIDE

    for _ in range(2):
        gid = await started(host, ais=1, levels=("hard",), pile=6)
        await play(host, gid)
    both = await gamestats.stats(host.archive, 1, "toynim")
    assert both.games == 2 and set(both.ai) == {"hard"}
    seats_of = host.store.seats_of

    async def one_guided(ids: Any) -> dict[int, list[Any]]:  # game 1's AI seat as the guide's
        found = await seats_of(ids)
        if 1 in found:
            found[1] = [dataclasses.replace(s, ai_level=GUIDE) if s.is_ai else s for s in found[1]]
        return found

    monkeypatch.setattr(host.store, "seats_of", one_guided)
    figures = await gamestats.stats(host.archive, 1, "toynim")
    assert figures.games == 1 and figures.counted == 1 and set(figures.ai) == {"hard"}
    assert figures.ai["hard"].games == 1 and GUIDE not in figures.ai


async def test_a_rematch_opens_one_lobby_with_the_same_seats_and_options(host: ToyHost) -> None:
    gid = await started(host, ais=1, levels=("easy",), pile=5)
    with pytest.raises(Refusal, match="not over yet"):
        await host.rematches.rematch(gid, 10, 1)
    await play(host, gid)
    with pytest.raises(Refusal, match="Only the players"):
        await host.rematches.rematch(gid, 99, 1)
    with pytest.raises(Refusal, match="no game #"):
        await host.rematches.rematch(gid, 10, 2)
    lobby, new = await host.rematches.rematch(gid, 11, 1)
    again, new_again = await host.rematches.rematch(gid, 10, 1)
    assert new and not new_again and again.id == lobby.id
    old, row = await host.store.game(gid), lobby.row
    assert old is not None and row.status == "lobby" and row.creator_id == 11
    assert (row.kind, row.options, row.clock_seconds, row.channel_id) == (
        old.kind,
        old.options,
        old.clock_seconds,
        old.channel_id,
    )
    assert [(s.user_id, s.name, s.is_ai, s.ai_level) for s in lobby.seats] == [
        (10, "Ann", False, None),
        (11, "Bob", False, None),
        (None, "AI 1 (easy)", True, "easy"),
    ]
    await host.start(lobby.id, 11)
    assert (await host.get(lobby.id)).row.status == "active"


async def test_two_processes_opening_one_rematch_open_one_lobby(
    backend_target: str | Path, toy: ToyNim
) -> None:
    clock = Clock()
    a, b = await Store.open(backend_target, now=clock), await Store.open(backend_target, now=clock)
    try:
        row = await a.create_game(
            kind="toynim",
            seed=1,
            options={},
            guild_id=1,
            channel_id=5,
            creator_id=10,
            creator_name="Ann",
            clock_seconds=60,
        )
        seats = [NewSeat(10, "Ann"), NewSeat(None, "AI 1", "hard")]

        async def open_on(store: Store) -> tuple[int, bool]:
            return await store.open_rematch(
                row.id,
                kind="toynim",
                seed=2,
                options={},
                guild_id=1,
                channel_id=5,
                creator_id=10,
                clock_seconds=60,
                seats=seats,
            )

        results = await asyncio.gather(*(open_on(s) for s in (a, b, a, b)))
        assert len({gid for gid, _ in results}) == 1 and sum(new for _, new in results) == 1
        gid = results[0][0]
        assert await b.rematch_of(row.id) == gid and await a.rematch_of(gid) is None
        assert len(await a.games(statuses=["lobby"])) == 2  # the old lobby and the one rematch
        assert [(s.user_id, s.is_ai, s.ai_level) for s in await b.seats(gid)] == [
            (10, False, None),
            (None, True, "hard"),
        ]
    finally:
        await a.close()
        await b.close()


def test_the_jump_menu_offers_the_moves_near_and_spread_over_the_game() -> None:
    assert archive.jumps(3, 10) == list(range(11))
    for move, last in [(0, 300), (150, 300), (300, 300), (7, 40), (24, 25)]:
        picks = archive.jumps(move, last)
        assert len(picks) <= archive.JUMPS and picks == sorted(set(picks))
        assert picks[0] == 0 and picks[-1] == last
        assert set(range(max(0, move - archive.NEAR), min(last, move + archive.NEAR) + 1)) <= set(picks)
    spread = archive.jumps(0, 300)
    assert max(b - a for a, b in zip(spread, spread[1:], strict=False)) <= 300 // 10


def test_how_it_went_and_ordinals() -> None:
    assert [archive.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd",
    ]  # fmt: skip


def test_the_stats_and_replay_texts() -> None:
    from collections import Counter

    from bot.surface import archive_text
    from render.caption import Line

    s = gamestats.Stats("toynim", games=4, moves=100, minutes=90.0, timed=3, counted=3)
    s.by_players = {2: 1, 3: 2}
    s.wins = {2: Counter({0: 1}), 3: Counter({1: 1, 2: 2})}
    s.ai = {"hard": gamestats.Record(2, 3, 1, 0)}
    said = archive_text.stats("Toy Nim", s).splitlines()
    assert said[1:3] == ["Games finished: 4", "Average length: 25.0 moves, 30.0 minutes (first move to last)"]
    assert "• 2 players (1 game): seat 1 100% · seat 2 0%" in said
    assert (
        "• 3 players (2 games): seat 1 0% · seat 2 50% · seat 3 100%" in said
    )  # a shared first counts twice
    assert "• hard: 2 seats, 3–0–1" in said and said[-1].startswith("(1 game(s) no longer replay")
    assert archive_text.stats("Toy Nim", gamestats.Stats("toynim")) == (
        "No game of Toy Nim has been finished on this server yet."
    )
    frame = archive.Frame(
        game_id=3,
        kind="toynim",
        title="Toy Nim #3",
        names=("Ann", "Bob"),
        status="active",
        move=2,
        last=2,
        view={},
        previous={},
        lines=(Line("Bob takes 1", 1),),
        jumps=((0, "Start: the setup"), (1, "Move 1: Ann takes 1"), (2, "Move 2: Bob takes 1")),
        result="",
    )
    assert archive_text.replay(frame).splitlines() == [
        "⏪ **Toy Nim #3** — replay — move 2 of 2 (running)",
        "Players: Ann, Bob",
        "• Bob takes 1",
        "This is the newest move; **Last** shows the moves played since.",
    ]


async def test_a_guided_games_rematch_is_an_ordinary_game_without_the_guide(tmp_path: Path) -> None:
    """The guide's notes speak from the learner's view: a rematch (an open lobby anyone may join)
    gets AI seats at the guide's off-script level, not the guide."""
    from bot.host.guides import GUIDE, PLAYS_AS, guide_of

    store = await Store.open(tmp_path / "db.sqlite3", now=lambda: 1_700_000_000.0)
    svc = GameService(store, now=lambda: 1_700_000_000.0, seed_source=lambda: 42, ai_level="easy")
    try:
        box = await svc.learning.learn(
            "pralaya", guild_id=1, channel_id=100, thread_id=None, user_id=10, name="Ann"
        )
        g = await svc.get(box.game_id)
        assert guide_of(g) is not None and any(s.ai_level == GUIDE for s in g.seats)
        await svc.resign(g.id, 10)  # nobody left: the game ends
        assert (await svc.get(g.id)).row.status == "ended"
        lobby, new = await svc.rematches.rematch(g.id, 10, 1)
        assert new and guide_of(lobby) is None
        ais = [s for s in lobby.seats if s.is_ai]
        assert ais and all(s.ai_level == PLAYS_AS for s in ais)
        assert [s.user_id for s in lobby.seats if not s.is_ai] == [10]
    finally:
        await store.close()
