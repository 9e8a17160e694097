"""The ``bazaar`` command: ``demo``, ``play``, ``learn``, ``replay`` (offline), ``run``, ``sync``
(Discord) and ``db migrate``, ``db backup``, ``db copy``, ``db forget-user`` (the database)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engines import base

from .cliparse import build_parser


def _options(pairs: Sequence[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise base.BadOption(f"Options are written name=value, not {pair!r}.")
        out[key.strip()] = value.strip()
    return out


def _parser() -> argparse.ArgumentParser:
    """The command line's parser (its grammar is :mod:`bot.cliparse`)."""
    return build_parser()


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return _dispatch(args)
    except base.RuleError as err:
        print(f"bazaar: {base.format_text(err.reason)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _dispatch(args: argparse.Namespace) -> int:
    if args.cmd == "demo":
        return _demo(args)
    if args.cmd == "play":
        return _play(args)
    if args.cmd == "learn":
        from .offline.learn import default_save, learn_terminal

        game = base.get(args.game).name
        return learn_terminal(
            game, autoplay=args.autoplay, save=args.save or default_save(game), new=args.new
        )
    if args.cmd == "replay":
        return _replay(args.log)
    if args.cmd == "arena":
        return _arena(args)
    if args.cmd == "games":
        for e in base.games():
            print(f"{e.name}: {e.title}, {e.min_players}-{e.max_players} players")
            for o in e.options:
                print(f"    {o.name} ({o.kind.__name__}, default {o.default}): {o.help}")
        return 0
    if args.cmd == "db":
        from .host.dbcommands import run_db_command

        return run_db_command(args)
    if args.cmd == "health":
        from .host.config import ConfigError, load_config
        from .host.heartbeat import check

        try:
            ok, line = check(load_config(require_token=False).heartbeat)
        except ConfigError as err:
            ok, line = False, str(err)
        print(f"bazaar: {line}", file=sys.stdout if ok else sys.stderr)
        return 0 if ok else 1
    if args.cmd in ("run", "sync"):
        from .host.config import ConfigError, load_config

        try:
            config = load_config()
        except ConfigError as err:
            print(f"bazaar: {err}", file=sys.stderr)
            return 2
        from .surface import launch

        return launch.run_bot(config) if args.cmd == "run" else launch.sync_commands(config)
    raise AssertionError(args.cmd)


def _demo(args: argparse.Namespace) -> int:
    from .offline.demo import DEMO_NAMES, describe_outcome, run_demo

    engines = base.games() if args.game == "all" else [base.get(args.game)]
    out_dir = Path(args.out)
    extra = _options(args.option)
    for engine in engines:
        if args.players:
            counts = [args.players]
        elif args.game == "all":
            counts = [min(engine.max_players, max(engine.min_players, 3))]
        else:
            counts = list(range(engine.min_players, engine.max_players + 1))
        variants = [extra] if extra else [dict(v) for v in engine.demo_options]
        for n in counts:
            for opts in variants:
                for g in range(args.games):
                    res = run_demo(
                        engine.name,
                        args.seed + g,
                        n,
                        opts,
                        out_dir,
                        images=not args.no_images,
                        level=args.ai_level,
                    )
                    print(
                        f"{engine.title} {n}p seed {args.seed + g} {_opt_text(engine, res.options)}: "
                        f"{res.actions} actions, {res.snapshots} snapshots -> {res.folder}"
                    )
                    print(describe_outcome(engine, res.outcome, DEMO_NAMES[:n]))
    print(
        f"Open {out_dir}/index.html to see the games (each folder has its own index.html); "
        "`bazaar replay <folder>/moves.log` "
        "replays one."
    )
    return 0


def _play(args: argparse.Namespace) -> int:
    from .offline.saved import default_path
    from .offline.terminal import play_terminal, resume_terminal

    path = args.save or default_path()
    if args.resume:
        return resume_terminal(path, args.game, level=args.ai_level)
    if not args.game:
        raise base.BadOption(
            "Name a game to play ("
            + ", ".join(e.name for e in base.games())
            + "), or use --resume to continue the saved one."
        )
    return play_terminal(
        args.game,
        args.players,
        args.seat - 1,
        args.seed,
        _options(args.option),
        name=args.name,
        save=path,
        level=args.ai_level or "normal",
    )


def _arena(args: argparse.Namespace) -> int:
    from engines import search

    from .host.workers import default_size
    from .offline import arena

    a, sep, b = args.levels.partition(":")
    if not sep or a not in search.LEVELS or b not in search.LEVELS:
        raise base.BadOption(f"--levels takes two of {', '.join(search.LEVELS)} as A:B, not `{args.levels}`.")
    if args.games < 1:
        raise base.BadOption("--games takes a whole number of at least 1.")
    engines = base.games() if args.game == "all" else [base.get(args.game)]
    jobs = args.jobs or default_size()
    for engine in engines:
        try:
            counts = [int(c) for c in args.players.split(",") if c.strip()] or engine.arena_counts()
        except ValueError:
            raise base.BadOption(
                f"--players takes numbers separated by commas, not `{args.players}`."
            ) from None
        for n in counts:
            engine.check_players(n)
            options = engine.resolve_options(_options(args.option))
            print(
                arena.report(arena.run(engine.name, n, a, b, args.games, args.seed, jobs, options)),
                flush=True,
            )
    return 0


def _opt_text(engine: base.Engine, options: dict[str, Any]) -> str:
    changed = {k: v for k, v in options.items() if v != engine.default_options().get(k)}
    return "(" + ", ".join(f"{k}={v}" for k, v in changed.items()) + ")" if changed else "(defaults)"


def _replay(path: str) -> int:
    from .offline.demo import describe_outcome, replay_log, result_matches
    from .offline.movelog import LogError, loads

    file = Path(path)
    if file.is_dir():
        if not (file / "moves.log").is_file():
            print(f"bazaar: {path} is a folder without a moves.log; give a move log file.", file=sys.stderr)
            return 2
        file = file / "moves.log"
    try:
        log = loads(file.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        print(f"bazaar: {path} is not a move log (not UTF-8 text).", file=sys.stderr)
        return 2
    except OSError as err:
        print(f"bazaar: cannot read {path}: {err.strerror}", file=sys.stderr)
        return 2
    except LogError as err:
        print(f"bazaar: {path}: {err}", file=sys.stderr)
        return 2
    engine, state, out = replay_log(log)
    names = log.names or [f"Seat {s + 1}" for s in range(log.players)]
    print(f"{engine.title}, {log.players} players, seed {log.seed}: replayed {len(log.moves)} moves.")
    if out is None:
        print("The game is not over yet; " + base.format_text(engine.view(state, None)["headline"], names))
    else:
        print(describe_outcome(engine, out, names))
    match = result_matches(log, out)
    if match is False:
        print("bazaar: the replayed outcome differs from the result recorded in the log.", file=sys.stderr)
        return 1
    if match:
        print("The outcome matches the result recorded in the log.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
