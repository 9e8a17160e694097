"""AI levels through the real client: ``/game addbot level:``, a searching AI seat thinking in a
worker process while the bot answers other clicks, and its moves reproducible from the game's
seed (the search is seeded from the stored seed, the version and the seat)."""

from __future__ import annotations

import asyncio
import logging
import re
from pathlib import Path

import pytest

from engines import base, search
from tests.e2e.bazaar_harness import make_table
from tests.fakediscord import FakeDiscord, RunBot


async def test_addbot_levels_and_a_searching_ai_in_a_worker_process(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.host.service")
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    table.ai_level = None  # the game's own default level (normal): the search
    table.workers = 1  # one real worker process
    await table.boot()
    ann, bob = table.players["ann"], table.players["bob"]
    gid, lobby = await table.new_game("ann", "ra", clock="2h")
    h = await fake.slash(ann, table.channel, "game addbot", level="hard")
    assert h.ephemeral and "Added an AI (hard)" in h.text
    await table.settle()
    assert "AI 1 (hard)" in fake.message(lobby.id).text
    seats = await table.bot.service.store.seats(gid)
    assert [(s.name, s.ai_level) for s in seats] == [("ann", None), ("AI 1 (hard)", "hard")]
    await fake.click(ann, lobby, label="Add AI")  # the button: the default level
    await table.settle()
    assert (await table.bot.service.store.seats(gid))[2].ai_level is None
    await fake.click(ann, lobby, label="Start")
    await table.settle(timeout=60)
    thread = fake.threads[-1]

    game = await table.bot.service.get(gid)
    plays = 0
    while game.row.status == "active" and plays < 6:
        if not any(not game.ai_plays(s) for s in game.awaited()):
            await asyncio.sleep(0.05)
            continue
        await table.play_one(gid, thread)
        plays += 1
        # a stranger's click while the AI may be thinking is answered at once and changes nothing
        h = await fake.slash(bob, thread, "move", action="draw")
        assert h.ephemeral and "not playing" in h.text
    await table.settle(timeout=60)
    moves = await table.bot.service.store.moves(gid)
    ai = [m for m in moves if m.by == "ai"]
    assert ai and plays >= 3

    # every AI move is the one the search makes from that seat's view with that seed
    engine = base.get("ra")
    row = await table.stored(gid)
    level = {1: "hard", 2: "normal"}
    capped = {int(v) for v in re.findall(r"search at version (\d+) was cut short", caplog.text)}
    state = engine.setup(row.seed, 3, row.options)
    compared = 0
    for m in moves:
        if m.by == "ai" and m.version - 1 not in capped:  # a search cut short by the time cap may differ
            legal = engine.legal_actions(state, m.seat)
            again = search.choose(
                engine,
                engine.view(state, m.seat),
                legal,
                level[m.seat],
                search.ai_seed(row.seed, m.version - 1, m.seat),
            )
            if not again.capped:
                assert again.action == m.action, (m.version, m.seat)
                compared += 1
        state = base.play(engine, state, m.seat, m.action).state
    assert compared >= len(ai) // 2, f"only {compared} of {len(ai)} AI moves were searched in full"
