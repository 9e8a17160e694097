"""A game whose board does not fit one picture (Phraya's ``extra``: prices, Temple, King, market
and players) posts its second picture with the board in the same message, and an edit in place
replaces both. Drawn by the stand-in renderer (tests/render_stub.py), so this checks the posting
whatever each game's drawing is."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from tests.e2e.bazaar_harness import make_table
from tests.fakediscord import FakeDiscord, Message, RunBot
from tests.render_stub import BOARD_H, EXTRA_H, board_height, use_stub


def sizes(msg: Message) -> list[tuple[int, int]]:
    return [Image.open(io.BytesIO(a.data)).size for a in msg.attachments]


async def test_a_phraya_turn_message_carries_the_board_and_its_second_picture(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_stub(monkeypatch, extra_for={"phraya"})
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, place = await table.start_game("ann", ("bob",), 1, game="phraya")
    board = table.last_turn(place)
    names = [a.filename for a in board.attachments]
    assert len(names) == 2 and names[0].endswith(".png") and names[1] == names[0].replace(".png", "-2.png")
    assert sizes(board) == [(1000, board_height(3)), (1000, EXTRA_H)]
    assert BOARD_H < EXTRA_H
    first_ids = {a.id for a in board.attachments}
    for _ in range(6):  # people play; each board (posted anew or edited in place) carries both
        await table.play_one(gid, place)
        board = table.last_turn(place)
        assert len(board.attachments) == 2, [a.filename for a in board.attachments]
        assert sizes(board) == [(1000, board_height(3)), (1000, EXTRA_H)]
        if (await table.bot.service.get(gid)).row.status != "active":
            break
    assert {a.id for a in board.attachments} != first_ids  # replaced, not kept


async def test_a_game_with_one_picture_posts_one(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_stub(monkeypatch)
    table = make_table(fake_discord, run_bot, tmp_path)
    await table.boot()
    gid, place = await table.start_game("ann", ("bob",), 0, game="pralaya")
    assert len(table.last_turn(place).attachments) == 1
    await table.play_one(gid, place)
    assert len(table.last_turn(place).attachments) == 1
