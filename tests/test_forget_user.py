"""``bazaar db forget-user USER_ID`` on both backends (``backend_target``: SQLite and PostgreSQL):
games played by the real engines through the game service, then one person forgotten. Their id
and name leave every finished and ended game (the seat stays, as "a former player", and each game
still replays to its snapshot) and every open lobby (their seat removed, a lobby left with no
person closed); an active game they play is left as it is and reported (exit code 1) until it
is over; the other players' rows are untouched; a second run changes nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot import cli
from bot.host.backup import hold_running
from bot.host.forget import FORMER_CREATOR, FORMER_PLAYER
from bot.host.service import GameService
from bot.host.store import Store
from bot.host.store_copy import replays
from tests.store_internals import pool_of, row_of, sqlite_of

ANN, BOB, CY = 10, 11, 12  # Ann is forgotten
DM_CHANNEL = {ANN: 7010, BOB: 7011, CY: 7012}


async def _play_out(svc: GameService, gid: int, people: tuple[int, ...], moves: int = 10_000) -> None:
    """Each awaited person plays the first legal action (the AI seats answer) for up to ``moves`` moves."""
    for _ in range(moves):
        game = await svc.get(gid)
        if game.row.status != "active":
            return
        user = next(u for u in people if svc.awaited_seat(game, u) is not None)
        seat = svc.awaited_seat(game, user)
        assert seat is not None
        await svc.move(gid, user, str(game.engine.legal_actions(game.state, seat)[0]))


async def _game(svc: GameService, kind: str, people: list[tuple[int, str]], ai: int = 1) -> int:
    creator, name = people[0]
    g = await svc.create(
        kind=kind, options=None, clock=None, guild_id=1, channel_id=5, user_id=creator, name=name
    )
    for user, who in people[1:]:
        await svc.join(g.id, user, who)
    for _ in range(ai):
        await svc.add_ai(g.id, creator, "easy")
    return g.id


async def _dms(store: Store, gid: int, people: list[int]) -> None:
    """A DM recorded per person's seat, a form draft of each, Ann's private view digest."""
    for seat in await store.seats(gid):
        if seat.user_id in people:
            await store.add_message(
                gid,
                kind="dm",
                seat=seat.seat,
                channel_id=DM_CHANNEL[seat.user_id],
                message_id=90_000 + 10 * gid + seat.seat,
                version=0,
            )
            await store.save_draft(gid, seat.seat, "offer", 0, {"give": [str(seat.user_id)]})
            if seat.user_id == ANN:
                await store.update_seat(gid, seat.seat, dm_hash="abc", dm_closed=True)


async def _install(target: str | Path) -> dict[str, int]:
    """Games of every status holding Ann (and Bob, and Cy) as a bot leaves them; their ids by name."""
    store = await Store.open(target)
    svc = GameService(store, seed_source=iter(range(300, 400)).__next__)
    try:
        ids = {
            "finished": await _game(svc, "pralaya", [(ANN, "Ann"), (BOB, "Bob")]),
            "finished3": await _game(svc, "kathai", [(BOB, "Bob"), (CY, "Cy"), (ANN, "Ann")]),
            "ended": await _game(svc, "pralaya", [(ANN, "Ann"), (BOB, "Bob")]),
            "active": await _game(svc, "pralaya", [(BOB, "Bob"), (ANN, "Ann")]),
        }
        for name, gid in ids.items():
            await svc.start(gid, (await row_of(store, gid)).creator_id)
            people = (ANN, BOB, CY)
            await _play_out(svc, gid, people, moves=10_000 if name.startswith("finished") else 4)
            await _dms(store, gid, list(people))
        await svc.end(ids["ended"], ANN, can_manage=False)
        ids["lobby_ann_made"] = await _game(svc, "kathai", [(ANN, "Ann"), (BOB, "Bob")], ai=0)
        await _dms(store, ids["lobby_ann_made"], [BOB])
        ids["lobby_bob_made"] = await _game(svc, "ra", [(BOB, "Bob"), (ANN, "Ann")])
        ids["lobby_ann_alone"] = await _game(svc, "phraya", [(ANN, "Ann")])
        ids["bob_only"] = await _game(svc, "pralaya", [(BOB, "Bob"), (CY, "Cy")], ai=0)
        return ids
    finally:
        await store.close()


async def _read(target: str | Path) -> tuple[dict[str, list[tuple[Any, ...]]], dict[int, Any]]:
    """Every row of every table, and every game's record."""
    store = await Store.open(target, migrate=False)
    try:
        return await store.export_rows(), {r.id: await store.record(r.id) for r in await store.games()}
    finally:
        await store.close()


