"""``bazaar db migrate`` and ``bazaar db copy``: a SQLite install with real games (played by the
real engines through the game service) copied to PostgreSQL, checked by replaying every game on
the target; and one-line ``bazaar:`` errors for a wrong URL, an unreachable server, a target
that is not empty and a missing source file."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from bot import cli
from bot.host import store_schema
from bot.host.service import GameService
from bot.host.store import COPY_TABLES, Store, StoreError
from bot.host.store_copy import copy_store, replays
from bot.host.store_side import DERIVED
from engines import base
from tests.store_internals import record_of


async def _install(path: Path) -> dict[str, int]:
    """A SQLite install as a bot leaves it: a game of each kind played some moves by people and
    AI seats (one finished by AI seats alone), a lobby, an ended game, messages and a draft."""
    store = await Store.open(path)
    svc = GameService(store, seed_source=iter(range(100, 200)).__next__)
    try:
        for engine in base.games():
            g = await svc.create(
                kind=engine.name, options=None, clock=None, guild_id=1, channel_id=5, user_id=10, name="Ann"
            )
            for _ in range(engine.min_players):
                await svc.add_ai(g.id, 10)
            await svc.start(g.id, 10)
            for _ in range(3):  # Ann's turns: the first legal action, then the AI seats answer
                game = await svc.get(g.id)
                if game.row.status != "active" or svc.awaited_seat(game, 10) is None:
                    break
                action = str(engine.legal_actions(game.state, 0)[0])
                await svc.move(g.id, 10, action)
            await store.add_message(
                g.id,
                kind="turn",
                channel_id=5,
                message_id=9000 + g.id,
                version=(await svc.get(g.id)).row.version,
                live=True,
            )
        lobby = await svc.create(
            kind=base.games()[0].name,
            options=None,
            clock=None,
            guild_id=1,
            channel_id=6,
            user_id=11,
            name="Bob",
        )
        await store.save_draft(lobby.id, 0, "offer", 0, {"give": ["x"]})
        ended = await svc.create(
            kind=base.games()[0].name,
            options=None,
            clock=None,
            guild_id=1,
            channel_id=7,
            user_id=12,
            name="Cy",
        )
        await svc.end(ended.id, 12, can_manage=False)
        await store.set_message_shape(5, "classic")  # a channel that refused Components V2
        await store.set_message_shape(10**18 + 7, "v2")  # a snowflake-sized id
        await store.note_media_edit(10**18 + 7, refused=True)  # a V2 media edit refused there
        await store.set_guild_confirm(1, False)  # a server's own setting
        return {t: len(r) for t, r in (await store.export_rows()).items()}
    finally:
        await store.close()


def test_migrate_applies_pending_migrations_once(
    env: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    env.setenv("BAZAAR_DB", str(tmp_path / "new" / "bazaar.sqlite3"))
    assert cli.main(["db", "migrate"]) == 0
    numbers = [n for n, _, _ in store_schema.migration_files()]  # every file of migrations/sqlite
    applied = ", ".join(str(n) for n in numbers)
    assert f"schema 0 -> {numbers[-1]} (applied migration(s) {applied})" in capsys.readouterr().out
    assert cli.main(["db", "migrate"]) == 0
    assert f"schema {numbers[-1]} -> {numbers[-1]} (nothing to apply)" in capsys.readouterr().out


def test_migrate_on_postgres_and_its_errors(
    env: pytest.MonkeyPatch, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    env.setenv("BAZAAR_DB", pg_url)
    assert cli.main(["db", "migrate"]) == 0
    assert f"schema 0 -> {store_schema.migration_files()[-1][0]}" in capsys.readouterr().out
    env.setenv("BAZAAR_DB", "postgresql://bazaar:pw@127.0.0.1:9/x")
    assert cli.main(["db", "migrate"]) == 1
    err = capsys.readouterr().err
    assert (
        err.startswith("bazaar: ")
        and err.count("\n") == 1
        and "cannot be reached" in err
        and ":pw@" not in err
    )
    env.setenv("BAZAAR_DB", "mysql://db/x")
    assert cli.main(["db", "migrate"]) == 2
    assert "postgresql:// URL" in capsys.readouterr().err


def test_copy_moves_every_game_and_checks_it_by_replaying(
    env: pytest.MonkeyPatch, tmp_path: Path, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "bazaar.sqlite3"
    counts = asyncio.run(_install(source))
    assert counts["moves"] > 10 and counts["games"] == len(base.games()) + 2
    env.setenv("BAZAAR_DB", str(source))
    assert cli.main(["db", "copy", "--to", pg_url]) == 0
    out = capsys.readouterr().out
    assert f"{counts['games']} games" in out and f"{counts['moves']} moves" in out
    assert f"{len(base.games())} started game(s) replay on the target" in out  # the lobbies have no log

    async def check() -> None:
        lite, pg = await Store.open(source), await Store.open(pg_url)
        try:
            assert await pg.export_rows() == await lite.export_rows()
            for row in await pg.games(statuses=["active", "finished"]):
                assert replays(await record_of(pg, row.id)) is True
            new = await pg.create_game(
                kind="toy",
                seed=1,
                options={},
                guild_id=1,
                channel_id=2,
                creator_id=3,
                creator_name="Ann",
                clock_seconds=60,
            )
            assert new.id == max(r.id for r in await lite.games()) + 1  # ids go on after the copied ones
        finally:
            await asyncio.gather(lite.close(), pg.close())

    asyncio.run(check())
    # a second copy into the same database is refused, and changes nothing
    assert cli.main(["db", "copy", "--from", str(source), "--to", pg_url]) == 1
    err = capsys.readouterr().err
    assert err.startswith("bazaar: ") and "is not empty" in err and err.count("\n") == 1


def test_copy_argument_errors_are_one_line(
    env: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    env.setenv("BAZAAR_DB", str(tmp_path / "none.sqlite3"))
    assert cli.main(["db", "copy", "--to", "postgresql://postgres@127.0.0.1:5432/test"]) == 2
    assert "no SQLite database at" in capsys.readouterr().err
    assert not (tmp_path / "none.sqlite3").exists()  # nothing was created
    assert cli.main(["db", "copy", "--to", "sqlite:///elsewhere.db"]) == 2
    assert "--to must be a postgresql:// URL" in capsys.readouterr().err
    asyncio.run(_install(tmp_path / "real.sqlite3"))
    assert (
        cli.main(
            [
                "db",
                "copy",
                "--from",
                str(tmp_path / "real.sqlite3"),
                "--to",
                "postgresql://postgres@127.0.0.1:9/test",
            ]
        )
        == 1
    )
    err = capsys.readouterr().err
    assert "cannot be reached" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://postgres:s3cret@127.0.0.1:9/test",
        "postgresql://postgres@127.0.0.1:9/test?password=s3cret",
        "postgresql://postgres@127.0.0.1:9/test?sslmode=disable&sslpassword=s3cret",
    ],
)
def test_copy_takes_no_password_on_the_command_line(
    env: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str], url: str
) -> None:
    """argv is readable by every user of the machine (ps): the password comes from PGPASSWORD."""
    asyncio.run(_install(tmp_path / "real.sqlite3"))
    assert cli.main(["db", "copy", "--from", str(tmp_path / "real.sqlite3"), "--to", url]) == 2
    err = capsys.readouterr().err
    assert "PGPASSWORD" in err and "s3cret" not in err and err.count("\n") == 1


def test_no_password_form_reaches_a_message() -> None:
    from bot.host.store_pg import passwords, redacted, scrubbed

    for url in (
        "postgresql://bob:s3cret@db:5432/x",
        "postgresql://bob@db/x?password=s3cret&sslmode=require",
        "postgres://bob@db/x?sslpassword=s3cret",
        "postgresql://bob:s3cret@db/x?PASSWORD=s3cret",
    ):
        shown = redacted(url)
        assert "s3cret" not in shown and "***" in shown, shown
        assert passwords(url) and "s3cret" not in scrubbed(f"driver said: {url} failed", url)
    assert redacted("postgresql://bob@db/x?sslmode=require") == "postgresql://bob@db/x?sslmode=require"


async def test_a_bad_url_error_never_holds_its_password(tmp_path: Path) -> None:
    from bot.host.store import StoreError, StoreUnavailable

    for url in (
        "postgresql://bob:s3cret@127.0.0.1:9/x?password=s3cret",
        "postgresql://bob:s3cret@127.0.0.1:notaport/x",
        "postgresql://bob@127.0.0.1:9/x?password=s3cret&sslmode=bogus",
    ):
        with pytest.raises((StoreError, StoreUnavailable)) as err:
            await Store.open(url, now=lambda: 0.0)
        assert "s3cret" not in str(err.value), str(err.value)


async def test_a_copy_there_and_back_keeps_every_table(tmp_path: Path, pg_url: str) -> None:
    """SQLite -> PostgreSQL -> a new SQLite file: every table (the channels' message shapes too)
    reads back the same, and the bot there still knows which channel refused Components V2."""
    source, back = tmp_path / "bazaar.sqlite3", tmp_path / "back.sqlite3"
    await asyncio.to_thread(lambda: asyncio.run(_install(source)))
    lite, pg, again = await Store.open(source), await Store.open(pg_url), await Store.open(back)
    try:
        assert (await copy_store(lite, pg)).ok
        assert (await copy_store(pg, again)).ok
        rows = await lite.export_rows()
        assert len(rows["channel_shapes"]) == 2 and set(rows) == set(COPY_TABLES)
        assert len(rows["channel_media"]) == 1 and (await again.media_edits(10**18 + 7))[0] == 1
        assert await again.guild_confirm(1) is False and await again.guild_confirm(2) is None
        assert await pg.export_rows() == rows
        assert await again.export_rows() == rows
        assert await again.message_shape(5) == "classic" and await pg.message_shape(5) == "classic"
        assert await again.message_shape(10**18 + 7) == "v2"
        assert not await again.is_empty()
    finally:
        await asyncio.gather(lite.close(), pg.close(), again.close())


async def test_a_target_holding_only_channel_shapes_is_not_empty(tmp_path: Path, pg_url: str) -> None:
    """A database where a bot has only learned a channel's shape is refused as a target (nothing
    written), so a copy never fails half-way on that row."""
    source = tmp_path / "bazaar.sqlite3"
    await asyncio.to_thread(lambda: asyncio.run(_install(source)))
    lite, pg = await Store.open(source), await Store.open(pg_url)
    try:
        await pg.set_message_shape(5, "v2")
        assert not await pg.is_empty()
        with pytest.raises(StoreError, match="is not empty"):
            await copy_store(lite, pg)
        assert await pg.games() == [] and await pg.message_shape(5) == "v2"
    finally:
        await asyncio.gather(lite.close(), pg.close())


async def test_a_copy_that_reads_back_differently_is_reported(
    tmp_path: Path, pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check is real: a target that drops a move is caught (by counts and by the record)."""
    source = tmp_path / "bazaar.sqlite3"
    await asyncio.to_thread(lambda: asyncio.run(_install(source)))
    lite, pg = await Store.open(source), await Store.open(pg_url)
    real = pg.import_rows

    async def lossy(rows: Mapping[str, list[tuple[Any, ...]]]) -> None:
        await real({**rows, "moves": rows["moves"][:-1]})

    monkeypatch.setattr(pg, "import_rows", lossy)
    try:
        report = await copy_store(lite, pg)
        assert not report.ok and any("moves" in d for d in report.differences)
        assert any("reads back differently" in d for d in report.differences)
    finally:
        await asyncio.gather(lite.close(), pg.close())


async def test_the_copy_moves_every_table_of_the_schema(tmp_path: Path, pg_url: str) -> None:
    """Every table the migrations create (both dialects) is one ``bazaar db copy`` moves: a
    migration adding a table without adding it to the copy fails here."""
    lite, pg = await Store.open(tmp_path / "schema.sqlite3"), await Store.open(pg_url)
    try:
        async with lite._read() as h:
            sqlite_tables = {
                r[0] for r in await h.sql_rows("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
        async with pg._read() as h:
            pg_tables = {
                r[0]
                for r in await h.sql_rows(
                    "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
                )
            }
    finally:
        await asyncio.gather(lite.close(), pg.close())
    made = {"schema_migrations", "sqlite_sequence"}  # the store's own bookkeeping
    moved = set(COPY_TABLES) | set(DERIVED)  # the ratings' tables: rated again on the target
    assert sqlite_tables - made == moved, sqlite_tables ^ moved
    assert pg_tables - made == moved, pg_tables ^ moved
