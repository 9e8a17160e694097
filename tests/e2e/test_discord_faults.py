"""Discord failing while games are in play, through the real discord.py client against the fake
(``fake.faults``): REST 5xx, broken connections, 429s, slow answers, and the gateway dropping or
invalidating the session.

What discord.py 2.7 does by itself (read in discord/http.py and discord/webhook/async_.py): a REST
request answered 500/502/504/524 is tried five times, sleeping 1, 3, 5, 7 and 9 s after each
failure, then ``DiscordServerError`` is raised (a 503 is raised at once); interaction callbacks
and follow-ups (the webhook adapter) retry every 5xx the same way; a 429 with a ``Via`` header
is retried after its ``retry_after`` (a global one holds every request). Those sleeps would make
the tests take half a minute, so the ``backoff`` fixture records what discord.py asks to sleep
and runs it 100 times faster (only discord.py's HTTP modules see it; the bot is unchanged).
"""

from __future__ import annotations

import asyncio
import re
import types
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.bazaar_harness import FakeTime, Table, make_table, no_controls, poke
from tests.fakediscord import Channel, FakeDiscord, Request, RunBot, User

POST = "POST /channels/{channel_id}/messages"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"
FOLLOWUP = "POST /webhooks/{app_id}/{token}"
QUICK = (0.2, 0.4)  # the bot's own pauses before posting a refused board again (s)
MOVE = re.compile(r"· move (\d+)")


class Backoff:
    """What discord.py asked to sleep (s), in order; each sleep runs ``scale`` times as long."""

    def __init__(self, scale: float) -> None:
        self.scale = scale
        self.asked: list[float] = []


@pytest.fixture(name="backoff")
def backoff_fixture(monkeypatch: pytest.MonkeyPatch) -> Backoff:
    """discord.py's retry sleeps, recorded and 100x shorter (see the module docstring)."""
    import discord.http
    import discord.webhook.async_ as webhook

    record = Backoff(0.01)
    real_sleep = asyncio.sleep

    async def sleep(delay: float, result: Any = None) -> Any:
        record.asked.append(delay)
        return await real_sleep(delay * record.scale, result)

    fast = types.SimpleNamespace(**{k: getattr(asyncio, k) for k in dir(asyncio) if not k.startswith("__")})
    fast.sleep = sleep
    monkeypatch.setattr(discord.http, "asyncio", fast)
    monkeypatch.setattr(webhook, "asyncio", fast)
    return record


def boards_in(place: Channel) -> Callable[[Request], bool]:
    """``where`` for the board posts of a game: messages with a picture in its thread."""
    return lambda r: r.path == f"/channels/{place.id}/messages" and bool(r.files)


def dms_of(fake: FakeDiscord, *users: User) -> Callable[[Request], bool]:
    ids = {u.id for u in users}

    def where(r: Request) -> bool:
        ch = next((c for c in fake.channels.values() if r.path.startswith(f"/channels/{c.id}/")), None)
        return ch is not None and ch.is_dm and ch.recipient_id in ids

    return where


async def setup_game(
    fake: FakeDiscord,
    run_bot: RunBot,
    tmp_path: Path,
    *,
    clock: str | None = None,
    now: FakeTime | None = None,
) -> tuple[Table, int, Channel]:
    table = make_table(fake, run_bot, tmp_path)
    if now is not None:
        table.now = now
    await table.boot(repost_delays=QUICK)
    options = {"clock": clock} if clock else {}
    gid, thread = await table.start_game("ann", ("bob",), 1, **options)
    return table, gid, thread


def latest_board(fake: FakeDiscord, place: Channel) -> int | None:
    """The version the newest board in ``place`` shows."""
    versions = [int(m.group(1)) for msg in fake.messages(place) if (m := MOVE.search(msg.text))]
    return versions[-1] if versions else None


