"""Ratings (bot.host.ratings, rating_math, store_ratings): the shown number, which table a game
counts on, rating a game at its end through the service (the final sheet's line), and the
recomputation from scratch: the same tables as the live updates, twice in a row and in two
processes (``bazaar db rate``), on both backends."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.host import rating_math as rm
from bot.host.live import Refusal
from bot.host.ratings import AI, COMPUTING, PEOPLE, UNRATED, Ratings, ladder_of
from bot.host.store import SeatRow, Store
from bot.host.store_ratings import ResultRow
from tests.test_service import Clock, ToyHost, ToyNim, toy  # noqa: F401  (the toy engine's fixture)

ROOT = Path(__file__).resolve().parent.parent


def test_the_shown_number_is_conservative_and_scaled() -> None:
    assert rm.shown(rm.START_MU, rm.START_SIGMA) == 1000  # a newcomer: ordinal 0
    assert rm.shown(50.0, 1.0) == 1000 + 40 * 47
    assert rm.shown(0.0, 9.0) == 0  # never below 0 (1000 + 40 · -27)
    after = rm.rate({}, {"a": 1, "b": 2})
    assert after["a"].shown > 1000 > after["b"].shown
    assert after["a"].sigma < rm.START_SIGMA  # a game makes the model surer
    tied = rm.rate({}, {"a": 1, "b": 1})
    assert tied["a"] == tied["b"]
    # the order players are given in does not matter
    one = rm.rate({"x": rm.Skill(30, 5)}, {"x": 2, "y": 1, "z": 3})
    two = rm.rate({"x": rm.Skill(30, 5)}, {"z": 3, "x": 2, "y": 1})
    assert one == two
    # two AI seats of one level count once, at their best rank
    assert rm.places_of(["u1", "ai:easy", "ai:easy", None], [3, 2, 1, 4]) == {"u1": 3, "ai:easy": 1}


def test_the_rating_step_is_openskills_own_on_plain_lists() -> None:
    """``rate`` hands openskill teams it need not deep-copy; what comes out is exactly what its
    documented call on plain lists gives, ties and every table size included."""
    rng = random.Random(28)
    for _ in range(300):
        n = rng.randint(2, 5)
        names = [f"p{i}" for i in range(n)]
        before = {p: rm.Skill(rng.uniform(5, 45), rng.uniform(0.8, 8.4)) for p in names if rng.random() < 0.8}
        places = {p: rng.randint(1, n) for p in names}
        teams = [[rm.MODEL.rating(mu=before.get(p, rm.Skill()).mu, sigma=before.get(p, rm.Skill()).sigma)]
                 for p in sorted(names)]  # fmt: skip
        plain = rm.MODEL.rate(teams, ranks=[float(places[p]) for p in sorted(names)])
        want = {p: rm.Skill(t[0].mu, t[0].sigma) for p, t in zip(sorted(names), plain, strict=True)}
        assert rm.rate(before, places) == want


def _seat(user_id: int | None, *, is_ai: bool = False, takeover: bool = False) -> SeatRow:
    return SeatRow(1, 0, user_id, "n", is_ai, False, None, 0, takeover, "easy" if is_ai else None)


def test_which_table_a_game_counts_on() -> None:
    people = [_seat(1), _seat(2)]
    assert ladder_of(people, unrated=False) == PEOPLE
    assert ladder_of(people, unrated=True) == UNRATED  # /game new rated:false
    assert ladder_of([_seat(1), _seat(None, is_ai=True)], unrated=False) == AI
    assert ladder_of([_seat(1), _seat(2, is_ai=True)], unrated=False) == UNRATED  # resigned to the AI
    assert ladder_of([_seat(1), _seat(2, takeover=True)], unrated=False) == UNRATED  # the AI took over
    assert ladder_of([_seat(None, is_ai=True), _seat(None, is_ai=True)], unrated=False) == UNRATED


@pytest.fixture(name="host")
async def host_fixture(tmp_path: Path, toy: ToyNim) -> AsyncIterator[ToyHost]:  # noqa: F811
    clock = Clock()
    store = await Store.open(tmp_path / "db.sqlite3", now=clock)
    svc = ToyHost(store, clock)
    yield svc
    await store.close()


async def _play(
    host: ToyHost,
    people: list[int],
    *,
    ais: int = 0,
    rated: bool = True,
    guild: int = 1,
    takes: int = 1,
    level: str | None = None,
) -> int:
    """A toy Nim game of ``people`` (and ``ais`` AI seats) played to its end; its id."""
    g = await host.create(
        kind="toynim", options="pile=7", clock=None, guild_id=guild, channel_id=100 + guild,
        user_id=people[0], name=f"P{people[0]}", rated=rated,
    )  # fmt: skip
    for u in people[1:]:
        await host.join(g.id, u, f"P{u}")
    for _ in range(ais):
        await host.add_ai(g.id, people[0], level)
    await host.start(g.id, people[0])
    game = await host.get(g.id)
    while game.row.status == "active":
        seat = game.awaited()[0]
        user = game.seats[seat].user_id
        assert user is not None
        host.clock.t += 1
        await host.move(g.id, user, f"take {min(takes, game.state.pile)}")
    return g.id


async def dump(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """The ratings' tables as rows, in a fixed order (floats as stored)."""
    out = {}
    for table, order in (
        ("ratings", "kind, scope, ladder, player"),
        ("rating_changes", "game_id, scope, player"),
        ("game_results", "game_id"),
    ):
        out[table] = [tuple(r) for r in await store._all(f"SELECT * FROM {table} ORDER BY {order}")]
    return out


