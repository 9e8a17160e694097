"""``/undo`` through the fake Discord: a Pralaya take taken back at once (the log gains an undo
entry, the board says who took back what, the state is the one before); in Ra, refused once
another person has played, then asked of them with Agree/Refuse buttons: a refusal ends the
request, an agreement given after a restart of the bot takes the moves back; refused after a
draw, saying what the draw showed."""

from __future__ import annotations

from pathlib import Path

from bot.surface import undoing
from engines import base
from tests.e2e.bazaar_harness import make_table
from tests.fakediscord import FakeDiscord, RunBot


async def test_a_pralaya_take_is_taken_back(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, place = await table.start_game("ann", (), 1, game="pralaya", options="first_seat=0")
    game = await table.bot.service.get(gid)
    before = base.state_fingerprint(game.state)
    take = next(a for a in game.engine.legal_actions(game.state, 0) if a.startswith("take "))
    h = await fake.slash(table.players["ann"], place, "move", action=take)
    await table.settle()
    assert h.text.startswith("✅ Played"), h.text
    assert game.awaited() == (0,)  # still Ann's turn: buying comes next, nothing was drawn
    h = await fake.slash(table.players["ann"], place, "undo")
    await table.settle()
    assert h.ephemeral and h.text == f"↩️ ann took back '{take}'.", h.text
    assert await table.db_moves(gid) == [(0, take, "player"), (0, "undo 1", "player")]
    assert base.state_fingerprint(game.state) == before
    board = table.last_turn(place)  # the turn's board, edited in place: it says what was taken back
    assert f"ann took back '{take}'" in board.text, board.text
    # nothing left to take back
    h = await fake.slash(table.players["ann"], place, "undo")
    await table.settle()
    assert h.text == "You have no move to take back.", h.text
    h = await fake.slash(table.players["ann"], place, "undo", ask=True, move=0)
    await table.settle()
    assert h.text == "`move` must be between 1 and 1000000000.", h.text
    h = await fake.slash(table.players["ann"], place, "undo", ask=True, move=7)
    await table.settle()
    assert h.text.startswith("There is no move 7 in play to take back"), h.text
    h = await fake.slash(table.players["bob"], place, "undo")
    await table.settle()
    assert h.text.startswith("You are not playing"), h.text
    # the same take again: its answer carries an Undo button, and My hand too; one click undoes
    h = await fake.slash(table.players["ann"], place, "move", action=take)
    await table.settle()
    assert h.messages[-1].custom_ids == [undoing.undo_id(gid, 3)], h.messages[-1].custom_ids
    panel = await table.open_hand(table.players["ann"], place, gid)
    assert undoing.undo_id(gid, 3) in panel.custom_ids
    click = await fake.click(table.players["ann"], h.messages[-1], undoing.undo_id(gid, 3))
    await table.settle()
    assert click.messages[-1].content == f"↩️ ann took back '{take}'."
    assert (await table.db_moves(gid))[2:] == [(0, take, "player"), (0, "undo 3", "player")]  # no others
    assert base.state_fingerprint(game.state) == before
    # the button again, now out of date: refused, nothing changes
    stale = await fake.click(table.players["ann"], panel, undoing.undo_id(gid, 3))
    await table.settle()
    assert "out of date" in stale.messages[-1].content and len(await table.db_moves(gid)) == 4


async def test_ra_consent_refused_agreed_after_a_restart_and_a_draw_refused(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, place = await table.start_game("ann", ("bob",), 0, game="ra")
    game = await table.bot.service.get(gid)
    first = game.awaited()[0]
    x, y = table.user_of(game, first), table.user_of(game, 1 - first)
    before = base.state_fingerprint(game.state)
    await fake.slash(x, place, "move", action="invoke")
    await table.settle()
    bid = game.engine.legal_actions(game.state, 1 - first)[0]
    await fake.slash(y, place, "move", action=bid)
    await table.settle()
    h = await fake.slash(x, place, "undo")
    await table.settle()
    assert h.text == f"{y.name} has played since your move, so the others must agree to take it back: " + (
        "ask them with `/undo ask:True`."
    ), h.text

    async def ask() -> tuple[int, object]:
        mark = fake.mark()
        h = await fake.slash(x, place, "undo", ask=True)
        await table.settle()
        assert h.ephemeral and h.text.startswith("↩️ Asked"), h.text
        msg = await fake.wait_message(place, lambda m: "asks to take back" in m.text, after=mark)
        assert f"{x.name} asks to take back 'invoke' and the move after it." in msg.text
        assert f"<@{y.id}>" in msg.text
        v = (await table.stored(gid)).version
        ids = [undoing.answer_id((gid, v, first, 1), True), undoing.answer_id((gid, v, first, 1), False)]
        assert msg.custom_ids == ids
        return v, msg

    # refused: the request is over, nothing is taken back
    v, msg = await ask()
    await fake.click(y, msg, undoing.answer_id((gid, v, first, 1), False))  # type: ignore[arg-type]
    await table.settle()
    shown = fake.message(msg.id)  # type: ignore[attr-defined]
    assert "it was refused" in shown.text and shown.custom_ids == []
    assert len(await table.db_moves(gid)) == 2
    # x may not answer their own request
    v, msg = await ask()
    h = await fake.click(x, msg, undoing.answer_id((gid, v, first, 1), True))  # type: ignore[arg-type]
    await table.settle()
    assert h.messages[-1].content == "Only the other players answer this request."
    # agreed after a restart: both moves are taken back
    await table.running.stop()
    await table.boot()
    await fake.click(y, msg, undoing.answer_id((gid, v, first, 1), True))  # type: ignore[arg-type]
    await table.settle()
    shown = fake.message(msg.id)  # type: ignore[attr-defined]
    assert shown.text == f"↩️ {x.name} took back 'invoke' and the move after it: everyone agreed."
    assert shown.custom_ids == []
    moves = await table.db_moves(gid)
    assert moves[-1] == (first, "undo 1", "player") and len(moves) == 3
    game = await table.bot.service.get(gid)
    assert base.state_fingerprint(game.state) == before
    # a draw shows the bag's next tile: refused, and said why
    await fake.slash(x, place, "move", action="draw")
    await table.settle()
    h = await fake.slash(x, place, "undo")
    await table.settle()
    assert h.text == "'draw' cannot be taken back: drawing showed the next tile of the bag.", h.text
    assert len(await table.db_moves(gid)) == 4


async def test_the_boards_undo_is_only_for_whoever_moved(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    """After a person's move that can be taken back, the public board that follows carries
    "Undo (name)": the other player is refused privately (nothing changes), the mover's click
    works after a restart of the bot, and the board then shows no such button; the next move's
    board names its own mover only."""
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, place = await table.start_game("ann", ("bob",), 0, game="ra")
    game = await table.bot.service.get(gid)
    first = game.awaited()[0]
    x, y = table.user_of(game, first), table.user_of(game, 1 - first)
    before = base.state_fingerprint(game.state)
    await fake.slash(x, place, "move", action="invoke")
    await table.settle()
    version = (await table.stored(gid)).version
    mine = undoing.board_undo_id(gid, version, first)
    board = table.last_turn(place)
    assert mine in board.custom_ids and f"Undo ({x.name})" in board.button_labels, board.custom_ids
    # the other player's click: a private refusal saying whose button it is; nothing changes
    h = await fake.click(y, board, mine)
    await table.settle()
    refusal = h.messages[-1]
    assert refusal.ephemeral and refusal.content.startswith(f"Only {x.name} can use this Undo"), (
        refusal.content
    )
    assert len(await table.db_moves(gid)) == 1
    # the mover's click, after a restart: taken back, and the new board offers no undo
    await table.running.stop()
    await table.boot()
    h = await fake.click(x, table.last_turn(place), mine)
    await table.settle()
    assert h.messages[-1].content == f"↩️ {x.name} took back 'invoke'.", h.messages[-1].content
    assert await table.db_moves(gid) == [(first, "invoke", "player"), (first, "undo 1", "player")]
    game = await table.bot.service.get(gid)
    assert base.state_fingerprint(game.state) == before
    assert not any(c.startswith("bzbu:") for c in table.last_turn(place).custom_ids)
    # invoke again, then the other's bid: the bid's board names the bidder, not the invoker
    await fake.slash(x, place, "move", action="invoke")
    await table.settle()
    bid = game.engine.legal_actions(game.state, 1 - first)[0]
    await fake.slash(y, place, "move", action=bid)
    await table.settle()
    version = (await table.stored(gid)).version
    ids = [c for c in table.last_turn(place).custom_ids if c.startswith("bzbu:")]
    assert ids == [undoing.board_undo_id(gid, version, 1 - first)], ids
