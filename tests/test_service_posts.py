"""The host parts the Discord layer reads and writes through (it never touches the store or a
game's lock itself): ``Posts`` (bot/host/posts.py: what was posted, channel shapes, post
claims, unposted boards, withdrawing a lobby) and ``Clicks`` (bot/host/clicks.py: a menu's
pick, a form's draft and Send, a dialog, each read under the game's lock; a stale, foreign or
forged click is refused and changes nothing) and ``start_in`` (Start's thread and deal under the
start lock)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.host.live import Refusal
from bot.host.service import GameService
from bot.host.store import Store
from bot.host.store_posts import DONE, HELD, WON
from engines import base
from engines import prompt as pr
from tests.test_service import Clock, NimState, ToyNim


class FormNim(ToyNim):
    """Toy Nim whose prompt takes the count by a menu, a form (count and a remark) and a dialog."""

    name = "formnim"
    title = "Form Nim"

    def prompt(self, state: NimState, seat: int) -> pr.Prompt:
        counts = tuple(pr.Choice(str(k), str(k)) for k in range(1, min(3, state.pile) + 1))
        pick = pr.Pick("n", "How many…", counts, template="take {}")
        form = pr.Form("f", "Take", (pr.Pick("n", "How many…", counts),), "take {n}")
        dialog = pr.Dialog("d", "Take…", "Take", (pr.Pick("n", "How many", counts),), "take {n}")
        return pr.Prompt(seat, "Take some", (pick, form, dialog), public=False)


@pytest.fixture
async def svc(tmp_path: Path) -> AsyncIterator[GameService]:
    engine = FormNim()
    base.register(engine)
    clock = Clock()
    store = await Store.open(tmp_path / "db.sqlite3", now=clock)
    try:
        yield GameService(store, now=clock, seed_source=lambda: 42)
    finally:
        await store.close()
        base.unregister(engine.name)


async def _started(svc: GameService) -> Any:
    g = await svc.create(
        kind="formnim", options=None, clock=None, guild_id=1, channel_id=100, user_id=10, name="Ann"
    )
    await svc.join(g.id, 11, "Bob")
    await svc.start(g.id, 10)
    return await svc.get(g.id)


async def test_a_pick_builds_its_action_for_the_awaited_seat_only(svc: GameService) -> None:
    g = await _started(svc)
    v = g.row.version
    assert await svc.clicks.pick_action(g, 10, v, "n", ["2"]) == "take 2"
    with pytest.raises(base.NotYourTurn):
        await svc.clicks.pick_action(g, 11, v, "n", ["2"])  # Bob is not awaited
    with pytest.raises(Refusal, match="not playing"):
        await svc.clicks.pick_action(g, 99, v, "n", ["2"])
    with pytest.raises(base.StaleState):
        await svc.clicks.pick_action(g, 10, v - 1, "n", ["2"])
    with pytest.raises(Refusal, match="not on the menu"):
        await svc.clicks.pick_action(g, 10, v, "n", ["7"])  # forged value
    with pytest.raises(Refusal, match="menu is out of date"):
        await svc.clicks.pick_action(g, 10, v, "gone", ["1"])
    assert not g.lock.locked()


async def test_clicks_wait_for_the_games_lock(svc: GameService) -> None:
    """A click is read under the game's lock: while a move holds it, the click waits."""
    g = await _started(svc)
    v = g.row.version
    async with g.lock:
        pending = [
            asyncio.create_task(svc.clicks.pick_action(g, 10, v, "n", ["1"])),
            asyncio.create_task(svc.clicks.save_draft(g, 10, v, "f", "n", ["1"])),
            asyncio.create_task(svc.clicks.form_action(g, 10, v, "f")),
            asyncio.create_task(svc.clicks.dialog_action(g, 10, v, "d", {"n": ["1"]})),
        ]
        for _ in range(5):
            await asyncio.sleep(0)  # let each task run up to the lock
        assert not any(t.done() for t in pending)
    picked, (_, drafts), sent, answered = await asyncio.gather(*pending)
    assert (picked, drafts, sent, answered) == ("take 1", {"f": {"n": ["1"]}}, "take 1", "take 1")


async def test_a_form_keeps_a_checked_draft_and_sends_it(svc: GameService) -> None:
    g = await _started(svc)
    v = g.row.version
    with pytest.raises(Refusal, match="Choose"):
        await svc.clicks.form_action(g, 10, v, "f")  # nothing picked yet
    with pytest.raises(Refusal, match="not on the menu"):
        await svc.clicks.save_draft(g, 10, v, "f", "n", ["9"])
    assert await svc.clicks.drafts(g.id, 0, v, svc.prompt_for(g, 0)) == {}  # the bad value left nothing
    p, drafts = await svc.clicks.save_draft(g, 10, v, "f", "n", ["3"])
    assert p.find("f") is not None and drafts == {"f": {"n": ["3"]}}
    assert await svc.clicks.form_action(g, 10, v, "f") == "take 3"
    with pytest.raises(Refusal, match="form is out of date"):
        await svc.clicks.save_draft(g, 10, v, "n", "n", ["1"])  # "n" is a pick, not a form
    await svc.move(g.id, 10, "take 3")
    assert await svc.clicks.drafts(g.id, 0, g.row.version, svc.prompt_for(g, 0)) == {}  # an old draft


