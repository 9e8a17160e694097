"""The host's hints and reviews (bot/host/coaching.py) on a real game with hidden hands (Kathai):
what the lane job is given is the asking seat's own view and legal moves, nothing else; the
refusals (not a player, not their turn, an old button, hints off, a rated game, a second hint in a
turn, a review before the end); a review is stored and read back."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.host import coaching
from bot.host.live import LiveGame, Refusal
from bot.host.service import GameService
from bot.host.store import Store


@pytest.fixture(name="svc")
async def svc_fixture(tmp_path: Path) -> AsyncIterator[GameService]:
    store = await Store.open(tmp_path / "db.sqlite3", now=lambda: 1_700_000_000.0)
    yield GameService(store, now=lambda: 1_700_000_000.0, seed_source=lambda: 5, ai_level="easy")
    await store.close()


async def _kathai(svc: GameService) -> LiveGame:
    g = await svc.create(
        kind="kathai",
        options=None,
        clock=None,
        guild_id=1,
        channel_id=100,
        user_id=10,
        name="Ann",
        rated=False,
    )
    for uid, name in ((11, "Bo"), (12, "Cy")):
        await svc.join(g.id, uid, name)
    await svc.start(g.id, 10)
    return await svc.get(g.id)


class Lane:
    """Stands in for the workers' long-job lane: runs the job here, noting what it was given."""

    def __init__(self) -> None:
        self.jobs: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []

    async def run_long(self, fn: Callable[..., Any], *args: Any) -> Any:
        self.jobs.append((fn, args))
        return fn(*args)

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        return fn(*args)


def _user(game: LiveGame, seat: int) -> int:
    uid = game.seats[seat].user_id
    assert uid is not None
    return uid


async def test_a_hint_is_computed_from_the_seats_own_view_once_a_turn(svc: GameService) -> None:
    game = await _kathai(svc)
    lane = Lane()
    seat = game.awaited()[0]
    version = game.row.version
    line = await coaching.hint(svc.store, lane, game, _user(game, seat), version)  # type: ignore[arg-type]
    ((fn, args),) = lane.jobs
    assert fn is coaching.hint_job
    name, view, legal, _seed = args
    assert name == "kathai" and view == dict(game.engine.view(game.state, seat))
    assert legal == game.engine.legal_actions(game.state, seat)
    assert view != dict(game.engine.view(game.state, (seat + 1) % 3))  # another seat's view differs
    assert line.startswith("`") and line.split("`")[1] in legal, line
    with pytest.raises(Refusal, match="You have had your hint for this turn"):
        await coaching.hint(svc.store, lane, game, _user(game, seat), version)  # type: ignore[arg-type]
    assert len(lane.jobs) == 1


async def test_the_hint_button_is_left_out_once_the_turns_hint_is_taken(svc: GameService) -> None:
    game = await _kathai(svc)
    lane = Lane()
    seat = game.awaited()[0]
    others = [s for s in range(3) if s != seat]
    assert await svc.coaching.hint_left(game, seat)
    await coaching.hint(svc.store, lane, game, _user(game, seat), game.row.version)  # type: ignore[arg-type]
    assert not await svc.coaching.hint_left(game, seat)
    assert all([await svc.coaching.hint_left(game, s) for s in others])  # theirs are not taken
    await svc.move(game.id, _user(game, seat), "pass")  # the turn passes: the next one has its hint
    nxt = game.awaited()[0]
    assert nxt != seat and await svc.coaching.hint_left(game, nxt)
    await svc.store.set_hints(game.id, False)
    assert not await svc.coaching.hint_left(game, nxt)  # hints off: no button at all


async def test_hint_refusals(svc: GameService) -> None:
    game = await _kathai(svc)
    lane = Lane()
    seat = game.awaited()[0]
    other = next(s for s in range(3) if s not in game.awaited())
    v = game.row.version
    with pytest.raises(Refusal, match="Only the players"):
        await coaching.hint(svc.store, lane, game, 99, v)  # type: ignore[arg-type]
    with pytest.raises(Refusal, match="It is not your turn"):
        await coaching.hint(svc.store, lane, game, _user(game, other), v)  # type: ignore[arg-type]
    with pytest.raises(Refusal, match="earlier turn"):
        await coaching.hint(svc.store, lane, game, _user(game, seat), v + 1)  # type: ignore[arg-type]
    game.rated = True  # opened rated (the default): three people on the people's ladder
    assert coaching.rated(game)
    with pytest.raises(Refusal, match="is rated: no hints"):
        await coaching.hint(svc.store, lane, game, _user(game, seat), v)  # type: ignore[arg-type]
    game.rated = False
    await svc.store.set_hints(game.id, False)
    with pytest.raises(Refusal, match="hints:off"):
        await coaching.hint(svc.store, lane, game, _user(game, seat), v)  # type: ignore[arg-type]
    assert not lane.jobs
    with pytest.raises(Refusal, match="is not finished"):
        await coaching.review(svc.store, lane, game, _user(game, seat))  # type: ignore[arg-type]


async def test_a_review_is_stored_and_read_back(svc: GameService) -> None:
    game = await _kathai(svc)
    for _ in range(400):
        if game.row.status != "active":
            break
        seat = game.awaited()[0]
        action = game.engine.choose(
            game.engine.view(game.state, seat), game.engine.legal_actions(game.state, seat)
        )
        await svc.move(game.id, _user(game, seat), action)
    assert game.row.status == "finished"
    lane = Lane()
    first = await coaching.review(svc.store, lane, game, _user(game, 1))  # type: ignore[arg-type]
    assert not first.stored and [fn for fn, _ in lane.jobs] == [coaching.review_job]
    assert len(first.moments) == len(first.views) <= 3
    assert all(v["viewer"] == 1 for v in first.views)
    stored = await svc.store.review(game.id, 1)
    assert stored is not None and len(json.loads(stored)) == len(first.moments)
    again = await coaching.review(svc.store, lane, game, _user(game, 1))  # type: ignore[arg-type]
    assert again.stored and again.moments == first.moments and len(lane.jobs) == 1
    with pytest.raises(Refusal, match="Only the players"):
        await coaching.review(svc.store, lane, game, 99)  # type: ignore[arg-type]


def test_a_review_reads_only_the_moves_in_play() -> None:
    """An undo entry is no decision, nor is the move it took back: the review of a log holding
    one is computed (it failed on ``undo 1`` as an illegal move) from the moves that count."""
    from engines import base, takeback
    from engines import coaching as engine_coaching

    engine = base.get("pralaya")
    state = engine.setup(3, 3, None)
    seat = engine.to_move(state)[0]
    first, second = [a for a in engine.legal_actions(state, seat) if a.startswith("take ")][:2]
    moves = [(seat, first), (seat, takeback.undo_text(1)), (seat, second)]
    found = engine_coaching.decisions(engine, 3, 3, None, moves, seat)
    assert [(d.version, d.played) for d in found] == [(2, second)]
    assert found[0].view == dict(engine.view(state, seat))  # as the seat saw it, back at the start
    moments = coaching.review_job("pralaya", 3, 3, {}, moves, seat, 0.05)
    assert all(m.played == second for m in moments)
