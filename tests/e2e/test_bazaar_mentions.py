"""Every turn mentions exactly the people the rules now await (issue #26, item 7): whole games of
every game, three people each and several seeds, played through ``/move`` against the fake
Discord. After each move the newest board names (mentions) exactly the people awaited, and
whenever someone is awaited who was not before, a new board was posted that pinged exactly the
people awaited (editing a board in place pings nobody). Drawn by the stand-in renderer
(tests/render_stub.py): this checks the posting, not the pictures."""

from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest

from bot.host.live import LiveGame
from engines import base
from tests.e2e.bazaar_harness import Table, make_table, moved_past, poke
from tests.fakediscord import Channel, FakeDiscord, Message, RunBot
from tests.render_stub import use_stub

GAMES = {
    # game -> options shortening it (a Kathai game of a few turns still has many offers to all)
    "kathai": "turn_limit=4",
    "phraya": "round_limit=8",
    "pralaya": "",
    "ra": "",
}
SEEDS = (1, 2, 3)


def _turns(table: Table, place: Channel) -> list[Message]:
    return [m for m in table.fake.messages(place) if "· move " in m.text]


def _shows(table: Table, place: Channel, version: int) -> bool:
    """Whether the newest board in ``place`` shows ``version``."""
    return f"· move {version}\n" in _turns(table, place)[-1].text


async def _play_checking_mentions(
    table: Table, gid: int, place: Channel, rng: random.Random, clock: int = 0
) -> int:
    """Play ``gid`` to its end, one move of an awaited person at a time (the easy AI's choice, or
    now and then a random legal move; with a turn ``clock`` of that many seconds, every sixth
    turn runs out instead), checking the mentions after each (:func:`_check`); returns the
    moves (and expiries)."""
    seen: set[int] = set()
    before: frozenset[int] = frozenset()
    stored = 0
    game = await table.bot.service.get(gid)
    for moves in range(2000):
        # AI seats answer on their own (at once, or after the grace beside people): wait until a
        # person is awaited or the game is over, and its board is posted
        await table.fake.wait_for(
            lambda: game.row.status != "active" or any(not game.ai_plays(s) for s in game.awaited()),
            60,
            what="a person to be awaited",
        )
        await table.settle(60)
        if game.row.status != "active":
            return moves
        await table.fake.wait_for(
            functools.partial(_shows, table, place, game.row.version), 60, what="the board"
        )
        log = await table.bot.service.store.moves(gid)
        # a new turn: someone is awaited who was not, or someone else (or the AI, or the clock) moved
        others = any(m.by != "player" or m.seat not in before for m in log[stored:])
        before, stored = await _check(table, game, place, seen, before, others), len(log)
        if clock and moves % 6 == 5:  # now and then the turn clock runs out and plays instead
            version = game.row.version
            table.now.advance(clock + 1)
            poke(table.bot)
            await table.fake.wait_for(moved_past(game, version), 60, what="the clock's move")
            continue
        seat = min(before)
        legal = game.engine.legal_actions(game.state, seat)
        if rng.random() < 0.3:
            action = rng.choice(legal)
        else:
            action = game.engine.choose(game.engine.view(game.state, seat), legal)
        h = await table.fake.slash(table.user_of(game, seat), place, "move", action=action)
        assert h.text.startswith("✅ Played"), (game.row.version, action, h.text)
        await table.settle(60)
    raise AssertionError(f"game #{gid} did not end")


async def _check(
    table: Table, game: LiveGame, place: Channel, seen: set[int], before: frozenset[int], others: bool
) -> frozenset[int]:
    """The newest board mentions exactly the people awaited; when a new turn began (``others``
    moved, or a person is awaited who was not among ``before``), a board posted since the last
    check (not in ``seen``) pinged exactly them. Returns the seats of the people awaited."""
    seats = frozenset(s for s in game.awaited() if not game.ai_plays(s))
    people = {table.user_of(game, s).id for s in seats}
    fresh = [m for m in _turns(table, place) if m.id not in seen]
    seen.update(m.id for m in fresh)
    where = f"game #{game.id} version {game.row.version}, awaited {sorted(game.awaited())}"
    board = _turns(table, place)[-1]
    assert set(board.mention_ids) == people, (where, board.text)
    if seats - before or (others and seats):
        assert fresh, (where, "no new board for a new turn", board.text)
        assert set(fresh[-1].pinged_ids) == people, (where, fresh[-1].text)
    return seats


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("kind", sorted(GAMES))
async def test_each_turn_mentions_exactly_the_people_awaited(
    fake_discord: FakeDiscord,
    run_bot: RunBot,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    kind: str,
    seed: int,
) -> None:
    # three people; with seed 2 a turn clock that runs out now and then; with seed 3 two people
    # and an AI seat (never mentioned)
    use_stub(monkeypatch, games=set(GAMES))
    assert {e.name for e in base.games()} == set(GAMES)  # a new game is added here
    table = make_table(fake_discord, run_bot, tmp_path)
    table.seed = seed
    await table.boot()
    extra = {"options": GAMES[kind]} if GAMES[kind] else {}
    if seed == 2:
        extra["clock"] = "10m"
    joiners, ais = (("bob",), 1) if seed == 3 else (("bob", "cy"), 0)
    gid, place = await table.start_game("ann", joiners, ais, game=kind, **extra)
    moves = await _play_checking_mentions(table, gid, place, random.Random(seed), 600 if seed == 2 else 0)
    assert moves > 0 and (await table.stored(gid)).status == "finished"


async def test_a_new_turn_is_a_new_dm_not_an_edit_of_an_answered_one(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Kathai's moves are offered in DMs: a seat that declined an offer and whose own turn comes
    # next gets a new DM for it (a notification), not its answered DM edited in place
    use_stub(monkeypatch, games={"kathai"})
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, place = await table.start_game("ann", ("bob", "cy"), 0, game="kathai")
    game = await table.bot.service.get(gid)
    a = game.state.active
    b = (a + 1) % 3
    users = {s: table.user_of(game, s) for s in range(3)}
    offer = next(
        x
        for x in game.engine.legal_actions(game.state, a)
        if x.startswith(f"offer s{b} ") and x.endswith(" 1")
    )
    for seat, action in ((a, offer), (b, "decline"), (a, "pass")):
        mark = fake.mark()
        h = await fake.slash(users[seat], place, "move", action=action)
        assert h.text.startswith("✅ Played"), h.text
        await table.settle(60)
    assert game.awaited() == (b,)
    assert table.last_turn(place).pinged_ids == [users[b].id]
    fresh = [m for m in fake.dms(users[b]) if m.id > mark and m.custom_ids]
    assert fresh, [(m.id > mark, m.text[:80]) for m in fake.dms(users[b])[-3:]]