async def assert_every_board_once(table: Table, gid: int, place: Channel) -> None:
    """Each version is shown by at most one board message, the latest board shows the current
    version, and the store knows of nothing unposted."""
    fake = table.fake
    shown = Counter(int(m.group(1)) for msg in fake.messages(place) if (m := MOVE.search(msg.text)))
    assert shown and max(shown.values()) == 1, f"a board posted twice: {shown}"
    game = await table.bot.service.get(gid)
    assert max(shown) == game.row.version, (shown, game.row.version)
    assert await table.bot.service.store.unposted() == []
    contents = [m.text for m in fake.messages(place)]
    assert len(contents) == len(set(contents)), "a message posted twice"


def assert_no_dm_twice(fake: FakeDiscord, table: Table) -> None:
    """No DM of any player repeats another (a DM re-sent after a failure would)."""
    for user in table.players.values():
        contents = [m.text for m in fake.dms(user)]
        assert len(contents) == len(set(contents)), f"a DM to {user.name} sent twice"


async def play_until(
    table: Table, gid: int, place: Channel, done: Callable[[], object], limit: int = 8
) -> None:
    """Play moves until ``done()`` (a fault was hit: an edited board posts nothing new)."""
    for _ in range(limit):
        if done():
            return
        await table.play_one(gid, place)
    assert done(), "the fault was never hit"


async def play(table: Table, gid: int, place: Channel, n: int, via: str = "move") -> None:
    for _ in range(n):
        await table.play_one(gid, place, via)


# ---------------------------------------------------------------------- 5xx and broken connections


async def test_a_board_post_that_keeps_failing_is_posted_later_once(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, backoff: Backoff
) -> None:
    """Every one of discord.py's five tries answered 502: the move stands, and the bot posts its
    board itself a moment later (nobody has to move or restart it), once, with its DMs."""
    fake = fake_discord
    table, gid, thread = await setup_game(fake, run_bot, tmp_path)
    fault = fake.faults.fail(POST, 502, times=5, where=boards_in(thread))
    game = await table.bot.service.get(gid)
    before = game.row.version
    await play_until(table, gid, thread, lambda: fault.spent)
    assert len(fault.hits) == 5 and [d for d in backoff.asked if d][-5:] == [1, 3, 5, 7, 9]
    assert game.row.version > before
    await fake.wait_for(lambda: latest_board(fake, thread) == game.row.version, what="the board posted again")
    await table.settle()
    assert not table.bot.publisher.retry.waiting(gid)
    await assert_every_board_once(table, gid, thread)
    assert_no_dm_twice(fake, table)
    await play(table, gid, thread, 2)
    await assert_every_board_once(table, gid, thread)


async def test_a_refused_board_goes_out_with_the_next_move(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, backoff: Backoff
) -> None:
    """The next move comes before the bot's own retry: its board carries the refused one's
    events too (one post for both), and the retry then finds nothing left to post."""
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot(repost_delays=(0.5,))
    gid, thread = await table.start_game("ann", ("bob",), 1)
    fault = fake.faults.fail(POST, 502, times=5, where=boards_in(thread))
    game = await table.bot.service.get(gid)
    await play_until(table, gid, thread, lambda: fault.spent)
    assert table.bot.publisher.retry.waiting(gid)
    steps = [st for box in game.outboxes for st in box.batch.steps]  # put back, to post again
    lost = [game.fmt(e.text) for st in steps if st.by == "player" for e in st.events if e.public]
    assert lost
    await table.play_one(gid, thread)
    board = fake.messages(thread)[-1]
    assert latest_board(fake, thread) == game.row.version
    seen = fake.messages(thread)
    await fake.wait_for(lambda: not table.bot.publisher.retry.waiting(gid), what="the retry to end")
    await table.settle()
    assert fake.messages(thread) == seen  # the retry posted nothing more
    assert f"move {game.row.version}" in board.text and lost[0] in board.text, (lost, board.text)
    await assert_every_board_once(table, gid, thread)