async def test_a_rated_game_between_people_changes_both_tables_and_says_so(host: ToyHost) -> None:
    gid = await _play(host, [10, 11])
    game = await host.get(gid)
    outcome = game.engine.outcome(game.state)
    assert outcome is not None
    winner = outcome.winners[0]
    batch = host.take_batch(game)
    assert batch is not None
    note = next(n for n in batch.notes if n.startswith("📈 Ratings"))
    assert note.startswith("📈 Ratings (this server): ")
    changes = await host.store.rating_changes_of(gid)
    assert {(c.scope, c.player) for c in changes} == {(1, "u10"), (1, "u11"), (0, "u10"), (0, "u11")}
    for c in changes:
        assert c.was == 1000 and c.ladder == PEOPLE
        assert (c.now > 1000) == (c.seat == winner) and c.new_best == (c.seat == winner)
        assert "{s%d} 1000 → %d" % (c.seat, c.now) in note
    assert "new best" in note
    board = await host.store.top_ratings("toynim", 1, PEOPLE, 10)
    assert [r.user_id for r in board] == [game.seats[winner].user_id, game.seats[1 - winner].user_id]
    assert board[0].games == 1 and board[0].wins == 1 and board[1].wins == 0


async def test_unrated_ai_resigned_and_ended_games(host: ToyHost) -> None:
    unrated = await _play(host, [10, 11], rated=False)
    assert not (await host.get(unrated)).rated
    assert await host.store.rating_changes_of(unrated) == []
    vs_ai = await _play(host, [12], ais=1)
    changes = await host.store.rating_changes_of(vs_ai)
    assert {c.player for c in changes} == {"u12", "ai:easy"} and {c.ladder for c in changes} == {AI}
    assert await host.store.top_ratings("toynim", 0, PEOPLE, 10) == []  # not in the people's ladder
    assert [r.player for r in await host.store.top_ratings("toynim", 0, AI, 10)] != []
    # a seat resigned to the AI: the game finishes unrated
    g = await host.create(
        kind="toynim", options="pile=5", clock=None, guild_id=1, channel_id=100, user_id=20, name="A"
    )
    await host.join(g.id, 21, "B")
    await host.start(g.id, 20)
    await host.resign(g.id, 21)
    game = await host.get(g.id)
    while game.row.status == "active":
        await host.move(g.id, 20, "take 1")
    assert game.row.status == "finished" and await host.store.rating_changes_of(g.id) == []
    results, _ = await host.store.rating_inputs()
    assert {r.game_id: r.ladder for r in results}[g.id] == UNRATED
    # /game end: never finished, never a result
    e = await host.create(
        kind="toynim", options=None, clock=None, guild_id=1, channel_id=100, user_id=30, name="C"
    )
    await host.join(e.id, 31, "D")
    await host.start(e.id, 30)
    await host.end(e.id, 30, can_manage=False)
    assert e.id not in {r.game_id for r in results} and await host.store.unresulted() == []


async def test_live_updates_equal_the_recomputation_and_a_first_start_rates_old_games(host: ToyHost) -> None:
    for i in range(8):
        people = [10 + i % 3, 10 + (i + 1) % 3] + ([13] if i % 2 else [])
        await _play(host, people, guild=1 + i % 2, takes=1 + i % 3)
    await _play(host, [10], ais=2, level="hard")  # stored with the seat: the same at a later start
    live = await dump(host.store)
    assert len(live["game_results"]) == 9
    await Ratings(host.store).rerate()
    assert await dump(host.store) == live
    # as if the games had finished before migration 0010: the first start records and rates them
    async with host.store._tx() as h:
        await h.sql_run("DELETE FROM game_results")
    await host.store.replace_ratings([], [])
    assert len(await host.store.unresulted()) == 9
    assert await host.load_all() == []
    task = host.ratings.computing
    assert task is not None  # in the background: the start does not wait for it
    assert _busy(host)
    with pytest.raises(Refusal) as refused:
        await host.ratings.board("toynim", 1, 10)
    assert refused.value.reason == COMPUTING
    assert await task == 9 and not _busy(host)
    assert await dump(host.store) == live
    assert not await host.store.rating_due()
    await host.load_all()
    assert not _busy(host)  # nothing due: no second catch-up
    # stopped at shutdown half-way: the next start sees the ratings are still due
    await host.store.replace_ratings([], [])
    await host.load_all()
    assert _busy(host)
    await host.ratings.stop()
    assert await host.store.rating_due() and not _busy(host)


