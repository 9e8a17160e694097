"""Two ``bazaar run`` processes, shards 0 and 1 of 2, against one fake Discord and one PostgreSQL.

The fake routes as Discord does: a guild's events and interactions go to the session of shard
``(guild_id >> 22) % 2``, DMs to shard 0. The bots are the real ``bazaar run`` in processes of
their own (``tests/fakediscord/launch.py``, ``SHARD_COUNT=2``, ``SHARD_IDS=0`` / ``1``), on a fresh
schema of the test server. Kathai is played on both shards (three people each), so the addressee of
an offer answers from buttons in their DM. The test checks that:

- each process connects only its shard and gets only its shard's guilds;
- a DM click for the shard-1 game reaches the shard-0 process and applies (read from the
  database, posted to the shard-1 game's place through REST);
- two clicks for one game at once, one at each process (the DM button at shard 0, ``/move`` in the
  game's thread at shard 1), apply once: one move lands, the other is refused with a reason;
- the shard-1 process killed with SIGKILL and started again resumes its game;
- every turn clock fires exactly once: the test moves deadlines in the database (as time passing
  would; clocks are at least a minute), for games of both shards while both run, for the shard-1
  game while its process is dead (the other process fires it), and for a game whose clock a
  dead process had claimed (the claim lapses and the clock fires then); each is counted in the
  move log, the seats' expiry counters, the boards' "time ran out" lines and the processes' logs;
- no process logs a traceback or an error.

With ``CI=true`` the test runs or fails, never skips (see tests/pgserver.py).
"""

from __future__ import annotations

import asyncio
import functools
import re
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.host.store import GameRecord, Store
from engines import base
from tests.e2e.botprocess import BotProcess, run_cli
from tests.fakediscord import Channel, FakeDiscord, Interaction, Message, Session, User
from tests.store_internals import record_of, row_of

PLAYED = "✅ Played `"
TIMED_OUT = "⏰ Time ran out for"
TITLE = re.compile(r"\*\*(?P<title>[^*#]+ #(?P<id>\d+))\*\*")


class Table:
    """One Kathai game of three people, read back from the database."""

    def __init__(self, gid: int, place: Channel, users: dict[int, User]) -> None:
        self.gid, self.place, self.users = gid, place, users
        self.title = f"Kathai #{gid}"


async def _record(store: Store, gid: int) -> tuple[GameRecord, base.Engine, Any]:
    record = await record_of(store, gid)
    engine = base.get(record.row.kind)
    state = base.replay(
        engine,
        record.row.seed,
        len(record.seats),
        record.row.options,
        [(m.seat, m.action) for m in record.moves],
    )
    return record, engine, state


async def _open_kathai(fake: FakeDiscord, store: Store, channel: Channel, users: list[User]) -> Table:
    ann = users[0]
    mark = fake.mark()
    h = await fake.slash(ann, channel, "game new", options={"game": "kathai", "clock": "10m"})
    assert h.ephemeral and "Opened" in h.text, h.text
    lobby = await fake.wait_message(channel, lambda m: "lobby" in m.text, after=mark)
    found = TITLE.search(lobby.text)
    assert found is not None, lobby.text
    gid = int(found.group("id"))
    for n, user in enumerate(users[1:], start=2):
        join = await fake.click(user, lobby, label="Join")
        assert not join.followups, _answer(join)
        await _until(functools.partial(_seated, store, gid, n), "the join")
    start = await fake.click(ann, lobby, label="Start")
    await start.wait_followups()
    assert "has started" in start.followups[-1].text, start.followups
    row = await row_of(store, gid)
    assert row.status == "active", row
    seats = {s.seat: next(u for u in users if u.id == s.user_id) for s in await store.seats(gid)}
    return Table(gid, fake.channel(row.place_id), seats)


