"""The game pieces as the bot's application emojis, through the real discord.py client against
the fake Discord (docs/playing.md#emojis): ``bazaar sync`` uploads every piece once, a second sync
uploads nothing, a changed picture replaces its older one; a bot started with them shows each
bid's sun on its button, and the button still plays once clicked; a bot without them (sync never
run, or the emojis deleted) shows the same buttons as text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.host.config import Config
from bot.surface import emojis, launch
from render import emojis as drawn
from tests.e2e.bazaar_harness import Table, make_table
from tests.fakediscord import Channel, FakeDiscord, Message, RunBot

PIECES = len(drawn.catalogue())


async def _to_an_auction(table: Table) -> tuple[int, Channel, Message, str]:
    """A Ra game of three people, played to its first auction (the first to play draws, the
    next calls Ra): the turn message awaiting a bid, and the name of the bidder."""
    gid, place = await table.start_game("ann", ("bob", "cy"), 0, game="ra")
    for action in ("draw", "invoke"):
        game = await table.bot.service.get(gid)
        h = await table.fake.slash(table.user_of(game, game.awaited()[0]), place, "move", action=action)
        assert h.content.startswith("✅ Played"), h.content
        await table.settle()
    game = await table.bot.service.get(gid)
    bidder = table.user_of(game, game.awaited()[0])
    board = table.last_turn(place)
    assert any(" ".join(b["custom_id"].split(":")[3:]).startswith("bid ") for b in board.buttons), (
        board.custom_ids
    )
    return gid, place, board, bidder.name


def _bids(board: Message) -> dict[str, dict[str, object]]:
    return {b["label"]: b for b in board.buttons if b["label"].startswith("Bid ")}


async def test_sync_uploads_each_piece_once_and_buttons_show_them(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    config = Config(token=fake.token, db_path=tmp_path / "never.sqlite3")
    assert await launch._sync(config) == 0
    names = sorted(e["name"] for e in fake.app_emojis.values())
    assert names == sorted(name for name, _ in drawn.catalogue().values()) and len(names) == PIECES
    ids = set(fake.app_emojis)
    assert await launch._sync(config) == 0 and set(fake.app_emojis) == ids  # nothing uploaded again

    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    assert len(emojis._current) == PIECES
    again = await emojis.sync(table.bot)
    assert again.uploaded == [] and len(again.kept) == PIECES and again.refused == []

    # a piece drawn anew (its old picture still on Discord under another hash): only it is sent
    sun13 = next(e for e in fake.app_emojis.values() if e["name"].startswith("ra_sun13_"))
    sun13["name"] = "ra_sun13_000000"
    done = await emojis.sync(table.bot)
    assert done.uploaded == [drawn.catalogue()["ra_sun13"][0]] and done.deleted == ["ra_sun13_000000"]
    assert len(fake.app_emojis) == PIECES
    await table.running.stop()
    await table.boot(sync=False)

    gid, _, board, bidder = await _to_an_auction(table)
    bids = _bids(board)
    assert bids and fake.unknown_emojis(board) == []
    for label, button in bids.items():
        name, _ = drawn.catalogue()[f"ra_sun{label.split()[1]}"]
        emoji = button.get("emoji")
        assert isinstance(emoji, dict) and emoji["name"] == name, (label, emoji)
        assert fake.app_emojis[int(str(emoji["id"]))]["name"] == name
    label, button = next(iter(bids.items()))
    await fake.click(table.players[bidder], board, str(button["custom_id"]))
    await table.settle()
    moves = await table.db_moves(gid)
    assert moves[-1][1] == label.lower(), moves


async def test_a_bot_without_emojis_shows_text_labels(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    """Sync never run: the same buttons, labels alone. Then the emojis uploaded, and deleted
    again before a restart: text once more, and Discord never sees an emoji it does not know."""
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    assert emojis._current == {}
    _, place, board, bidder = await _to_an_auction(table)
    bids = _bids(board)
    assert bids and all("emoji" not in b for b in bids.values()) and board.custom_emojis == []

    assert (await emojis.sync(table.bot)).uploaded
    fake.app_emojis.clear()
    await table.running.stop()
    await table.boot(sync=False)
    assert emojis._current == {}
    h = await fake.slash(table.players[bidder], place, "move", action="pass")
    assert h.content.startswith("✅ Played"), h.content
    await table.settle()
    after = _bids(table.last_turn(place))
    assert after and all("emoji" not in b for b in after.values()), after
    for m in fake.messages(place):
        assert fake.unknown_emojis(m) == [], m.custom_emojis


async def test_emojis_deleted_while_the_bot_runs_give_way_to_text(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    """Discord refuses a message naming an emoji deleted since the bot started: the bot posts it
    again with text labels, and every later message is text, none lost."""
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    assert len((await emojis.sync(table.bot)).uploaded) == PIECES
    await table.running.stop()
    await table.boot(sync=False)
    gid, place, board, bidder = await _to_an_auction(table)
    assert all("emoji" in b for b in _bids(board).values())
    fake.app_emojis.clear()
    for _ in range(2):
        game = await table.bot.service.get(gid)
        version = game.row.version
        user = table.user_of(game, game.awaited()[0])
        h = await fake.slash(user, place, "move", action="pass")
        assert h.content.startswith("✅ Played"), h.content
        await table.settle()
        turn = table.last_turn(place)
        assert f"move {version + 1}" in turn.content and turn.custom_emojis == [], turn
    assert emojis._current == {}


async def test_sync_stops_at_2000_emojis_and_says_so(
    fake_discord: FakeDiscord, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An application already holding 1995 emojis of its own: five pieces go up, the others are
    refused with the reason, the exit code is 1; nothing of the owner's is deleted."""
    fake = fake_discord
    for i in range(1995):
        fake.app_emojis[10_000 + i] = {"id": 10_000 + i, "name": f"mine_{i}", "animated": False}
    assert await launch._sync(Config(token=fake.token, db_path=tmp_path / "never.sqlite3")) == 1
    ours = [e["name"] for e in fake.app_emojis.values() if drawn.key_of(e["name"])]
    assert len(ours) == 5 and len(fake.app_emojis) == 2000
    err = capsys.readouterr().err
    assert f"{PIECES - 5} emojis were refused" in err and "2000 emojis already" in err


