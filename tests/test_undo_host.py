"""Taking a move back through the host (bot/host/undoing.py), on SQLite and PostgreSQL: the log
stays append-only (an ``undo <version>`` entry), the game goes back to the state before the move
and replays to it after a restart; each refusal says why and changes nothing; consent: every
other person agrees (AI seats by themselves), a refusal or a move made meanwhile cancels, and a
request survives a restart."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.host.live import LiveGame, Refusal
from bot.host.outbox import Outbox
from bot.host.service import GameService
from bot.host.store import Store
from bot.host.undoing import Ask, NeedsConsent
from engines import base
from engines.base import GameOver, IllegalAction
from tests.test_service import Clock


class Host:
    """A store on one backend and the services opened on it (a new one is a restart)."""

    def __init__(self, target: str | Path) -> None:
        self.target, self.clock = target, Clock()
        self.stores: list[Store] = []

    async def service(self) -> GameService:
        store = await Store.open(self.target, now=self.clock)
        self.stores.append(store)
        return GameService(store, now=self.clock, seed_source=lambda: 42, ai_level="easy")


@pytest.fixture
async def host(backend_target: str | Path) -> AsyncIterator[Host]:
    h = Host(backend_target)
    yield h
    for s in h.stores:
        await s.close()


async def _ra(svc: GameService, humans: int, ais: int = 0, *, rated: bool = False) -> int:
    g = await svc.create(
        kind="ra", options=None, clock=None, guild_id=1, channel_id=100, user_id=10, name="Asha", rated=rated
    )
    for i in range(1, humans):
        await svc.join(g.id, 10 + i, ["Bilal", "Chen"][i - 1])
    for _ in range(ais):
        await svc.add_ai(g.id, 10)
    await svc.start(g.id, 10)
    return g.id


async def _log(svc: GameService, gid: int) -> list[tuple[int, str, str]]:
    return [(m.seat, m.action, m.by) for m in await svc.store.moves(gid)]


def _print(game: LiveGame) -> str:
    return base.state_fingerprint(game.state)


async def test_own_move_is_taken_back_logged_and_replayed(host: Host) -> None:
    svc = await host.service()
    gid = await _ra(svc, 2)
    game = await svc.get(gid)
    first = game.awaited()[0]
    asha = 10 + first
    before = _print(game)
    await svc.move(gid, asha, "invoke")
    svc.take_batch(game)
    await svc.undo(gid, asha)
    assert _print(game) == before and game.awaited() == (first,)
    assert await _log(svc, gid) == [(first, "invoke", "player"), (first, "undo 1", "player")]
    batch = svc.take_batch(game)
    assert batch is not None
    (step,) = batch.steps
    assert [game.fmt(e.text) for e in step.events] == [f"{game.text_names[first]} took back 'invoke'."]
    history = await svc.history(gid)
    assert history[-1][2] == "undo 1" and "took back 'invoke'" in history[-1][4][0]
    # a restart replays the log, undo included, to the same state (checked against the snapshot)
    again = await (await host.service()).get(gid)
    assert again.row.attention is None and _print(again) == before and again.row.version == 2


async def test_refusals_say_why_and_change_nothing(host: Host) -> None:
    svc = await host.service()
    gid = await _ra(svc, 2)
    game = await svc.get(gid)
    first = game.awaited()[0]
    asha, bilal = 10 + first, 10 + (1 - first)

    async def refused(user: int, error: type[Exception], words: str) -> None:
        stored, state = await _log(svc, gid), _print(game)
        with pytest.raises(error) as err:
            await svc.undo(gid, user)
        assert words in str(err.value)
        assert await _log(svc, gid) == stored and _print(game) == state

    await refused(asha, Refusal, "You have no move to take back.")
    await svc.move(gid, asha, "invoke")
    await svc.move(gid, bilal, "bid " + base.get("ra").legal_actions(game.state, 1 - first)[0].split()[1])
    await refused(asha, NeedsConsent, "has played since your move")
    await refused(99, Refusal, "You are not playing")
    # the auction is resolved by Asha's answer: nothing of it may be taken back, even with consent
    await svc.move(gid, asha, "pass")
    ended = "'pass' cannot be taken back: it ended the auction and the lot was won."
    await refused(asha, IllegalAction, ended)
    with pytest.raises(IllegalAction, match="it ended the auction"):
        await svc.ask_undo(gid, bilal)
    # a draw shows the bag's next tile
    mover = 10 + game.awaited()[0]
    await svc.move(gid, mover, "draw")
    drew = "'draw' cannot be taken back: drawing showed the next tile of the bag."
    await refused(mover, IllegalAction, drew)
    await svc.end(gid, 10, can_manage=True)
    await refused(mover, GameOver, "is over")


async def _two_moves(svc: GameService, gid: int) -> tuple[LiveGame, int, list[int], str]:
    """Three people; the first invokes Ra and the next bids: the state before the invoke."""
    game = await svc.get(gid)
    first = game.awaited()[0]
    before = _print(game)
    await svc.move(gid, 10 + first, "invoke")
    nxt = game.awaited()[0]
    await svc.move(gid, 10 + nxt, base.get("ra").legal_actions(game.state, nxt)[0])
    others = [s for s in range(3) if s != first]
    return game, first, others, before


async def test_consent_everyone_agrees_or_one_refuses(host: Host) -> None:
    svc = await host.service()
    gid = await _ra(svc, 3)
    game, first, others, before = await _two_moves(svc, gid)
    ask = await svc.ask_undo(gid, 10 + first)
    assert isinstance(ask, Ask) and ask.target == 1 and ask.voters == tuple(others)
    assert ask.what == "'invoke' and the move after it"
    answer, _ = await svc.answer_undo(gid, 10 + others[0], ask.version, first, 1, agree=True)
    assert answer.agreed == (others[0],) and not answer.done
    with pytest.raises(Refusal, match="Only the other players"):
        await svc.answer_undo(gid, 10 + first, ask.version, first, 1, agree=True)
    answer, _ = await svc.answer_undo(gid, 10 + others[1], ask.version, first, 1, agree=False)
    assert answer.refused and not answer.done
    assert answer.what == "'invoke' and the move after it" and not game.notes
    with pytest.raises(Refusal, match="no longer open"):
        await svc.answer_undo(gid, 10 + others[0], ask.version, first, 1, agree=True)
    assert len(await _log(svc, gid)) == 2
    # asked again: both agree, and the game is back before the invoke
    ask = await svc.ask_undo(gid, 10 + first)
    assert isinstance(ask, Ask)
    for voter in others:
        answer, _ = await svc.answer_undo(gid, 10 + voter, ask.version, first, 1, agree=True)
    assert answer.done and _print(game) == before
    assert (await _log(svc, gid))[-1] == (first, "undo 1", "player")
    batch = svc.take_batch(game)
    assert batch is not None
    assert game.fmt(batch.steps[-1].events[0].text).endswith(
        "took back 'invoke' and the move after it, as everyone agreed."
    )
    again = await (await host.service()).get(gid)
    assert again.row.attention is None and _print(again) == before


async def test_a_move_meanwhile_cancels_and_a_request_survives_a_restart(host: Host) -> None:
    svc = await host.service()
    gid = await _ra(svc, 3)
    game, first, others, before = await _two_moves(svc, gid)
    ask = await svc.ask_undo(gid, 10 + first)
    assert isinstance(ask, Ask)
    # restart between the request and the answers: both still count
    svc2 = await host.service()
    await svc2.answer_undo(gid, 10 + others[0], ask.version, first, 1, agree=True)
    svc3 = await host.service()
    answer, box = await svc3.answer_undo(gid, 10 + others[1], ask.version, first, 1, agree=True)
    game3 = await svc3.get(box.game_id)
    assert answer.done and _print(game3) == before
    # a new request, then a move: the request is over
    await svc3.move(gid, 10 + first, "invoke")
    nxt = game3.awaited()[0]
    await svc3.move(gid, 10 + nxt, base.get("ra").legal_actions(game3.state, nxt)[0])
    ask = await svc3.ask_undo(gid, 10 + first)
    assert isinstance(ask, Ask)
    mover = game3.awaited()[0]
    await svc3.move(gid, 10 + mover, base.get("ra").legal_actions(game3.state, mover)[-1])
    stored = await _log(svc3, gid)
    with pytest.raises(Refusal, match="A move was made since this request"):
        await svc3.answer_undo(gid, 10 + others[0], ask.version, first, ask.target, agree=True)
    assert await _log(svc3, gid) == stored


async def test_ai_seats_agree_by_themselves(host: Host) -> None:
    svc = await host.service()
    gid = await _ra(svc, 1, ais=1)
    game = await svc.get(gid)
    while game.awaited()[0] != 0:  # the AI opens when it holds the highest sun
        await svc.move(gid, 10, base.get("ra").legal_actions(game.state, 0)[0])
    before, version = _print(game), game.row.version
    await svc.move(gid, 10, "invoke")  # the AI answers the auction at once
    assert game.awaited() == (0,) and game.row.version == version + 2
    with pytest.raises(NeedsConsent):
        await svc.undo(gid, 10)
    done = await svc.ask_undo(gid, 10)
    assert isinstance(done, Outbox) and _print(game) == before
    assert [st.action for st in done.batch.steps] == [f"undo {version + 1}"]
    assert (await _log(svc, gid))[-1] == (0, f"undo {version + 1}", "player")


async def test_in_a_rated_game_the_ai_seats_agree_to_nothing(host: Host) -> None:
    """Against the AI in a rated game a player could take back their move and the AI's answer
    again and again to learn how the AI plays its hidden tiles: there, only the undo of one's own
    last move stands, and asking the AI seats is refused and changes nothing."""
    svc = await host.service()
    gid = await _ra(svc, 1, ais=1, rated=True)
    game = await svc.get(gid)
    while game.awaited()[0] != 0:
        await svc.move(gid, 10, base.get("ra").legal_actions(game.state, 0)[0])
    await svc.move(gid, 10, "invoke")  # the AI answers the auction at once
    before, log = _print(game), await _log(svc, gid)
    with pytest.raises(Refusal, match="is rated: the AI seats do not agree"):
        await svc.ask_undo(gid, 10)
    assert _print(game) == before and await _log(svc, gid) == log


async def test_another_persons_move_by_its_number(host: Host) -> None:
    """Bilal asks to take back Asha's move (its number): Asha and Chen must agree; a number not in
    play is refused."""
    svc = await host.service()
    gid = await _ra(svc, 3)
    game, first, others, before = await _two_moves(svc, gid)
    with pytest.raises(IllegalAction, match="There is no move 9 in play"):
        await svc.ask_undo(gid, 10 + others[0], 9)
    ask = await svc.ask_undo(gid, 10 + others[1], 1)
    assert isinstance(ask, Ask) and ask.voters == tuple(sorted((first, others[0])))
    assert ask.what == "{s%d}'s 'invoke' and the move after it" % first
    for voter in ask.voters:
        answer, _ = await svc.answer_undo(gid, 10 + voter, ask.version, others[1], 1, agree=True)
    assert answer.done and _print(game) == before
    assert (await _log(svc, gid))[-1] == (others[1], "undo 1", "player")


async def test_a_move_the_turn_clock_played_needs_consent(host: Host) -> None:
    svc = await host.service()
    g = await svc.create(
        kind="ra", options=None, clock="10m", guild_id=1, channel_id=100, user_id=10, name="Asha"
    )
    await svc.join(g.id, 11, "Bilal")
    await svc.start(g.id, 10)
    game = await svc.get(g.id)
    seat = game.awaited()[0]
    host.clock.t += 601
    assert (await svc.expire(g.id)) is not None
    moves = await _log(svc, g.id)
    assert moves and moves[-1][0] == seat and moves[-1][2] == "clock"
    with pytest.raises(NeedsConsent, match="played for you when your time ran out"):
        await svc.undo(g.id, 10 + seat)
    assert await _log(svc, g.id) == moves


def _suggested(notes: list[str]) -> tuple[str, str]:
    """The guide's newest step words: ("step N", the suggested move)."""
    words = [n for n in notes if n.startswith("📘 **Guide, step")][-1]
    return words.split(":", 1)[0], words.rsplit("Suggested: `", 1)[1].split("`", 1)[0]


