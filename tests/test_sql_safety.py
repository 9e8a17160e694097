"""Every SQL statement the bot runs is parameterised: no value is ever spliced into SQL text.

The static check reads every module under ``bot/`` and looks at each call that runs SQL
(``execute``, ``executemany``, ``executescript``, ``fetch*``, the store's ``_all``/``_one``). Its
SQL argument must be built only from string literals, module-level constant strings (the
column lists), ``?`` placeholders (``','.join('?' * n)``), and column names that the function
first checks against a whitelist (``bad = set(fields) - _FIELDS; if bad: raise``). Anything
else (a parameter, a formatted value, an attribute) fails the test with the line. The runtime
check stores hostile text through the store and reads it back intact.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.host.store import Store
from tests.store_internals import row_of

ROOT = Path(__file__).resolve().parents[1] / "bot"
SQL_CALLS = {
    "execute",
    "executemany",
    "executescript",
    "fetch",
    "fetchrow",
    "fetchval",
    "_all",
    "_one",
    # the store's transaction handles (bot/host/store_sqlite.py, bot/host/store_pg.py)
    "sql_rows",
    "sql_row",
    "sql_run",
    "sql_insert",
    "sql_many",
    # many rows into a table (PostgreSQL: COPY, identifiers quoted by asyncpg; SQLite: one
    # executemany built from the table and columns it is handed, so its callers are checked)
    "sql_copy",
}
# pure functions of SQL text that keep it safe: renumbering ``?`` placeholders ``$1, $2…``
SAFE_WRAPPERS = {"dollar"}
# functions splitting the package's own migration files into statements
MIGRATION_SPLITTERS = {"sql_statements", "pg_statements"}


def _module_constants(tree: ast.Module) -> set[str]:
    """Names bound at module level to string literals (or sums of them)."""
    out: set[str] = set()
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and _literal(node.value)
        ):
            out.add(node.targets[0].id)
    return out


def _literal(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _literal(node.left) and _literal(node.right)
    return False


def _module_tables(tree: ast.Module, constants: set[str]) -> set[str]:
    """Names bound at module level to a tuple of tuples of string literals or module constants
    (a table list: names, columns, key orders); a loop over one binds only such strings."""
    out: set[str] = set()
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None
        if isinstance(node, ast.AnnAssign):
            target = node.target
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        if (
            isinstance(target, ast.Name)
            and isinstance(value, ast.Tuple)
            and all(
                isinstance(row, ast.Tuple)
                and all(_literal(e) or (isinstance(e, ast.Name) and e.id in constants) for e in row.elts)
                for row in value.elts
            )
        ):
            out.add(target.id)
    return out


def _module_whitelists(tree: ast.Module) -> set[str]:
    """Names bound at module level to a set of string literals (allowed column names)."""
    out: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            v = node.value
            if isinstance(v, ast.Set) and all(
                isinstance(e, ast.Constant) and isinstance(e.value, str) for e in v.elts
            ):
                out.add(node.targets[0].id)
    return out


def _whitelisted(func: ast.AST, whitelists: set[str]) -> set[str]:
    """Names the function checks against a module-level whitelist: ``set(name) - WHITELIST``."""
    out: set[str] = set()
    for node in ast.walk(func):
        if (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.Sub)
            and isinstance(node.left, ast.Call)
            and isinstance(node.left.func, ast.Name)
            and node.left.func.id == "set"
            and len(node.left.args) == 1
            and isinstance(node.left.args[0], ast.Name)
            and isinstance(node.right, ast.Name)
            and node.right.id in whitelists
        ):
            out.add(node.left.args[0].id)
    return out


class Checker:
    def __init__(
        self,
        func: ast.FunctionDef | ast.AsyncFunctionDef,
        constants: set[str],
        whitelists: set[str],
        tables: set[str] | None = None,
    ) -> None:
        self.constants = constants
        self.checked = _whitelisted(func, whitelists)
        self.safe_locals: set[str] = set()
        # a helper that runs SQL handed to it (the store's _all/_one): its callers are checked instead
        self.passthrough = {a.arg for a in func.args.args} if func.name in SQL_CALLS else set()
        # a local is safe when every value bound to it (or appended to it) is safe; iterate to a fixpoint
        binds: dict[str, list[ast.expr | None]] = {}  # None: a value not known to be safe
        for node in ast.walk(func):
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    if (
                        isinstance(t, ast.Tuple)
                        and isinstance(node.value, ast.Tuple)
                        and len(t.elts) == len(node.value.elts)
                    ):
                        pairs = list(zip(t.elts, node.value.elts, strict=True))
                    else:
                        pairs = [(t, node.value)]
                    for target, value in pairs:
                        for name in self._names(target):
                            binds.setdefault(name, []).append(value if isinstance(target, ast.Name) else None)
            elif (
                isinstance(node, (ast.For, ast.AsyncFor))
                and isinstance(node.target, ast.Name)
                and isinstance(node.iter, ast.Call)
                and isinstance(node.iter.func, ast.Name)
                and node.iter.func.id in MIGRATION_SPLITTERS
            ):
                # the statements of the package's own migration files (see store.sql_statements)
                binds.setdefault(node.target.id, []).append(ast.Constant(""))
            elif (
                isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension))
                and isinstance(node.iter, ast.Name)
                and node.iter.id in (tables or set())
            ):
                for name in self._names(node.target):  # a row of a module-level table list
                    binds.setdefault(name, []).append(ast.Constant(""))
            elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
                for name in self._names(node.target):
                    binds.setdefault(name, []).append(None)
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                binds.setdefault(node.target.id, []).append(node.value)
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "append"
                and isinstance(node.func.value, ast.Name)
            ):
                binds.setdefault(node.func.value.id, []).extend(node.args)
        changed = True
        while changed:
            changed = False
            for name, values in binds.items():
                if name not in self.safe_locals and all(v is not None and self.safe(v) for v in values):
                    self.safe_locals.add(name)
                    changed = True

    @staticmethod
    def _names(target: ast.expr) -> list[str]:
        if isinstance(target, ast.Name):
            return [target.id]
        if isinstance(target, (ast.Tuple, ast.List)):
            return [n for e in target.elts for n in Checker._names(e)]
        return []

    def safe(self, node: ast.expr) -> bool:
        if isinstance(node, ast.Constant):
            return isinstance(node.value, str)
        if isinstance(node, ast.Name):
            return (
                node.id in self.constants
                or node.id in self.safe_locals
                or node.id in self.checked
                or node.id in self.passthrough
            )
        if isinstance(node, ast.List):
            return all(self.safe(e) for e in node.elts)
        if isinstance(node, ast.JoinedStr):
            return all(self.safe(v.value) if isinstance(v, ast.FormattedValue) else True for v in node.values)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in SAFE_WRAPPERS
            and len(node.args) == 1
            and not node.keywords
        ):
            return self.safe(node.args[0])
        if isinstance(node, ast.IfExp):
            return self.safe(node.body) and self.safe(node.orelse)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return self.safe(node.left) and self.safe(node.right)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):  # '?' * n placeholders
            return isinstance(node.left, ast.Constant) and node.left.value == "?"
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "join"
            and isinstance(node.func.value, ast.Constant)
            and len(node.args) == 1
        ):
            arg = node.args[0]
            if isinstance(arg, ast.GeneratorExp):  # f"{k} = ?" for k in <whitelisted>
                gen = arg.generators[0]
                if (
                    isinstance(gen.iter, ast.Name)
                    and gen.iter.id in self.checked
                    and isinstance(gen.target, ast.Name)
                ):
                    self.checked.add(gen.target.id)
                    ok = self.safe(arg.elt)
                    self.checked.discard(gen.target.id)
                    return ok
                return False
            return self.safe(arg)
        return False


def sql_calls() -> list[tuple[Path, int, str, bool]]:
    """``(file, line, source of the SQL argument, safe?)`` for every SQL call under bot/."""
    out = []
    for path in sorted(ROOT.rglob("*.py")):
        tree = ast.parse(path.read_text())
        constants, whitelists = _module_constants(tree), _module_whitelists(tree)
        tables = _module_tables(tree, constants)
        for func in ast.walk(tree):
            if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            checker = None
            for node in ast.walk(func):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr in SQL_CALLS
                    and node.args
                ):
                    checker = checker or Checker(func, constants, whitelists, tables)
                    out.append((path, node.lineno, ast.unparse(node.args[0]), checker.safe(node.args[0])))
    return out


def test_every_sql_statement_under_bot_is_parameterised() -> None:
    calls = sql_calls()
    assert len(calls) > 40  # the store's statements were found
    files = {p.name for p, _, _, _ in calls}
    assert {"store_base.py", "store_sqlite.py", "store_pg.py"} <= files  # both backends were read
    unsafe = [f"{p.relative_to(ROOT.parent)}:{line}: {src}" for p, line, src, ok in calls if not ok]
    assert not unsafe, "SQL built from values:\n" + "\n".join(unsafe)


def test_the_checker_catches_spliced_values() -> None:
    """The check itself fails on the ways values get spliced into SQL."""
    bad = """
