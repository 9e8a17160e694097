"""The outbox (:mod:`bot.host.outbox`): a publish takes what a game has pending as one frozen
outbox under the game's publish lock (``service.posts.sending``) and reports back once
(``service.posts.delivered``); only the host writes the game's board, DMs and last view, and
puts back a batch that was not shown."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any

import pytest

from bot.host import outbox
from bot.host.live import LiveGame, Posted
from bot.host.outbox import Delivered
from tests.test_service import ToyHost, _started, host_fixture, toy

__all__ = ["host_fixture", "toy"]  # the fixtures these tests use


def _fields(g: LiveGame) -> tuple[Posted | None, dict[int, Posted], Mapping[str, Any] | None]:
    """What the host wrote of a publish on the game: its board, DMs and last view shown."""
    return g.board, g.dms, g.shown


def _posted(message_id: int, seat: int) -> Posted:
    return Posted(100, message_id, frozenset((seat,)), [f"line {message_id}"])


async def test_a_move_gives_one_frozen_outbox_taken_under_the_publish_lock(host: ToyHost) -> None:
    gid = await _started(host)
    await host.move(gid, 10, "take 2")
    g = await host.get(gid)
    async with host.posts.sending(g) as box:
        assert box is not None
        assert g.publish_lock.locked() and host.posts.publishing(gid)
        assert [s.action for s in box.batch.steps] == [None, "take 2"] and box.batch.started
        people, on_board, private = box.prompts
        assert [s.seat for s in people] == [1] and box.plan is not None
        # the toy's prompt is not public: offered privately (DM, My hand), none under the board
        assert on_board is None and set(private) == {1} and "take 1" in private[1].actions()
        with pytest.raises(TypeError):
            private[0] = private[1]  # type: ignore[index]
        assert box.board is None and dict(box.dms) == {} and box.previous is None
        assert not host.has_pending(g)  # the queue is taken whole
        with pytest.raises(dataclasses.FrozenInstanceError):
            box.board = _posted(1, 1)  # type: ignore[misc]
        host.posts.delivered(box, Delivered(None, {}, None))
    assert not g.publish_lock.locked()
    async with host.posts.sending(g) as again:
        assert again is None  # nothing pending


async def test_what_was_delivered_is_what_the_next_outbox_replaces(host: ToyHost) -> None:
    gid = await _started(host)
    g = await host.get(gid)
    board, dm = _posted(501, 0), _posted(502, 0)
    async with host.posts.sending(g) as box:
        assert box is not None
        host.posts.delivered(box, Delivered(board, {0: dm}, {"pile": 9}))
    assert _fields(g) == (board, {0: dm}, {"pile": 9})
    await host.move(gid, 10, "take 1")
    async with host.posts.sending(g) as box:
        assert box is not None
        assert box.board is board and dict(box.dms) == {0: dm} and box.previous == {"pile": 9}
        with pytest.raises(TypeError):
            box.dms[1] = dm  # type: ignore[index]
        host.posts.delivered(box, Delivered(None, {}, {"pile": 8}))
    assert _fields(g) == (None, {}, {"pile": 8})


async def test_a_batch_not_shown_is_put_back_before_newer_moves(host: ToyHost) -> None:
    gid = await _started(host)
    g = await host.get(gid)
    async with host.posts.sending(g) as box:
        assert box is not None
        host.posts.delivered(box, Delivered(None, {}, None))
    await host.move(gid, 10, "take 1")
    async with host.posts.sending(g) as box:
        assert box is not None
        host.posts.delivered(box, Delivered(None, {}, None, again=True))
    assert host.has_pending(g)
    await host.move(gid, 11, "take 2")
    async with host.posts.sending(g) as box:
        assert box is not None
        assert [s.action for s in box.batch.steps] == ["take 1", "take 2"]
        assert box.batch.version == 2


async def test_a_finished_game_has_no_plan_and_delivering_needs_sending(host: ToyHost) -> None:
    gid = await _started(host, options="pile=3")
    await host.move(gid, 10, "take 3")
    g = await host.get(gid)
    assert g.row.status == "finished"
    async with host.posts.sending(g) as box:
        assert box is not None and box.plan is None and box.batch.closed
        assert box.prompts == ([], None, {})
        held = box
    with pytest.raises(RuntimeError, match="outside its Posts.sending"):
        host.posts.delivered(held, Delivered(None, {}, None))


async def test_the_host_decides_the_dms_due_and_what_each_replaces(host: ToyHost) -> None:
    gid = await _started(host)
    g = await host.get(gid)
    async with host.posts.sending(g) as box:
        assert box is not None
        # the start: everyone's view; the seat awaited gets its private prompt's controls
        by_seat = {letter.seat: letter for letter in box.letters}
        assert set(by_seat) == {0, 1}
        assert by_seat[0].prompt is not None and by_seat[0].keep and by_seat[0].user_id == 10
        assert by_seat[1].prompt is None and not by_seat[1].keep and by_seat[1].replaces is None
        host.posts.delivered(box, Delivered(None, {0: _posted(700, 0)}, None))
    await host.move(gid, 10, "take 1")
    async with host.posts.sending(g) as box:
        assert box is not None
        by_seat = {letter.seat: letter for letter in box.letters}
        mover = by_seat[0]  # its own move: its DM of the turn is edited, with its private event
        assert mover.replaces == _posted(700, 0) and not mover.keep and mover.prompt is None
        assert len(mover.lines) == 1 and mover.lines[0].startswith("your secret is now")
        assert by_seat[1].prompt is not None and by_seat[1].replaces is None  # now awaited
        assert not box.kept
        host.posts.delivered(box, Delivered(None, {}, None))


async def test_the_end_writes_to_those_not_told_and_open_to_dms(host: ToyHost) -> None:
    gid = await _started(host, humans=3, options="pile=4")
    g = await host.get(gid)
    async with host.posts.sending(g) as box:
        assert box is not None and len(box.letters) == 3
        host.posts.delivered(box, Delivered(None, {}, None))
    await host.note_dm(gid, 2, closed=True)
    await host.move(gid, 10, "take 1")
    await host.move(gid, 11, "take 3")
    assert g.row.status == "finished"
    # seat 0's last DM went out before a restart: it is stored for this version
    await host.posts.record_posted(gid, kind="dm", channel_id=5, message_id=6, version=g.row.version, seat=0)
    async with host.posts.sending(g) as box:
        assert box is not None
        assert [letter.seat for letter in box.letters] == [1]  # seat 2's DMs are closed
        assert box.letters[0].prompt is None and not box.letters[0].keep
        host.posts.delivered(box, Delivered(None, {}, None))


async def test_what_the_channel_gets(host: ToyHost) -> None:
    lobby = await host.create(
        kind="toynim", options=None, clock=None, guild_id=1, channel_id=100, user_id=10, name="Ann"
    )
    async with host.posts.sending(lobby) as box:
        assert box is None  # a lobby has nothing pending: its message is the lobby's own
    gid = await _started(host, options="pile=3")
    g = await host.get(gid)
    async with host.posts.sending(g) as box:
        assert box is not None and box.public == outbox.TURN and box.dm_due
        host.posts.delivered(box, Delivered(None, {}, None))
    await host.move(gid, 10, "take 3")
    async with host.posts.sending(g) as box:
        assert box is not None and box.public == outbox.FINAL and box.dm_due
        host.posts.delivered(box, Delivered(None, {}, None))
    other = await _started(host)
    await host.end(other, 10, can_manage=False)
    ended = await host.get(other)
    async with host.posts.sending(ended) as box:
        assert box is not None and box.public == outbox.ENDED and not box.dm_due and not box.letters


async def test_an_engine_failing_leaves_the_batch_queued(
    host: ToyHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid = await _started(host)
    g = await host.get(gid)

    def broken(state: object, seat: int) -> None:
        raise RuntimeError("the engine broke")

    monkeypatch.setattr(g.engine, "prompt", broken)
    sealed = await host.move(gid, 10, "take 2")  # the move stands; who must act is not known
    assert sealed.plan is None and sealed.active
    async with host.posts.sending(g) as box:
        assert box is None and host.has_pending(g)  # nothing taken, nothing lost
    monkeypatch.undo()
    async with host.posts.sending(g) as box:
        assert box is not None and [s.action for s in box.batch.steps] == [None, "take 2"]
        assert box.plan is not None and [s.seat for s in box.plan[0]] == [1]  # asked again


async def test_each_operation_returns_its_own_sealed_outbox_and_a_publish_merges_them(host: ToyHost) -> None:
    gid = await _started(host)
    g = await host.get(gid)
    first = await host.move(gid, 10, "take 2")
    second = await host.move(gid, 11, "take 1")
    # each operation's outbox holds what it did (the start's outbox is queued before them)
    assert [s.action for s in first.batch.steps] == ["take 2"] and first.batch.version == 1
    assert [s.action for s in second.batch.steps] == ["take 1"] and second.batch.version == 2
    assert first.played(0) == "take 2" and first.played(1) is None and second.played(1) == "take 1"
    assert [s.seat for s in first.prompts[0]] == [1] and [s.seat for s in second.prompts[0]] == [0]
    *lobby, start = list(g.outboxes)[:-2]  # the lobby's (a join refreshes its message), the start's
    assert all(b.batch.relist for b in lobby) and start.batch.started
    assert list(g.outboxes)[-3:] == [start, first, second] and not g.pending  # sealed, in order
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.plan = None  # type: ignore[misc]
    async with host.posts.sending(g) as box:  # one post for both, with the newest plan
        assert box is not None and [s.action for s in box.batch.steps] == [None, "take 2", "take 1"]
        assert box.batch.version == 2 and box.batch.started and box.plan == second.plan
        host.posts.delivered(box, Delivered(None, {}, None))
    assert not host.has_pending(g)


async def test_a_publish_leaves_an_operation_running_its_own_steps(host: ToyHost) -> None:
    """A publish that runs while an operation holds the game's lock takes only what is sealed:
    the steps the operation has queued so far go into its own outbox when it ends."""
    gid = await _started(host)
    g = await host.get(gid)
    async with host.posts.sending(g) as start:  # the start, sealed by its operation
        assert start is not None and start.batch.started
        host.posts.delivered(start, Delivered(None, {}, None))
    async with g.lock:  # an operation midway: one step committed, not sealed yet
        g.pending.append(dataclasses.replace(start.batch.steps[0], version=1, action="take 2", by="player"))
        assert outbox.take(g) is None  # nothing sealed: nothing taken from under it
        mine = outbox.sealed(g)
    assert [s.action for s in mine.batch.steps] == ["take 2"] and list(g.outboxes) == [mine]


async def test_an_operation_that_queued_nothing_returns_an_empty_outbox_not_queued(host: ToyHost) -> None:
    gid = await _started(host)
    g = await host.get(gid)
    async with host.posts.sending(g) as box:
        assert box is not None
        host.posts.delivered(box, Delivered(None, {}, None))
    async with g.lock:
        empty = outbox.sealed(g)
    assert empty.batch.steps == () and not empty.batch.notes and empty.game_id == gid
    assert not g.outboxes and not host.has_pending(g)


async def test_a_lobby_action_returns_the_outbox_that_refreshes_the_lobby(host: ToyHost) -> None:
    g = await host.create(
        kind="toynim", options=None, clock=None, guild_id=1, channel_id=100, user_id=10, name="Ann"
    )
    joined = await host.join(g.id, 11, "Bob")
    added = await host.add_ai(g.id, 10)
    assert (
        joined.batch.relist
        and added.batch.relist
        and [s.name for s in added.batch.seats][:2] == ["Ann", "Bob"]
    )
    async with host.posts.sending(g) as box:  # one refresh for both: nothing posted, the lobby edited
        assert box is not None and box.batch.relist and box.public is None and not box.dm_due
        assert len(box.batch.seats) == 3
        host.posts.delivered(box, Delivered(None, {}, None))
    left = await host.leave(g.id, 11)
    assert left.batch.relist and [s.name for s in left.batch.seats] == ["Ann", "AI 1"]
    assert host.has_pending(g)  # held until the lobby shows it


async def test_the_outbox_carries_its_messages_words(host: ToyHost) -> None:
    """The host words what the channel and each DM get (:mod:`bot.host.wording`): the turn's
    head, lines, headline and who must act (mentioned, with the turn clock), the footer; a DM
    that replaces the one of its turn goes on with that one's lines; the final sheet ranks."""
    gid = await _started(host, clock="10m", options="pile=4")
    g = await host.get(gid)
    async with host.posts.sending(g) as box:
        assert box is not None and box.words is not None and box.public == outbox.TURN
        deadline = int(g.row.deadline or 0)
        assert deadline and box.words.head == (f"**Toy Nim #{gid}** · move 0",)
        assert box.words.tail == ("**pile 4**",)
        assert box.words.call == f"➡️ <@10>: your move (turn clock: until <t:{deadline}:R>)"
        assert box.words.footer == f"Toynim — move 0 — turn clock ends <t:{deadline}:R>"
        assert box.words is box.words  # worded once per outbox
        host.posts.delivered(box, Delivered(None, {0: _posted(700, 0)}, None))
    await host.move(gid, 10, "take 1")
    async with host.posts.sending(g) as box:
        assert box is not None and box.words is not None
        assert box.words.head == (f"**Toy Nim #{gid}** · move 1",) and "<@11>" in box.words.call
        mover = next(letter for letter in box.letters if letter.seat == 0)
        assert mover.shown_lines == ["line 700", *mover.lines]
        assert mover.words.body == tuple(f"• {line}" for line in mover.shown_lines)
        assert mover.words.head[0].endswith("(move 1): ") and mover.words.tail == ()
        assert mover.words.linked("L").head[0].endswith("(move 1): L")
        host.posts.delivered(box, Delivered(None, {}, None))
    await host.move(gid, 11, "take 3")
    async with host.posts.sending(g) as box:
        assert box is not None and box.words is not None and box.public == outbox.FINAL
        assert box.words.head == (f"🏁 **Toy Nim #{gid}** is over.",) and box.words.call == ""
        assert box.words.tail[-1].startswith("Winner: **") and box.words.footer.endswith("— final")
        assert all(letter.words.head[0].endswith("Final sheet: ") for letter in box.letters)
        host.posts.delivered(box, Delivered(None, {}, None))


