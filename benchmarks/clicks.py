"""Clicks per move: what a person does in Discord to play a typical move. The real bot against the
fake Discord of the tests, one seeded game per game (two people and the game's AI seats); each
time a person is awaited they play the AI's pick for them (``engine.choose``, a typical move) by
the controls, as a player would: the button or the one menu under the turn message that plays
it (1), else **My hand** first and its button or menu (2), then **Confirm** where the bot asks
(+1). A move no single control plays (one built by a form or a dialog, or offered by no control)
is typed with ``/move`` (1 interaction) and counted apart as typed.

``--tree PATH`` measures another checkout (e.g. ``git worktree add --detach /tmp/old ea79bb1``)
with its own bot, engines and fake Discord, through this file (the harness API it uses is the
same there). Confirm is on (``BAZAAR_CONFIRM``'s default) where the tree has it.

Run: ``python -m benchmarks.clicks [--moves N] [--tree PATH] [game ...]``. Figures only.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()

GAMES: dict[str, tuple[tuple[str, ...], int, str]] = {
    # game: joiners beside "ann", AI seats, options (as benchmarks/messages.py plays them)
    "pralaya": (("bob",), 0, ""),
    "ra": (("bob",), 0, ""),
    "kathai": (("bob",), 1, ""),
    "phraya": (("bob",), 1, "round_limit=8"),
}


@dataclass
class Clicks:
    """How the people's moves of one game were played."""

    moves: int = 0  # people's moves played
    clicks: int = 0  # interactions for the moves played by controls
    by_controls: int = 0
    typed: int = 0
    ways: dict[str, int] = field(default_factory=dict)  # "board", "hand", "+confirm", "typed"

    def line(self, game: str, tree: str) -> str:
        per = self.clicks / max(1, self.by_controls)
        share = 100.0 * self.typed / max(1, self.moves)
        ways = ", ".join(f"{k} {v}" for k, v in sorted(self.ways.items()))
        return f"| {game} | {tree} | {self.moves} | {per:.2f} | {share:.0f}% | {ways} |"


def _menu_values(msg: Any, custom_id: str) -> list[str]:
    try:
        return [str(o.get("value")) for o in msg.component(custom_id).get("options", [])]
    except KeyError:
        return []


async def _by_control(table: Any, user: Any, msg: Any, gid: int, version: int, action: str) -> Any | None:
    """Play ``action`` by the one button or the one menu of ``msg`` that plays it; the
    interaction, or None when none does."""
    button, menu = f"bz:{gid}:{version}:{action}", f"bzs:{gid}:{version}"
    if button in msg.custom_ids:
        return await table.fake.click(user, msg, button)
    if menu in msg.custom_ids and action in _menu_values(msg, menu):
        return await table.fake.select(user, msg, menu, [action])
    return None


def _offers(msg: Any, gid: int, version: int, action: str) -> bool:
    menu = f"bzs:{gid}:{version}"
    return f"bz:{gid}:{version}:{action}" in msg.custom_ids or (
        menu in msg.custom_ids and action in _menu_values(msg, menu)
    )


async def _confirm(table: Any, user: Any, handle: Any) -> bool:
    """Click Confirm if the bot asked (a ``bzc:`` button in its answer); whether it did."""
    for msg in reversed(handle.messages):
        ids = [c for c in msg.custom_ids if c.startswith("bzc:")]
        if ids:
            await table.fake.click(user, msg, ids[0])
            return True
    return False


async def play_move(table: Any, gid: int, place: Any, out: Clicks) -> bool:
    """One person's move by controls (see the module); False when nobody is awaited any more."""
    game = await table.bot.service.get(gid)
    if game.row.status != "active":
        return False
    people = [s for s in game.awaited() if not game.ai_plays(s)]
    if not people:
        await table.settle()
        return bool((await table.bot.service.get(gid)).row.version != game.row.version)
    seat, engine, version = people[0], game.engine, game.row.version
    action = str(engine.choose(engine.view(game.state, seat), engine.legal_actions(game.state, seat)))
    user = table.user_of(game, seat)
    board = table.last_turn(place)
    clicks, way = 1, "board"
    handle = await _by_control(table, user, board, gid, version, action)
    if handle is None:
        hand = await table.open_hand(user, place, gid)
        if _offers(hand, gid, version, action):
            clicks, way = 2, "hand"
            handle = await _by_control(table, user, hand, gid, version, action)
    await table.settle()
    if handle is None:
        handle = await table.fake.slash(user, place, "move", action=action)
        await table.settle()
        way = "typed"
    if await _confirm(table, user, handle):
        await table.settle()
        clicks += 1
        out.ways["+confirm"] = out.ways.get("+confirm", 0) + 1
    after = await table.bot.service.get(gid)
    if after.row.version == version:
        raise AssertionError(f"game {gid}: {action!r} was not played ({way})")
    out.moves += 1
    out.ways[way] = out.ways.get(way, 0) + 1
    if way == "typed":
        out.typed += 1
    else:
        out.by_controls += 1
        out.clicks += clicks
    return True