def _busy(host: ToyHost) -> bool:
    """Whether the first start's catch-up runs (read afresh each time)."""
    return host.ratings.computing is not None


async def test_games_finishing_during_the_catch_up_are_rated_with_the_rest(
    host: ToyHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    for i in range(6):
        await _play(host, [10 + i % 3, 10 + (i + 1) % 3], guild=1 + i % 2, takes=1 + i % 3)
    await host.store.replace_ratings([], [])  # a catch-up cut short: results kept, no rating
    assert await host.store.rating_due()
    release = asyncio.Event()
    reads = host.store.rating_inputs

    async def held() -> Any:  # the catch-up's first read waits until two more games finished
        await release.wait()
        return await reads()

    monkeypatch.setattr(host.store, "rating_inputs", held)
    await host.load_all()
    task = host.ratings.computing
    assert task is not None
    late = [await _play(host, [11, 12], takes=2), await _play(host, [10, 12], guild=2)]
    for gid in late:  # recorded, not rated yet: the final sheet has no ratings line
        batch = host.take_batch(await host.get(gid))
        assert batch is not None and batch.closed
        assert not any(n.startswith("📈") for n in batch.notes)
    assert not task.done()
    release.set()
    assert await task == 0 and not _busy(host)
    caught_up = await dump(host.store)
    assert {r[0] for r in caught_up["game_results"]} >= set(late)
    assert {r[0] for r in caught_up["rating_changes"]} >= set(late)  # rated with the rest
    await Ratings(host.store).rerate()
    assert await dump(host.store) == caught_up
    assert (await host.ratings.board("toynim", 1, 10)).total == 3


async def _history(store: Store, games: int) -> None:
    """A stored history of finished games with recorded results (no engine needed to rate)."""
    for i in range(games):
        g = await store.create_game(
            kind="pralaya", seed=i, options={}, guild_id=1 + i % 2, channel_id=5, creator_id=100 + i % 5,
            creator_name=f"U{i % 5}", clock_seconds=60,
        )  # fmt: skip
        players: list[str | None] = [f"u{100 + i % 5}"]
        for k in range(1, 2 + i % 3):
            await store.add_seat(g.id, user_id=100 + (i + k) % 5, name=f"U{(i + k) % 5}")
            players.append(f"u{100 + (i + k) % 5}")
        if i % 4 == 3:
            level = ("easy", "hard")[i % 2]
            await store.add_seat(g.id, user_id=None, name="AI", is_ai=True, ai_level=level)
            players.append(f"ai:{level}")
        await store.update_game(g.id, status="finished")
        n = len(players)
        ranks = tuple(1 + (s * 7 + i) % n for s in range(n))
        ladder = AI if i % 4 == 3 else (UNRATED if i % 9 == 5 else PEOPLE)
        at = 1000.0 + (i * 37) % 11
        await store.put_results([ResultRow(g.id, "pralaya", g.guild_id, at, ranks, tuple(players), ladder)])


def _rate_in_a_process(target: str | Path) -> str:
    env = {**os.environ, "BAZAAR_DB": str(target)}
    env.pop("DISCORD_TOKEN", None)
    out = subprocess.run(
        [sys.executable, "-m", "bot.cli", "db", "rate"], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    return out.stdout


async def test_rating_a_stored_history_again_is_identical_in_this_and_other_processes(
    backend_target: str | Path,
) -> None:
    store = await Store.open(backend_target)
    try:
        await _history(store, 40)
        ratings = Ratings(store)
        rated, rows = await ratings.rerate()
        assert rated == 40 - 3 and rows > 0  # 3 of them were opened unrated
        first = await dump(store)
        await ratings.rerate()
        assert await dump(store) == first
    finally:
        await store.close()
    for _ in range(2):
        line = await _in_thread(_rate_in_a_process, backend_target)
        assert "rated 37 game(s)" in line
        store = await Store.open(backend_target)
        try:
            assert await dump(store) == first
        finally:
            await store.close()


async def _in_thread(fn: Any, *args: Any) -> Any:
    import asyncio

    return await asyncio.to_thread(fn, *args)


async def test_forgetting_a_person_keeps_the_others_ratings(host: ToyHost) -> None:
    for i in range(4):
        await _play(host, [10, 11] if i % 2 else [10, 12], takes=1 + i % 3)
    before = {r.player: r for r in await host.store.top_ratings("toynim", 0, PEOPLE, 10)}
    assert set(before) == {"u10", "u11", "u12"}
    assert await Ratings(host.store).forget(10) == 4
    after = {r.player: r for r in await host.store.top_ratings("toynim", 0, PEOPLE, 10)}
    assert after == {p: before[p] for p in ("u11", "u12")}  # the same numbers, without them
    tables = await dump(host.store)
    assert not any("u10" in str(row) for rows in tables.values() for row in rows)
    assert await host.store.ratings_of(10, 0) == [] and await host.store.changes_of(10, 0, 10) == []
    place = await host.store.rating_place("toynim", 0, PEOPLE, "u11")
    assert place is not None and place[2] == 2  # the former player is not counted on the table
