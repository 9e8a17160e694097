"""Every prompt shape through the real discord.py client against the fake Discord, played with a
toy trading game (``toy_parley``): a string option, a private offer form answered from a DM whose
draft survives a restart, two seats awaited at once (a decline that edits the board in place and
pings nobody again, then an accept picked as exactly two cards), a race of two accepts where the
first wins, a step of 60 moves shown as labelled menus, a stranger's click refused privately, and
AI seats that wait for the people awaited beside them."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e import toy_parley
from tests.e2e.bazaar_harness import make_table, poke
from tests.fakediscord import FakeDiscord, Message, RunBot, User
from tests.store_internals import row_of


@pytest.fixture
def parley() -> Iterator[None]:
    remove = toy_parley.install()
    yield
    remove()


def _dm_with(fake: FakeDiscord, user: User, custom_id: str) -> Message:
    """The newest DM of ``user`` carrying the component ``custom_id``."""
    found = [m for m in fake.dms(user) if custom_id in m.custom_ids]
    assert found, (custom_id, [m.custom_ids for m in fake.dms(user)])
    return found[-1]


def _defaults(msg: Message, custom_id: str) -> list[str]:
    menu = next(s for s in msg.selects if s["custom_id"] == custom_id)
    return [o["value"] for o in menu["options"] if o.get("default")]


async def test_every_prompt_shape_end_to_end(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, parley: None
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    ann, bob, cy, mod = (table.players[n] for n in ("ann", "bob", "cy", "mod"))

    # a string option: refused with its choices, then accepted
    h = await fake.slash(
        ann, table.channel, "game new", options={"game": "toyparley", "options": "mood=wild"}
    )
    assert h.ephemeral and "takes one of calm, eager" in h.text, h.text
    gid, place = await table.start_game(
        "ann", ("bob", "cy"), 0, game="toyparley", options="mood=eager", rated=False
    )
    bot = table.bot
    game = await bot.service.get(gid)
    assert game.row.options == {"mood": "eager"} and [s.user_id for s in game.seats] == [
        ann.id,
        bob.id,
        cy.id,
    ]

    # the offer is a private form: the board says where to answer, the DM carries it
    board = table.last_turn(place)
    assert board.mention_ids == [ann.id] and "your moves are in your DM" in board.text
    assert [c for c in board.custom_ids if not c.endswith("!hand")] == []
    dm = _dm_with(fake, ann, f"bzfs:{gid}:0:offer")
    assert dm.custom_ids == [
        f"bzf:{gid}:0:offer:to",
        f"bzf:{gid}:0:offer:give",
        f"bzf:{gid}:0:offer:want",
        f"bzfs:{gid}:0:offer",
        f"bz:{gid}:0:skip",
        f"bzhint:{gid}:0",  # the Hint button beside a player's private controls
    ]
    give = list(game.state.hands[0][:2])
    h = await fake.select(ann, dm, f"bzf:{gid}:0:offer:to", ["all"])
    assert h.callback_type == 7  # the DM is updated in place to show the pick
    await fake.select(ann, dm, f"bzf:{gid}:0:offer:give", give)
    await table.settle()
    assert _defaults(fake.message(dm.id), f"bzf:{gid}:0:offer:give") == give
    # Send before the form is complete: refused privately, nothing played
    h = await fake.click(ann, dm, f"bzfs:{gid}:0:offer")
    await table.settle()
    assert h.followups and h.followups[-1].ephemeral and "Choose “Wanted” first" in h.followups[-1].text
    assert await table.db_moves(gid) == []

    # the draft survives a restart: the last pick and Send after it complete the same offer
    await table.running.stop()
    await table.boot(sync=False)
    bot = table.bot
    h = await fake.select(ann, dm, f"bzf:{gid}:0:offer:want", ["red"])
    await table.settle()
    assert h.callback_type == 7, (h.callbacks, h.followups and h.followups[-1].text)
    h = await fake.click(ann, dm, f"bzfs:{gid}:0:offer")
    await table.settle()
    assert not h.followups, h.followups[-1].text
    offer = f"offer all {' '.join(give)} for 2 red"
    assert await table.db_moves(gid) == [(0, offer, "player")]

    # two seats awaited at once: one new board mentions both; each gets its own accept/decline
    game = await bot.service.get(gid)
    assert game.awaited() == (1, 2)
    board = table.last_turn(place)
    assert board.mention_ids == [bob.id, cy.id] and "offers 2 card(s) to everyone" in board.text
    boards = len([m for m in fake.messages(place) if "· move " in m.text])
    bob_dm = _dm_with(fake, bob, f"bzs:{gid}:1:accept")
    menu = next(s for s in bob_dm.selects if s["custom_id"] == f"bzs:{gid}:1:accept")
    assert (menu["min_values"], menu["max_values"]) == (2, 2)
    assert [o["value"] for o in menu["options"]] == list(game.state.hands[1])
    cy_dm = _dm_with(fake, cy, f"bz:{gid}:1:decline")

    # a decline: the board is edited in place (nobody pinged again), bob's DM gets new controls
    await fake.click(cy, cy_dm, f"bz:{gid}:1:decline")
    await table.settle()
    assert len([m for m in fake.messages(place) if "· move " in m.text]) == boards
    board = fake.message(board.id)
    assert "declines" in board.text and board.versions
    assert f"bzs:{gid}:2:accept" in fake.message(bob_dm.id).custom_ids  # edited, same DM
    assert fake.message(cy_dm.id).custom_ids == []  # cy's controls are gone
    # an accept is exactly two cards: the fake (like Discord) refuses one; two trade
    mine = list(game.state.hands[1][:2])
    await fake.select(bob, bob_dm, f"bzs:{gid}:2:accept", mine)
    await table.settle()
    assert (await table.db_moves(gid))[-1] == (1, "accept " + " ".join(mine), "player")
    public = [m.text for m in fake.messages(place)]
    assert any("trade 2 card(s) for 2" in c for c in public)
    assert not any(" ".join(give) in c for c in public)  # which cards moved stays between the traders
    assert any(" ".join(give) in m.text for m in fake.dms(bob))
    assert not any("gives" in m.text for m in fake.dms(cy))

    # 60 moves in labelled menus on the public board; a stranger's pick is refused privately
    game = await bot.service.get(gid)
    board = table.last_turn(place)
    assert "Choices: mark … (1/3) · mark … (2/3) · mark … (3/3)" in board.text
    ids = [f"bzs:{gid}:3:move{i}" for i in range(3)]
    assert [s["custom_id"] for s in board.selects] == ids
    assert [len(s["options"]) for s in board.selects] == [25, 25, 10]
    h = await fake.select(mod, board, ids[2], ["mark 60"])
    await table.settle()
    assert h.followups and h.followups[-1].ephemeral and "not playing" in h.followups[-1].text
    await fake.select(ann, board, ids[2], ["mark 60"])
    await table.settle()
    assert (await table.db_moves(gid))[-1] == (0, "mark 60", "player")

    # bob offers to everyone; ann and cy accept at the same instant: the first accept wins
    game = await bot.service.get(gid)
    one = [game.state.hands[1][0]]
    await bot.publisher.publish(await bot.service.move(gid, bob.id, f"offer all {one[0]} for 2 blue"))
    await table.settle()
    v = game.row.version
    a_dm, c_dm = _dm_with(fake, ann, f"bzs:{gid}:{v}:accept"), _dm_with(fake, cy, f"bzs:{gid}:{v}:accept")
    a_pick, c_pick = list(game.state.hands[0][:2]), list(game.state.hands[2][:2])
    first = await fake.select(ann, a_dm, f"bzs:{gid}:{v}:accept", a_pick, wait=False)
    second = await fake.select(cy, c_dm, f"bzs:{gid}:{v}:accept", c_pick, wait=False)
    await asyncio.gather(first.wait_done(), second.wait_done())
    await table.settle()
    accepts = [m for m in (await table.db_moves(gid))[v:] if m[1].startswith("accept")]
    assert len(accepts) == 1, accepts
    loser = second if accepts[0][0] == 0 else first
    assert loser.followups and loser.followups[-1].ephemeral and "out of date" in loser.followups[-1].text

    # to the end: bob marks, cy skips from her DM and marks; the final sheet closes the game
    await fake.slash(bob, place, "move", action="mark 1")
    await table.settle()
    skip = _dm_with(fake, cy, f"bz:{gid}:{game.row.version}:skip")
    await fake.click(cy, skip, f"bz:{gid}:{game.row.version}:skip")
    await table.settle()
    await fake.slash(cy, place, "move", action="mark 2")
    await table.settle()
    assert (await row_of(bot.service.store, gid)).status == "finished"
    assert any("is over" in m.text for m in fake.messages(place))
    assert all(m.custom_ids == [] for u in (ann, bob, cy) for m in fake.dms(u))  # no live control left


async def test_ai_seats_wait_for_the_people_awaited_beside_them(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, parley: None
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, place = await table.start_game("ann", ("bob",), 1, game="toyparley")
    bot = table.bot
    game = await bot.service.get(gid)
    ann, bob = table.players["ann"], table.players["bob"]
    card = game.state.hands[0][0]
    h = await fake.slash(ann, place, "move", action=f"offer all {card} for 2 red")
    assert h.text.startswith("✅ Played"), h.text
    await table.settle()
    assert game.awaited() == (1, 2) and len(await table.db_moves(gid)) == 1  # the AI waits

    # its grace (20 s by default) runs out: it answers, bob is still awaited
    table.now.advance(19)
    poke(bot)
    await table.settle()
    assert len(await table.db_moves(gid)) == 1
    table.now.advance(2)
    poke(bot)
    await fake.wait_for(lambda: game.row.version == 2)
    await table.settle()
    assert (await table.db_moves(gid))[-1] == (2, "decline", "ai") and game.awaited() == (1,)
    await fake.slash(bob, place, "move", action="decline")
    await table.settle()

    # once every person addressed has answered, the AI answers at once (no grace to wait)
    await fake.slash(ann, place, "move", action="mark 3")
    await table.settle()
    card = game.state.hands[1][0]
    await fake.slash(bob, place, "move", action=f"offer all {card} for 2 blue")
    await table.settle()
    assert game.awaited() == (0, 2)
    await fake.slash(ann, place, "move", action="decline")
    await table.settle()
    moves = await table.db_moves(gid)
    assert moves[-2:] == [(0, "decline", "player"), (2, "decline", "ai")]
    assert game.awaited() == (1,)
