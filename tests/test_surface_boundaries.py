"""The Discord layer (``bot/surface``) keeps to its side of the road: it never touches the
store (the host opens, reads, writes and closes it: :mod:`bot.host.opening`, ``service.posts``,
``service.clicks``; no ``.store``, no ``Store``, and the database handle ``bazaar run`` and tests
hand the bot is only passed on, never used: no ``database.<anything>``), never imports a
game's engine internals or state types (only the engine contract every layer shares:
``engines``, ``engines.base``, ``engines.prompt``, ``engines.options``, ``engines.search``), and
never asks the engine for views, prompts, who is awaited or the outcome (``engine.view``,
``.prompt(``, ``.to_move(``, ``.outcome(``): it draws what the host hands it (a ``Batch``'s
``public_view``/``seat_view``/``awaited_seats``/``result``, ``bot.host.awaiting.board_prompt``,
``service.private_view``/``public_view``/``prompt_for``). Nor does it take or test a game's
locks (``async with game.lock``, ``.start_lock``, ``.locked()``): the host does the locked part
(``service.clicks``, ``service.start_in``, ``service.posts.publishing``, ``service.posts.sending``,
``service.posts.in_order``). Nor does it write a live game's fields (``game.board = ...``,
``game.dms[seat] = ...``, ``game.dms.pop(...)``): a publish reports what it showed through
``service.posts.delivered`` and the host writes them (:mod:`bot.host.outbox`). Nor does it word
a message an outbox carries: the words of a turn's board, a score sheet, an end notice, a DM
and their footers come with the outbox (``Outbox.words``, ``Outbox.sheet``, ``Letter.words``),
so the surface uses none of :data:`OUTBOX_WORDS` of :mod:`bot.host.wording` (its reminders,
notices and lobby, which no outbox carries, it may).

Every ``bot/surface/*.py`` is parsed with :mod:`ast`; a use outside :data:`ALLOWED` fails the
test, naming file, line and what it found. A self-test on synthetic sources shows each rule
catches a new violation.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

SURFACE = Path(__file__).resolve().parent.parent / "bot" / "surface"

CONTRACT = frozenset({"engines", "engines.base", "engines.prompt", "engines.options", "engines.search"})
"""The engine modules every layer may import (the contract, its prompts, options and AI levels)."""

ENGINE_CALLS = frozenset({"prompt", "to_move", "outcome"})
MUTATORS = frozenset({"pop", "clear", "append", "extend", "update", "add", "remove", "insert", "setdefault"})
"""Methods that change a container in place (on a live game's field: a write)."""
"""Methods the surface may not call on anything (only an engine has them)."""

OUTBOX_WORDS = frozenset(
    {
        "turn",
        "final",
        "ended",
        "notes",
        "sheet",
        "dm",
        "call",
        "footer",
        "event_lines",
        "turn_lines",
        "board_head",
        "final_head",
        "sheet_head",
        "recap",
        "recap_head",
    }
)
"""The functions of :mod:`bot.host.wording` making the words an outbox carries."""

ALLOWED: dict[tuple[str, str, str], str] = {
    # (file, function, rule) -> why it stays; none left
}
"""The uses that remain, each with its reason (keep this as short as it can be)."""

HANDLES = frozenset({"database", "_database"})
"""Names of the database handle the surface may hold and pass on (``bot.host.opening.Database``),
but not use: an attribute of it is a use."""


@dataclass(frozen=True)
class Finding:
    file: str
    line: int
    function: str
    rule: str
    what: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line} in {self.function}: {self.rule}: {self.what}"


