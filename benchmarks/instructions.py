"""Instructions per action of a game engine, counted by callgrind (issue #25's speed figure).

Wall-clock rates move with the machine's load; an instruction count does not. This plays ``k``
seeded random actions (at every step: ``outcome``, ``to_move``, ``legal_actions`` and
``apply`` for the first seat awaited, ``random.Random(1)`` choosing among the legal texts;
games seeded 1000, 1001, … one after the other) twice under ``valgrind --tool=callgrind``,
once with ``k`` actions and once with none, and prints ``(Ir at k - Ir at 0) / k``: the
imports and the start-up cancel out. ``PYTHONHASHSEED=0`` keeps set and dict orders, and so the
count, the same from run to run.

    python benchmarks/instructions.py pralaya            # 3 players, k = 3000
    python benchmarks/instructions.py kathai -k 1000 --players 4
    python benchmarks/instructions.py phraya --tree /tmp/old   # an older checkout's engines
    python benchmarks/instructions.py ra --keep cg/      # keep both runs' files for callgrind_annotate

The file runs as a plain script (not ``-m``) so that ``--tree`` can point it at the engines of
another checkout (a worktree of an older commit) with the same Python: the child puts that tree
first on ``PYTHONPATH``. ``--play`` is the child's part: play ``k`` actions and exit.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

FIRST_SEED = 1000
PICKER_SEED = 1
DEFAULT_K = {"kathai": 1000}  # Kathai's actions cost ten times the others'


def play(game: str, players: int, k: int) -> int:
    """Play ``k`` random actions of ``game`` at ``players`` seats (a new game, seeded one
    higher, whenever one ends); returns the actions played."""
    from engines import base

    engine = base.get(game)
    rng = random.Random(PICKER_SEED)
    seed = FIRST_SEED
    state = engine.setup(seed, players, {})
    done = 0
    while done < k:
        if engine.outcome(state) is not None:
            seed += 1
            state = engine.setup(seed, players, {})
            continue
        seat = engine.to_move(state)[0]
        legal = engine.legal_actions(state, seat)
        state, _ = engine.apply(state, seat, rng.choice(legal))
        done += 1
    return done


def count(game: str, players: int, k: int, tree: Path, keep: Path | None) -> int:
    """Ir (instructions executed) of one child run playing ``k`` actions of ``tree``'s engines
    under callgrind (its file kept in the folder ``keep`` as ``<game>-<k>.out``)."""
    env = child_env(tree)
    with tempfile.TemporaryDirectory(prefix="bazaar-ir-") as tmp:
        out = (keep or Path(tmp)) / f"{game}-{k}.out"
        cmd = [
            "valgrind",
            "--quiet",
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            *child_command(game, players, k, tree),
        ]
        subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL)
        return read_ir(out.read_text())


def child_env(tree: Path) -> dict[str, str]:
    """The child's environment: ``tree`` first on the path, hashes seeded, and compiled modules
    cached outside the trees (``PYTHONPYCACHEPREFIX``), so that no run spends its instructions
    compiling (``PYTHONDONTWRITEBYTECODE`` would make every run compile every module)."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tree), env.get("PYTHONPATH")]))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "bazaar-ir-pycache")
    return env


def child_command(game: str, players: int, k: int, tree: Path) -> list[str]:
    return [
        sys.executable,
        str(Path(__file__).resolve()),
        game,
        f"--players={players}",
        "-k",
        str(k),
        "--play",
        f"--tree={tree}",
    ]


def read_ir(text: str) -> int:
    """The total Ir of a callgrind output file (its ``summary:`` or ``totals:`` line)."""
    found = re.search(r"^(?:summary|totals):\s*(\d+)", text, re.MULTILINE)
    if found is None:
        raise ValueError("no summary line in the callgrind output")
    return int(found.group(1))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("game", help="pralaya, kathai, ra or phraya")
    parser.add_argument("--players", type=int, default=3, help="player count (default 3)")
    parser.add_argument("-k", type=int, default=None, help="actions to play (default 3000, Kathai 1000)")
    parser.add_argument("--tree", type=Path, help="a checkout whose engines to measure (default: this one)")
    parser.add_argument("--keep", type=Path, help="a folder to keep both callgrind files in")
    parser.add_argument("--play", action="store_true", help="play k actions and exit (the child)")
    args = parser.parse_args(argv)
    k = DEFAULT_K.get(args.game, 3000) if args.k is None else args.k
    if args.play:
        import engines

        if args.tree and Path(engines.__file__).resolve().parent.parent != args.tree.resolve():
            raise SystemExit(f"engines imported from {engines.__file__}, not from {args.tree}")
        play(args.game, args.players, k)
        return 0
    tree = args.tree.resolve() if args.tree else Path(__file__).resolve().parent.parent
    # once outside callgrind first, so that both counted runs find every module compiled
    subprocess.run(child_command(args.game, args.players, 0, tree), env=child_env(tree), check=True)
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
    base_ir = count(args.game, args.players, 0, tree, args.keep)
    full_ir = count(args.game, args.players, k, tree, args.keep)
    per = (full_ir - base_ir) / max(k, 1)
    print(
        f"{args.game} {args.players}p k={k} tree={tree}: "
        f"Ir {full_ir:,} - {base_ir:,} = {per / 1000:.1f}k an action"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
