"""A first end-to-end check: open a lobby, join, add an AI, start, see the board and the DMs."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.bazaar_harness import buttons, make_table
from tests.fakediscord import FakeDiscord, RunBot


async def test_lobby_to_first_board(fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, lobby = await table.new_game("ann", "pralaya")
    assert {b["label"] for b in buttons(lobby)} == {"Join", "Leave", "Add AI", "Start"}
    await fake.click(table.players["bob"], lobby, label="Join")
    await fake.wait_for(lambda: "bob" in fake.message(lobby.id).text)
    await fake.click(table.players["ann"], lobby, label="Add AI")
    await fake.wait_for(lambda: "AI 1" in fake.message(lobby.id).text)
    await fake.click(table.players["ann"], lobby, label="Start")
    thread = await fake.wait_for(lambda: fake.threads and fake.threads[0])
    board = await fake.wait_message(thread, lambda m: m.attachments)
    assert "move 0" in board.text
    await fake.wait_for(lambda: fake.dms(table.players["ann"]) and fake.dms(table.players["bob"]))
    await table.settle()