def _dotted(node: ast.expr) -> str:
    """``a.b.c`` of an attribute chain ("?" for a part that is not a name)."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    parts.append(node.id if isinstance(node, ast.Name) else "?")
    return ".".join(reversed(parts))


def _is_engine(node: ast.expr) -> bool:
    """Whether ``node`` names an engine: ``engine`` or ``<anything>.engine``."""
    return (isinstance(node, ast.Name) and node.id == "engine") or (
        isinstance(node, ast.Attribute) and node.attr == "engine"
    )


def _is_game(node: ast.expr) -> bool:
    """Whether ``node`` names a live game: ``game`` (or ``held``, ``due``…: any name ending in
    ``game``) or ``<anything>.game``."""
    return (isinstance(node, ast.Name) and node.id.endswith("game")) or (
        isinstance(node, ast.Attribute) and node.attr == "game"
    )


def _game_field(node: ast.expr) -> ast.Attribute | None:
    """The ``game.<field>`` that ``node`` is, or indexes (``game.dms[seat]``), if any."""
    while isinstance(node, ast.Subscript):
        node = node.value
    return node if isinstance(node, ast.Attribute) and _is_game(node.value) else None


def _engine_module(module: str) -> bool:
    """Whether importing ``module`` reaches past the engine contract."""
    return (module == "engines" or module.startswith("engines.")) and module not in CONTRACT


class _Visitor(ast.NodeVisitor):
    def __init__(self, file: str) -> None:
        self.file = file
        self.stack: list[str] = []
        self.found: list[Finding] = []

    def _add(self, node: ast.AST, rule: str, what: str) -> None:
        where = self.stack[-1] if self.stack else "<module>"
        self.found.append(Finding(self.file, getattr(node, "lineno", 0), where, rule, what))

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.stack.append(node.name)
        self.generic_visit(node)
        self.stack.pop()

    visit_FunctionDef = _function
    visit_AsyncFunctionDef = _function

    def _with(self, node: ast.With | ast.AsyncWith) -> None:
        for item in node.items:
            e = item.context_expr
            if isinstance(e, ast.Attribute) and e.attr.endswith("lock"):
                self._add(node, "lock", f"with {_dotted(e)}")
        self.generic_visit(node)

    visit_With = _with
    visit_AsyncWith = _with

    def _written(self, node: ast.AST, targets: list[ast.expr]) -> None:
        for target in targets:
            for t in target.elts if isinstance(target, ast.Tuple | ast.List) else [target]:
                f = _game_field(t)
                if f is not None:
                    self._add(node, "game write", f"{_dotted(f)} = ...")
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        self._written(node, node.targets)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._written(node, [node.target])

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._written(node, [node.target])

    def visit_Delete(self, node: ast.Delete) -> None:
        self._written(node, node.targets)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        handle = node.value
        if (
            node.attr == "store"
            or (isinstance(handle, ast.Name) and handle.id in HANDLES)
            or (isinstance(handle, ast.Attribute) and handle.attr in HANDLES)
        ):
            self._add(node, "store", _dotted(node))
        if node.attr in OUTBOX_WORDS and isinstance(node.value, ast.Name) and node.value.id == "wording":
            self._add(node, "outbox words", _dotted(node))
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if node.id == "Store":
            self._add(node, "store", "Store")
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if _engine_module(alias.name):
                self._add(node, "engine import", f"import {alias.name}")
        self.generic_visit(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if any(alias.name == "Store" for alias in node.names):
            self._add(node, "store", f"from {'.' * node.level}{module} import Store")
        if module.endswith("host.wording"):
            for alias in node.names:
                if alias.name in OUTBOX_WORDS:
                    self._add(node, "outbox words", f"from {module} import {alias.name}")
        if node.level == 0 and _engine_module(module):
            self._add(node, "engine import", f"from {module} import ...")
        elif node.level == 0 and module == "engines":
            for alias in node.names:
                if _engine_module(f"engines.{alias.name}"):
                    self._add(node, "engine import", f"from engines import {alias.name}")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute) and (
            (func.attr == "view" and _is_engine(func.value)) or func.attr in ENGINE_CALLS
        ):
            self._add(node, "engine call", f"{_dotted(func)}(...)")
        if isinstance(func, ast.Attribute) and func.attr in MUTATORS and _game_field(func.value):
            self._add(node, "game write", f"{_dotted(func)}(...)")
        if isinstance(func, ast.Attribute) and func.attr == "locked":
            self._add(node, "lock", f"{_dotted(func)}()")
        self.generic_visit(node)


def findings(source: str, file: str) -> list[Finding]:
    """What ``source`` (the text of ``file``) does that the surface may not."""
    visitor = _Visitor(file)
    visitor.visit(ast.parse(source, filename=file))
    return visitor.found


def sort_out(
    found: list[Finding], allowed: dict[tuple[str, str, str], str]
) -> tuple[list[Finding], set[tuple[str, str, str]]]:
    """The findings ``allowed`` does not cover, and the entries of ``allowed`` used."""
    bad: list[Finding] = []
    used: set[tuple[str, str, str]] = set()
    for f in found:
        key = (f.file, f.function, f.rule)
        if key in allowed:
            used.add(key)
        else:
            bad.append(f)
    return bad, used


def violations() -> tuple[list[Finding], set[tuple[str, str, str]]]:
    """Every finding in ``bot/surface`` not allowed, and the allow-list entries used."""
    found = [f for p in sorted(SURFACE.glob("*.py")) for f in findings(p.read_text(encoding="utf-8"), p.name)]
    return sort_out(found, ALLOWED)


def test_the_surface_keeps_off_the_store_the_engine_and_the_locks() -> None:
    bad, _ = violations()
    assert not bad, "bot/surface oversteps (move it into the host):\n" + "\n".join(map(str, bad))


def test_every_allowed_entry_is_still_needed() -> None:
    """An allow-list entry nothing uses any more is removed (the list only shrinks)."""
    _, used = violations()
    assert set(ALLOWED) == used, f"unused allow-list entries: {sorted(set(ALLOWED) - used)}"


def test_the_surface_is_there() -> None:
    """The scan reads the real files (a wrong path would pass vacuously)."""
    names = {p.name for p in SURFACE.glob("*.py")}
    assert {"publish.py", "turns.py", "dms.py", "actions.py", "app.py"} <= names


SYNTHETIC = """
import engines.kathai.state
from engines.ra import rules
from engines import phraya, base, prompt
from engines.base import RuleError
from engines.kathai.state import KathaiState
from bot.host.store import Store, StoreError
from ..host.wording import Words, mention, turn_lines
from bot.host.wording import footer

