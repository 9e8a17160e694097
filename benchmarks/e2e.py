"""End to end: milliseconds from the INTERACTION_CREATE of a ``/move`` to the snapshot shown
(posted, or edited in place while the same player goes on).

The real bot (``bot.app.BazaarBot``, real discord.py client) runs against the fake Discord of the
tests on 127.0.0.1, with a throw-away database. Each game is Pralaya with one person and one AI
seat, played in its own thread. In every round each game's person sends ``/move`` (the AI's pick
for them) at the same moment; the clock starts when the fake writes the INTERACTION_CREATE frame
to the bot's socket and stops when the fake receives the new board (the AI's reply is played
before the board is posted, so the board shows the person's turn again). Rendering runs in worker
threads, so with many games at once the figure mostly measures rendering throughput.

Run: ``python -m benchmarks e2e`` (or ``make bench``). Figures only; nothing is asserted.
"""

from __future__ import annotations

import asyncio
import logging
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parent.parent
for extra in (ROOT, ROOT / "tests"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

if TYPE_CHECKING:
    from fakediscord import Channel, FakeDiscord, Interaction, Message, User

    from bot.host.live import LiveGame
    from bot.surface.app import BazaarBot

PLAN = ((1, 15), (10, 5), (100, 2))  # (games at once, rounds)


def _percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..100)."""
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, -(-len(ordered) * q // 100) - 1))
    return ordered[int(k)]


class _Boards:
    """Notes the loop time at which each board reaches the fake: a new board message, or an edit
    of the latest one (the bot edits its board while the same player goes on)."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.seen = 0
        self.seq = 0
        self.latest: dict[int, Message] = {}  # channel id -> its newest board message
        self.shown: dict[int, str] = {}  # message id -> the content last noted
        self.posted: dict[int, list[tuple[float, int]]] = {}  # channel id -> [(time, sequence number)]
        self._inner = fake._changed
        # the fake offers no hook for changes: its private one is wrapped (and still called)
        fake._changed = self._changed

    def _changed(self) -> None:
        store = self.fake.message_store
        if len(store) > self.seen:
            for msg in list(store.values())[self.seen :]:
                if "· move " in msg.content or "is over" in msg.content:
                    self.latest[msg.channel_id] = msg
            self.seen = len(store)
        now = asyncio.get_running_loop().time()
        for channel, msg in self.latest.items():
            if self.shown.get(msg.id) != msg.content:
                self.shown[msg.id] = msg.content
                self.seq += 1
                self.posted.setdefault(channel, []).append((now, self.seq))
        self._inner()

    def mark(self) -> int:
        """A sequence number: :meth:`first_after` with it sees only boards shown from now on."""
        return self.seq

    def first_after(self, channel_id: int, mark: int) -> float | None:
        """The loop time of the first board shown in ``channel_id`` after ``mark``, or None."""
        for t, seq in self.posted.get(channel_id, ()):
            if seq > mark:
                return t
        return None


def _all_shown(boards: _Boards, mark: int, handles: list[tuple[Interaction, Channel]]) -> Callable[[], bool]:
    """What the round waits for first: a board shown after ``mark`` in the thread of every ``/move``."""
    return lambda: all(boards.first_after(t.id, mark) for _, t in handles)


def _all_acked(bot: BazaarBot, handles: list[tuple[Interaction, Channel]]) -> Callable[[], bool]:
    """What the round waits for then: every ``/move`` answered and no handler still running."""
    return lambda: all(h.done for h, _ in handles) and bot.inflight == 0


async def _measure(n_games: int, rounds: int, folder: Path) -> tuple[list[float], list[float]]:
    """``rounds`` rounds of ``n_games`` games at once: the milliseconds from each ``/move`` to its
    board shown, and to its acknowledgement."""
    from fakediscord import BotRunner, FakeDiscord

    from bot.host.config import Config
    from bot.surface.app import BazaarBot

    fake = FakeDiscord(ack_deadline=None, default_timeout=300.0)
    await fake.start()
    try:
        with fake.patch_discord():
            guild = fake.add_guild("Bench", channels=["games"])
            channel = fake.channel("games")
            users = [fake.add_user(f"p{i}", guild=guild) for i in range(n_games)]
            bot = BazaarBot(
                Config(token=fake.token, db_path=folder / f"bench-{n_games}.sqlite3", confirm=False),
                seed_source=iter(range(10_000, 20_000)).__next__,
            )
            runner = await BotRunner(fake, bot).start()
            await bot.tree.sync()
            games = await _start_games(fake, bot, guild.id, channel, users)
            await fake.wait_for(lambda: bot.inflight == 0)
            boards = _Boards(fake)
            samples: list[float] = []
            acks: list[float] = []
            for _ in range(rounds):
                live = [(g, u, t) for g, u, t in games if g.row.status == "active"]
                if not live:
                    break
                await _round(fake, bot, boards, live, samples, acks)
            await runner.stop()
    finally:
        await fake.close()
    return samples, acks