async def _shown(host: ToyHost, box: outbox.Outbox) -> None:
    """Deliver ``box`` as the bot does: each DM's digest noted, then reported."""
    for letter in box.letters:
        await host.note_dm(box.game_id, letter.seat, dm_hash=letter.digest)
    host.posts.delivered(box, Delivered(None, {}, None))


async def test_a_dm_sent_while_newer_outboxes_wait_is_not_sent_again(host: ToyHost) -> None:
    """An outbox sealed while an earlier publish was sending DMs still knows the DMs it sent
    (the seats' DM records are read when a publish takes the queue)."""
    gid = await _started(host, humans=3)
    g = await host.get(gid)
    async with host.posts.sending(g) as box:  # the start: everyone's DM
        assert box is not None
        await _shown(host, box)
    await host.move(gid, 10, "take 1")  # Ann's secret changes: her DM is due
    async with host.posts.sending(g) as box:
        assert box is not None and 0 in {letter.seat for letter in box.letters}
        await host.move(gid, 11, "take 1")  # Bob moves while Ann's DM goes out (a burst)
        await _shown(host, box)
    async with host.posts.sending(g) as box:
        assert box is not None and 0 not in {letter.seat for letter in box.letters}
        host.posts.delivered(box, Delivered(None, {}, None))


