"""Install and run it like real software: the container image's install step gives the bot with
its runtime dependencies only, the Compose files parse and use the image, `bazaar health` reads
the heartbeat the running bot writes."""

from __future__ import annotations

import re
import shutil
import subprocess
import venv
from pathlib import Path

import pytest
import yaml

from bot import cli
from bot.host import heartbeat

ROOT = Path(__file__).resolve().parent.parent


def test_health_reads_the_heartbeat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    beat = tmp_path / "beat"
    assert heartbeat.check(beat)[0] is False
    heartbeat.beat(beat, now=1000.0)
    assert heartbeat.check(beat, now=1030.0) == (True, "the bot was up and connected 30 s ago")
    ok, line = heartbeat.check(beat, now=1000.0 + heartbeat.STALE + 1)
    assert not ok and "stuck" in line
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BAZAAR_HEARTBEAT", str(beat))
    heartbeat.beat(beat)
    assert cli.main(["health"]) == 0
    beat.unlink()
    assert cli.main(["health"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("bazaar: no heartbeat") and err.count("\n") == 1


def test_the_compose_files_parse_and_build_the_image() -> None:
    expected = {"compose.yaml": {"bazaar"}, "compose.sharded.yaml": {"db", "shard0", "shard1"}}
    for name, services in expected.items():
        doc = yaml.safe_load((ROOT / name).read_text())
        assert set(doc["services"]) == services, name
        bots = [s for n, s in doc["services"].items() if n != "db"]
        assert all(s["build"] == "." for s in bots)
    sharded = yaml.safe_load((ROOT / "compose.sharded.yaml").read_text())["services"]
    env0, env1 = sharded["shard0"]["environment"], sharded["shard1"]["environment"]
    assert (env0["SHARD_IDS"], env1["SHARD_IDS"]) == ("0", "1")
    user = env0["BAZAAR_DB"].split("//")[1].split("@")[0]
    assert ":" not in user and env0["PGPASSWORD"]  # the password comes from PGPASSWORD, not the URL


def test_the_dockerfile_runs_as_a_user_on_a_volume_with_a_health_check() -> None:
    text = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^USER (?!root)\S+", text, re.M)
    assert 'VOLUME ["/data"]' in text and "BAZAAR_DB=/data/" in text
    assert "HEALTHCHECK" in text and '"bazaar", "health"' in text
    assert 'CMD ["bazaar", "run"]' in text


@pytest.mark.slow
def test_the_dockerfiles_install_step_gives_the_runtime_only(tmp_path: Path) -> None:
    """The image's `pip install .`, run in a fresh venv on a copy of what the image copies:
    the bot runs, and no test or lint tool comes with it."""
    text = (ROOT / "Dockerfile").read_text()
    step = re.search(r"^RUN python -m venv /opt/venv && /opt/venv/bin/pip install (.*)$", text, re.M)
    assert step, "the Dockerfile's install step changed: update this test"
    src = tmp_path / "src"
    for item in re.findall(r"^COPY (.+) \./\S*$", text, re.M):
        for part in item.split():
            p = ROOT / part
            if p.is_dir():
                shutil.copytree(p, src / part, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                src.mkdir(exist_ok=True)
                shutil.copy(p, src / part)
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    pip = env_dir / "bin" / "pip"
    args = step.group(1).split()
    subprocess.run([str(pip), "install", "--quiet", *args], cwd=src, check=True, timeout=900)
    bazaar = str(env_dir / "bin" / "bazaar")
    out = subprocess.run([bazaar, "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("bazaar ")
    installed = subprocess.run(
        [str(pip), "list", "--format=freeze"], capture_output=True, text=True, check=True
    ).stdout.lower()
    for tool in ("pytest", "hypothesis", "ruff", "mypy"):
        assert f"\n{tool}==" not in "\n" + installed, tool
    for needed in ("discord.py", "aiosqlite", "asyncpg", "pillow"):
        assert needed in installed, needed


def _unit(path: Path) -> dict[str, dict[str, str]]:
    import configparser

    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(path.read_text())
    return {s: dict(parser[s]) for s in parser.sections()}


def test_the_service_units_run_the_bot_as_its_own_user_and_restart_it() -> None:
    for name in ("bazaar.service", "bazaar@.service"):
        unit = _unit(ROOT / "deploy" / name)
        service = unit["Service"]
        assert service["User"] == "bazaar" and service["WorkingDirectory"]
        assert service["ExecStart"].endswith("bazaar run") and ".venv-run" in service["ExecStart"]
        assert service["Restart"] == "on-failure" and service["KillSignal"] == "SIGINT"
        assert service["StandardOutput"] == "journal"
        assert unit["Install"]["WantedBy"] == "multi-user.target"
    assert "SHARD_IDS=%i" in _unit(ROOT / "deploy" / "bazaar@.service")["Service"]["Environment"]
    for doc in ("docs/deploy.md", "README.md"):
        text = (ROOT / doc).read_text()
        assert "deploy/bazaar.service" in text and "compose.sharded.yaml" in text, doc