async def test_5xx_answers_are_retried_by_discord_py_and_nothing_is_posted_twice(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, backoff: Backoff
) -> None:
    """500 and 502 on board posts, board edits, DMs, interaction responses and follow-ups, some
    after Discord did the work (the answer was lost): discord.py's retries get through, a post
    retried after it was made is answered with the same message (its nonce), every board is
    shown once."""
    fake = fake_discord
    table, gid, thread = await setup_game(fake, run_bot, tmp_path)
    ann, bob = table.players["ann"], table.players["bob"]
    faults = [
        fake.faults.fail(POST, 500, times=2, where=boards_in(thread)),
        fake.faults.fail(POST, 502, times=1, after=True, where=boards_in(thread)),
        fake.faults.fail(EDIT, 502, times=2, after=True),
        fake.faults.fail(POST, 500, times=2, after=True, where=dms_of(fake, ann, bob)),
        fake.faults.fail(CALLBACK, 500, times=1),
        fake.faults.fail(FOLLOWUP, 502, times=1),
    ]
    for i in range(8):
        await table.play_one(gid, thread, "button" if i % 2 else "move")
    assert all(f.spent for f in faults), faults
    await assert_every_board_once(table, gid, thread)
    assert_no_dm_twice(fake, table)


async def test_a_board_post_whose_connection_breaks_is_posted_later(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    """The connection breaks under a board post (no answer: aiohttp raises, discord.py does not
    retry): the bot posts the board again itself, once."""
    fake = fake_discord
    table, gid, thread = await setup_game(fake, run_bot, tmp_path)
    fault = fake.faults.disconnect(POST, where=boards_in(thread))
    await play_until(table, gid, thread, lambda: fault.spent)
    game = await table.bot.service.get(gid)
    await fake.wait_for(lambda: latest_board(fake, thread) == game.row.version, what="the board posted again")
    await table.settle()
    await assert_every_board_once(table, gid, thread)
    await play(table, gid, thread, 2, "button")
    await assert_every_board_once(table, gid, thread)


async def test_an_acknowledgement_done_but_answered_500_still_plays_the_move(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, backoff: Backoff
) -> None:
    """Discord took the deferral but answered 500; discord.py's retry then gets 400 / 40060
    (already acknowledged). The interaction is acknowledged, so the bot goes on: the move is
    played, its board posted once and the player told, privately."""
    fake = fake_discord
    table, gid, thread = await setup_game(fake, run_bot, tmp_path)
    fault = fake.faults.fail(CALLBACK, 500, after=True)
    game = await table.bot.service.get(gid)
    before = game.row.version
    seat, _ = await table.play_one(gid, thread)  # asserts the "✅ Played" answer
    assert fault.spent and game.row.version > before
    retried = [r for r in fake.requests if r.route == CALLBACK and r.status == 400]
    assert len(retried) == 1  # the 40060 the bot took as "acknowledged"
    await assert_every_board_once(table, gid, thread)
    await play(table, gid, thread, 2, "button")
    await assert_every_board_once(table, gid, thread)


# ---------------------------------------------------------------------- 429


@pytest.mark.parametrize("case", ["board", "global", "shared-edit", "callback", "dm"])
async def test_429_is_waited_out_and_nothing_is_posted_twice(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, case: str
) -> None:
    """A 429 as Discord sends it (per route, shared, or global): discord.py waits
    ``retry_after`` and tries again, which succeeds; every board is shown once."""
    fake = fake_discord
    table, gid, thread = await setup_game(fake, run_bot, tmp_path)
    wait = 0.3
    if case == "board":
        fault = fake.faults.rate_limit(POST, wait, where=boards_in(thread))
    elif case == "global":
        fault = fake.faults.rate_limit("*", wait, global_=True, where=boards_in(thread))
    elif case == "shared-edit":
        fault = fake.faults.rate_limit(EDIT, wait, scope="shared")
    elif case == "callback":
        fault = fake.faults.rate_limit(CALLBACK, wait)
    else:
        fault = fake.faults.rate_limit(POST, wait, where=dms_of(fake, *table.players.values()))
    await play_until(table, gid, thread, lambda: fault.spent)
    await table.settle()
    hit = fault.hits[0]
    again = next(r for r in fake.requests if r.at > hit.at and (r.method, r.path) == (hit.method, hit.path))
    assert again.status < 300 and again.at - hit.at >= wait * 0.9  # waited it out, then got through
    assert hit.status == 429
    await play(table, gid, thread, 2)
    await assert_every_board_once(table, gid, thread)
    assert_no_dm_twice(fake, table)


# ---------------------------------------------------------------------- slow answers


async def test_a_slow_board_post_does_not_delay_acknowledgements(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    """A board post Discord takes 3.5 s to answer: the click and a /move are acknowledged at once
    (the bot defers before it works), "My hand" meanwhile answers in time, and the board lands
    once."""
    fake = fake_discord
    fake.default_timeout = 20.0
    table, gid, thread = await setup_game(fake, run_bot, tmp_path)
    bob = table.players["bob"]
    fault = fake.faults.slow(POST, 3.5, where=boards_in(thread))
    for _ in range(8):
        if fault.spent:
            break
        game = await table.bot.service.get(gid)
        version = game.row.version
        seat = next(s for s in game.awaited() if not game.ai_plays(s))
        user = table.user_of(game, seat)
        action = game.engine.choose(
            game.engine.view(game.state, seat), game.engine.legal_actions(game.state, seat)
        )
        h = await fake.slash(user, thread, "move", action=action, wait=False)
        await h.wait_ack(timeout=3)
        other = next(u for u in (table.players["ann"], bob) if u is not user)
        hand = await fake.click(other, table.last_turn(thread), f"bz:{gid}:0:!hand", wait=False)
        await hand.wait_ack(timeout=3)
        await h.wait_done()
        await hand.wait_done()
        await table.settle()
        assert h.ack_latency is not None and hand.ack_latency is not None
        assert h.ack_latency < 3 and hand.ack_latency < 3
        assert h.text.startswith("✅ Played"), h.text
        assert game.row.version > version
    assert fault.spent
    await assert_every_board_once(table, gid, thread)


# ---------------------------------------------------------------------- the gateway

GATEWAY_FAULTS = {
    "cut, no close frame": lambda f: f.faults.drop_gateway(),
    "closed 4000": lambda f: f.faults.drop_gateway(code=4000),
    "closed 1006": lambda f: f.faults.drop_gateway(code=1006),
    "op 7 reconnect": lambda f: f.faults.reconnect(),
    "op 9 resumable": lambda f: f.faults.invalid_session(resumable=True),
    "op 9 not resumable": lambda f: f.faults.invalid_session(resumable=False),
    "cut, session lost": lambda f: f.faults.drop_gateway(resumable=False),
}
RESUMES = {"cut, no close frame", "closed 4000", "closed 1006", "op 7 reconnect", "op 9 resumable"}


@pytest.mark.parametrize("how", list(GATEWAY_FAULTS))
async def test_the_gateway_failing_mid_game(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, how: str
) -> None:
    """The gateway connection drops or the session is invalidated while a turn clock runs out:
    the bot resumes (or identifies again), the clock's AI move is played exactly once, and
    clicks and /move work afterwards with every board shown once."""
    fake = fake_discord
    fake.default_timeout = 10.0
    table, gid, thread = await setup_game(fake, run_bot, tmp_path, clock="1m")
    runner, bot = table.running, table.bot
    game = await bot.service.get(gid)
    await play(table, gid, thread, 1)
    first = runner.session
    while not any(not game.ai_plays(s) for s in game.awaited()):
        await table.play_one(gid, thread)
    version = game.row.version

    GATEWAY_FAULTS[how](fake)
    table.now.advance(61)  # the awaited player's time runs out while the gateway is down
    poke(bot)
    await fake.wait_for(lambda: game.row.version > version, what="the clock's move")
    if how in RESUMES:
        await runner.wait_until_resumed()
        assert runner.session is first and len(fake.sessions) == 1
    else:
        await fake.wait_for(
            lambda: (s := runner.session) is not None and s is not first and s.connected, what="a new session"
        )
        assert first is not None and first.invalid and first.resumes == 0
    await table.settle()
    for _ in range(3):  # the clock is asked again: nothing more is due for that turn
        poke(bot)
        await asyncio.sleep(0.05)
    await table.settle()
    moves = await table.bot.service.store.moves(gid)
    assert [m.by for m in moves[version:]].count("clock") == 1, [(m.seat, m.action, m.by) for m in moves]
    await play(table, gid, thread, 1, "button")
    await play(table, gid, thread, 1, "move")
    await assert_every_board_once(table, gid, thread)
    assert_no_dm_twice(fake, table)


async def test_a_click_while_the_gateway_is_down_is_answered_once_after_the_resume(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    """A click sent while the bot's connection is cut reaches it when it resumes (the missed
    dispatches are replayed by sequence number); it is answered and played once."""
    fake = fake_discord
    table, gid, thread = await setup_game(fake, run_bot, tmp_path)
    game = await table.bot.service.get(gid)
    seat = next(s for s in game.awaited() if not game.ai_plays(s))
    user = table.user_of(game, seat)
    action = game.engine.choose(
        game.engine.view(game.state, seat), game.engine.legal_actions(game.state, seat)
    )
    version = game.row.version
    msg = await table.control(user, thread, gid, version, action)
    fake.faults.drop_gateway()
    h = await table.use(user, msg, gid, version, action, wait=False)
    await table.running.wait_until_resumed()
    await h.wait_done()
    await table.settle()
    assert game.row.version > version
    assert len([i for i in fake.interactions if i.id == h.id]) == 1 and len(h.callbacks) == 1
    moves = await table.bot.service.store.moves(gid)
    assert [(m.seat, m.action) for m in moves[version : version + 1]] == [(seat, action)]
    await assert_every_board_once(table, gid, thread)


async def test_a_final_sheet_refused_by_discord_is_posted_later_once(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, backoff: Backoff
) -> None:
    """The last move's score sheet fails all of discord.py's tries: the bot posts it again by
    itself, once, then clears the buttons and archives the thread (once)."""
    from tests.e2e.bazaar_harness import install_toy_secret

    remove = install_toy_secret()
    try:
        fake = fake_discord
        table = make_table(fake, run_bot, tmp_path)
        await table.boot(repost_delays=QUICK)
        gid, thread = await table.start_game("ann", ("bob",), 0, game="toysecret")
        fault = fake.faults.fail(
            POST,
            500,
            times=5,
            where=lambda r: boards_in(thread)(r) and "is over" in str(r.json or {}),  # content or V2 text
        )
        for _ in range(6):
            await table.play_one(gid, thread, "move")
        game = await table.bot.service.get(gid)
        assert game.row.status == "finished" and fault.spent
        await fake.wait_for(
            lambda: any("is over" in m.text for m in fake.messages(thread)),
            what="the final sheet posted again",
        )
        await table.recaps_posted()  # the recap follows the sheet; then the thread is archived
        finals = [m for m in fake.messages(thread) if "is over" in m.text]
        assert len(finals) == 1 and finals[0].attachments and "Winner" in finals[0].text
        assert all(no_controls(m) for m in fake.messages(thread) if m.id != finals[0].id)
        assert fake.channel(thread.id).archived
        assert (
            len(
                [
                    r
                    for r in fake.requests
                    if r.route == "PATCH /channels/{channel_id}" and (r.json or {}).get("archived")
                ]
            )
            == 1
        )
        assert await table.bot.service.store.unposted() == []
    finally:
        remove()