async def test_a_dialog_is_read_from_the_prompt_now(svc: GameService) -> None:
    g = await _started(svc)
    v = g.row.version
    assert svc.clicks.dialog(g, 10, v, "d").title == "Take"
    assert await svc.clicks.dialog_action(g, 10, v, "d", {"n": ["1"]}) == "take 1"
    with pytest.raises(Refusal, match="dialog is out of date"):
        svc.clicks.dialog(g, 10, v, "f")
    with pytest.raises(Refusal, match="Choose"):
        await svc.clicks.dialog_action(g, 10, v, "d", {})


async def test_posts_record_what_was_posted_and_retire_it(svc: GameService) -> None:
    g = await _started(svc)
    posts = svc.posts
    await posts.record_posted(g.id, kind="turn", channel_id=100, message_id=500, version=0, live=True)
    await posts.record_posted(g.id, kind="dm", channel_id=7, message_id=501, version=1, live=True, seat=1)
    await posts.restamp_posted(500, 1)  # edited in place to show the next version
    turn, dm = await posts.posted_messages(g.id)
    assert (turn.kind, turn.version, turn.live) == ("turn", 1, True)
    assert (dm.kind, dm.seat, dm.channel_id) == ("dm", 1, 7)
    assert [m.message_id for m in await posts.posted_messages(g.id, kind="dm")] == [501]
    await posts.retire_posted([turn.id])
    assert [m.message_id for m in await posts.posted_messages(g.id, live=True)] == [501]
    assert await posts.channel_shape(100) == "v2"
    await posts.set_channel_shape(100, "classic")
    assert await posts.channel_shape(100) == "classic"
    assert await posts.stored_moves(g.id) == []
    await svc.move(g.id, 10, "take 2")
    assert await posts.stored_moves(g.id) == [(0, "take 2")]
    row = await posts.stored_game(g.id)
    assert row is not None and row.version == g.row.version
    assert await posts.stored_game(12345) is None
    assert g.id not in dict(await posts.unposted())  # a board of its last version is recorded
    await svc.move(g.id, 11, "take 1")
    assert (g.id, 1) in await posts.unposted()  # the move is stored, its board not posted


async def test_post_claims_go_to_one_owner(svc: GameService) -> None:
    g = await _started(svc)
    posts = svc.posts
    assert not posts.shared and "sqlite" in posts.describe().lower()
    assert await posts.claim_post(g.id, 3, "board", "a", 60) == WON
    assert await posts.claim_post(g.id, 3, "board", "b", 60) == HELD
    await posts.release_post(g.id, 3, "board", "a")
    assert await posts.claim_post(g.id, 3, "board", "b", 60) == WON
    await posts.post_done(g.id, 3, "board", "b")
    assert await posts.claim_post(g.id, 3, "board", "a", 60) == DONE


async def test_publishing_and_withdrawing_a_lobby(svc: GameService) -> None:
    g = await _started(svc)
    assert svc.posts.publishing(g.id)  # the start is pending
    svc.take_batch(g)
    assert not svc.posts.publishing(g.id)
    async with g.publish_lock:
        assert svc.posts.publishing(g.id)
    lobby = await svc.create(
        kind="formnim", options=None, clock=None, guild_id=1, channel_id=101, user_id=20, name="Cy"
    )
    await svc.posts.withdraw_lobby(lobby.id)
    assert svc.held(lobby.id) is None
    row = await svc.posts.stored_game(lobby.id)
    assert row is not None and row.status == "ended"


async def test_start_in_opens_the_place_and_deals_once(svc: GameService) -> None:
    """Start's check, the surface's thread opening and the deal run under the start lock: a
    second Start waits, then is refused without opening a second thread."""
    g = await svc.create(
        kind="formnim", options=None, clock=None, guild_id=1, channel_id=100, user_id=10, name="Ann"
    )
    await svc.join(g.id, 11, "Bob")
    opened: list[int] = []
    gate = asyncio.Event()

    async def open_place() -> int:
        opened.append(len(opened))
        await gate.wait()  # the thread is being opened
        return 777

    first = asyncio.create_task(svc.start_in(g, 10, open_place))
    second = asyncio.create_task(svc.start_in(g, 10, open_place))
    for _ in range(5):
        await asyncio.sleep(0)
    assert opened == [0] and not second.done()  # the second waits for the lock
    gate.set()
    assert (await first).batch.row.thread_id == 777
    with pytest.raises(Refusal):
        await second
    assert opened == [0] and g.row.status == "active" and g.row.thread_id == 777
    with pytest.raises(Refusal):
        await svc.start_in(g, 11, open_place)
    assert opened == [0]
