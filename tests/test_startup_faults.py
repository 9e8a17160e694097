"""``bazaar run`` on a database it cannot use exits with code 1 and one line naming the problem and
what to do (no traceback), before contacting Discord: a read-only file, a read-only folder (an
existing database, or a new one), a folder that cannot be made, a file that is not a database,
and a lock another process holds. The bot runs in a child process whose Discord address is a
closed local port, so nothing can leave the machine whatever happens. As root, the child drops
the capabilities that let root write read-only files (``setpriv``), so the modes count."""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.host.store import Store
from tests.dbfaults import write_lock

ROOT = Path(__file__).resolve().parent.parent
CHILD = """
import os, sys
import discord.http
discord.http.Route.BASE = "http://127.0.0.1:9/api/v10"   # never the real Discord
from bot.host.store import Store
Store.BUSY_TIMEOUT_MS = int(os.environ.get("BUSY_MS", "5000"))
from bot.cli import main
sys.exit(main(["run"]))
"""
DROP = [
    "setpriv",
    "--bounding-set=-dac_override,-dac_read_search",
    "--inh-caps=-dac_override,-dac_read_search",
]


def _prefix(probe: Path) -> list[str]:
    """What runs the child without the power to ignore file modes; skips if that is impossible."""
    if os.geteuid() != 0:
        return []
    if not shutil.which("setpriv"):
        pytest.skip("running as root without setpriv: file modes cannot be made to count")
    probe.write_text("x")
    probe.chmod(0o444)
    tried = subprocess.run([*DROP, sys.executable, "-c", f"open({str(probe)!r}, 'a')"], capture_output=True)
    if tried.returncode == 0:
        pytest.skip("cannot drop CAP_DAC_OVERRIDE here: file modes cannot be made to count")
    return DROP


def _run(db: Path | str, cwd: Path, prefix: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("BAZAAR_", "DISCORD_"))}
    environ |= {"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "not-a-real-token", "BAZAAR_DB": str(db), **env}
    return subprocess.run(
        [*prefix, sys.executable, "-c", CHILD],
        cwd=cwd,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _refused(proc: subprocess.CompletedProcess[str], *words: str) -> str:
    assert proc.returncode == 1, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert not [line for line in lines if line[:1].isspace()], proc.stderr  # no continuation lines
    critical = [line for line in lines if line.startswith("bazaar: not starting:")]
    assert len(critical) == 1, proc.stderr
    for w in words:
        assert w in critical[0], (w, critical[0])
    return critical[0]


def _good_db(path: Path) -> Path:
    """A Bazaar database with every migration applied (so opening it needs no write)."""

    async def make() -> None:
        await (await Store.open(path)).close()

    asyncio.run(make())
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE kept (x)")
    db.commit()
    db.close()  # the -wal and -shm files go with the last connection
    assert not path.with_name(path.name + "-wal").exists()
    return path


def test_read_only_files_and_folders_stop_the_bot_with_one_line(tmp_path: Path) -> None:
    prefix = _prefix(tmp_path / "probe")
    ro_file = _good_db(tmp_path / "ro-file.sqlite3")
    ro_file.chmod(0o444)
    folder = tmp_path / "ro-folder"
    folder.mkdir()
    in_folder = _good_db(folder / "bazaar.sqlite3")
    folder.chmod(0o555)
    try:
        _refused(_run(ro_file, tmp_path, prefix), str(ro_file), "read-only", "writable")
        _refused(_run(in_folder, tmp_path, prefix), str(in_folder), "read-only", "folder")
        # a path other than the default that does not exist is a typo until shown otherwise
        _refused(_run(folder / "new.sqlite3", tmp_path, prefix), "new.sqlite3", "bazaar db migrate")
        # the default path is created as before: here its folder cannot be made
        line = _refused(_run(Path("data/bazaar.sqlite3"), folder, prefix), "data", "folder")
        assert "cannot" in line
    finally:
        folder.chmod(0o755)
    assert not (folder / "new.sqlite3").exists()
    db = sqlite3.connect(ro_file)  # untouched
    assert ("kept",) in db.execute("SELECT name FROM sqlite_master").fetchall()
    db.close()


def test_a_folder_that_cannot_be_made_a_damaged_file_and_a_lock_stop_the_bot(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    _refused(_run(tmp_path / "afile" / "db.sqlite3", tmp_path, []), "afile", "BAZAAR_DB")
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database at all " * 300)
    _refused(_run(junk, tmp_path, []), str(junk), "not a SQLite database")
    assert junk.read_bytes() == b"not a database at all " * 300
    locked = _good_db(tmp_path / "locked.sqlite3")
    with write_lock(locked):
        _refused(_run(locked, tmp_path, [], BUSY_MS="100"), str(locked), "locked by another process")


def test_a_postgresql_server_that_cannot_be_used_stops_the_bot_with_one_line(
    tmp_path: Path, pg_admin: str
) -> None:
    """BAZAAR_DB a postgresql:// URL: no server at the port, a database that does not exist;
    one line each, naming the server but never the password."""
    line = _refused(
        _run("postgresql://bazaar:hunter2@127.0.0.1:9/bazaar", tmp_path, []),
        "127.0.0.1:9",
        "cannot be reached",
    )
    assert "hunter2" not in line
    missing = pg_admin.rsplit("/", 1)[0] + "/bazaar_no_such_database"
    _refused(_run(missing, tmp_path, []), "does not exist", "BAZAAR_DB")


def test_a_database_path_that_does_not_exist_is_not_created_silently(tmp_path: Path) -> None:
    """A typo in BAZAAR_DB would start an empty database: a path other than the default that
    does not exist is refused in one line saying how to create it, and nothing is created."""
    typo = tmp_path / "bazzar.sqlite3"
    _refused(_run(typo, tmp_path, []), str(typo), "typo", "bazaar db migrate")
    assert not typo.exists() and not typo.with_name(typo.name + ".lock").exists()
