"""The game service is a composition of parts sharing one typed ``Core`` (bot/host/core.py): each
part works on its own, built from a core and the parts it names, and ``GameService`` only
delegates. These tests build the parts by hand, without ``GameService``."""

from __future__ import annotations

import ast
import inspect
import typing
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.host.core import Core
from bot.host.dormant import Dormant
from bot.host.duties import Duties
from bot.host.live import Refusal
from bot.host.loading import Games
from bot.host.lobbies import Lobbies
from bot.host.moves import Moves
from bot.host.outbox import drain as take_batch
from bot.host.quotas import Quotas
from bot.host.service import GameService
from bot.host.store import Store
from tests.test_service import Clock, ToyNim, toy  # noqa: F401  (fixture)

PARTS = (Games, Dormant, Duties, Lobbies, Moves)


@dataclass
class Parts:
    core: Core
    games: Games
    idle: Dormant
    duties: Duties
    lobbies: Lobbies
    moves: Moves
    clock: Clock


def _parts(store: Store, clock: Clock, **settings: Any) -> Parts:
    core = Core(store, now=clock, seed_source=lambda: 42, ai_level="easy", **settings)
    games = Games(core)
    duties = Duties(core, games)
    return Parts(
        core,
        games,
        Dormant(core, games),
        duties,
        Lobbies(core, games, duties),
        Moves(core, games, duties),
        clock,
    )


@pytest.fixture
async def parts(tmp_path: Path, toy: ToyNim) -> AsyncIterator[Parts]:  # noqa: F811
    clock = Clock()
    store = await Store.open(tmp_path / "db.sqlite3", now=clock)
    yield _parts(store, clock)
    await store.close()


async def _started(p: Parts, *, ais: int = 0, clock: str | None = None) -> int:
    g = await p.lobbies.create(
        kind="toynim", options=None, clock=clock, guild_id=1, channel_id=100, user_id=10, name="Ann"
    )
    if ais:
        await p.lobbies.add_ai(g.id, 10)
    else:
        await p.lobbies.join(g.id, 11, "Bob")
    await p.lobbies.start(g.id, 10)
    return g.id


def test_each_part_names_its_collaborators_by_type() -> None:
    """No part is a mixin reading attributes it does not declare: each takes the core and the
    parts it calls as typed arguments, and GameService inherits from nothing."""
    for part in PARTS:
        hints = typing.get_type_hints(part.__init__)
        hints.pop("return")
        assert hints["core"] is Core, part
        assert all(t in (Core, Games, Duties) for t in hints.values()), (part, hints)
    assert GameService.__mro__ == (GameService, object)


def test_the_service_only_delegates() -> None:
    """Every method of GameService but ``__init__`` is one statement handing over to a part or
    the core (or a pure reading function): the service holds no logic of its own."""
    tree = ast.parse(inspect.getsource(GameService))
    cls = tree.body[0]
    assert isinstance(cls, ast.ClassDef)
    methods = [f for f in cls.body if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)]
    assert len(methods) > 30
    for fn in methods:
        if fn.name == "__init__":
            continue
        body = [st for st in fn.body if not (isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant))]
        assert len(body) == 1, fn.name
        names = {n.attr for n in ast.walk(body[0]) if isinstance(n, ast.Attribute)}
        assert names & {"core", "games", "idle", "duties", "lobbies", "moves", "undos"}, fn.name


async def test_a_person_moves_and_the_ai_answers_through_the_parts(parts: Parts) -> None:
    gid = await _started(parts, ais=1)
    game = await parts.games.get(gid)
    assert game is parts.core.games[gid]
    await parts.moves.move(gid, 10, "take 1")  # the AI seat (Duties) answers at once
    assert [(m.seat, m.by) for m in await parts.core.store.moves(gid)] == [(0, "player"), (1, "ai")]
    assert game.row.version == 2 and game.awaited() == (0,)


async def test_a_fresh_core_loads_a_game_on_first_use_only(parts: Parts) -> None:
    gid = await _started(parts, clock="10m")
    await parts.moves.move(gid, 10, "take 2")
    fresh = _parts(parts.core.store, parts.clock)
    assert await fresh.games.load_all() == []
    assert fresh.core.games == {} and fresh.idle.dormant() == [gid]
    assert [e.game_id for e in fresh.idle.clock_entries()] == [gid] and fresh.duties.clock_entries() == []
    game = await fresh.games.get(gid)
    assert game.row.version == 1 and fresh.idle.dormant() == []
    assert fresh.idle.clock_entries() == [] and [e.game_id for e in fresh.duties.clock_entries()] == [gid]


async def test_finding_a_game_elsewhere_loads_nothing(parts: Parts, monkeypatch: pytest.MonkeyPatch) -> None:
    """The refusal for a game of another server comes before the game is loaded: the loading
    part's one ``load`` is never called."""
    gid = await _started(parts)
    fresh = _parts(parts.core.store, parts.clock)

    async def no_load(*a: Any, **k: Any) -> None:
        raise AssertionError("the game was loaded before the server check")

    monkeypatch.setattr(fresh.games, "load", no_load)
    with pytest.raises(Refusal, match="no game #"):
        await fresh.moves.find(guild_id=2, channel_id=100, user_id=10, game_id=gid)
    monkeypatch.undo()
    assert (await fresh.moves.find(guild_id=1, channel_id=100, user_id=10, game_id=gid)).id == gid


async def test_the_core_bounds_the_games_held(parts: Parts) -> None:
    parts.core.quotas = Quotas(held_games=2, games_per_channel=0, games_per_server=0, lobbies_per_user=0)
    ids = []
    for _ in range(3):
        ids.append(await _started(parts))
        take_batch(parts.core.games[ids[-1]])  # published, as the bot does: nothing keeps it held
    assert len(parts.core.games) == 2 and ids[0] not in parts.core.games
    assert ids[0] in parts.idle.dormant()  # a running game dropped from memory keeps its clock
    assert (await parts.games.get(ids[0])).id == ids[0]


async def test_closing_a_game_another_writer_finished_is_refused(parts: Parts) -> None:
    gid = await _started(parts)
    game = await parts.games.get(gid)
    await parts.core.store.update_game(gid, status="finished")
    async with game.lock:
        with pytest.raises(Refusal, match="already over"):
            await parts.core.close(game, "ended")
    assert gid not in parts.core.games  # reloaded as stored on next use


async def test_the_clock_expires_a_turn_through_the_duties_part(parts: Parts) -> None:
    gid = await _started(parts, clock="10m")
    parts.clock.t += 601
    box = await parts.duties.expire(gid)
    assert box is not None and [m.by for m in await parts.core.store.moves(gid)] == ["clock"]
    assert any("Time ran out" in n for n in box.batch.notes)
