"""Print every benchmark figure in one table: figure, value, aim, verdict.

Usage: ``python -m benchmarks [--quick] [engines] [render] [startup] [store] [load] [shards] [soak]
[arena] [e2e]``
(default: all but ``e2e``, the older in-process end-to-end figures). ``--quick`` runs every
section smaller and shorter (under a minute in all; its figures are rougher). Figures only;
nothing is asserted, so a loaded machine gives slower numbers but never a failure: the machine's
cores and load average are printed with the table.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

from .table import Figure, print_header, render_table, safely

SECTIONS = ("engines", "render", "startup", "store", "load", "shards", "soak", "arena")


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    which = [a for a in argv if not a.startswith("--")] or list(SECTIONS)
    unknown = set(which) - {*SECTIONS, "e2e"}
    if unknown:
        print(f"benchmarks: unknown section(s) {sorted(unknown)}; choose from {', '.join(SECTIONS)}, e2e")
        return 2
    print_header(quick)
    t0 = time.perf_counter()
    figures: list[Figure] = []
    with tempfile.TemporaryDirectory(prefix="bazaar-bench-") as tmp:
        folder = Path(tmp)
        if "engines" in which:
            from . import sections

            figures += safely("engines", lambda: sections.engine_rows(quick))
        if "render" in which:
            from . import sections

            figures += safely("render", lambda: sections.render_rows(quick))
        if "startup" in which:
            from . import movelog, startup

            print("\n[startup] stored games, start-up, memory; the store with a big move log", flush=True)
            figures += safely("startup", lambda: startup.rows(quick, folder))
            big_db = startup.LAST_DB
            if big_db is not None:
                figures += safely("store", lambda: movelog.rows(quick, big_db))
        if "store" in which:
            from . import store

            print("\n[store] one move committed on SQLite and PostgreSQL", flush=True)
            figures += safely("store", lambda: store.rows(quick))
        if "load" in which:
            from . import load

            print("\n[load] the real bot process under load, through the fake Discord", flush=True)
            figures += safely("load", lambda: load.rows(quick, folder))
        if "shards" in which:
            from . import load

            print("\n[shards] the same load on two shard processes sharing PostgreSQL", flush=True)
            figures += safely("shards", lambda: load.rows(quick, folder, shards=2))
        if "soak" in which:
            from . import soak

            print(
                "\n[soak] a simulated week: one bot process, kills and restarts, people come and go",
                flush=True,
            )
            figures += safely("soak", lambda: soak.rows(quick, folder))
        if "arena" in which:
            from . import arena

            print("\n[arena] a short arena: normal against easy in each game", flush=True)
            figures += safely("arena", lambda: arena.figures(quick))
        if "e2e" in which:
            from . import e2e

            e2e.main()
    print()
    print(render_table(figures))
    print(
        f"\n{len(figures)} figures in {time.perf_counter() - t0:.0f} s; "
        f"load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
