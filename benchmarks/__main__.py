"""Print every benchmark figure in one table: figure, value, aim, verdict.

Usage: ``python -m benchmarks [--quick] [engines] [render] [startup] [store] [ratings] [load] [shards]
[soak] [arena] [hints] [clicks] [e2e]``
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

SECTIONS = (
    "engines",
    "render",
    "startup",
    "store",
    "ratings",
    "load",
    "shards",
    "soak",
    "arena",
    "hints",
    "clicks",
)


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
        for name in (*SECTIONS, "e2e"):  # in this order, however they were asked for
            if name in which:
                figures += _in_process(name, quick, Path(tmp)) + _through_discord(name, quick, Path(tmp))
    print()
    print(render_table(figures))
    print(
        f"\n{len(figures)} figures in {time.perf_counter() - t0:.0f} s; "
        f"load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    return 0


def _in_process(name: str, quick: bool, folder: Path) -> list[Figure]:
    """The figures of section ``name`` if it is measured in this process (engines, drawing,
    start-up and the store); nothing for the other sections."""
    if name in ("engines", "render"):
        from . import sections

        if name == "engines":
            return safely("engines", lambda: sections.engine_rows(quick))
        return safely("render", lambda: sections.render_rows(quick))
    if name == "startup":
        from . import movelog, startup

        print("\n[startup] stored games, start-up, memory; the store with a big move log", flush=True)
        figures = safely("startup", lambda: startup.rows(quick, folder))
        big_db = startup.LAST_DB
        if big_db is not None:
            figures += safely("store", lambda: movelog.rows(quick, big_db))
        return figures
    if name == "hints":
        from . import hints

        print("\n[hints] the hard AI's hint (p50, p99) and a finished game's review, per game", flush=True)
        return safely("hints", lambda: hints.rows(quick))
    if name == "store":
        from . import store

        print("\n[store] one move committed on SQLite and PostgreSQL", flush=True)
        return safely("store", lambda: store.rows(quick))
    if name == "ratings":
        from . import ratings

        print("\n[ratings] game end, /leaderboard, /profile, bazaar db rate (SQLite, PostgreSQL)", flush=True)
        return safely("ratings", lambda: ratings.rows(quick, folder))
    return []


def _through_discord(name: str, quick: bool, folder: Path) -> list[Figure]:
    """The figures of section ``name`` if it runs bot processes or whole games (the load, the
    shards, the soak, the AI arena, the older end-to-end run); nothing for the other sections."""
    if name in ("load", "shards"):
        from . import load_report

        if name == "load":
            print("\n[load] the real bot process under load, through the fake Discord", flush=True)
            return safely("load", lambda: load_report.rows(quick, folder))
        print("\n[shards] the same load on two shard processes sharing PostgreSQL", flush=True)
        return safely("shards", lambda: load_report.rows(quick, folder, shards=2))
    if name == "soak":
        from . import soak

        print(
            "\n[soak] a simulated week: one bot process, kills and restarts, people come and go",
            flush=True,
        )
        return safely("soak", lambda: soak.rows(quick, folder))
    if name == "arena":
        from . import arena

        print("\n[arena] a short arena: normal against easy in each game", flush=True)
        return safely("arena", lambda: arena.figures(quick))
    if name == "clicks":
        from . import clicks

        print("\n[clicks] a person's clicks per move, each game played by its controls", flush=True)
        return safely("clicks", lambda: clicks.figures(quick))
    if name == "e2e":
        from . import e2e

        e2e.main()
    return []


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
