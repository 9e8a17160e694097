"""The animated recap on Discord: the final score sheet's message also carries ``<game>-<id>-recap.gif``,
one public board per turn, rebuilt from the stored move log (so also by a bot that restarted
before posting the end), under the attachment budget."""
from __future__ import annotations

import asyncio
import io
import json

from PIL import Image, ImageSequence

import render
from bazaar_harness import install_toy_secret, make_table, replay_states
from engines import base
from render import recap


def gif_frames(data: bytes) -> list[Image.Image]:
    with Image.open(io.BytesIO(data)) as gif:
        assert gif.format == "GIF" and gif.info.get("loop") == 0
        return [f.convert("RGB") for f in ImageSequence.Iterator(gif)]


def decode_padded(img: Image.Image) -> dict:
    """The view a toy board (render.toysecret: the view's JSON spelt in greys) was drawn from; the
    recap pads narrower boards on the right, which the JSON decoder stops before."""
    nib = [round(g / 17) for g in img.convert("L").tobytes()]
    raw = bytes(16 * a + b for a, b in zip(nib[::2], nib[1::2])).decode("latin-1")
    found, _ = json.JSONDecoder().raw_decode(raw)
    assert found["what"] == "board"
    return found["view"]


async def test_the_final_post_carries_a_recap_rebuilt_from_the_log_after_a_restart(fake_discord, run_bot, tmp_path):
    """Two people play the toy game; the bot dies after the last move is stored and before the end
    is posted; the next bot's final message has the sheet and the recap: one frame per turn, each
    exactly the spectator view of that moment (other hands as counts), the last held."""
    remove = install_toy_secret()
    try:
        fake = fake_discord
        table = make_table(fake, run_bot, tmp_path)
        await table.boot()
        gid, thread = await table.start_game("ann", ("bob",), 0, game="toysecret")
        for _ in range(5):
            await table.play_one(gid, thread, "move")
        game = await table.bot.service.get(gid)

        async def dies_before_posting(game):
            await asyncio.Event().wait()

        table.bot.publisher.publish = dies_before_posting
        await fake.slash(table.user_of(game, game.awaited()[0]), thread, "move", action="draw", wait=False)
        await fake.wait_for(lambda: game.row.status == "finished")
        await table.runner.kill(release=table.bot.store.close)

        await table.boot(sync=False)
        await table.settle()
        final = fake.last_message(thread)
        assert "is over" in final.content
        assert [a.filename for a in final.attachments] == [f"toysecret-{gid}-final.png", f"toysecret-{gid}-recap.gif"]
        film = final.attachments[1]
        assert 0 < film.size <= recap.BUDGET

        engine = base.get("toysecret")
        row = await table.bot.store.game(gid)
        moves = await table.db_moves(gid)
        states = replay_states(engine, row.seed, 2, row.options, moves)
        assert len(moves) == 6 and len({seat for seat, *_ in moves}) == 2  # seats alternate: 6 turns
        frames = gif_frames(film.data)
        assert len(frames) == 7
        assert [decode_padded(f) for f in frames] == [engine.view(s, None) for s in states]
        assert all(isinstance(h, int) for h in decode_padded(frames[3])["hands"])  # nobody's cards
        with Image.open(io.BytesIO(film.data)) as gif:
            gif.seek(6)
            assert gif.info["duration"] == recap.HOLD_MS
    finally:
        remove()


async def test_a_finished_pralaya_game_posts_its_recap_with_the_final_sheet(fake_discord, run_bot, tmp_path):
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", (), 2, game="pralaya")
    played = 0
    while (await table.bot.store.game(gid)).status == "active":
        await table.play_one(gid, thread, "move")
        played += 1
        assert played < 300
    await table.settle()

    final = fake.last_message(thread)
    assert "is over" in final.content
    sheet, film = final.attachments
    assert sheet.filename == f"pralaya-{gid}-final.png" and film.filename == f"pralaya-{gid}-recap.gif"
    assert film.size <= recap.BUDGET

    engine = base.get("pralaya")
    row = await table.bot.store.game(gid)
    names = [s.name for s in await table.bot.store.seats(gid)]
    moves = [(seat, action) for seat, action, _ in await table.db_moves(gid)]
    turns = list(recap.replayed_turns(engine, row.seed, 3, row.options, moves))
    frames = gif_frames(film.data)
    assert len(frames) == len(turns) and 3 <= len(turns) < len(moves)  # Pralaya turns have several steps
    boards = [render.get("pralaya").board(engine.view(s, None), names) for s in turns]

    def distance(frame: Image.Image, board: Image.Image) -> float:
        shown = frame.crop((0, 0, *board.size))
        return sum(abs(a - b) for a, b in zip(board.tobytes(), shown.tobytes())) / len(board.tobytes())

    for i in (0, len(turns) // 2, len(turns) - 1):  # start, middle, end: each frame is its own turn's board
        near = {j: distance(frames[i], boards[j]) for j in (i - 1, i, i + 1) if 0 <= j < len(boards)}
        assert min(near, key=near.get) == i and near[i] < 2.0, (i, near)
