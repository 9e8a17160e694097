"""Hints and reviews through the fake Discord (issue 27, items 2 and 3): the Hint button of a
player's own controls (My hand, and beside the moves on the board) answers privately with the
hard AI's move, once a turn (also across a restart), and tells a player whose turn it is not; a
game created with ``hints:off`` has no Hint button; a finished game's final sheet has a Review
button, ``/review`` answers a player privately with their costliest moves (the second time from
the store), and refuses anyone who did not play."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from bot.host import coaching
from tests.e2e.bazaar_harness import Table, make_table
from tests.fakediscord import FakeDiscord, Message, RunBot
from tests.render_stub import use_stub

GAMES = {"kathai", "phraya", "pralaya", "ra"}


async def _hand_of_the_awaited(table: Table, gid: int, place: object) -> tuple[str, int, Message]:
    """The awaited person's name, the game's version and their My hand answer."""
    game = await table.bot.service.get(gid)
    seat = next(s for s in game.awaited() if not game.ai_plays(s))
    user = table.user_of(game, seat)
    name = next(n for n, u in table.players.items() if u is user)
    panel = await table.open_hand(user, place, gid)  # type: ignore[arg-type]
    return name, game.row.version, panel


async def test_the_hint_button_answers_privately_once_a_turn(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_stub(monkeypatch, games=GAMES)
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 0, game="pralaya", rated=False)
    name, version, panel = await _hand_of_the_awaited(table, gid, thread)
    hint_id = f"bzhint:{gid}:{version}"
    assert hint_id in panel.custom_ids, panel.custom_ids
    board = table.last_turn(thread)
    assert hint_id in board.custom_ids, board.custom_ids  # beside the moves the board offers, too
    user = table.players[name]
    other = table.players["bob" if name == "ann" else "ann"]
    theirs = await fake.click(other, board, hint_id)
    await table.settle()
    assert theirs.followups[-1].ephemeral and theirs.followups[-1].visible_to == other.id
    assert "It is not your turn" in theirs.followups[-1].text, theirs.followups[-1].text
    game = await table.bot.service.get(gid)
    legal = game.engine.legal_actions(game.state, game.awaited()[0])

    h = await fake.click(user, panel, hint_id)
    await table.settle()
    answer = h.followups[-1]
    assert answer.ephemeral and answer.visible_to == user.id
    assert answer.text.startswith(f"💡 **Hint** (Pralaya #{gid}, move {version + 1}): `"), answer.text
    suggested = re.findall(r"`([^`]+)`", answer.text)[0]
    assert suggested in legal, (suggested, legal)
    assert "The hard AI expects" in answer.text or "only move" in answer.text, answer.text
    assert (await table.stored(gid)).version == version  # a hint plays nothing

    again = await fake.click(user, panel, hint_id)
    await table.settle()
    assert again.followups[-1].ephemeral
    assert "You have had your hint for this turn" in again.followups[-1].text, again.followups[-1].text

    _, _, panel = await _hand_of_the_awaited(table, gid, thread)
    assert hint_id not in panel.custom_ids, panel.custom_ids  # taken: My hand leaves it out

    await table.running.stop()  # the hint taken is stored: a restart does not give another
    await table.boot(sync=False)
    _, _, panel = await _hand_of_the_awaited(table, gid, thread)
    assert hint_id not in panel.custom_ids, panel.custom_ids
    after = await fake.click_raw(user, panel, hint_id)  # an old button left somewhere answers why
    await table.settle()
    assert "You have had your hint for this turn" in after.followups[-1].text, after.followups[-1].text

    for _ in range(20):  # the rest of this person's turn: no other hint; the next person's: one
        await table.play_one(gid, thread, "move")
        now, version, panel = await _hand_of_the_awaited(table, gid, thread)
        board, hint_now = table.last_turn(thread), f"bzhint:{gid}:{version}"
        assert (hint_now in panel.custom_ids) == (now != name), (now, panel.custom_ids)
        assert (hint_now in board.custom_ids) == (now != name), (now, board.custom_ids)
        nxt = await fake.click_raw(table.players[now], panel, hint_now)
        await table.settle()
        if now == name:
            assert "You have had your hint for this turn" in nxt.followups[-1].text, nxt.followups[-1].text
            continue
        assert nxt.followups[-1].text.startswith("💡 **Hint**"), nxt.followups[-1].text
        break
    else:
        raise AssertionError("the turn never passed to the other person")


async def test_a_game_created_with_hints_off_has_no_hint_button(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_stub(monkeypatch, games=GAMES)
    table = make_table(fake_discord, run_bot, tmp_path)
    await table.boot()
    both = await fake_discord.slash(
        table.players["ann"],
        table.channel,
        "game new",
        options={"game": "pralaya", "hints": "off", "form": True},
    )
    assert (
        both.ephemeral
        and "cannot turn hints off yet" in both.text
        and not await table.bot.service.store.games()
    )
    gid, thread = await table.start_game("ann", ("bob",), 0, game="pralaya", hints="off", rated=False)
    assert not await table.bot.service.store.hints_on(gid)
    for _ in range(2):
        _, version, panel = await _hand_of_the_awaited(table, gid, thread)
        assert panel.custom_ids and not any(c.startswith("bzhint:") for c in panel.custom_ids), (
            panel.custom_ids
        )
        board = table.last_turn(thread).custom_ids
        assert board and not any(c.startswith("bzhint:") for c in board), board
        await table.play_one(gid, thread, "move")


async def test_review_of_a_finished_game_stored_and_refused_to_others(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_stub(monkeypatch, games=GAMES)
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 0, game="pralaya", rated=False)
    early = await fake.slash(table.players["ann"], thread, "review", game=gid)
    assert "is not finished" in early.text, early.text
    for _ in range(300):
        if (await table.stored(gid)).status != "active":
            break
        await table.play_one(gid, thread, "move")
    assert (await table.stored(gid)).status == "finished"
    await table.settle()
    final = next(m for m in reversed(fake.messages(thread)) if f"bzrev:{gid}" in m.custom_ids)

    ann = table.players["ann"]
    start = time.perf_counter()
    first = await fake.click(ann, final, f"bzrev:{gid}", timeout=120)  # in the lane, after the recap
    await table.settle()
    took = time.perf_counter() - start
    answer = first.followups[-1]
    assert answer.ephemeral and answer.visible_to == ann.id
    assert answer.text.startswith(f"🔎 **Review of Pralaya #{gid}**"), answer.text
    moments = re.findall(r"\*\*Move (\d+)\*\*: you played `([^`]+)`", answer.text)
    seat = next(s.seat for s in (await table.bot.service.get(gid)).seats if s.user_id == ann.id)
    assert await table.bot.service.store.review(gid, seat) is not None
    if moments:  # each moment is a move of ann's, shown with the board as she saw it
        assert len(moments) <= 3 and len(answer.images) == len(moments)
        mine = {(m.version, m.action) for m in await table.bot.service.store.moves(gid) if m.seat == seat}
        assert {(int(v), a) for v, a in moments} <= mine, (moments, mine)
    else:
        assert "none of your moves lost" in answer.text

    def no_recompute(*args: object) -> list[coaching.Moment]:
        raise AssertionError("the review was computed again")

    monkeypatch.setattr(coaching, "review_job", no_recompute)
    start = time.perf_counter()
    second = await fake.slash(ann, thread, "review", game=gid)
    again = time.perf_counter() - start
    assert second.ephemeral and second.text == answer.text
    print(f"review of Pralaya #{gid}: first {took:.2f} s, from the store {again:.2f} s")

    cy = await fake.slash(table.players["cy"], table.channel, "review", game=gid)
    assert cy.ephemeral and cy.text == f"Only the players of Pralaya #{gid} can review it.", cy.text
