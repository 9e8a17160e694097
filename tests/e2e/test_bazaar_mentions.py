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

from engines import base
from tests.e2e.bazaar_harness import Table, make_table
from tests.fakediscord import Channel, FakeDiscord, Message, RunBot
from tests.render_stub import use_stub

GAMES = {
    # game -> options shortening it (a Kathai game of a few turns still has many offers to all)
    "kathai": "turn_limit=4",
    "phraya": "",
    "pralaya": "",
    "ra": "",
}
SEEDS = (1, 2, 3)


def _turns(table: Table, place: Channel) -> list[Message]:
    return [m for m in table.fake.messages(place) if "· move " in m.content]


def _shows(table: Table, place: Channel, version: int) -> bool:
    """Whether the newest board in ``place`` shows ``version``."""
    return f"· move {version}\n" in _turns(table, place)[-1].content


async def _play_checking_mentions(table: Table, gid: int, place: Channel, rng: random.Random) -> int:
    """Play ``gid`` to its end, one move of an awaited person at a time (the easy AI's choice, or
    now and then a random legal move), checking the mentions after each; returns the moves."""
    svc = table.bot.service
    seen: set[int] = set()
    before: set[int] = set()
    game = await svc.get(gid)
    for moves in range(2000):
        # AI seats answer on their own (at once, or after the grace beside people): wait until a
        # person is awaited or the game is over, and its board is posted
        await table.fake.wait_for(
            lambda: game.row.status != "active" or any(not game.ai_plays(s) for s in game.awaited()),
            what="a person to be awaited",
        )
        await table.settle()
        if game.row.status != "active":
            return moves
        await table.fake.wait_for(functools.partial(_shows, table, place, game.row.version), what="the board")
        engine = game.engine
        awaited = [s for s in game.awaited() if not game.ai_plays(s)]
        people = {table.user_of(game, s).id for s in awaited}
        fresh = [m for m in _turns(table, place) if m.id not in seen]
        seen.update(m.id for m in fresh)
        where = f"game #{gid} version {game.row.version}, awaited {sorted(game.awaited())}"
        board = _turns(table, place)[-1]
        assert set(board.mention_ids) == people, (where, board.content)
        if people - before:  # someone newly awaited: a new board pinged exactly them
            assert fresh, (where, "no new board for", people - before, board.content)
            assert set(fresh[-1].pinged_ids) == people, (where, fresh[-1].content)
        before = people
        seat = awaited[0]
        legal = engine.legal_actions(game.state, seat)
        if rng.random() < 0.3:
            action = rng.choice(legal)
        else:
            action = engine.choose(engine.view(game.state, seat), legal)
        h = await table.fake.slash(table.user_of(game, seat), place, "move", action=action)
        assert h.content.startswith("✅ Played"), (where, action, h.content)
        await table.settle()
    raise AssertionError(f"game #{gid} did not end")


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
    # three people; with seed 3, two people and an AI seat (never mentioned)
    use_stub(monkeypatch, games=set(GAMES))
    assert {e.name for e in base.games()} == set(GAMES)  # a new game is added here
    table = make_table(fake_discord, run_bot, tmp_path)
    table.seed = seed
    await table.boot()
    extra = {"options": GAMES[kind]} if GAMES[kind] else {}
    joiners, ais = (("bob",), 1) if seed == 3 else (("bob", "cy"), 0)
    gid, place = await table.start_game("ann", joiners, ais, game=kind, **extra)
    moves = await _play_checking_mentions(table, gid, place, random.Random(seed))
    assert moves > 0 and (await table.stored(gid)).status == "finished"