async def _start_games(
    fake: FakeDiscord, bot: BazaarBot, guild_id: int, channel: Channel, users: list[User]
) -> list[tuple[LiveGame, User, Channel]]:
    """A Pralaya game for each of ``users`` with one AI seat, each started in a thread of its
    own off ``channel``, set up through the service (only ``/move`` is timed)."""
    import discord

    games = []
    for i, user in enumerate(users):
        game = await bot.service.create(
            kind="pralaya",
            options=None,
            clock=None,
            guild_id=guild_id,
            channel_id=channel.id,
            user_id=user.id,
            name=user.name,
        )
        await bot.service.add_ai(game.id, user.id)
        data = await bot.http.start_thread_without_message(
            channel.id,
            name=f"bench {i}",
            auto_archive_duration=1440,
            type=discord.ChannelType.public_thread.value,
        )
        await bot.publisher.publish(await bot.service.start(game.id, user.id, thread_id=int(data["id"])))
        games.append((game, user, fake.channel(int(data["id"]))))
    return games


async def _round(
    fake: FakeDiscord,
    bot: BazaarBot,
    boards: _Boards,
    live: list[tuple[LiveGame, User, Channel]],
    samples: list[float],
    acks: list[float],
) -> None:
    """One round: each person of ``live`` sends ``/move`` (the AI's pick for them) at the same
    moment; the round's times are added to ``samples`` (to the board shown) and ``acks``."""
    mark = boards.mark()
    handles: list[tuple[Interaction, Channel]] = []
    for game, user, thread in live:
        seat = next(s for s in game.awaited() if not game.ai_plays(s))
        legal = game.engine.legal_actions(game.state, seat)
        action = game.engine.choose(game.engine.view(game.state, seat), legal)
        handles.append((await fake.slash(user, thread, "move", action=action, wait=False), thread))
    await fake.wait_for(_all_shown(boards, mark, handles))
    await fake.wait_for(_all_acked(bot, handles))
    for h, thread in handles:
        shown, sent, ack = boards.first_after(thread.id, mark), h.sent_at, h.ack_latency
        if shown is None or sent is None or ack is None:
            raise RuntimeError(f"the /move in thread {thread.id} was not timed")
        samples.append(1000 * (shown - sent))
        acks.append(1000 * ack)


def run(report: Callable[[str], None] = print) -> dict[int, tuple[int, float, float]]:
    """Measure every line of :data:`PLAN` and report it (with the slowest acknowledgement of an
    interaction); returns ``{games: (samples, median ms, p99 ms)}``."""
    logging.getLogger("discord").setLevel(logging.ERROR)
    report(
        "\nEnd to end: INTERACTION_CREATE of /move -> board shown (posted, or edited in place; real bot, "
        "fake Discord on 127.0.0.1; Pralaya, 1 person + 1 AI per game)"
    )
    report(
        f"  {'games at once':>13}  {'samples':>7}  {'median ms':>9}  {'p99 ms':>8}  "
        f"{'max ack ms':>10}  {'wall s':>6}"
    )
    out: dict[int, tuple[int, float, float]] = {}
    with tempfile.TemporaryDirectory(prefix="bazaar-bench-") as tmp:
        for n_games, rounds in PLAN:
            t0 = time.perf_counter()
            samples, acks = asyncio.run(_measure(n_games, rounds, Path(tmp)))
            wall = time.perf_counter() - t0
            med, p99 = statistics.median(samples), _percentile(samples, 99)
            out[n_games] = (len(samples), med, p99)
            report(
                f"  {n_games:>13}  {len(samples):>7}  {med:>9.1f}  {p99:>8.1f}  "
                f"{max(acks):>10.1f}  {wall:>6.1f}"
            )
    return out


def main() -> None:
    """Print the end-to-end figures (called by ``python -m benchmarks``)."""
    run(print)


if __name__ == "__main__":
    main()
