"""Shards: SHARD_COUNT / SHARD_IDS parsing and their one-line errors, which guilds a process
holds, and the turn clock claimed from the database (SharedClock) firing each due clock once
across two clocks on one database."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot.host.clock_shared import SharedClock, due_kind
from bot.host.config import ConfigError, load_config
from bot.host.shards import Shards, parse_shards, shard_of
from bot.host.store import Store

PG = "postgresql://postgres@127.0.0.1:5432/test"


def test_parse_shards_reads_count_and_ids() -> None:
    assert parse_shards("", "") is None
    assert parse_shards("4", "") == Shards(4, (0, 1, 2, 3))
    assert parse_shards(" 2 ", "1, 0") == Shards(2, (0, 1))
    three = parse_shards("3", "2")
    assert three == Shards(3, (2,)) and three.partial
    both = parse_shards("2", "0,1")
    assert both is not None and not both.partial


@pytest.mark.parametrize(
    "count, ids, message",
    [
        ("", "0", "SHARD_IDS needs SHARD_COUNT"),
        ("0", "", "SHARD_COUNT must be a whole number from 1 to 4096, not '0'"),
        ("two", "", "not 'two'"),
        ("5000", "", "from 1 to 4096"),
        ("2", "0;1", "separated by commas (like 0,1), not '0;1'"),
        ("2", "0,-1", "separated by commas"),
        ("2", "2", "SHARD_IDS names shard 2, but with SHARD_COUNT=2 the shards are 0 to 1"),
        ("2", "1,1", "names a shard twice"),
    ],
)
def test_bad_shard_settings_are_refused_with_one_line(count: str, ids: str, message: str) -> None:
    with pytest.raises(ValueError) as err:
        parse_shards(count, ids)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_load_config_takes_shards_and_wants_postgres_for_a_part_of_them() -> None:
    env = {
        "DISCORD_TOKEN": "t",
        "SHARD_COUNT": "2",
        "SHARD_IDS": "1",
        "BAZAAR_DB": PG,
        "BAZAAR_CLOCK_POLL": "0.5",
        "BAZAAR_CLOCK_LEASE": "90",
    }
    cfg = load_config(None, environ=env)
    assert cfg.shards == Shards(2, (1,)) and cfg.clock_poll == 0.5 and cfg.clock_lease == 90
    assert load_config(None, environ={"DISCORD_TOKEN": "t"}).shards is None
    # every shard in one process: a SQLite file is fine
    assert load_config(None, environ={"DISCORD_TOKEN": "t", "SHARD_COUNT": "2"}).shards == Shards(2, (0, 1))
    with pytest.raises(ConfigError, match=r"SHARD_IDS=1 runs only some of the 2 shards.*PostgreSQL"):
        load_config(None, environ={**env, "BAZAAR_DB": "data/x.sqlite3"})
    with pytest.raises(
        ConfigError, match=r"^SHARD_IDS names shard 3, but with SHARD_COUNT=2 the shards are 0 to 1\.$"
    ):
        load_config(None, environ={**env, "SHARD_IDS": "3"})
    with pytest.raises(
        ConfigError, match="BAZAAR_CLOCK_POLL must be a number of seconds from 0.05 to 300, not 'soon'"
    ):
        load_config(None, environ={**env, "BAZAAR_CLOCK_POLL": "soon"})
    with pytest.raises(
        ConfigError, match="BAZAAR_CLOCK_LEASE must be a number of seconds from 1 to 3600, not '0'"
    ):
        load_config(None, environ={**env, "BAZAAR_CLOCK_LEASE": "0"})


def test_guilds_go_to_the_shard_discord_routes_them_to() -> None:
    assert shard_of(None, 4) == 0  # a DM
    assert shard_of(7 << 22, 1) == 0
    assert [shard_of((n << 22) | 12345, 3) for n in range(6)] == [0, 1, 2, 0, 1, 2]
    assert shard_of(81384788765712384, 2) == (81384788765712384 >> 22) % 2
    one = Shards(2, (1,))
    assert one.holds(1 << 22) and not one.holds(2 << 22) and not one.holds(None)
    assert Shards(2, (0,)).holds(None) and Shards(2, (0, 1)).describe() == "shards 0,1 of 2"


def test_due_kind_reads_the_stored_row() -> None:
    from bot.host.store import GameRow

    def row(deadline: float, reminded: bool = False, status: str = "active") -> GameRow:
        return GameRow(1, "toy", 1, {}, 1, 2, None, 3, status, 4, 600, deadline, reminded, None, 0.0, 0.0)

    assert due_kind(row(999.0), 1000.0) == "expire"
    assert due_kind(row(1200.0), 1000.0) == "remind"  # half of 600 s left
    assert due_kind(row(1200.0, reminded=True), 1000.0) is None
    assert due_kind(row(2000.0), 1000.0) is None and due_kind(None, 1000.0) is None
    assert due_kind(row(999.0, status="finished"), 1000.0) is None


async def test_two_clocks_on_one_database_fire_each_due_clock_once_and_skip_a_live_claim(
    backend_target: str | Path,
) -> None:
    now = [1000.0]
    store = await Store.open(backend_target, now=lambda: now[0])
    other = await Store.open(backend_target, now=lambda: now[0]) if "://" in str(backend_target) else store
    try:
        ids = []
        for deadline in (900.0, 1200.0, 5000.0, 950.0):
            g = await store.create_game(
                kind="toy",
                seed=5,
                options={},
                guild_id=1,
                channel_id=2,
                creator_id=10,
                creator_name="Ann",
                clock_seconds=600,
            )
            await store.start_game(g.id, state_json="{}", deadline=deadline)
            ids.append(g.id)
        fired: list[tuple[str, int, str]] = []

        def handler(name: str, db: Store) -> Callable[[int, str], Awaitable[None]]:
            async def handle(gid: int, kind: str) -> None:
                fired.append((name, gid, kind))
                if kind == "expire":  # what the service does: the move moves the deadline on
                    await db.update_game(gid, deadline=now[0] + 600, reminded=False)
                else:
                    await db.update_game(gid, reminded=True)

            return handle

        await store.claim_due(now[0], "dead", 30.0, limit=1)  # a process died holding ids[0]
        a = SharedClock(lambda: [], handler("a", store), store=store, owner="a", now=lambda: now[0])
        b = SharedClock(lambda: [], handler("b", other), store=other, owner="b", now=lambda: now[0])
        first = await a.tick()
        second = await b.tick()
        assert sorted(first + second) == sorted([(ids[3], "expire"), (ids[1], "remind")])
        assert len(fired) == 2 and await a.tick() == [] and await b.tick() == []
        now[0] = 1031.0  # the dead process's lease lapsed: its clock fires now, once
        assert await b.tick() + await a.tick() == [(ids[0], "expire")]
        assert await store.claims(ids[0]) == (None, None)  # released once handled
        assert len(fired) == 3 and a.seconds_to_next() == a.max_sleep
    finally:
        await store.close()
        if other is not store:
            await other.close()
