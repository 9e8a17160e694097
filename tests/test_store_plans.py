"""Every query the store issues is answered through an index: ``EXPLAIN QUERY PLAN`` of each
statement shows no full ``SCAN`` of the tables that grow with play (the move log above all, and
seats, snapshots, messages, drafts).

The statements are not copied out of ``bot/host/store.py`` by hand: every public method of
:class:`~bot.host.store.Store` is called on a small database while SQLite's trace callback records
each statement as run (parameters bound), so a query added to the store later is checked too; a
public method this test does not call fails it.
"""

from __future__ import annotations

import inspect
import re
import sqlite3
from pathlib import Path
from typing import Any

from bot.host.store import Store
from bot.host.store_archive import NewSeat
from tests.store_internals import sqlite_of

#: Tables that grow with every move or post: none may be read by a full scan.
GROWING = ("moves", "seats", "snapshots", "messages", "drafts", "posts", "rating_changes")
#: Listing every game at start-up (the turn clock's deadlines, unposted boards) reads the whole
#: games table by design; any other scan of games is a missing index.
GAMES_SCAN_ALLOWED = re.compile(r"FROM games( g)? WHERE (g\.)?status IN \(")
NOT_QUERIES = ("BEGIN", "COMMIT", "ROLLBACK", "PRAGMA", "CREATE", "SAVEPOINT", "RELEASE")


async def _exercise(store: Store) -> set[str]:
    """Call every public method of the store; returns their names."""
    called: set[str] = set()

    async def call(method: str, *args: Any, **kwargs: Any) -> Any:
        called.add(method)
        return await getattr(store, method)(*args, **kwargs)

    g = await call(
        "create_game",
        kind="toy",
        seed=5,
        options={},
        guild_id=1,
        channel_id=2,
        creator_id=10,
        creator_name="Ann",
        clock_seconds=3600,
    )
    other = await store.create_game(
        kind="toy",
        seed=6,
        options={},
        guild_id=1,
        channel_id=2,
        creator_id=11,
        creator_name="Bo",
        clock_seconds=3600,
    )
    await call("add_seat", g.id, user_id=11, name="Bo")
    await call("add_seat", g.id, user_id=None, name="AI 1", is_ai=True, max_seats=5)
    await store.add_seat(other.id, user_id=12, name="Cy")
    await call("remove_seat", other.id, 1, end_if_empty=True)
    await call("update_seat", g.id, 1, dm_hash="x", expiries=1)
    await call("start_game", g.id, state_json="{}", deadline=5000.0, thread_id=77)
    for v in range(3):
        await call(
            "record_move",
            g.id,
            expected_version=v,
            seat=v % 2,
            action=f"a{v}",
            by="player",
            user_id=10,
            state_json=f"{{{v}}}",
            deadline=6000.0,
            seat_updates={0: {"expiries": 0}},
        )
    await call("update_game", g.id, expect_status="active", reminded=True)
    await call("game", g.id)
    await call("games", statuses=["active"])
    await call("games", statuses=["lobby", "active"], guild_id=1)
    await call("games", place_id=77)
    await call("games", place_id=2)
    await call("games")
    await call("seats", g.id)
    assert [x.seat for x in (await call("seats_of", [g.id, other.id, 999]))[g.id]] == [0, 1, 2]
    await call("moves", g.id)
    await call("moves", g.id, last=2)
    await call("history", g.id)
    await call("record", g.id)
    await call("snapshot", g.id)
    await call("add_message", g.id, kind="turn", channel_id=77, message_id=900, version=3, live=True)
    await call("add_message", g.id, kind="dm", channel_id=78, message_id=901, version=3, live=True, seat=0)
    await call("messages", g.id)
    await call("messages", g.id, kind="turn", live=True)
    await call("unposted")
    await call("unposted", (0.0, 2000.0))  # the running sweep's window (games_by_update)
    await call("set_message_version", 900, 4)
    await call("retire_messages", [1, 2])
    await call("save_draft", g.id, 0, "offer", 3, {"give": ["a"]})
    await call("draft", g.id, 0, "offer", 3)
    await call("drop_drafts", g.id, 0)
    await call("drop_drafts", g.id)
    await call("schema_version")
    await call("migrate")
    await call("stamp", g.id)
    claimed = await call("claim_due", 10_000.0, "p1", 60.0)
    await call("claims", g.id)
    await call("release_claim", g.id, "p1")
    await call("release_claims", "p1")  # at shutdown (games_by_claim_owner)
    assert claimed == [g.id]
    assert await call("claim_post", g.id, 3, "board", "p1", 60.0) == "won"
    await call("post_state", g.id, 3, "board")
    await call("post_done", g.id, 3, "board", "p1")
    await call("release_post", g.id, 3, "recap", "p1")
    await call("mark_reminded", g.id, 3)
    await call("move_at", g.id, 2)
    await call("set_message_shape", 2, "classic")
    await call("message_shape", 2)
    assert [r.id for r in await call("games_of_user", 1, 10, limit=10)] == [g.id]  # /history
    await call("finished_of_kind", 1, "toy")  # /stats
    await call("rematch_of", g.id)
    await call("keep_outcome", g.id, {"ranks": [1, 2]})
    assert await call("outcomes_of", [g.id, 999]) == {g.id: {"ranks": [1, 2]}}
    rematch = dict(kind="toy", seed=1, options={}, guild_id=1, channel_id=2, creator_id=10, clock_seconds=60)
    await call("open_rematch", g.id, seats=[NewSeat(10, "Ann")], **rematch)
    await call("set_hints", g.id, False)
    await call("hints_on", g.id)
    await call("take_hint", g.id, 0, 1)
    assert await call("hint_taken", g.id, 0, 1)
    await call("give_back_hint", g.id, 0, 1)
    await call("save_review", g.id, 0, "[]")
    await call("review", g.id, 0)
    await call("note_media_edit", 2, refused=True)
    await call("media_edits", 2)
    await call("set_guild_confirm", 1, True)
    await call("guild_confirm", 1)
    await _ratings(call, g.id)
    called.add("describe")
    assert store.describe()
    return called


