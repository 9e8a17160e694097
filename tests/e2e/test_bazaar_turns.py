"""One message per turn: while the same person keeps acting (Pralaya's several takes), the bot
edits its latest board and that player's latest DM in place instead of posting new ones, so the
channel and the DMs stay quiet but always current; a new board when someone else must act or
something else was posted since; a click on what an edited board showed before is stale."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import render
from bot.host.live import LiveGame, private_digest
from engines import base
from render.common import to_png
from tests.e2e.bazaar_harness import Table, board_pngs, make_table, replay_states, shown
from tests.fakediscord import Channel, FakeDiscord, Message, RunBot, User

MOVE = re.compile(r"\(move (\d+)\)|· move (\d+)")


def _version(content: str) -> int:
    m = MOVE.search(content)
    assert m, content
    return int(m.group(1) or m.group(2))


def _shown(fake: FakeDiscord, msg: Message) -> list[tuple[int, bytes | None]]:
    """``(version named, image data)`` of every version of ``msg``, oldest first."""
    return [(_version(content), png) for content, png in shown(fake, msg)]


def _turns(moves: list[tuple[int, str, str]], seat: int) -> list[tuple[int, int]]:
    """``(first, last)`` state versions of each turn of ``seat``: a run of its own moves from the
    state it was awaited in (``first``) to the state after its last move of the run."""
    out, start = [], None
    for i, (s, _, by) in enumerate(moves + [(-1, "", "")]):
        if s == seat and by == "player":
            start = i if start is None else start
        elif start is not None:
            out.append((start, i))
            start = None
    return out


async def test_a_turn_of_several_moves_edits_one_board_and_one_dm(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 1, options="open_hands=true")
    for i in range(24):
        if (await table.stored(gid)).status != "active":
            break
        await table.play_one(gid, thread, "button" if i % 2 else "move")
    row = await table.stored(gid)
    seats = await table.bot.service.store.seats(gid)
    names = [s.name for s in seats]
    engine = base.get("pralaya")
    moves = await table.db_moves(gid)
    states = replay_states(engine, row.seed, len(seats), row.options, moves)
    pr = render.get("pralaya")
    long_turns = [(p, t) for p in (0, 1) for t in _turns(moves, p) if t[1] - t[0] >= 2]
    assert long_turns, moves  # the game had turns of several moves

    # the channel: every board version is the spectator view of the version it names; every
    # state a person had to act in was shown; no new board inside a turn, but edits
    boards = [m for m in fake.messages(thread) if "· move " in m.text]
    shown = {}
    posted = [(m, version, png) for m in boards for version, png in _shown(fake, m)]
    expected = board_pngs(
        "pralaya",
        row.seed,
        len(seats),
        row.options,
        moves,
        names,
        [v for _, v, _ in posted],
        [m.id for m, _, _ in posted],
    )
    for (m, version, png), want in zip(posted, expected, strict=True):
        assert png == want, version
        shown[version] = m.id
    for v, state in enumerate(states):
        awaited = engine.to_move(state)
        if awaited and not seats[awaited[0]].is_ai:
            assert v in shown, v
    first = {m.id: _shown(fake, m)[0][0] for m in boards}
    for seat, (start, end) in long_turns:
        inside = [mid for mid, v in first.items() if start < v < end]
        assert inside == [], (seat, start, end)  # the same player went on: the board was edited
    assert any(m.versions for m in boards)

    # the DMs: at most one new DM per turn, every version the recipient's own view, the last one current
    # (the game's end brings each player a last DM: the final hand with their rank)
    finals = {m.id for m in fake.messages(thread) if "is over" in m.text}
    for seat in (0, 1):
        user = table.user_of(await table.bot.service.get(gid), seat)
        dms = fake.dms(user)
        for m in dms:
            for version, png in _shown(fake, m):
                own = engine.view(states[version], seat)
                assert png == to_png(pr.hand(own, names))
            assert pr.text(engine.view(states[_version(m.text)], seat), names) in m.text
            # it names the game and links to a board of it in the game's thread
            link = re.search(r"https://discord\.com/channels/(\d+)/(\d+)/(\d+)", m.text)
            assert f"**Pralaya #{gid}**" in m.text and link, m.text
            assert (int(link[1]), int(link[2])) == (table.guild.id, thread.id)
            assert int(link[3]) in {b.id for b in boards} | finals  # a board, or the final sheet (last DM)
        created = [_shown(fake, m)[0][0] for m in dms]
        for start, end in _turns(moves, seat):
            assert len([v for v in created if start <= v <= end]) <= 1, (seat, start, end, created)
        assert any(m.versions for m in dms)  # the edit path was taken
        # always current: the newest DM shows what the player alone sees now
        assert private_digest(engine, states[_version(dms[-1].text)], seat) == private_digest(
            engine, states[-1], seat
        )


async def _until_a_move_goes_on(table: Table, gid: int, thread: Channel) -> tuple[LiveGame, int, User, str]:
    """Play on until the awaited person has a move after which they act again; returns
    ``(game, seat, user, that move)``."""
    for _ in range(60):
        game = await table.bot.service.get(gid)
        seat = game.awaited()[0]
        engine = game.engine
        for action in engine.legal_actions(game.state, seat):
            if engine.to_move(base.play(engine, game.state, seat, action).state) == (seat,):
                return game, seat, table.user_of(game, seat), action
        await table.play_one(gid, thread, "move")
    raise AssertionError("no move that lets the same player go on")


async def test_a_new_board_when_someone_else_posted_and_old_clicks_are_stale(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 0, options="open_hands=true")

    # someone chats below the board: the next board is posted below the chat, not edited above it
    game, seat, user, action = await _until_a_move_goes_on(table, gid, thread)
    board = table.last_turn(thread)
    fake.send_as(table.players["cy"], thread, "go on, take the statue")
    await table.use(user, board, gid, game.row.version, action)
    await table.settle()
    assert game.awaited() == (seat,) and table.last_turn(thread).id != board.id

    # the same player goes on with nothing below the board: it is edited in place
    game, seat, user, action = await _until_a_move_goes_on(table, gid, thread)
    board = table.last_turn(thread)
    before = copy.deepcopy(board.components)
    version = game.row.version
    assert {f"bz:{gid}:{version}:{action}", f"bzs:{gid}:{version}"} & set(board.custom_ids)
    await table.use(user, board, gid, version, action)
    await table.settle()
    assert game.awaited() == (seat,) and game.row.version == version + 1
    assert table.last_turn(thread).id == board.id and f"move {version + 1}" in board.text
    assert board.custom_ids and all(f":{version}:" not in c for c in board.custom_ids)

    # what the board showed before the edit is refused as out of date, and changes nothing
    now = copy.deepcopy(board.components)
    board.components = before  # a client that has not caught up with the edit
    h = await table.use(user, board, gid, version, action)
    await table.settle()
    board.components = now
    assert h.followups and "out of date" in h.followups[-1].text
    assert game.row.version == version + 1 and len(await table.db_moves(gid)) == version + 1