async def f(db, name, game_id, row):
    await db.execute(f"SELECT * FROM games WHERE name = '{name}'")
    await db.execute("SELECT * FROM games WHERE id = " + str(game_id))
    await db.execute("DELETE FROM seats WHERE name = '%s'" % name)
    await db.execute("UPDATE games SET x = {}".format(row.x))
    sql = "SELECT 1 WHERE a = "
    sql += name
    await db.execute(sql)
    await conn.fetch(dollar(f"SELECT * FROM games WHERE name = '{name}'"))
"""
    tree = ast.parse(bad)
    func = tree.body[0]
    assert isinstance(func, ast.AsyncFunctionDef)
    checker = Checker(func, _module_constants(tree), set())
    args = [
        n.args[0]
        for n in ast.walk(func)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr in ("execute", "fetch")
    ]
    assert len(args) == 6 and not any(checker.safe(a) for a in args)
    good = ast.parse("""
COLS = "a, b"
async def f(db, fields, ids):
    bad = set(fields) - _SEAT_FIELDS
    sets = ", ".join(f"{k} = ?" for k in fields)
    await db.execute(f"SELECT {COLS} FROM t WHERE id IN ({','.join('?' * len(ids))})", ids)
    await db.execute(f"UPDATE t SET {sets} WHERE id = ?", [1])