async def _ratings(call: Any, gid: int) -> None:
    """The ratings' statements (bot.host.store_ratings), on game ``gid`` finished and rated."""
    from bot.host.store_ratings import ChangeRow, RatingRow, ResultRow

    await call("mark_unrated", gid)
    await call("unrated", [gid, 999])
    await call("finished_at", gid)
    await call("unresulted")
    await call("rating_due")
    result = ResultRow(gid, "toy", 1, 1000.0, (1, 2), ("u10", "u11"), "people")
    row = RatingRow("toy", 1, "people", "u10", 10, "Ann", 27.0, 8.0, 1000, 1, 1, 1000, gid, 1000.0)
    change = ChangeRow(gid, 1, "u10", "toy", "people", 10, 0, 2, 1, 1000, 1010, True, 1000.0)
    await call("rate_one", result, [(1, "u10"), (1, "u11")], lambda current: ([row], [change]))
    await call("put_results", [ResultRow(gid + 1, "toy", 1, 1000.0, (), (), "unrated")])
    await call("rating_inputs")
    await call("rating_changes_of", gid)
    await call("top_ratings", "toy", 1, "people", 10)
    await call("rating_place", "toy", 1, "people", "u10")
    await call("ratings_of", 10, 1)
    await call("changes_of", 10, 1, 5)
    await call("forget_rated", 11, "gone:x")
    await call("replace_ratings", [row], [change])


#: Methods that read or write whole tables by design, left out of the plan check: `bazaar db
#: copy` (export_rows, import_rows: every row of every table; is_empty: one row).
WHOLE_TABLE_BY_DESIGN = {"export_rows", "import_rows", "is_empty"}


def _public_methods() -> set[str]:
    return {name for name, fn in inspect.getmembers(Store, inspect.isfunction) if not name.startswith("_")}


async def test_no_store_query_scans_a_growing_table(tmp_path: Path) -> None:
    path = tmp_path / "plans.sqlite3"
    store = await Store.open(path, now=lambda: 1000.0)
    statements: list[str] = []
    try:
        traced = sqlite_of(store)
        await traced.set_trace_callback(statements.append)  # each statement the store runs
        called = await _exercise(store)
        await traced.set_trace_callback(lambda statement: None)  # (not the close's)
    finally:
        await store.close()
    missing = _public_methods() - called - {"open", "close"} - WHOLE_TABLE_BY_DESIGN
    assert not missing, f"the plan test does not call Store.{sorted(missing)}: add them to _exercise"

    queries = sorted(
        {" ".join(s.split()) for s in statements if not s.lstrip().upper().startswith(NOT_QUERIES)}
    )
    assert any(q.startswith("SELECT") and "FROM moves" in q for q in queries), queries  # the trace worked
    db = sqlite3.connect(path)
    scans: list[str] = []
    try:
        for q in queries:
            for row in db.execute(f"EXPLAIN QUERY PLAN {q}"):
                detail = row[-1]
                m = re.match(r"SCAN (\w+)", detail)
                if not m:
                    continue
                table = m.group(1)
                listing = GAMES_SCAN_ALLOWED.search(q) and "updated_at >=" not in q  # not the sweep's window
                if table in GROWING or (
                    table == "games"
                    and not listing
                    and not re.fullmatch(r"SELECT .* FROM games ORDER BY id", q)
                ):
                    scans.append(f"{detail}  <-  {q}")
    finally:
        db.close()
    assert not scans, "full scans:\n" + "\n".join(scans)