EMOJI = re.compile(r"<:([a-z0-9_]+):(\d+)> ")


async def test_turn_captions_and_dms_put_a_pieces_emoji_before_its_name_or_say_the_word_alone(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    """With the emojis synced, a turn's caption ("invokes <:ra_ra_…:…> Ra") and a DM put each
    named piece's emoji before its word, an emoji of the bot's own; without them (the bot started
    again,
    none left) the same lines say the words alone."""
    fake = fake_discord
    assert await launch._sync(Config(token=fake.token, db_path=tmp_path / "never.sqlite3")) == 0
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, _, board, _ = await _to_an_auction(table)
    called = next(line for line in board.text.splitlines() if " invokes " in line)
    found = EMOJI.search(called)
    assert found and called.endswith(f"invokes {found.group(0)}Ra on 1 tile"), called
    words = drawn.words("ra")
    texts = [board.text, *(m.text for m in fake.dms(table.players["ann"]))]
    for said in texts:
        for m in EMOJI.finditer(said):  # each an emoji of the bot's, before a word naming its piece
            name, rest = m.group(1), said[m.end() :]
            assert fake.app_emojis[int(m.group(2))]["name"] == name, m.group(0)
            assert any(rest.startswith(w) and words[w] == drawn.key_of(name) for w in words), rest[:30]
    assert any(EMOJI.search(t) for t in texts[1:]), texts[1:]  # a DM names a piece too
    await table.running.stop()

    fake.app_emojis.clear()  # a bot that finds none: the text says the words alone
    await table.boot(sync=False)
    assert emojis._current == {}
    _, _, board, _ = await _to_an_auction(table)
    plain = next(line for line in board.text.splitlines() if " invokes " in line)
    assert "<:" not in board.text and plain.endswith("invokes Ra on 1 tile"), plain
