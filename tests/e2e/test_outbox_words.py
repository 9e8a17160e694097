"""The words a game's messages show are the host's (:mod:`bot.host.wording`), carried by each
publish's outbox: a whole game of Ra played through the bot, every outbox recorded as the
publisher takes it, and what Discord shows right after that publish compared with the outbox's
words (the board's head, tail, call and footer; the final sheet whole and its recap; each DM's
head, lines, tail and footer)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.host import outbox, wording
from bot.host.outbox import Outbox
from bot.surface import delivery, text
from bot.surface.publish import Publisher
from tests.e2e.bazaar_harness import make_table
from tests.fakediscord import FakeDiscord, Message, RunBot

Said = list[str]
"""A V2 message's texts as it was then (its text, then its footer), copied: an edit changes it."""


def _said(msgs: list[Message]) -> list[Said]:
    return [list(m.text_displays) for m in msgs if m.text_displays]


def _seen(msgs: list[Said], head: str) -> Said | None:
    """The newest of ``msgs`` whose first line is ``head``."""
    return next((m for m in reversed(msgs) if m[0].split("\n", 1)[0] == head), None)


async def test_every_message_of_a_game_says_its_outboxs_words(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, place = await table.start_game("ann", ("bob",), 0, game="ra")
    users = {0: table.players["ann"], 1: table.players["bob"]}
    after: list[tuple[Outbox, list[Said], dict[int, list[Said]]]] = []
    deliver = Publisher._deliver

    async def recorded(self: Publisher, game: object, d: delivery.Delivery) -> bool | None:
        shown = await deliver(self, game, d)  # type: ignore[arg-type]
        mine = [m for m in fake.messages(place) if m.author.id == fake.bot_user.id]
        after.append((d.box, _said(mine), {s: _said(fake.dms(u)) for s, u in users.items()}))
        return shown

    monkeypatch.setattr(Publisher, "_deliver", recorded)
    for _ in range(600):
        if (await table.stored(gid)).status != "active":
            break
        await table.play_one(gid, place, "move")
    await table.settle()
    await table.recaps_posted()
    assert (await table.stored(gid)).status == "finished"
    film = [m for m in fake.messages(place) if m.attachments and m.content.startswith("🎞️")]
    assert [m.content for m in film] == list(after[-1][0].recap.head)  # below the final sheet
    turns = finals = letters = 0
    for box, mine, dms in after:
        words, batch = box.words, box.batch
        assert words is not None and box.public in (outbox.TURN, outbox.FINAL)
        shown = _seen(mine, words.head[0])
        if box.public == outbox.FINAL:
            assert shown is not None and words.head[0] == wording.final_head(batch.title)
            assert shown[0] == text.message(words, "ra", batch.text_names)
            finals += 1
        elif shown is not None:  # a board edited in place later shows a later head
            said = shown[0]
            assert words.body and words.body[-1] in said, (words.body, said)
            assert all(line in said for line in words.tail) and words.call and words.call in said
            turns += 1
        if shown is not None:
            assert shown[-1] == f"-# {words.footer}"
        for letter in box.letters:
            dm = next(m for m in reversed(dms[letter.seat]) if m[0].startswith(letter.words.head[0]))
            said = dm[0]
            assert all(line in said for line in (*letter.words.body[-3:], *letter.words.tail)), (letter, said)
            assert dm[-1] == f"-# {letter.words.footer}"
            letters += 1
    assert finals == 1 and turns >= 10 and letters >= 10, (finals, turns, letters)
