"""Looking back through the bot (issue 28, items 6–9): ``/replay`` of a running Kathai game shows
exactly the spectator's board at each move (never a hand), its buttons and jump menu step
through it, and they keep working after a restart; a finished game's ``/history`` lists it and
its button opens the replay; its final sheet's **Rematch** opens one lobby with the same seats,
pinging each person once; ``/stats`` counts it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import render
from engines import base
from render import stats as render_stats
from tests.e2e.bazaar_harness import Table, decode_view_image, install_toy_secret, make_table, replay_states
from tests.fakediscord import FakeDiscord, Interaction, Message, RunBot


def expected_png(kind: str, states: list[Any], k: int, names: list[str]) -> bytes:
    """The replay's board at move ``k``: the spectator's view, what move ``k`` changed marked."""
    engine = base.get(kind)
    previous = engine.view(states[k - 1], None) if k else None
    return render.board_png(
        kind, engine.view(states[k], None), names, caption=[], previous=previous, with_strip=False
    )


def ai_record(ranks: tuple[int, ...], ai: int, people: tuple[int, ...]) -> tuple[int, int, int]:
    """``(ahead, behind, level)`` of seat ``ai`` against each of ``people``."""
    ahead = sum(ranks[ai] < ranks[p] for p in people)
    behind = sum(ranks[ai] > ranks[p] for p in people)
    return ahead, behind, len(people) - ahead - behind


def answer(h: Interaction) -> Message:
    """The private message a command or a Replay button answered with."""
    msg = h.followups[-1] if h.followups else h.response
    assert msg is not None and msg.ephemeral, msg
    return msg


async def click(table: Table, user: Any, msg: Message, custom_id: str) -> Message:
    """Click ``custom_id`` on the replay ``msg``; the replay as it is then (edited in place)."""
    await table.fake.click(user, msg, custom_id)
    await table.settle()
    return table.fake.message(msg.id)


def move_of(msg: Message) -> int:
    head = msg.text.splitlines()[0]
    return 0 if "the setup" in head else int(head.split("— move ")[1].split(" of ")[0])


async def test_replay_of_a_running_kathai_game_shows_the_spectator_board_and_survives_a_restart(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, place = await table.start_game("ann", ("bob", "cy"), 0, game="kathai")
    for _ in range(5):
        await table.play_one(gid, place, "move")
    game = await table.bot.service.get(gid)
    names = game.names
    states = replay_states(game.engine, game.row.seed, 3, game.row.options, await table.db_moves(gid))
    last = game.row.version
    mod = table.players["mod"]

    replay = answer(await fake.slash(mod, place, "replay", options={"game": gid}))
    assert move_of(replay) == last and "(running)" in replay.text, replay.text
    assert [a.data for a in replay.images] == [expected_png("kathai", states, last, names)]
    for seat in (0, 1, 2):  # a hand is not what a spectator sees: the check above means something
        own = game.engine.view(states[last], seat)
        assert (
            render.board_png("kathai", own, names, caption=[], previous=None, with_strip=False)
            != replay.images[0].data
        )

    seen = {}
    for cid, want in [
        (f"bzr:{gid}:0:first", 0),
        (f"bzr:{gid}:1:next", 1),
        (f"bzr:{gid}:2:next", 2),
        (f"bzr:{gid}:1:prev", 1),
        (f"bzr:{gid}:{last}:last", last),
    ]:
        replay = await click(table, mod, replay, cid)
        assert move_of(replay) == want, (cid, replay.text)
        assert [a.data for a in replay.images] == [expected_png("kathai", states, want, names)]
        seen[want] = replay.text
    assert "the setup" in seen[0] and f"move 1 of {last}" in seen[1]
    await fake.select(mod, replay, f"bzrj:{gid}:{last}", ["3"])
    await table.settle()
    replay = fake.message(replay.id)
    assert move_of(replay) == 3 and [a.data for a in replay.images] == [
        expected_png("kathai", states, 3, names)
    ]

    # the game goes on: Last finds the new move; then a restart, and the same controls still work
    await table.play_one(gid, place, "move")
    replay = await click(table, mod, replay, f"bzr:{gid}:{last}:last")
    assert move_of(replay) == last + 1
    old = table.bot
    await table.running.kill(release=old.service.store.close)
    await table.boot(sync=False)
    assert table.bot is not old
    replay = await click(table, mod, replay, f"bzr:{gid}:{last}:prev")
    assert move_of(replay) == last
    assert [a.data for a in replay.images] == [expected_png("kathai", states, last, names)]
    await fake.select(mod, replay, f"bzrj:{gid}:{last}", ["0"])
    await table.settle()
    assert move_of(fake.message(replay.id)) == 0


@pytest.fixture
def toy() -> Iterator[None]:
    remove = install_toy_secret()
    try:
        yield
    finally:
        remove()


async def test_a_finished_game_in_history_replay_rematch_and_stats(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, toy: None
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 1, game="toysecret")
    while (await table.stored(gid)).status == "active":
        await table.play_one(gid, thread, "move")
    await table.recaps_posted()
    game = await table.bot.service.get(gid)
    engine, row = game.engine, game.row
    outcome = engine.outcome(game.state)
    assert outcome is not None
    states = replay_states(engine, row.seed, 3, row.options, await table.db_moves(gid))
    ann, bob, mod = table.players["ann"], table.players["bob"], table.players["mod"]

    # /history of ann, asked by mod: the game, its players and how it went; its button replays it
    h = await fake.slash(mod, table.channel, "history", options={"user": ann})
    listing = answer(h)
    line = next(x for x in listing.text.splitlines() if f"#{gid}" in x)
    assert "Toy Secrets" in line and "ann" in line and "bob" in line and "AI 1" in line, line
    rank = outcome.ranks[0]
    assert ("won" in line or "tied 1st" in line) if rank == 1 else "2nd" in line, line
    old = table.bot  # the history's buttons outlive the process that posted them
    await table.running.kill(release=old.service.store.close)
    await table.boot(sync=False)
    h = await fake.click(mod, listing, f"bzh:{gid}")
    await table.settle()
    replay = h.followups[-1]
    assert replay.ephemeral and move_of(replay) == row.version and "(finished)" in replay.text
    assert "🏁 Result: " in replay.text
    for k in (row.version, 0):  # every picture is the spectator's view: no hand, no deck
        shown = decode_view_image(replay.images[0].data)["view"]
        assert shown == json.loads(json.dumps(engine.view(states[k], None))), k
        if k:
            replay = await click(table, mod, replay, f"bzr:{gid}:0:first")
    assert isinstance(shown["hands"][0], int)  # the setup: the hands are counts to a spectator

    # Rematch on the final sheet, clicked twice (by two players): one lobby, same seats, one ping each
    final = next(m for m in fake.messages(thread) if "is over" in m.text)
    assert f"bzm:{gid}" in final.custom_ids and f"bzv:{gid}" in final.custom_ids
    h = await fake.click(bob, final, f"bzv:{gid}")  # the sheet's Replay: a private replay at the end
    await table.settle()
    assert h.followups[-1].ephemeral and move_of(h.followups[-1]) == row.version
    before = len(fake.messages(table.channel))
    first = await fake.click(ann, final, f"bzm:{gid}")
    await table.settle()
    second = await fake.click(bob, final, f"bzm:{gid}")
    await table.settle()
    assert "Opened" in first.followups[-1].text and "open already" in second.followups[-1].text
    lobbies = [m for m in fake.messages(table.channel)[before:] if "lobby" in m.text]
    assert len(lobbies) == 1, [m.text[:40] for m in fake.messages(table.channel)[before:]]
    new_id = await table.bot.service.store.rematch_of(gid)
    assert new_id is not None and f"#{new_id}" in lobbies[0].text
    old_seats = await table.bot.service.store.seats(gid)
    new_seats = await table.bot.service.store.seats(new_id)
    assert [(s.user_id, s.is_ai, s.ai_level) for s in new_seats] == [
        (s.user_id, s.user_id is None, s.ai_level) for s in old_seats
    ]
    new_row = await table.stored(new_id)
    assert new_row.status == "lobby" and new_row.options == row.options and new_row.kind == "toysecret"
    assert new_row.clock_seconds == row.clock_seconds and new_row.channel_id == table.channel.id
    pinged = lobbies[0].pinged_ids
    assert sorted(pinged) == sorted([ann.id, bob.id]), pinged
    assert all(
        table.fake.message(m.id).pinged_ids == []
        for m in fake.messages(table.channel)[before:]
        if m is not lobbies[0]
    )
    # the lobby works: its creator starts it
    start = await fake.click(ann, lobbies[0], label="Start")
    await table.settle()
    assert "has started" in start.followups[-1].text

    # /stats counts the finished game
    stats = answer(await fake.slash(mod, table.channel, "stats", options={"game": "toysecret"}))
    assert "Games finished: 1" in stats.text and "Average length: 6.0 moves" in stats.text, stats.text
    assert "3 players (1 game)" in stats.text and "default: 1 seat" in stats.text, stats.text
    assert [a.filename for a in stats.attachments] == ["toysecret-stats.png"]
    assert stats.attachments[0].data == render_stats.png(
        "Toy Secrets",
        "1 game · 6.0 moves · 0.0 minutes on average",
        [(3, 1, [1 if s in outcome.winners else 0 for s in range(3)])],
        [("default", 1, *ai_record(outcome.ranks, 2, (0, 1)))],
    )


async def test_replay_refusals_say_why_and_change_nothing(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    other = fake.add_guild("Elsewhere", channels=["elsewhere"])
    stranger = fake.add_user("zed", guild=other)
    await table.boot()
    gid, lobby = await table.new_game("ann", "pralaya")
    ann = table.players["ann"]
    said = answer(await fake.slash(ann, table.channel, "replay", options={"game": gid})).text
    assert said == f"Game #{gid} has no move yet: there is nothing to replay.", said
    said = answer(await fake.slash(ann, table.channel, "replay", options={"game": 9999})).text
    assert said == "There is no game #9999 on this server.", said
    gid2, place = await table.start_game("bob", ("cy",), 0)
    said = answer(
        await fake.slash(stranger, fake.channel("elsewhere"), "replay", options={"game": gid2})
    ).text
    assert said == f"There is no game #{gid2} on this server.", said  # another server's game
    said = answer(await fake.slash(ann, table.channel, "stats", options={"game": "ra"})).text
    assert said == "No game of Ra has been finished on this server yet.", said
    said = answer(await fake.slash(stranger, fake.channel("elsewhere"), "history")).text
    assert said == "zed has played no game on this server yet.", said
    assert len(await table.bot.service.store.games()) == 2  # nothing was opened or changed


async def test_a_rematch_lobby_discord_refused_is_posted_by_the_next_click(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, toy: None
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 0, game="toysecret")
    while (await table.stored(gid)).status == "active":
        await table.play_one(gid, thread, "move")
    await table.recaps_posted()
    final = next(m for m in fake.messages(thread) if "is over" in m.text)
    fault = fake.faults.fail(
        "POST /channels/{channel_id}/messages",
        403,
        code=50013,
        message="Missing Permissions",
        where=lambda r: "Rematch of" in str(r.json or {}),
    )
    first = await fake.click(table.players["ann"], final, f"bzm:{gid}")
    await table.settle()
    assert fault.spent and "I cannot post in this channel" in first.followups[-1].text
    assert not [m for m in fake.messages(table.channel) if "Rematch of" in m.text]
    second = await fake.click(table.players["bob"], final, f"bzm:{gid}")
    await table.settle()
    assert "Opened" in second.followups[-1].text
    posted = [m for m in fake.messages(table.channel) if "Rematch of" in m.text]
    assert len(posted) == 1 and await table.bot.service.store.rematch_of(gid) is not None
    third = await fake.click(table.players["bob"], final, f"bzm:{gid}")
    await table.settle()
    assert "open already" in third.followups[-1].text
    assert len([m for m in fake.messages(table.channel) if "Rematch of" in m.text]) == 1


async def test_forged_replay_controls_are_refused_and_the_replay_stays(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, toy: None
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 0, game="toysecret")
    for _ in range(2):
        await table.play_one(gid, thread, "move")
    mod = table.players["mod"]
    replay = answer(await fake.slash(mod, thread, "replay", options={"game": gid}))
    shown = replay.text
    bad = "That replay control sent a move number it does not have: use `/replay` again."
    for cid, kind, values, said in [
        (f"bzr:{gid}:99999999999:next", 2, None, bad),
        (f"bzrj:{gid}:1", 3, ["abc"], bad),
        (f"bzrj:{gid}:1", 3, [1], "That menu sent something it does not offer: use the latest message."),
        (f"bzrj:{gid}:1", 3, ["1", "2"], "Choose one move to jump to."),
        ("bzr:9999:0:first", 2, None, "There is no game #9999 on this server."),
        ("bzh:9999", 2, None, "There is no game #9999 on this server."),
        ("bzm:9999", 2, None, "There is no game #9999 on this server."),
        (f"bzm:{gid}", 2, None, f"Game #{gid} is not over yet: a rematch opens once it ends."),
    ]:
        h = await fake.click_raw(mod, replay, cid, component_type=kind, values=values)
        await table.settle()
        assert answer(h).text == said, (cid, answer(h).text)
    assert fake.message(replay.id).text == shown  # nothing changed
    assert len(await table.bot.service.store.games()) == 1
