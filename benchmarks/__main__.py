"""Print every benchmark figure: engines, rendering, the store, and the bot end to end.

Usage: ``python -m benchmarks [engines|render|store|e2e|arena ...]`` (default: all). Figures only; nothing is
asserted, so a loaded machine gives slower numbers but never a failure.
"""

from __future__ import annotations

import platform
import sys


def main(argv: list[str]) -> int:
    which = set(argv) or {"engines", "render", "store", "e2e", "arena"}
    print(
        f"Bazaar benchmarks — Python {platform.python_version()} on {platform.machine()}, {platform.system()}"
    )
    if "engines" in which:
        from . import engine_speed

        engine_speed.main()
    if "render" in which:
        from . import rendering

        rendering.main()
    if "store" in which:
        try:
            from . import store
        except ImportError as err:  # the store bench needs the bot package
            print(f"\n[store] skipped: {err}")
        else:
            store.main()
    if "e2e" in which:
        try:
            from . import e2e
        except ImportError as err:  # the end-to-end bench needs the bot package
            print(f"\n[e2e] skipped: {err}")
        else:
            e2e.main()
    if "arena" in which:
        from . import arena

        arena.main()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
