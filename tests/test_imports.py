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


def _bot_modules() -> dict[str, Path]:
    out = {}
    for f in sorted((ROOT / "bot").rglob("*.py")):
        parts = list(f.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = f
    return out


def _bot_imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Every ``bot.*`` module that ``name`` imports anywhere (top level, inside functions, under
    ``TYPE_CHECKING``): a cycle counts wherever its imports stand."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                mod = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            targets = [mod] + [f"{mod}.{a.name}" for a in node.names]
        for t in targets:
            while t and t not in known:
                t = t.rsplit(".", 1)[0] if "." in t else ""
            if t and t != name and not name.startswith(t + "."):
                found.add(t)
    return found


def test_bot_has_no_import_cycle_and_keeps_its_layers() -> None:
    """``bot/`` is layered: ``host`` (store, service, clock) and ``offline`` (demo, terminal)
    import nothing of Discord or of ``surface``; no module imports one that imports it back."""
    mods = _bot_modules()
    known = set(mods)
    graph = {m: _bot_imports(m, p, known) for m, p in mods.items()}
    for m, deps in graph.items():
        if m.startswith(("bot.host", "bot.offline")):
            assert not any(d.startswith("bot.surface") for d in deps), f"{m} imports the Discord layer"
            assert "discord" not in _imports(mods[m]), f"{m} imports discord"
    state: dict[str, int] = {}

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for d in sorted(graph[m]):
            assert state.get(d) != 1, "import cycle: " + " -> ".join([*path, m, d])
            if d not in state:
                visit(d, [*path, m])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [])
    assert len(graph) > 15
