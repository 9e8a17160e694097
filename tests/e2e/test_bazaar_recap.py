"""The animated recap on Discord: a message of its own right below the final score sheet, carrying
``<game>-<id>-recap.gif``, one public board per turn, rebuilt from the stored move log (so also by
a bot that restarted before posting the end, or after posting the sheet and before the recap),
under the attachment budget."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageSequence

from engines import base
from render import caption, recap
from tests.e2e.bazaar_harness import Table, install_toy_secret, make_table, never_publish, replay_states
from tests.fakediscord import Attachment, Channel, FakeDiscord, Message, Request, RunBot


def gif_frames(data: bytes) -> list[Image.Image]:
    with Image.open(io.BytesIO(data)) as gif:
        assert gif.format == "GIF" and gif.info.get("loop") == 0
        return [f.convert("RGB") for f in ImageSequence.Iterator(gif)]


def decode_padded(img: Image.Image) -> dict[str, Any]:
    """The view a toy board (render.toysecret: the view's JSON spelt in greys) was drawn from,
    below the frame's caption strip; the recap pads narrower boards on the right, which the JSON
    decoder stops before."""
    img = img.crop((0, caption.HEIGHT, img.width, img.height))
    nib = [round(g / 17) for g in img.convert("L").tobytes()]
    raw = bytes(16 * a + b for a, b in zip(nib[::2], nib[1::2], strict=False)).decode("latin-1")
    found, _ = json.JSONDecoder().raw_decode(raw)
    assert found["what"] == "board"
    view: dict[str, Any] = found["view"]
    return view


def sheet_and_recap(fake: FakeDiscord, thread: Channel, gid: int, kind: str) -> tuple[Message, Attachment]:
    """The final sheet's message and the recap's message below it (the last two of the thread)."""
    final, film = fake.messages(thread)[-2:]
    assert "is over" in final.text
    assert [a.filename for a in final.attachments] == [f"{kind}-{gid}-final.png"]
    assert "turn by turn" in film.text and "is over" not in film.text
    assert [a.filename for a in film.attachments] == [f"{kind}-{gid}-recap.gif"]
    return final, film.attachments[0]


async def test_the_recap_follows_the_final_post_rebuilt_from_the_log_after_a_restart(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two people play the toy game; the bot dies after the last move is stored and before the end
    is posted; the next bot posts the sheet, then the recap: one frame per turn, each exactly the
    spectator view of that moment (other hands as counts), the last held."""
    remove = install_toy_secret()
    try:
        fake = fake_discord
        table = make_table(fake, run_bot, tmp_path)
        await table.boot()
        gid, thread = await table.start_game("ann", ("bob",), 0, game="toysecret")
        for _ in range(5):
            await table.play_one(gid, thread, "move")
        game = await table.bot.service.get(gid)

        never_publish(monkeypatch, table.bot)
        await fake.slash(table.user_of(game, game.awaited()[0]), thread, "move", action="draw", wait=False)
        await fake.wait_for(lambda: game.row.status == "finished")
        await table.running.kill(release=table.bot.service.store.close)

        await table.boot(sync=False)
        await table.recaps_posted()
        final, film = sheet_and_recap(fake, thread, gid, "toysecret")
        assert 0 < film.size <= recap.BUDGET

        engine = base.get("toysecret")
        row = await table.stored(gid)
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


async def test_a_finished_pralaya_game_posts_its_recap_below_the_final_sheet(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", (), 2, game="pralaya")
    played = 0
    while (await table.stored(gid)).status == "active":
        await table.play_one(gid, thread, "move")
        played += 1
        assert played < 300
    await table.recaps_posted()

    final, film = sheet_and_recap(fake, thread, gid, "pralaya")
    assert film.size <= recap.BUDGET

    engine = base.get("pralaya")
    row = await table.stored(gid)
    names = [s.name for s in await table.bot.service.store.seats(gid)]
    moves = [(seat, action) for seat, action, _ in await table.db_moves(gid)]
    turns = list(recap.replayed(engine, row.seed, 3, row.options, moves, names))
    frames = gif_frames(film.data)
    assert len(frames) == len(turns) and 3 <= len(turns) < len(moves)  # Pralaya turns have several steps
    # each frame is the board as posted: its turn's caption on top, what the turn changed marked
    boards = [
        Image.open(io.BytesIO(p)).convert("RGB")
        for p in recap.boards(engine, turns, recap.posted("pralaya"), names)
    ]
    assert all(b.size == frames[0].size for b in boards)  # one size: no blank canvas

    def distance(frame: Image.Image, board: Image.Image) -> float:
        shown = frame.crop((0, 0, *board.size))
        return sum(abs(a - b) for a, b in zip(board.tobytes(), shown.tobytes(), strict=False)) / len(
            board.tobytes()
        )

    for i in (0, len(turns) // 2, len(turns) - 1):  # start, middle, end: each frame is its own turn's board
        near = {j: distance(frames[i], boards[j]) for j in (i - 1, i, i + 1) if 0 <= j < len(boards)}
        assert min(near, key=lambda j: near[j]) == i and near[i] < 2.0, (i, near)


def _held_recap(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """Make the recap job wait (in its lane's thread) until the returned event is set."""
    from bot.host import drawing

    go, real = threading.Event(), drawing.recap

    def held(*args: Any) -> Any:
        assert go.wait(60), "the test never let the recap go"
        return real(*args)

    monkeypatch.setattr(drawing, "recap", held)
    return go


async def _play_to_the_end(table: Table, gid: int, thread: Channel) -> None:
    for _ in range(20):
        if (await table.stored(gid)).status != "active":
            return
        await table.play_one(gid, thread, "move")  # each move's answer and board awaited
    raise AssertionError("the toy game did not end")


@contextlib.asynccontextmanager
async def _toy_game_over(
    fake: FakeDiscord, run_bot: RunBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **boot: Any
) -> AsyncIterator[tuple[Table, int, Channel, threading.Event]]:
    """Ann and Bob play the toy game to its end with its recap held (see :func:`_held_recap`);
    yields ``(table, gid, thread, go)``: set ``go`` to let the recap be drawn."""
    remove = install_toy_secret()
    go = _held_recap(monkeypatch)
    try:
        table = make_table(fake, run_bot, tmp_path)
        await table.boot(**boot)
        gid, thread = await table.start_game("ann", ("bob",), 0, game="toysecret")
        await _play_to_the_end(table, gid, thread)
        yield table, gid, thread, go
    finally:
        go.set()
        remove()


async def test_the_final_sheet_and_the_last_answer_do_not_wait_for_the_recap(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the recap is still being drawn, the last move is answered and the final sheet is
    posted (the game is over for everyone); the recap comes below it once drawn, then the thread
    is archived and both messages are recorded."""
    fake = fake_discord
    async with _toy_game_over(fake, run_bot, tmp_path, monkeypatch) as (table, gid, thread, go):
        assert table.bot.publisher.recaps.pending(gid)  # the recap is still held
        final = fake.last_message(thread)
        assert final is not None and "is over" in final.text
        assert [a.filename for a in final.attachments] == [f"toysecret-{gid}-final.png"]
        assert not fake.channel(thread.id).archived  # archived after the recap, which must still go in
        assert await table.bot.service.store.messages(gid, kind="final") == []  # recorded with its recap
        go.set()
        await table.recaps_posted()
        final_again, film = sheet_and_recap(fake, thread, gid, "toysecret")
        assert final_again.id == final.id and film.size > 0
        assert fake.channel(thread.id).archived
        assert [m.message_id for m in await table.bot.service.store.messages(gid, kind="final")] == [final.id]
        assert len(await table.bot.service.store.messages(gid, kind="recap")) == 1


async def test_a_restart_between_the_final_sheet_and_its_recap_posts_the_recap_only(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot dies after posting the final sheet, while the recap is being drawn: the next bot
    finds the sheet on Discord (not posted again) and posts the recap below it; a third start
    posts nothing."""
    fake = fake_discord
    async with _toy_game_over(fake, run_bot, tmp_path, monkeypatch) as (table, gid, thread, go):
        last = fake.last_message(thread)
        assert last is not None and "is over" in last.text and table.bot.publisher.recaps.pending(gid)
        await fake.wait_for(lambda: all(fake.dms(u) for u in (table.players["ann"], table.players["bob"])))
        await asyncio.sleep(0.5)  # the end's DMs (of the private events it revealed) are out
        dms = {who: len(fake.dms(table.players[who])) for who in ("ann", "bob")}
        await table.running.kill(release=table.bot.service.store.close)
        go.set()  # the dead bot's recap thread ends; nothing of it is posted

        await table.boot(sync=False)
        await table.recaps_posted()
        assert {who: len(fake.dms(table.players[who])) for who in ("ann", "bob")} == dms  # none sent again
        finals = [m for m in fake.messages(thread) if "is over" in m.text]
        assert len(finals) == 1
        final, film = sheet_and_recap(fake, thread, gid, "toysecret")
        assert final.id == finals[0].id and fake.channel(thread.id).archived
        await table.running.stop()
        count = len(fake.messages(thread))
        await table.boot(sync=False)
        await table.recaps_posted()
        assert len(fake.messages(thread)) == count


async def test_a_bot_stopped_while_drawing_a_recap_stops_at_once_and_the_next_run_posts_it(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A graceful stop does not wait for a recap being drawn: its task is cancelled (the sheet
    stays unrecorded), and the next start posts the recap once below the sheet."""
    fake = fake_discord
    async with _toy_game_over(fake, run_bot, tmp_path, monkeypatch) as (table, gid, thread, go):
        publisher = table.bot.publisher
        assert publisher.recaps.pending(gid)
        await table.running.stop()
        assert not publisher.recaps.pending(gid)  # cancelled by the stop, though the drawing is held
        go.set()
        await table.boot(sync=False)
        await table.recaps_posted()
        assert len([m for m in fake.messages(thread) if "is over" in m.text]) == 1
        sheet_and_recap(fake, thread, gid, "toysecret")
        assert len(await table.bot.service.store.messages(gid, kind="recap")) == 1


@pytest.mark.parametrize("status, code, posted", [(503, 0, True), (403, 50001, False)])
async def test_a_recap_refused_for_a_while_is_posted_later_once_and_one_refused_for_good_is_left_out(
    fake_discord: FakeDiscord,
    run_bot: RunBot,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    status: int,
    code: int,
    posted: bool,
) -> None:
    """Discord answers the recap's post with a 503 (not retried by discord.py) twice: the bot
    posts it again after its pauses, once, and records it with the sheet. A 403 Missing Access
    (the thread is gone for the bot) is not tried again: the sheet is recorded alone."""
    fake = fake_discord
    async with _toy_game_over(fake, run_bot, tmp_path, monkeypatch, repost_delays=(0.2, 0.4)) as (
        table,
        gid,
        thread,
        go,
    ):

        def recap_post(r: Request) -> bool:
            return r.path == f"/channels/{thread.id}/messages" and any(
                f.filename.endswith("-recap.gif") for f in r.files
            )

        fault = fake.faults.fail(
            "POST /channels/{channel_id}/messages", status=status, code=code, times=2, where=recap_post
        )
        go.set()
        await table.recaps_posted()
        tries = [r for f, r in fake.faults.log if f is fault]
        assert len(tries) == (2 if posted else 1)  # a refusal for good is not tried again
        store = table.bot.service.store
        finals = [m for m in fake.messages(thread) if "is over" in m.text]
        assert len(finals) == 1
        assert [m.message_id for m in await store.messages(gid, kind="final")] == [finals[0].id]
        films = [m for m in fake.messages(thread) if "turn by turn" in m.text]
        assert len(films) == int(posted) and len(await store.messages(gid, kind="recap")) == int(posted)
        if posted:
            sheet_and_recap(fake, thread, gid, "toysecret")
        assert await store.unposted() == []
