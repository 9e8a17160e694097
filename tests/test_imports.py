"""``engines/`` and ``render/`` stay pure: no discord, sqlite or asyncio, checked two ways.
``render`` may use Pillow and ``isal`` (ISA-L's deflate for the PNGs, optional: render.png falls
back to zlib without it)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import engines
import render
from tests.test_tree import module_imports as tree_imports
from tests.test_tree import product_modules as tree_modules

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {"discord", "aiosqlite", "sqlite3", "_sqlite3", "asyncio", "aiohttp"}
STDLIB = set(sys.stdlib_module_names)


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module.split(".")[0])
    return out


def test_sources_import_nothing_forbidden() -> None:
    for pkg, allowed_extra in (("engines", {"engines"}), ("render", {"render", "engines", "PIL", "isal"})):
        files = sorted((ROOT / pkg).rglob("*.py"))
        assert files
        for f in files:
            mods = _imports(f)
            assert not mods & FORBIDDEN, f"{f} imports {mods & FORBIDDEN}"
            outside = {m for m in mods if m not in STDLIB and m not in allowed_extra and m != "__future__"}
            assert not outside, f"{f} imports non-standard modules {outside}"
            if pkg == "engines":
                assert "PIL" not in mods


def test_runtime_import_pulls_in_nothing_forbidden() -> None:
    code = (
        "import sys, importlib, engines, render\n"
        "engines.load_all()\n"
        "from engines import base\n"
        "for e in base.games(): importlib.import_module('render.' + e.name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in %r)\n"
        "print(','.join(bad))\n" % (FORBIDDEN,)
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "", f"importing engines/render loaded {out.stdout.strip()}"


def test_every_game_has_a_renderer() -> None:
    from engines import base

    engines.load_all()
    for e in base.games():
        mod = render.get(e.name)
        for fn in ("board", "hand", "score_sheet", "text"):
            assert callable(getattr(mod, fn, None)), f"render.{e.name} lacks {fn}()"


def test_bot_keeps_its_layers() -> None:
    """``bot/`` is layered: ``host`` (store, service, clock) and ``offline`` (demo, terminal)
    import nothing of Discord or of ``surface`` (tests/test_tree.py checks that no module anywhere
    imports one that imports it back)."""
    mods = {m: p for m, p in tree_modules().items() if m.startswith("bot")}
    graph = {m: tree_imports(m, p, set(mods)) for m, p in mods.items()}
    for m, deps in graph.items():
        if m.startswith(("bot.host", "bot.offline")):
            assert not any(d.startswith("bot.surface") for d in deps), f"{m} imports the Discord layer"
            assert "discord" not in _imports(mods[m]), f"{m} imports discord"
    assert len(graph) > 15