async def _dead_claim(pg_url: str, gid: int, lease: float) -> None:
    """Leave the game's clock due and claimed by a process that died holding it (its lease
    running ``lease`` more seconds), in one statement, so no live process claims it first."""
    import asyncpg

    conn = await asyncpg.connect(pg_url)
    try:
        now = time.time()
        await conn.execute(
            "UPDATE games SET deadline = $1, claim_owner = 'dead-process', claim_until = $2 WHERE id = $3",
            now - 1,
            now + lease,
            gid,
        )
    finally:
        await conn.close()


async def _version_above(store: Store, gid: int, v: int) -> bool:
    return (await row_of(store, gid)).version > v


async def _seated(store: Store, gid: int, n: int) -> bool:
    return len(await store.seats(gid)) == n


async def _until(check: Callable[[], Awaitable[bool]], what: str, timeout: float = 60.0) -> None:
    """Wait until the coroutine ``check()`` returns true (polling the database)."""
    end = time.monotonic() + timeout
    while not await check():
        assert time.monotonic() < end, f"timed out after {timeout} s waiting for {what}"
        await asyncio.sleep(0.1)


def _board_posted(fake: FakeDiscord, t: Table, version: int) -> bool:
    """Whether the board of ``version`` of ``t``'s game is posted in its place."""
    return any(m.text.startswith(f"**{t.title}** · move {version}\n") for m in fake.messages(t.place))


def _answer(h: Interaction) -> str:
    """What the bot answered an interaction (its reply, else its last follow-up)."""
    if h.followups:
        return h.followups[-1].text or ""
    return h.text or ""


def _received(session: Session, h: Interaction) -> bool:
    """Whether ``session`` was sent the interaction ``h``."""
    return any(f["t"] == "INTERACTION_CREATE" and f["d"]["id"] == str(h.id) for f, _ in session.buffer)


async def _offer(fake: FakeDiscord, store: Store, t: Table) -> tuple[int, int, int]:
    """The active player offers a trade (``/move`` in the game's place); returns the offerer,
    the addressee and the version at which the addressee answers."""
    record, engine, state = await _record(store, t.gid)
    [a] = engine.to_move(state)
    offers = [x for x in engine.legal_actions(state, a) if x.startswith("offer s")]
    offer = offers[0] if offers else next(x for x in engine.legal_actions(state, a) if x.startswith("offer "))
    h = await fake.slash(t.users[a], t.place, "move", action=offer, timeout=60)
    assert h.text.startswith(PLAYED), h.text
    record, engine, state = await _record(store, t.gid)
    b = engine.to_move(state)[0]
    assert b != a
    return a, b, record.row.version


async def _dm_button(fake: FakeDiscord, user: User, custom_id: str) -> Message:
    message: Message = await fake.wait_for(
        lambda: next((m for m in reversed(fake.dms(user)) if custom_id in m.custom_ids), None),
        60,
        what=f"a DM carrying {custom_id}",
    )
    return message


async def _expire(
    fake: FakeDiscord,
    store: Store,
    tables: list[Table],
    expect: dict[int, int],
    *,
    move_deadline: bool = True,
) -> None:
    """Move the deadlines of ``tables`` into the past (as time passing would; ``deadline`` False:
    it is past already) and wait until each game took its expiry: its version moved on by a clock
    move and each seat it awaited counted it."""
    before = {}
    for t in tables:
        record, engine, state = await _record(store, t.gid)
        seats = [s for s in engine.to_move(state) if not record.seats[s].is_ai]
        assert seats, (t.gid, engine.to_move(state))
        before[t.gid] = (record.row.version, {s: record.seats[s].expiries for s in seats})
        if move_deadline:
            await store.update_game(t.gid, deadline=time.time() - 1)

    async def done() -> bool:
        for t in tables:
            version, expiries = before[t.gid]
            record = await record_of(store, t.gid)
            if record.row.version == version:
                return False
            assert record.moves[version].by == "clock", record.moves[version:]
            assert {s: record.seats[s].expiries for s in expiries} == {s: n + 1 for s, n in expiries.items()}
        return True

    await _until(done, "the expiries")
    for t in tables:  # and its board is posted (before the test may kill the process that fired it)
        version = (await row_of(store, t.gid)).version
        await fake.wait_for(
            functools.partial(_board_posted, fake, t, version), 60, what=f"the board of move {version}"
        )
    for t in tables:
        expect[t.gid] = expect.get(t.gid, 0) + 1