async def measure(game: str, moves: int, folder: Path) -> Clicks:
    """Play ``moves`` people's moves of ``game`` (or to its end) by controls; the counts."""
    from tests.e2e.bazaar_harness import make_table
    from tests.fakediscord import BotRunner, FakeDiscord

    fake = FakeDiscord(ack_deadline=None, default_timeout=120.0)
    await fake.start()
    runners: list[Any] = []

    async def start(client: Any, *, token: str | None = None, guild_ready_timeout: float = 0.05) -> Any:
        runner = BotRunner(fake, client, token=token, guild_ready_timeout=guild_ready_timeout)
        runners.append(runner)
        return await runner.start()

    out = Clicks()
    try:
        with fake.patch_discord():
            table = make_table(fake, start, folder)
            if hasattr(table, "confirm"):
                table.confirm = True  # the bot's default (BAZAAR_CONFIRM on)
            await table.boot()
            joiners, ais, options = GAMES[game]
            extra = {"options": options} if options else {}
            gid, place = await table.start_game("ann", joiners, ais, game=game, **extra)
            for _ in range(moves):
                if not await play_move(table, gid, place, out):
                    break
            for runner in reversed(runners):
                await runner.stop()
    finally:
        await fake.close()
    return out


async def run(games: list[str], moves: int, tree: str, report: Any = print) -> dict[str, Clicks]:
    out: dict[str, Clicks] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for game in games:
            out[game] = await measure(game, moves, Path(tmp) / game)
            report(out[game].line(game, tree))
    return out


def figures(quick: bool) -> list[Any]:
    """The figures of ``make bench``: clicks per move by controls in each game, this tree."""
    from .table import Figure

    os.environ.setdefault("BAZAAR_WORKERS", "0")  # drawing in threads, as the tests' bots do
    found = asyncio.run(run(list(GAMES), 6 if quick else 30, "this tree", report=lambda line: None))
    return [
        Figure(
            f"clicks per move, {game}",
            f"{c.clicks / max(1, c.by_controls):.2f}",
            note=f"{c.moves} people's moves, {c.typed} typed (no single control)",
        )
        for game, c in found.items()
    ]


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.clicks", description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=30, help="people's moves per game (default 30)")
    parser.add_argument("--tree", type=Path, help="measure this checkout instead (its bot and fake Discord)")
    parser.add_argument("--name", default="", help=argparse.SUPPRESS)  # the tree's name in the table
    parser.add_argument("games", nargs="*", help=f"games to measure (default: {' '.join(GAMES)})")
    args = parser.parse_args()
    unknown = set(args.games) - set(GAMES)
    if unknown:
        parser.error(f"unknown game(s) {sorted(unknown)}")
    games = args.games or list(GAMES)
    if args.tree is not None:  # this file, run inside the other checkout
        tree = args.tree.resolve()
        path = os.pathsep.join((str(tree), str(tree / "tests")))  # older trees import fakediscord bare
        env = {**os.environ, "PYTHONPATH": path, "BAZAAR_WORKERS": "0"}
        cmd = [sys.executable, str(HERE), "--moves", str(args.moves), "--name", tree.name, *games]
        raise SystemExit(subprocess.run(cmd, cwd=tree, env=env, check=False).returncode)
    if args.name:  # in the other checkout: its modules, not this folder's (profile.py shadows the stdlib's)
        sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE.parent]
    root = Path.cwd() if args.name else HERE.parent.parent
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    os.environ.setdefault("BAZAAR_WORKERS", "0")
    import logging

    logging.basicConfig(level=logging.ERROR)
    print("| game | tree | people's moves | clicks / move by controls | typed | how |")
    print("|---|---|---|---|---|---|")
    asyncio.run(run(games, args.moves, args.name or "this tree"))


if __name__ == "__main__":
    main()