async def test_a_move_keeps_its_own_steps_though_a_publish_took_them_while_the_ai_thought(
    host: ToyHost,
) -> None:
    gid = await _started(host, humans=1, ais=1)
    g = await host.get(gid)
    outbox.drain(g)
    gate, entered = asyncio.Event(), asyncio.Event()

    async def run(fn: object, name: str, view: object, legal: list[str], *rest: object) -> Any:
        entered.set()
        await gate.wait()
        return SimpleNamespace(action=legal[0], capped=False, iterations=1)

    host.core.workers = SimpleNamespace(run=run)  # type: ignore[assignment]
    task = asyncio.create_task(host.move(gid, 10, "take 1"))
    await entered.wait()
    assert not g.lock.locked()  # the AI thinks with the lock free
    taken = outbox.take(g)  # a publish meanwhile (a retry, another caller's)
    assert taken is not None and [s.action for s in taken.batch.steps] == ["take 1"]
    gate.set()
    box = await task
    assert [s.action for s in box.batch.steps] == ["take 1"]  # the AI's answer, shown by this one
    assert box.played(0) == "take 1" and [s.action for s in box.steps] == ["take 1", "take 1"]
    assert [s.seat for s in box.steps] == [0, 1]  # the move, then the AI's answer


async def test_a_publish_shows_the_game_as_read_back_not_an_older_sealed_state(host: ToyHost) -> None:
    """A game read back after another process played (a shared database) is shown as it
    stands: the queued outbox's batch takes the game's newer row and state, and who must act
    is asked again (the post claims then find that version posted elsewhere)."""
    gid = await _started(host)
    g = await host.get(gid)
    sealed = await host.move(gid, 10, "take 1")
    # what another process stored, read back: one more move, no step of this process's
    state, _ = g.engine.apply(g.state, 1, "take 1")
    g.state, g.row = state, dataclasses.replace(g.row, version=g.row.version + 1)
    async with host.posts.sending(g) as box:
        assert box is not None and box.batch.version == sealed.batch.version + 1
        assert box.batch.state is state and [s.seat for s in box.prompts[0]] == [0]
        host.posts.delivered(box, Delivered(None, {}, None))
