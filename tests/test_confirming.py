"""``bot.host.confirming.question``: which typed or clicked moves the Discord layer asks the
player to confirm (those the engine names irreversible), with the canonical move, the warning
with player names in, and the version it was asked at; nothing else is asked about."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.host.confirming import Question, question
from bot.host.service import GameService
from bot.host.store import Store


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[GameService]:
    store = await Store.open(tmp_path / "db.sqlite3", now=lambda: 1_700_000_000.0)
    yield GameService(store, now=lambda: 1_700_000_000.0, seed_source=lambda: 42, ai_level="easy")
    await store.close()


async def _kathai(svc: GameService, options: str = "first_player=seat0") -> int:
    g = await svc.create(
        kind="kathai", options=options, clock=None, guild_id=1, channel_id=100, user_id=10, name="Ann"
    )
    await svc.join(g.id, 11, "Bob")
    await svc.join(g.id, 12, "Cy")
    await svc.start(g.id, 10)
    return g.id


async def test_a_first_offer_is_asked_about_in_canonical_text_with_names(host: GameService) -> None:
    g = await host.get(await _kathai(host))
    card = f"t{g.state.hands[0][0]}"
    q = question(g, 10, f"offer bob {card} for any 1")  # a name typed for the seat code
    assert q is not None and q.action == f"offer s1 {card} for any 1" and q.version == g.row.version
    assert "no longer sell" in q.warning and "{s" not in q.warning
    assert isinstance(q, Question)


async def test_ordinary_illegal_and_other_peoples_moves_are_not_asked_about(host: GameService) -> None:
    g = await host.get(await _kathai(host))
    card = f"t{g.state.hands[0][0]}"
    assert question(g, 10, "pass") is None  # nothing given up
    assert question(g, 10, "offer s7 t1 for any 1") is None  # refused by the move itself, with its reason
    assert question(g, 10, "gibberish") is None
    assert question(g, 11, f"offer all {card} for any 1") is None  # Bob is not awaited
    assert question(g, 99, "pass") is None  # not seated
    free = await host.get(await _kathai(host, "first_player=seat0 free_asking=true"))
    card = f"t{free.state.hands[0][0]}"
    assert (
        question(free, 10, f"offer all {card} for any 1") is None
    )  # with free asking, an offer commits nothing


async def test_a_guided_game_asks_nothing_not_even_before_the_suggested_offer(host: GameService) -> None:
    box = await host.learning.learn(
        "kathai", guild_id=1, channel_id=100, thread_id=None, user_id=10, name="Ann"
    )
    g = await host.get(box.game_id)
    assert g.awaited() == (0,)
    suggested = box.batch.notes[-1].rsplit("Suggested: `", 1)[1].split("`", 1)[0]
    assert suggested.startswith("offer ")  # the guide's first step: a first offer, which others confirm
    assert g.engine.irreversible(g.state, 0, g.engine.parse(suggested))
    bribe = next(a for a in g.engine.legal_actions(g.state, 0) if a.startswith("bribe "))
    assert question(g, 10, suggested) is None
    assert question(g, 10, bribe) is None
    # the same position outside a guided game would be asked about
    assert g.engine.irreversible(g.state, 0, g.engine.parse(bribe))
