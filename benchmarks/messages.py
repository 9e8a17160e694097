"""Messages per move, classic vs Components V2: the real bot against the fake Discord of the tests,
one seeded game per game (two people and the game's AI seats, played in the channel, moves typed
and clicked in turn as the end-to-end tests play them), counted from the requests the bot sent
once the game had started: messages posted (channel and DM posts, interaction answers), edited
(channel and interaction message PATCHes, which include taking an old message's controls away),
read (a V2 message is read before its controls are taken away), and the bytes sent (JSON bodies
and uploaded pictures), each divided by the moves the game advanced (people's and AI's).

"classic" is the shape the bot falls back to where Discord refuses V2: here every channel is
taken as such (the publisher's ``shape_of`` answers classic), so the same game is measured both
ways. The My hand answer (opened when a click is offered only privately) is V2 in both.

Run: ``python -m benchmarks.messages [--moves N] [game ...]``. Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

GAMES: dict[str, tuple[tuple[str, ...], int, str]] = {
    # game: joiners beside "ann", AI seats, options
    "pralaya": (("bob",), 0, ""),
    "ra": (("bob",), 0, ""),
    "kathai": (("bob",), 1, ""),
    "phraya": (("bob",), 1, "round_limit=8"),
}


@dataclass
class Figures:
    """What one game sent to Discord over ``moves`` moves."""

    moves: int
    posts: int
    edits: int
    reads: int
    bytes: int

    def per_move(self) -> tuple[float, float, float, float]:
        m = max(1, self.moves)
        return self.posts / m, self.edits / m, self.reads / m, self.bytes / m / 1024


def _size(request: Any) -> int:
    body = len(json.dumps(request.json)) if request.json is not None else 0
    return body + sum(len(f.data) for f in request.files)


def count(requests: list[Any]) -> tuple[int, int, int, int]:
    """``(posts, edits, reads, bytes)`` of the bot's message requests among ``requests``."""
    posts = edits = reads = size = 0
    for r in requests:
        route = r.route or ""
        if r.method == "POST" and (route.endswith("/messages") or route.startswith("POST /webhooks/")):
            posts += 1
        elif r.method == "POST" and route.endswith("/callback"):
            posts += int(isinstance(r.json, dict) and r.json.get("type") in (4, 7))
        elif r.method == "PATCH" and "/messages/" in route:
            edits += 1
        elif r.method == "GET" and route.endswith("/messages/{message_id}"):
            reads += 1
        else:
            continue
        size += _size(r)
    return posts, edits, reads, size


@contextlib.asynccontextmanager
async def playing(game: str, shape: str, folder: Path) -> AsyncIterator[tuple[Any, Any, int, Any]]:
    """A started ``game`` (two people, its AI seats, played in #games) with the real bot on the
    fake Discord, every channel in ``shape``: ``(fake, table, game id, channel)``."""
    from bot.surface import layout
    from tests.e2e.bazaar_harness import make_table
    from tests.fakediscord import CREATE_PUBLIC_THREADS, DEFAULT_BOT_PERMISSIONS, BotRunner, FakeDiscord

    fake = FakeDiscord(ack_deadline=None, default_timeout=120.0)
    await fake.start()
    runners: list[Any] = []

    async def start(client: Any, *, token: str | None = None, guild_ready_timeout: float = 0.05) -> BotRunner:
        runner = BotRunner(fake, client, token=token, guild_ready_timeout=guild_ready_timeout)
        runners.append(runner)
        return await runner.start()

    try:
        with fake.patch_discord():
            table = make_table(
                fake,
                start,
                folder,
                bot_permissions=DEFAULT_BOT_PERMISSIONS & ~CREATE_PUBLIC_THREADS,
                everyone_permissions=0x400 | 0x800 | 0x8000 | 0x10000 | (1 << 31),
            )
            await table.boot()
            if shape == layout.CLASSIC:

                async def classic(channel_id: int) -> str:
                    return layout.CLASSIC

                table.bot.publisher.shape_of = classic
            joiners, ais, options = GAMES[game]
            extra = {"options": options} if options else {}
            gid, place = await table.start_game("ann", joiners, ais, game=game, **extra)
            yield fake, table, gid, place
            for runner in reversed(runners):
                await runner.stop()
    finally:
        await fake.close()


async def measure(game: str, shape: str, moves: int, folder: Path) -> Figures:
    """Play ``moves`` moves of ``game`` (or to its end) in ``shape`` and count what was sent."""
    async with playing(game, shape, folder) as (fake, table, gid, place):
        mark, first = len(fake.requests), (await table.stored(gid)).version
        for i in range(moves):
            if (await table.stored(gid)).status != "active":
                break
            await table.play_one(gid, place, "button" if i % 2 else "move")
        await table.settle()
        return Figures((await table.stored(gid)).version - first, *count(fake.requests[mark:]))


async def run(games: list[str], moves: int, report: Any = print) -> dict[tuple[str, str], Figures]:
    out: dict[tuple[str, str], Figures] = {}
    report("| game | shape | moves | posted / move | edited / move | read / move | KiB / move |")
    report("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for game in games:
            for shape in ("classic", "v2"):
                f = await measure(game, shape, moves, Path(tmp) / f"{game}-{shape}")
                out[(game, shape)] = f
                p, e, r, kib = f.per_move()
                report(f"| {game} | {shape} | {f.moves} | {p:.2f} | {e:.2f} | {r:.2f} | {kib:.1f} |")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.messages", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--moves", type=int, default=40, help="people's moves played per game (default 40)")
    parser.add_argument("games", nargs="*", help=f"games to measure (default: {' '.join(GAMES)})")
    args = parser.parse_args()
    unknown = set(args.games) - set(GAMES)
    if unknown:
        parser.error(f"unknown game(s) {sorted(unknown)}")
    import logging

    logging.basicConfig(level=logging.ERROR)
    asyncio.run(run(args.games or list(GAMES), args.moves))


if __name__ == "__main__":
    main()
