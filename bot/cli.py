"""The ``bazaar`` command: ``demo``, ``play``, ``replay`` (offline), ``run``, ``sync`` (Discord) and
``db migrate``, ``db backup``, ``db copy``, ``db forget-user`` (the database)."""

from __future__ import annotations

import argparse
import importlib.metadata
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from engines import base


def _options(pairs: Sequence[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise base.BadOption(f"Options are written name=value, not {pair!r}.")
        out[key.strip()] = value.strip()
    return out


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``bazaar: <what is wrong> (see `bazaar play --help`)``."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"bazaar: {message} (see `{self.prog} --help`)\n")


def _games_line() -> str:
    return (
        "Games: "
        + ", ".join(f"{e.name} ({e.title}, {e.min_players}–{e.max_players} players)" for e in base.games())
        + "."
    )


AI_LEVELS = ("easy", "normal", "hard")  # engines.search.LEVELS


def version() -> str:
    """The installed package's version (its metadata: pyproject's ``version``)."""
    try:
        return importlib.metadata.version("bazaar")
    except importlib.metadata.PackageNotFoundError:  # run from a source tree that is not installed
        return "unknown (not installed)"


def settings_help() -> str:
    from .host.settings import help_text

    return help_text()


def _parser() -> argparse.ArgumentParser:
    games_line = _games_line()
    p = _Parser(prog="bazaar", description="Bazaar: trading board games on Discord.", epilog=games_line)
    p.add_argument("--version", action="version", version=f"bazaar {version()}")
    sub = p.add_subparsers(dest="cmd", required=True)

    d = sub.add_parser(
        "demo",
        help="play complete offline games with AI seats and write board images",
        epilog=games_line,
        description="Play complete games with AI seats and write, "
        "per game, a folder of board images, the score sheet and a moves.log.",
    )
    d.add_argument("game", nargs="?", default="all", help="a game name, or `all` (default)")
    d.add_argument("--seed", type=int, default=1, help="the first game's seed (default 1)")
    d.add_argument(
        "--players",
        type=int,
        help="player count (default: every count from min to max "
        "for one game, a mid count per game for `all`)",
    )
    d.add_argument("--games", type=int, default=1, help="games per player count (seeds seed, seed+1…)")
    d.add_argument("--out", default="demo-out", help="output folder (default demo-out)")
    d.add_argument(
        "--option",
        "-o",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option; repeatable. Without it, each of the game's demo option "
        "sets is played (Ra: with and without Traders)",
    )
    d.add_argument("--no-images", action="store_true", help="only the move logs (fast)")
    d.add_argument(
        "--ai-level",
        choices=AI_LEVELS,
        default="easy",
        help="how the AI seats play: easy (the heuristic, default: fast), normal or hard (search)",
    )

    pl = sub.add_parser(
        "play",
        help="play in the terminal against AI seats",
        epilog=games_line,
        description="Play one game in the terminal against AI seats. The game is "
        "saved after every move; `bazaar play --resume` continues it.",
    )
    pl.add_argument("game", nargs="?", help="the game to play (not needed with --resume)")
    pl.add_argument("--players", type=int, default=3, help="player count, you included (default 3)")
    pl.add_argument(
        "--seat",
        type=int,
        default=1,
        help="your seat, 1-based (default 1: you start unless the game draws its first player)",
    )
    pl.add_argument(
        "--seed",
        type=int,
        help="the deal's seed (default: a random one); the same seed and moves give the same game",
    )
    pl.add_argument(
        "--option",
        "-o",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option; repeatable (`bazaar games` lists them)",
    )
    pl.add_argument("--name", default="You", help="what the game calls you (default You)")
    pl.add_argument(
        "--ai-level",
        choices=AI_LEVELS,
        default=None,
        help="how strong the AI seats play: easy (a quick heuristic), normal (default: "
        "searches up to a second a move) or hard (up to three seconds); saved with the "
        "game, so --resume keeps it unless given again",
    )
    pl.add_argument(
        "--resume",
        action="store_true",
        help="continue the saved game instead of starting one (after quit, Ctrl-C or Ctrl-D)",
    )
    pl.add_argument(
        "--save",
        type=Path,
        metavar="FILE",
        help="where the game is saved after every "
        "move (default $BAZAAR_PLAY_SAVE, else ~/.local/state/bazaar/play.log)",
    )

    r = sub.add_parser(
        "replay",
        help="replay a move log and print the outcome",
        epilog=games_line,
        description="Replay a move log from its seed and check the outcome against the result it records.",
    )
    r.add_argument(
        "log",
        help="a moves.log written by `bazaar demo` (or a folder holding one), "
        "or a game saved by `bazaar play`",
    )

    a = sub.add_parser(
        "arena",
        help="play seeded games between AI levels and print win shares",
        epilog=games_line,
        description="Play seeded games between two AI levels "
        "(easy, normal, hard) at each player count and print each level's edge in "
        "wins with a 95% confidence interval, wins per seat, score margins, escape "
        "rates and milliseconds per AI move.",
    )
    a.add_argument("game", nargs="?", default="all", help="a game name, or `all` (default)")
    a.add_argument(
        "--levels",
        default="normal:easy",
        metavar="A:B",
        help="the two levels to seat against each other (default normal:easy)",
    )
    a.add_argument(
        "--players",
        default="",
        metavar="N[,N…]",
        help="player counts (default: 2 and the game's most common count)",
    )
    a.add_argument("--games", type=int, default=40, help="games per player count (default 40)")
    a.add_argument("--seed", type=int, default=1, help="the seed of the first game (default 1)")
    a.add_argument("--jobs", type=int, default=0, help="processes (default: one per core)")
    a.add_argument(
        "--option", "-o", action="append", default=[], metavar="NAME=VALUE", help="a game option; repeatable"
    )

    sub.add_parser(
        "games",
        help="list the games and their options",
        epilog=games_line,
        description="List every game with its player counts and options.",
    )
    sub.add_parser(
        "run",
        help="start the Discord bot (DISCORD_TOKEN from the environment or .env)",
        epilog=f"{settings_help()}\n\n{games_line}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Start the Discord bot with the settings below (from the environment "
        "or .env). If Discord cannot be reached it retries with back-off until stopped "
        "with Ctrl-C.",
    )
    sub.add_parser(
        "health",
        help="0 when the running bot is up and connected (for container health checks)",
        epilog=games_line,
        description="Check the heartbeat file (BAZAAR_HEARTBEAT) that a "
        "running bot rewrites every 30 seconds while connected to Discord: exit code 0 if it "
        "was written in the last 90 seconds, else 1, with one line saying why.",
    )
    sub.add_parser(
        "sync",
        help="register the slash commands (to DEV_GUILD_ID when set, else globally)",
        epilog=games_line,
        description="Register the slash commands with Discord: in "
        "the server DEV_GUILD_ID when set (at once), else globally (up to an hour). "
        "Reads DISCORD_TOKEN and DEV_GUILD_ID from the environment or .env.",
    )
    db = sub.add_parser(
        "db",
        help="the database: apply migrations, back up, copy SQLite to PostgreSQL, forget a person",
        epilog=games_line,
        description="Manage the database named by BAZAAR_DB (a SQLite file, or a "
        "postgresql:// URL), from the environment or .env.",
    )
    dbsub = db.add_subparsers(
        dest="db_cmd", required=True, help="`migrate`, `backup`, `copy` or `forget-user` (each has --help)"
    )
    dbsub.add_parser(
        "migrate",
        help="apply pending migrations to the configured database",
        epilog=games_line,
        description="Apply every pending numbered migration to the database BAZAAR_DB "
        "names (created if it is a SQLite file that does not exist yet).",
    )
    bk = dbsub.add_parser(
        "backup",
        help="a consistent copy of the SQLite database, even while the bot runs",
        epilog=games_line,
        description="Copy the SQLite database BAZAAR_DB names to FILE with SQLite's online "
        "backup (one consistent state, even while a bot writes to it), then check the "
        "copy by replaying every started game of it. FILE must not exist. For a "
        "PostgreSQL database it says how to use pg_dump.",
    )
    bk.add_argument("file", metavar="FILE", help="the new backup file")
    cp = dbsub.add_parser(
        "copy",
        help="copy every game from a SQLite file to an empty PostgreSQL database",
        epilog=games_line,
        description="Copy every game, seat, move, snapshot, posted message and draft "
        "from a SQLite file into an empty PostgreSQL database (migrated first), then "
        "check the copy by reading every game back and replaying every started game "
        "on the target. Stop the bot first; point BAZAAR_DB at the URL afterwards.",
    )
    cp.add_argument(
        "--to",
        required=True,
        metavar="URL",
        help="the target: postgresql://user@host:5432/dbname "
        "(no password here: set PGPASSWORD or use ~/.pgpass)",
    )
    cp.add_argument(
        "--from", dest="source", metavar="PATH", help="the SQLite file to copy (default: BAZAAR_DB)"
    )
    fu = dbsub.add_parser(
        "forget-user",
        help="remove a person's id and name from the games (a deletion request)",
        epilog=games_line,
        description="Remove the Discord user USER_ID from the database (see docs/privacy.md): in "
        'every game that is over their seat becomes "a former player" without their id, and '
        "their moves and the games they created lose their id (the games still replay); they "
        "are taken out of open lobbies (a lobby left with no person is closed). Active games "
        "are left as they are and listed (exit code 1): end them with /game end or let them "
        "finish, then run it again. On SQLite, stop the bot first. Backups keep the old data.",
    )
    fu.add_argument("user_id", metavar="USER_ID", help="the person's Discord user id (a number)")
    return p


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
        from .surface import app

        return app.run_bot(config) if args.cmd == "run" else app.sync_commands(config)
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