async def test_two_shard_processes_share_games_dms_clicks_clocks_and_a_sigkill(
    pg_url: str, tmp_path: Path
) -> None:
    fake = FakeDiscord(ack_deadline=None, default_timeout=60, shard_count=2)
    await fake.start()
    processes: list[BotProcess] = []
    store: Store | None = None
    env = {
        "BAZAAR_AI_GRACE": "0",
        "BAZAAR_RATE_LIMIT": "off",
        "SHARD_COUNT": "2",
        "BAZAAR_CLOCK_POLL": "0.3",
        "BAZAAR_CLOCK_LEASE": "30",
    }

    def boot(shard: int) -> BotProcess:
        bot = BotProcess(
            fake,
            pg_url,
            tmp_path / f"bot-{len(processes)}-shard{shard}.log",
            cwd=tmp_path,
            env={**env, "SHARD_IDS": str(shard)},
        )
        processes.append(bot)
        return bot

    try:
        g0 = fake.add_guild("Shard Zero", channels=["games"], shard=(0, 2))
        g1 = fake.add_guild("Shard One", channels=["games"], shard=(1, 2))
        assert ((g0.id >> 22) % 2, (g1.id >> 22) % 2) == (0, 1)
        c0, c1 = (next(iter(g.channels.values())) for g in (g0, g1))
        code, out = await run_cli(fake, pg_url, "sync", cwd=tmp_path)
        assert code == 0, out
        a = await boot(0).start()
        b = await boot(1).start()
        assert (a.session.shard, b.session.shard) == ((0, 2), (1, 2))
        ready = {s: next(f for f, _ in s.buffer if f["t"] == "READY")["d"] for s in (a.session, b.session)}
        assert [g["id"] for g in ready[a.session]["guilds"]] == [str(g0.id)]
        assert [g["id"] for g in ready[b.session]["guilds"]] == [str(g1.id)]
        store = await Store.open(pg_url)

        users0 = [fake.add_user(n, guild=g0) for n in ("ann", "bob", "cal")]
        users1 = [fake.add_user(n, guild=g1) for n in ("dee", "eve", "fay")]
        t0 = await _open_kathai(fake, store, c0, users0)
        first_b = len([f for f, _ in b.session.buffer if f["t"] == "INTERACTION_CREATE"])
        t1 = await _open_kathai(fake, store, c1, users1)
        assert len([f for f, _ in b.session.buffer if f["t"] == "INTERACTION_CREATE"]) > first_b
        expected: dict[int, int] = {}

        # 1. a DM click for the shard-1 game goes to shard 0 and applies there, through the database
        offerer, addressee, v = await _offer(fake, store, t1)
        dm = await _dm_button(fake, t1.users[addressee], f"bz:{t1.gid}:{v}:decline")
        mark = fake.mark()
        h = await fake.click(t1.users[addressee], dm, f"bz:{t1.gid}:{v}:decline", timeout=60)
        assert _received(a.session, h) and not _received(b.session, h)
        await _until(lambda: _version_above(store, t1.gid, v), "the DM click to land")
        record = await record_of(store, t1.gid)
        assert not h.followups, _answer(h)
        assert record.row.version == v + 1 and (record.moves[v].seat, record.moves[v].action) == (
            addressee,
            "decline",
        )
        board = await fake.wait_message(t1.place, lambda m: f"· move {v + 1}" in m.text, after=mark)
        assert "declines" in board.text, board.text

        # 2. two clicks for one game at once, one at each process: one applies, the other is refused
        offerer, addressee, v = await _offer(fake, store, t1)
        user = t1.users[addressee]
        dm = await _dm_button(fake, user, f"bz:{t1.gid}:{v}:decline")
        by_dm, by_move = await asyncio.gather(
            fake.click(user, dm, f"bz:{t1.gid}:{v}:decline", timeout=60),
            fake.slash(user, t1.place, "move", action="decline", timeout=60),
        )
        assert _received(a.session, by_dm) and _received(b.session, by_move)
        await _until(lambda: _version_above(store, t1.gid, v), "one of the two to land")
        if by_move.text.startswith(PLAYED):
            await by_dm.wait_followups(timeout=60)  # the click lost: its refusal comes as a follow-up
        record = await record_of(store, t1.gid)
        declines = [m for m in record.moves[v:] if m.seat == addressee]
        assert [(m.version, m.action) for m in declines] == [(v + 1, "decline")], record.moves[v:]
        if by_move.text.startswith(PLAYED):  # /move at shard 1 won: the click is refused
            winner = "/move at shard 1"
            refusal = next((m.text for m in by_dm.followups if m.ephemeral), "")
        else:  # the DM click at shard 0 won
            winner, refusal = "the DM click at shard 0", by_move.text
        assert refusal and not refusal.startswith(PLAYED), (by_move.text, by_dm.followups)
        print(f"\nconcurrent clicks: {winner} applied; the other was told {refusal!r}")

        # 3. every clock fires exactly once: both shards' games while both processes run
        await _expire(fake, store, [t0, t1], expected)

        # 4. the shard-1 process killed: the shard-0 process fires the shard-1 game's clock
        await b.kill()
        await _expire(fake, store, [t1], expected)

        # 5. a process died holding a claim: the claim lapses and the clock fires then, once
        record, engine, state = await _record(store, t0.gid)
        await _dead_claim(pg_url, t0.gid, lease=2.0)
        await asyncio.sleep(0.5)
        assert (await row_of(store, t0.gid)).version == record.row.version  # held by the dead claim
        await _expire(fake, store, [t0], expected, move_deadline=False)  # fires once the claim lapses

        # 6. the shard-1 process started again resumes its game: its next move is played there
        b2 = await boot(1).start()
        assert b2.session.shard == (1, 2)
        record, engine, state = await _record(store, t1.gid)
        [seat] = engine.to_move(state)
        action = engine.legal_actions(state, seat)[0]
        h = await fake.slash(t1.users[seat], t1.place, "move", action=action, timeout=60)
        assert h.text.startswith(PLAYED), h.text
        assert _received(b2.session, h)
        assert (await row_of(store, t1.gid)).version > record.row.version
        await _expire(fake, store, [t1], expected)

        # each clock fired once: counters, log lines, board lines
        await asyncio.sleep(1.0)  # a second firing would have happened by now (polls every 0.3 s)
        logs = "\n".join(p.log() for p in processes)
        for t in (t0, t1):
            record = await record_of(store, t.gid)
            fired = len(re.findall(rf"Turn clock: expire for game {t.gid} ", logs))
            assert fired == expected[t.gid], (t.gid, fired, expected)
            lines = sum(m.text.count(TIMED_OUT) for m in fake.messages(t.place))
            assert lines == expected[t.gid], (t.gid, lines, expected)
            assert record.row.attention is None
        assert expected == {t0.gid: 2, t1.gid: 3}
        print(f"clocks fired: {expected} (game: expiries), each once in the logs and on the boards")

        for p in processes:
            if p.alive():
                assert await p.stop() == 0, p.tail()
        for p in processes:
            assert not p.problems(), f"{p.log_path.name}:\n" + "\n---\n".join(p.problems())
    finally:
        for p in processes:
            if p.alive() and p.proc is not None:
                p.proc.kill()
                p.proc.wait()
        if store is not None:
            await store.close()
        await fake.close()
    fake.assert_clean()
