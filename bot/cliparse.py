"""The grammar of the ``bazaar`` command line: one builder per command, grouped as the commands
are (offline play, the Discord bot, the database). :func:`build_parser` puts them together;
``bot.cli`` runs what was parsed."""

from __future__ import annotations

import argparse
import importlib.metadata
from pathlib import Path
from typing import NoReturn, TypeAlias

from engines import base

AI_LEVELS = ("easy", "normal", "hard")  # engines.search.LEVELS

# the sub-command table of a parser, as argparse (and typeshed) name it
Commands: TypeAlias = "argparse._SubParsersAction[Parser]"


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``bazaar: <what is wrong> (see `bazaar play --help`)``."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"bazaar: {message} (see `{self.prog} --help`)\n")


def games_summary() -> str:
    """The games and their player counts, one line (every command's help ends with it)."""
    return (
        "Games: "
        + ", ".join(f"{e.name} ({e.title}, {e.min_players}–{e.max_players} players)" for e in base.games())
        + "."
    )


def version() -> str:
    """The installed package's version (its metadata: pyproject's ``version``)."""
    try:
        return importlib.metadata.version("bazaar")
    except importlib.metadata.PackageNotFoundError:  # run from a source tree that is not installed
        return "unknown (not installed)"


def settings_help() -> str:
    """The bot's settings with their defaults (the help of ``bazaar run``)."""
    from .host.settings import help_text

    return help_text()


def build_parser() -> argparse.ArgumentParser:
    """The whole command line: ``bazaar <command> …`` with every command's flags and help."""
    line = games_summary()
    p = Parser(prog="bazaar", description="Bazaar: trading board games on Discord.", epilog=line)
    p.add_argument("--version", action="version", version=f"bazaar {version()}")
    sub = p.add_subparsers(dest="cmd", required=True)
    for add in (_demo, _play, _learn, _replay, _arena, _bot_commands, _db):
        add(sub, line)
    return p


# -- offline: games played on this machine


def _demo(sub: Commands, games_line: str) -> None:
    """``bazaar demo``: complete AI games written as pictures and move logs."""
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


def _play(sub: Commands, games_line: str) -> None:
    """``bazaar play``: one game in the terminal against AI seats."""
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


def _learn(sub: Commands, games_line: str) -> None:
    """``bazaar learn``: the guided first game of one game in the terminal."""
    le = sub.add_parser(
        "learn",
        help="play a guided first game in the terminal",
        epilog=games_line,
        description="Play a short scripted game against AI seats; before each of your steps a "
        "guide says what it is for and suggests a move. The game is saved after every move; "
        "`bazaar learn <game>` again resumes it.",
    )
    le.add_argument("game", help="the game to learn")
    le.add_argument(
        "--autoplay",
        action="store_true",
        help="play the whole script by itself, printing every explanation (nothing is saved)",
    )
    le.add_argument("--new", action="store_true", help="start the guided game over instead of resuming it")
    le.add_argument(
        "--save",
        type=Path,
        metavar="FILE",
        help="where the guided game is saved after every move (default learn-<game>.log beside "
        "`bazaar play`'s save, ~/.local/state/bazaar/)",
    )


def _replay(sub: Commands, games_line: str) -> None:
    """``bazaar replay``: a move log replayed and its outcome checked."""
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


def _arena(sub: Commands, games_line: str) -> None:
    """``bazaar arena``: AI levels against each other, with win shares."""
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


# -- the Discord bot


def _bot_commands(sub: Commands, games_line: str) -> None:
    """``bazaar games``, ``run``, ``health`` and ``sync``: what the bot plays, and running it."""
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


# -- the database: ``bazaar db <migrate|backup|copy|forget-user>``


def _db(sub: Commands, games_line: str) -> None:
    """``bazaar db`` and its own commands."""
    db = sub.add_parser(
        "db",
        help="the database: apply migrations, back up, copy SQLite to PostgreSQL, forget a person",
        epilog=games_line,
        description="Manage the database named by BAZAAR_DB (a SQLite file, or a "
        "postgresql:// URL), from the environment or .env.",
    )
    dbsub = db.add_subparsers(
        dest="db_cmd",
        required=True,
        help="`migrate`, `rate`, `backup`, `copy` or `forget-user` (each has --help)",
    )
    dbsub.add_parser(
        "migrate",
        help="apply pending migrations to the configured database",
        epilog=games_line,
        description="Apply every pending numbered migration to the database BAZAAR_DB "
        "names (created if it is a SQLite file that does not exist yet).",
    )
    dbsub.add_parser(
        "rate",
        help="rate every finished game again, from scratch, in finish order",
        epilog=games_line,
        description="Recompute every rating table (per game, per server and across servers, "
        "the people's and the against-the-AI tables) from the stored finished games in finish "
        "order: the same numbers every time, on SQLite and PostgreSQL. A finished game whose "
        "result is not recorded yet (finished before ratings existed) is replayed from its log first.",
    )
    for add in (_db_backup, _db_copy, _db_forget_user):
        add(dbsub, games_line)


def _db_backup(sub: Commands, games_line: str) -> None:
    """``bazaar db backup``: an online copy of the SQLite file, checked."""
    bk = sub.add_parser(
        "backup",
        help="a consistent copy of the SQLite database, even while the bot runs",
        epilog=games_line,
        description="Copy the SQLite database BAZAAR_DB names to FILE with SQLite's online "
        "backup (one consistent state, even while a bot writes to it), then check the "
        "copy by replaying every started game of it. FILE must not exist. For a "
        "PostgreSQL database it says how to use pg_dump.",
    )
    bk.add_argument("file", metavar="FILE", help="the new backup file")


def _db_copy(sub: Commands, games_line: str) -> None:
    """``bazaar db copy``: SQLite to an empty PostgreSQL database, checked."""
    cp = sub.add_parser(
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


def _db_forget_user(sub: Commands, games_line: str) -> None:
    """``bazaar db forget-user``: a person's deletion request."""
    fu = sub.add_parser(
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
