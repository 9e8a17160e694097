"""Every setting the code reads is in .env.example with its default and meaning, and `bazaar run
--help` lists them; `bazaar --version` gives the installed version."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path
from typing import Any

import pytest

from bot import cli
from bot.host import config
from bot.host.settings import ALIASES, SETTINGS

ROOT = Path(__file__).resolve().parent.parent


class _Recording(dict[str, str]):
    def __init__(self, *a: Any, **k: Any) -> None:
        super().__init__(*a, **k)
        self.read: set[str] = set()

    def get(self, key: str, default: Any = None) -> Any:
        self.read.add(key)
        return super().get(key, default)

    def __getitem__(self, key: str) -> str:
        self.read.add(key)
        return super().__getitem__(key)


def test_the_loader_reads_exactly_the_listed_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _Recording({"DISCORD_TOKEN": "x"})
    monkeypatch.setattr(config, "_merged", lambda env_file, environ: seen)
    config.load_config(None)
    assert seen.read - ALIASES == {name for name, _, _ in SETTINGS}


def test_env_example_lists_every_setting_with_its_default_and_meaning() -> None:
    lines = (ROOT / ".env.example").read_text().splitlines()
    found: dict[str, str] = {}
    for i, line in enumerate(lines):
        if line and not line.startswith("#"):
            name, _, value = line.partition("=")
            found[name] = value
            assert i > 0 and lines[i - 1].startswith("# "), f"{name} has no line of meaning above it"
    assert list(found) == [name for name, _, _ in SETTINGS]
    assert found == {name: default for name, default, _ in SETTINGS}
    # the example, as it is, loads (a token aside)
    values = dict(found, DISCORD_TOKEN="x")
    config.load_config(None, environ=values)


def test_run_help_lists_the_settings_and_version_comes_from_the_metadata(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        cli.main(["run", "--help"])
    out = capsys.readouterr().out
    assert all(name in out for name, _, _ in SETTINGS)
    with pytest.raises(SystemExit):
        cli.main(["--version"])
    assert capsys.readouterr().out.strip() == f"bazaar {importlib.metadata.version('bazaar')}"