async def test_a_guided_game_follows_a_move_taken_back(host: Host, caplog: pytest.LogCaptureFixture) -> None:
    """The guide's step and script follow the moves in play: after the learner takes back their
    first move, the guide is at step 1 again, and playing its suggestion then is on the script
    (no 'rather than', no failure logged comparing the undo entry as a move)."""
    svc = await host.service()
    box = await svc.learning.learn(
        "pralaya", guild_id=1, channel_id=100, thread_id=None, user_id=10, name="Ann"
    )
    g = await svc.get(box.game_id)
    first = _suggested(list(box.batch.notes))
    assert first[0].endswith("step 1")
    box = await svc.move(g.id, 10, first[1])
    assert _suggested(list(box.batch.notes))[0].endswith("step 2")
    box = await svc.undo(g.id, 10)
    assert _suggested(list(box.batch.notes)) == first and g.awaited() == (0,)
    box = await svc.move(g.id, 10, first[1])
    assert not [n for n in box.batch.notes if "rather than" in n], box.batch.notes
    assert _suggested(list(box.batch.notes))[0].endswith("step 2")
    assert "the guide could not" not in caplog.text


async def test_undo_of_a_named_move_takes_back_only_that_one(host: Host) -> None:
    """``/undo move:n`` without ``ask``: n must be the caller's own last move; an earlier one
    needs the others' consent and a number not in play is refused, and nothing changes."""
    svc = await host.service()
    g = await svc.create(
        kind="pralaya", options=None, clock=None, guild_id=1, channel_id=100, user_id=10, name="Asha"
    )
    await svc.join(g.id, 11, "Bilal")
    await svc.start(g.id, 10)
    game = await svc.get(g.id)
    for _ in range(20):  # until one seat made two takes in a row (round 1's second seat has 2 Vitality)
        log = await _log(svc, g.id)
        if len(log) >= 2 and log[-1][0] == log[-2][0] and all(a.startswith("take ") for _, a, _ in log[-2:]):
            break
        seat = game.awaited()[0]
        legal = game.engine.legal_actions(game.state, seat)
        action = next((a for a in legal if a.startswith("take ")), "pass" if "pass" in legal else legal[0])
        user = game.seats[seat].user_id
        assert user is not None
        await svc.move(g.id, user, action)
    before = await _log(svc, g.id)
    last, mover = len(before), game.seats[before[-1][0]].user_id
    assert mover is not None
    with pytest.raises(NeedsConsent, match=f"Move {last - 1} is not your last move"):
        await svc.undo(g.id, mover, target=last - 1)
    with pytest.raises(Refusal, match="no move 99 in play"):
        await svc.undo(g.id, mover, target=99)
    assert await _log(svc, g.id) == before
    await svc.undo(g.id, mover, target=last)
    assert await _log(svc, g.id) == [*before, (before[-1][0], f"undo {last}", "player")]