""")
    gfunc = good.body[1]
    assert isinstance(gfunc, ast.AsyncFunctionDef)
    checker = Checker(gfunc, _module_constants(good), {"_SEAT_FIELDS"})
    gargs = [
        n.args[0]
        for n in ast.walk(gfunc)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "execute"
    ]
    assert len(gargs) == 2 and all(checker.safe(a) for a in gargs)


HOSTILE = "Robert'); DROP TABLE games; -- \u202e\u200d ? $1 ' OR 1=1 --"
HOSTILE_NUL = HOSTILE + "\x00"  # PostgreSQL text cannot hold NUL; it goes in the JSON options only


async def test_hostile_text_is_stored_as_text(backend_target: str | Path) -> None:
    store = await Store.open(backend_target)
    try:
        row = await store.create_game(
            kind="pralaya",
            seed=1,
            options={"x": HOSTILE_NUL},
            guild_id=1,
            channel_id=2,
            creator_id=3,
            creator_name=HOSTILE,
            clock_seconds=60,
        )
        seats = await store.seats(row.id)
        assert seats[0].name == HOSTILE and (await row_of(store, row.id)).options == {"x": HOSTILE_NUL}
        with pytest.raises(ValueError):
            await store.update_seat(row.id, 0, **{"name = 'x'; --": "y"})
        assert len(await store.games()) == 1
    finally:
        await store.close()


def test_migration_files_split_into_whole_statements() -> None:
    from bot.host.store import StoreError, sql_statements

    script = """-- a comment; with a semicolon
CREATE TABLE t (a TEXT DEFAULT 'x;y');
CREATE TRIGGER tr AFTER INSERT ON t BEGIN UPDATE t SET a = 'z'; DELETE FROM t WHERE a = ';'; END;

"""
    parts = sql_statements(script)
    assert len(parts) == 2 and parts[0].endswith("'x;y');") and parts[1].endswith("END;")
    with pytest.raises(StoreError):
        sql_statements("CREATE TABLE u (a TEXT")


def test_a_loop_over_a_table_list_is_safe_and_over_anything_else_is_not() -> None:
    """Rows of a module-level tuple of string tuples (``bazaar db copy``'s table list) may name
    tables and columns; the same loop over a parameter may not."""
    source = ast.parse("""
COLS = "a, b"
TABLES = (("t", COLS, "a"), ("u", "c", "c"))
async def f(db, rows, given):
    for name, columns, key in TABLES:
        await db.execute(f"SELECT {columns} FROM {name} ORDER BY {key}")
    for table, cols, order in given:
        await db.execute(f"SELECT {cols} FROM {table} ORDER BY {order}")
""")
    func = source.body[2]
    assert isinstance(func, ast.AsyncFunctionDef)
    constants = _module_constants(source)
    assert _module_tables(source, constants) == {"TABLES"}
    checker = Checker(func, constants, set(), _module_tables(source, constants))
    args = [
        n.args[0] for n in ast.walk(func) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
    ]
    assert [checker.safe(a) for a in args] == [True, False]