async def _senders(target: str | Path, game_id: int) -> set[int | None]:
    """Who sent the game's moves, read from a database of any schema (no table added since)."""
    store = await Store.open(target, migrate=False)
    try:
        record = await store.record(game_id)
        assert record is not None
        return {m.user_id for m in record.moves}
    finally:
        await store.close()


def _forget(
    env: pytest.MonkeyPatch, target: str | Path, user: str, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    env.setenv("BAZAAR_DB", str(target))
    code = cli.main(["db", "forget-user", user])
    out = capsys.readouterr()
    return code, out.out, out.err


def _holding(rows: dict[str, list[tuple[Any, ...]]], user: int) -> dict[str, set[int]]:
    """The games whose rows hold ``user``: as creator, in a seat, as a move's sender, in a DM's channel."""
    return {
        "games": {r[0] for r in rows["games"] if r[7] == user},
        "seats": {r[0] for r in rows["seats"] if r[2] == user},
        "moves": {r[0] for r in rows["moves"] if r[5] == user},
        "messages": {r[1] for r in rows["messages"] if r[4] == DM_CHANNEL[user]},
    }


def _bob(rows: dict[str, list[tuple[Any, ...]]], records: dict[int, Any]) -> Any:
    """Bob's rows, seat numbers aside (a lobby's later seats move up when one leaves)."""
    seats = sorted((r[0], *r[2:]) for r in rows["seats"] if r[2] == BOB)
    moves = [r for r in rows["moves"] if r[5] == BOB]
    made = [r[0] for r in rows["games"] if r[7] == BOB]
    return seats, moves, made


def test_forget_user_on_both_backends(
    env: pytest.MonkeyPatch, backend_target: str | Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ids = asyncio.run(_install(backend_target))
    before, records = asyncio.run(_read(backend_target))
    assert {records[ids[k]].row.status for k in ("finished", "finished3")} == {"finished"}
    assert records[ids["ended"]].row.status == "ended" and records[ids["active"]].row.status == "active"
    held = _holding(before, ANN)
    assert held["seats"] >= {ids["finished"], ids["finished3"], ids["ended"], ids["active"]} and held["moves"]
    assert held["messages"] and ids["lobby_ann_made"] in held["games"]

    code, out, err = _forget(env, backend_target, str(ANN), capsys)
    assert code == 1 and not out and err.count("\n") == 1 and err.startswith(f"bazaar: forgot user {ANN}: ")
    assert "3 seat(s) in 3 game(s) that are over renamed 'a former player'" in err
    assert f"1 active game(s) left as they are (#{ids['active']})" in err
    assert (
        "taken out of 3 open lobby(ies) (1 closed)" in err
        and "3 changed game(s) replay to their snapshots" in err
    )
    n_moves = sum(1 for r in before["moves"] if r[5] == ANN and r[0] != ids["active"])
    assert f"{n_moves} move(s) and 4 game creator(s) unlinked" in err  # finished, ended and two lobbies
    after, now = asyncio.run(_read(backend_target))

    left = _holding(after, ANN)
    assert left == {
        "games": set(),
        "seats": {ids["active"]},
        "moves": {ids["active"]} & held["moves"],
        "messages": {ids["active"]},
    }
    assert now[ids["active"]] == records[ids["active"]]  # the active game is left exactly as it was
    assert not any(r[3] == "Ann" and r[0] != ids["active"] for r in after["seats"])
    _check_games_over(ids, records, now, after)
    _check_lobbies(ids, records, now, after)
    b_seats, b_moves, b_made = _bob(before, records)
    assert _bob(after, now) == (b_seats, b_moves, b_made)
    bob_dms = [r for r in before["messages"] if r[4] == DM_CHANNEL[BOB] and r[1] != ids["lobby_ann_made"]]
    assert bob_dms and all(r in after["messages"] for r in bob_dms)

    # a second run changes nothing and says so; once the active game is over it is forgotten too
    code, out, err = _forget(env, backend_target, str(ANN), capsys)
    assert code == 1 and "0 seat(s) in 0 game(s)" in err and f"(#{ids['active']})" in err
    assert asyncio.run(_read(backend_target)) == (after, now)
    asyncio.run(_end(backend_target, ids["active"]))
    code, out, err = _forget(env, backend_target, str(ANN), capsys)
    assert code == 0 and not err and out.count("\n") == 1
    assert "1 seat(s) in 1 game(s)" in out and "1 changed game(s) replay to their snapshots" in out
    final, games = asyncio.run(_read(backend_target))
    assert _holding(final, ANN) == {"games": set(), "seats": set(), "moves": set(), "messages": set()}
    assert replays(games[ids["active"]]) is True and _bob(final, games) == (b_seats, b_moves, b_made)
    code, out, err = _forget(env, backend_target, str(ANN), capsys)
    assert code == 0 and "nothing to forget" in out and asyncio.run(_read(backend_target)) == (final, games)


def _check_games_over(
    ids: dict[str, int], records: dict[int, Any], now: dict[int, Any], after: dict[str, list[tuple[Any, ...]]]
) -> None:
    """Ann's seat in each game that is over: kept, unnamed and unlinked; the game replays as before."""
    for key in ("finished", "finished3", "ended"):
        gid = ids[key]
        was, is_ = records[gid], now[gid]
        assert (is_.row.seed, is_.row.options, is_.row.status, is_.snapshot) == (
            was.row.seed,
            was.row.options,
            was.row.status,
            was.snapshot,
        )
        assert [(m.seat, m.action, m.by) for m in is_.moves] == [(m.seat, m.action, m.by) for m in was.moves]
        assert len(is_.seats) == len(was.seats) and replays(is_) is True
        ann = next(s for s in was.seats if s.user_id == ANN)
        former = is_.seats[ann.seat]
        assert (former.user_id, former.name, former.dm_hash, former.dm_closed) == (
            None,
            FORMER_PLAYER,
            None,
            False,
        )
        assert former.is_ai == ann.is_ai and not any(m.user_id == ANN for m in is_.moves)
        assert not any(r[0] == gid and r[1] == ann.seat for r in after["drafts"])  # her draft is gone
        assert any(r[0] == gid and r[1] != ann.seat for r in after["drafts"])  # the others' stay
        assert not any(r[1] == gid and r[2] == "dm" and r[3] == ann.seat for r in after["messages"])
    assert now[ids["finished"]].row.creator_id == FORMER_CREATOR


def _check_lobbies(
    ids: dict[str, int], records: dict[int, Any], now: dict[int, Any], after: dict[str, list[tuple[Any, ...]]]
) -> None:
    """Ann taken out of the open lobbies (the one left with no person closed); Bob's game untouched."""
    made = now[ids["lobby_ann_made"]]
    assert made.row.status == "lobby" and made.row.creator_id == FORMER_CREATOR
    assert [(s.seat, s.user_id, s.name) for s in made.seats] == [(0, BOB, "Bob")]
    assert not any(r[0] == made.row.id for r in after["drafts"])  # Bob's draft was made in seat 1
    bob_made = now[ids["lobby_bob_made"]]
    assert bob_made.row.status == "lobby" and [s.user_id for s in bob_made.seats] == [BOB, None]
    alone = now[ids["lobby_ann_alone"]]
    assert alone.row.status == "ended" and [s.is_ai for s in alone.seats] == [True]
    assert now[ids["bob_only"]] == records[ids["bob_only"]]


async def _end(target: str | Path, gid: int) -> None:
    store = await Store.open(target)
    try:
        await GameService(store).end(gid, BOB, can_manage=True)
    finally:
        await store.close()


def test_two_people_forgotten_in_one_game_are_numbered(
    env: pytest.MonkeyPatch, backend_target: str | Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ids = asyncio.run(_install(backend_target))
    gid = ids["finished3"]
    assert _forget(env, backend_target, str(CY), capsys)[0] == 0
    assert _forget(env, backend_target, str(ANN), capsys)[0] == 1  # Ann's active game stays
    _, records = asyncio.run(_read(backend_target))
    names = {s.name: s.user_id for s in records[gid].seats if not s.is_ai}
    assert names == {"Bob": BOB, FORMER_PLAYER: None, f"{FORMER_PLAYER} 2": None}
    assert replays(records[gid]) is True


@pytest.mark.parametrize("bad", ["abc", "-5", "0", "1.5", "²", "", str(2**63)])
def test_a_user_id_that_is_not_one_is_refused_and_nothing_changes(
    env: pytest.MonkeyPatch, tmp_path: Path, bad: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bazaar.sqlite3"
    asyncio.run(_install(path))
    before = asyncio.run(_read(path))
    code, out, err = _forget(env, path, bad, capsys)
    assert code == 2 and not out and err.count("\n") == 1 and "USER_ID is a Discord user id" in err
    assert asyncio.run(_read(path)) == before


def test_sqlite_refuses_while_a_bot_runs_and_a_missing_file(
    env: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bazaar.sqlite3"
    asyncio.run(_install(path))
    before = asyncio.run(_read(path))
    running = hold_running(path)
    try:
        code, out, err = _forget(env, path, str(ANN), capsys)
    finally:
        running.close()
    assert code == 1 and "a bot is running" in err and err.count("\n") == 1
    assert asyncio.run(_read(path)) == before
    code, out, err = _forget(env, tmp_path / "none.sqlite3", str(ANN), capsys)
    assert code == 1 and "there is no SQLite database" in err and not (tmp_path / "none.sqlite3").exists()


async def _log_rules(target: str | Path) -> None:
    store = await Store.open(target)
    try:
        g = await store.create_game(
            kind="toy",
            seed=5,
            options={},
            guild_id=1,
            channel_id=2,
            creator_id=ANN,
            creator_name="Ann",
            clock_seconds=3600,
        )
        await store.start_game(g.id, state_json="{}", deadline=None)
        await store.record_move(
            g.id, expected_version=0, seat=0, action="a", by="player", user_id=ANN, state_json="{}"
        )
        for sql in (
            "UPDATE moves SET user_id = 5",
            "UPDATE moves SET user_id = NULL, action = 'b'",
            "DELETE FROM moves",
        ):
            with pytest.raises(Exception, match="append-only"):
                await _raw(store, sql)
        await _raw(store, "UPDATE moves SET user_id = NULL")  # the one change migration 7 allows
        assert [(m.action, m.user_id) for m in await store.moves(g.id)] == [("a", None)]
    finally:
        await store.close()


async def _raw(store: Store, sql: str) -> None:
    if store.dialect == "sqlite":
        await sqlite_of(store).execute(sql)
    else:
        await pool_of(store).execute(sql)


def test_the_move_log_accepts_only_erasing_a_sender(backend_target: str | Path) -> None:
    asyncio.run(_log_rules(backend_target))


async def _schema_6_game(target: str | Path, folder: Path) -> int:
    """A database at schema 6 (before forget-user) holding a game Ann played and ended."""
    store = await Store.open(target, migrations=folder)
    try:
        assert await store.schema_version() == 6
        svc = GameService(store, seed_source=iter(range(500, 600)).__next__)
        gid = await _game(svc, "pralaya", [(ANN, "Ann"), (BOB, "Bob")])
        await svc.start(gid, ANN)
        await _play_out(svc, gid, (ANN, BOB), moves=3)
        await svc.end(gid, BOB, can_manage=True)
        return gid
    finally:
        await store.close()


def test_an_older_database_is_migrated_first(
    env: pytest.MonkeyPatch,
    backend: str,
    backend_target: str | Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from bot.host.store import MIGRATIONS, PG_MIGRATIONS

    folder = tmp_path / "six"
    folder.mkdir()
    for path in sorted((PG_MIGRATIONS if backend == "postgres" else MIGRATIONS).glob("000[1-6]_*.sql")):
        (folder / path.name).write_text(path.read_text())
    gid = asyncio.run(_schema_6_game(backend_target, folder))
    assert asyncio.run(_senders(backend_target, gid)) & {ANN}  # the schema-6 log holds her id
    code, out, err = _forget(env, backend_target, str(ANN), capsys)
    assert code == 0 and "1 seat(s) in 1 game(s)" in out and "1 changed game(s) replay" in out
    rows, records = asyncio.run(_read(backend_target))
    assert _holding(rows, ANN) == {"games": set(), "seats": set(), "moves": set(), "messages": set()}
    assert replays(records[gid]) is True
