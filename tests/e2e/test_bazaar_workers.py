"""The bot draws through its worker pool: every board, hand and text of a game is a job of
``bot.workers`` given views and names only (never a state), and the pool is closed with the bot."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from bot.host.workers import Workers
from tests.e2e.bazaar_harness import make_table
from tests.fakediscord import FakeDiscord, RunBot

T = TypeVar("T")


class RecordingWorkers(Workers):
    """Thread workers that note each job's function and arguments."""

    def __init__(self) -> None:
        super().__init__(0)
        self.jobs: list[tuple[str, tuple[Any, ...]]] = []
        self.closed = False

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        self.jobs.append((fn.__name__, args))
        return await super().run(fn, *args)

    def close(self) -> None:
        self.closed = True
        super().close()


def _holds_a_state(value: Any) -> bool:
    if dataclasses.is_dataclass(value) and type(value).__name__ not in (
        "Event",
        "Line",
    ):  # events, caption lines
        return True
    if isinstance(value, dict):
        return any(_holds_a_state(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_holds_a_state(v) for v in value)
    return False


async def test_boards_hands_and_texts_are_jobs_of_the_pool_with_views_only(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    workers = RecordingWorkers()
    runner = await table.boot(workers=workers)
    gid, lobby = await table.new_game("ann", "pralaya")
    await fake.click(table.players["ann"], lobby, label="Add AI")
    await table.settle()
    await fake.click(table.players["ann"], lobby, label="Start")
    await table.settle()
    thread = fake.threads[-1]
    await table.play_one(gid, thread)
    game = await table.bot.service.get(gid)
    names = {name for name, _ in workers.jobs}
    assert {"warm", "boards", "picture", "view_text"} <= names, names
    for name, args in workers.jobs:
        assert not any(_holds_a_state(a) for a in args), (name, args)
        assert game.state not in args
    boards = [args for name, args in workers.jobs if name == "boards"]
    assert boards[-1][1] == game.engine.view(game.state, None)  # the spectator view of the last move
    hands = [args for name, args in workers.jobs if name == "picture" and args[1] == "hand"]
    ann = game.seat_of(table.players["ann"].id)
    assert ann is not None
    seat = ann.seat
    assert hands[-1][2] == game.engine.view(game.state, seat)
    assert table.bot.lag.samples  # the loop's lag is being sampled
    await runner.stop()
    assert workers.closed