async def post(bot, batch, game, controls, database):
    await bot.store.add_message(1)
    rows = await self.publisher.store.messages(2)
    await bot.service.store.game(1)
    opened = await Store.open("x")
    await self._database.close()
    n = database.dialect
    handed = await opening.open_service(config, database=self._database)
    also_handed = Thing(database)
    v = batch.engine.view(batch.state, None)
    w = engine.view(state, 0)
    p = game.engine.prompt(game.state, 0)
    seats = batch.engine.to_move(batch.state)
    o = engine.outcome(state)
    fine = controls.view(1, 2, None)
    also_fine = batch.public_view
    async with game.lock:
        pass
    async with game.start_lock, other:
        pass
    busy = held.publish_lock.locked()
    async with bot.service.posts.thing():
        pass
    game.board = None
    prev, held_game.board = held_game.board, None
    self.game.dms[seat] = posted
    game.dms.pop(seat, None)
    game.pending[:0] = steps
    game.shown += 1
    d.board = None
    d.dms.pop(seat, None)
    kept = game.dms.get(seat)
    head = wording.board_head(batch.title, 1) + wording.reminder("t", [], 1.0)
    return bot.service.posts.posted_messages(1)
"""


def test_each_rule_catches_a_new_violation() -> None:
    found = findings(SYNTHETIC, "synthetic.py")
    by_rule: dict[str, list[str]] = {}
    for f in found:
        by_rule.setdefault(f.rule, []).append(f.what)
        assert f.function in ("post", "<module>")
    assert by_rule["store"] == [
        "from bot.host.store import Store",
        "bot.store",
        "self.publisher.store",
        "bot.service.store",
        "Store",
        "self._database.close",
        "database.dialect",
    ]
    assert by_rule["engine import"] == [
        "import engines.kathai.state",
        "from engines.ra import ...",
        "from engines import phraya",
        "from engines.kathai.state import ...",
    ]
    assert by_rule["engine call"] == [
        "batch.engine.view(...)",
        "engine.view(...)",
        "game.engine.prompt(...)",
        "batch.engine.to_move(...)",
        "engine.outcome(...)",
    ]
    assert by_rule["lock"] == ["with game.lock", "with game.start_lock", "held.publish_lock.locked()"]
    assert by_rule["game write"] == [
        "game.board = ...",
        "held_game.board = ...",
        "self.game.dms = ...",
        "game.dms.pop(...)",
        "game.pending = ...",
        "game.shown = ...",
    ]
    assert by_rule["outbox words"] == [
        "from host.wording import turn_lines",
        "from bot.host.wording import footer",
        "wording.board_head",
    ]
    assert len(found) == 28  # controls.view, batch.public_view, service.posts, d.*, reads, handing
    # on a database and the host's words no outbox carries (Words, mention, reminder) pass


def test_the_allow_list_covers_only_its_own_function() -> None:
    """An allowed (file, function, rule) does not cover the same use elsewhere in that file."""
    source = (
        "class Bot:\n"
        "    def close(self):\n"
        "        self.store.close()\n"
        "    def other(self):\n"
        "        self.store.x()\n"
    )
    found = findings(source, "app.py")
    assert [(f.file, f.function, f.rule) for f in found] == [
        ("app.py", "close", "store"),
        ("app.py", "other", "store"),
    ]
    bad, used = sort_out(found, {("app.py", "close", "store"): "a test entry"})
    assert [(f.function, f.what) for f in bad] == [("other", "self.store")]
    assert used == {("app.py", "close", "store")}
