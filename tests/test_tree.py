"""The shape of the tree (issue 25): the four games' folders hold the same files with the same
roles in every layer; no product file or function passes its size limit; no import cycle
anywhere; no citation of documents a clone does not have; fast state copies in one place."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("kathai", "phraya", "pralaya", "ra")
PRODUCT = ("engines", "render", "bot", "benchmarks")
MAX_FILE_LINES = 500
MAX_FUNCTION_LINES = 60

ENGINE_ROLES = {
    "__init__", "data", "state", "legal", "apply", "notation", "view", "scoring", "prompts",
    "describe", "rules", "positions", "ai", "guide", "icons",
    "undo",
}  # fmt: skip
AI_ROLES = {"__init__", "heuristic", "determinize", "playout"}
RENDER_ROLES = {"__init__", "layout", "art", "board", "hand", "sheet", "marks", "text", "emoji", "rulescard"}
TEST_ROLES = {
    "__init__", "helpers", "test_examples", "test_rules", "test_view", "test_prompts", "test_text",
    "test_ai", "test_search", "test_render", "test_labels",
}  # fmt: skip


def _roles(folder: Path) -> set[str]:
    """The names at the top of a folder: modules by stem, packages by name (a role may be either)."""
    out = set()
    for p in folder.iterdir():
        if p.suffix == ".py":
            out.add(p.stem)
        elif p.is_dir() and (p / "__init__.py").exists():
            out.add(p.name)
    return out


@pytest.mark.parametrize(
    ("layer", "roles"), [("engines", ENGINE_ROLES), ("render", RENDER_ROLES), ("tests", TEST_ROLES)]
)
def test_every_game_folder_holds_the_same_roles(layer: str, roles: set[str]) -> None:
    for game in GAMES:
        found = _roles(ROOT / layer / game)
        assert found == roles, (
            f"{layer}/{game}: missing {sorted(roles - found)}, not a role {sorted(found - roles)}"
        )


def test_the_checks_cover_every_game() -> None:
    import engines

    assert list(GAMES) == engines.game_packages()
    shared = {"ratings"}  # render/ratings: the ratings' pictures, for every game (not a game)
    packages = {p.name for p in (ROOT / "render").iterdir() if (p / "__init__.py").exists()}
    assert set(GAMES) == packages - shared


def test_every_game_ai_package_holds_the_same_parts() -> None:
    for game in GAMES:
        assert _roles(ROOT / "engines" / game / "ai") == AI_ROLES, game


def _product_files() -> Iterator[Path]:
    for top in PRODUCT:
        yield from sorted((ROOT / top).rglob("*.py"))


def test_no_product_file_is_over_the_limit() -> None:
    over = []
    for p in _product_files():
        n = len(p.read_text(encoding="utf-8").splitlines())
        if n > MAX_FILE_LINES:
            over.append(f"{p.relative_to(ROOT)}: {n} lines")
    assert not over, f"files over {MAX_FILE_LINES} lines:\n" + "\n".join(over)


def test_no_product_function_is_over_the_limit() -> None:
    over = []
    for p in _product_files():
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = (node.end_lineno or node.lineno) - node.lineno + 1
                if n > MAX_FUNCTION_LINES:
                    over.append(f"{p.relative_to(ROOT)}:{node.lineno} {node.name}: {n} lines")
    assert not over, f"functions over {MAX_FUNCTION_LINES} lines:\n" + "\n".join(sorted(over))


def product_modules() -> dict[str, Path]:
    out = {}
    for top in ("engines", "render", "bot"):
        for f in sorted((ROOT / top).rglob("*.py")):
            parts = list(f.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = f
    return out


def module_imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Every known module that ``name`` imports anywhere (top level, inside functions, under
    ``TYPE_CHECKING``): a cycle counts wherever its imports stand. A module's own packages are
    left out (importing ``engines.ra`` from ``engines.ra.rules`` runs the package first)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
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


def test_no_import_cycle_anywhere() -> None:
    mods = product_modules()
    graph = {m: module_imports(m, p, set(mods)) for m, p in mods.items()}
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
    assert len(graph) > 100
    assert sum(map(len, graph.values())) > 2 * len(graph)  # the imports were read, not missed
    assert "engines.errors" in graph["engines.engine"] and "render.caption" in graph["render"]


CITES_OUTSIDE = re.compile(
    r"\.\./shared|shared/specs|shared/rules|spec §|specs?/\w+\.md|§\s?\d"
    r"|\bDESIGN\b|\b[Tt]he spec\b|\b[Ss]pec's\b"  # the design notes and specs by name, without a path
)
CITE = re.compile(r"(?<![\w.])(?:docs/)?rules/(\w+)\.md#([\w-]+)")  # docs/ is left out in links within docs/
ANCHOR = re.compile(r'<a id="([\w-]+)"></a>')


def _repo_texts() -> Iterator[Path]:
    for top in (*PRODUCT, "tests", "docs"):
        for p in sorted((ROOT / top).rglob("*")):
            if p.suffix in (".py", ".md", ".toml", ".txt") and "golden" not in p.parts:
                yield p
    yield from (ROOT / name for name in ("README.md", "Makefile", "pyproject.toml", "CHANGELOG.md"))


def test_nothing_cites_documents_outside_the_repository() -> None:
    bad = []
    for p in _repo_texts():
        if p == Path(__file__):
            continue
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            if CITES_OUTSIDE.search(line):
                bad.append(f"{p.relative_to(ROOT)}:{i}: {line.strip()[:100]}")
    assert not bad, "citations of files a clone lacks:\n" + "\n".join(bad[:40]) + f"\n({len(bad)} in all)"


def test_every_cited_ruling_exists() -> None:
    anchors = {
        g: set(ANCHOR.findall((ROOT / "docs" / "rules" / f"{g}.md").read_text(encoding="utf-8")))
        for g in GAMES
    }
    cited = 0
    for p in _repo_texts():
        for game, rid in CITE.findall(p.read_text(encoding="utf-8")):
            cited += 1
            assert rid in anchors.get(game, set()), f"{p.relative_to(ROOT)} cites docs/rules/{game}.md#{rid}"
    assert cited > 20
    for game, ids in anchors.items():
        assert len(ids) >= 5, f"docs/rules/{game}.md has {len(ids)} ruling ids"


FAST_COPY_ATTRS = {"__dict__", "__class__", "__new__", "__setattr__"}


def _fast_copy_tricks(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """Code (not prose) that reaches past a frozen dataclass: ``x.__dict__``, ``x.__class__``,
    ``object.__new__``, ``object.__setattr__``, ``X.__new__(X)`` and ``vars(x)``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in FAST_COPY_ATTRS:
            yield node.lineno, f".{node.attr}"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "vars":
            yield node.lineno, "vars(...)"


def test_fast_state_copies_go_through_one_helper() -> None:
    bad = []
    for p in sorted((ROOT / "engines").rglob("*.py")):
        if p.name == "fastcopy.py":
            continue
        for i, what in sorted(set(_fast_copy_tricks(ast.parse(p.read_text(encoding="utf-8"))))):
            bad.append(f"{p.relative_to(ROOT)}:{i}: {what}")
    assert not bad, "write or read a state's dict through engines.fastcopy:\n" + "\n".join(bad)


def test_the_fast_copy_check_sees_every_trick() -> None:
    code = (
        "_new = object.__new__\n_set = object.__setattr__\nd = s.__dict__\nk = s.__class__\n"
        "w = Work.__new__(Work)\nvars(s).update(x)\n"
    )
    assert [i for i, _ in _fast_copy_tricks(ast.parse(code))] == [1, 2, 3, 4, 5, 6]
    assert not list(_fast_copy_tricks(ast.parse('"""copies through object.__setattr__"""\n')))
