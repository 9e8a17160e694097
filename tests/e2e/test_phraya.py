"""Phraya through the real discord.py client against the fake Discord: two people and an AI
seat play several complete turns from the board's controls alone (set-up, cards, the Merchant,
movement steps whose buttons are the section ids, and the grouped action step: one labelled
group per bank and the barge, and End), while the AI plays its own turns."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.bazaar_harness import make_table
from tests.fakediscord import FakeDiscord, RunBot


async def test_phraya_turns_from_the_board_controls(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, place = await table.start_game("ann", ("bob",), 1, game="phraya")
    bot = table.bot
    game = await bot.service.get(gid)
    engine = game.engine
    steps: dict[str, int] = {}
    grouped = 0
    turns_done = {0: 0, 1: 0}
    for _ in range(120):
        if game.row.status != "active" or (min(turns_done.values()) >= 2 and grouped and steps.get("move")):
            break
        seat = next(s for s in game.awaited() if not game.ai_plays(s))
        user = table.user_of(game, seat)
        view = engine.view(game.state, None)
        step = str(view.get("step"))
        action = engine.choose(engine.view(game.state, seat), engine.legal_actions(game.state, seat))
        v = game.row.version
        board = table.last_turn(place)
        assert user.id in board.mention_ids or board.versions  # pinged (or this board edited in place)
        if step == "act":
            assert "Choices: " in board.text and "End" in board.text, board.text
        button = f"bz:{gid}:{v}:{action}"
        labels = {b.get("label") for b in board.buttons}
        if step == "move" and button in board.custom_ids:
            # the movement buttons are labelled with the section ids the moves use
            assert action.split()[-1] in labels, (action, labels)
        if button in board.custom_ids:
            await fake.click(user, board, button)
        else:
            verb, _, rest = action.partition(" ")
            picked = None
            for m in board.selects:
                values = [o["value"] for o in m["options"]]
                if action in values:
                    picked = (m, action)
                elif m["custom_id"].endswith(f":{verb}") and rest in values:  # a pick completing `verb …`
                    picked = (m, rest)
                if picked:
                    break
            assert picked is not None, (step, action, board.custom_ids)
            await fake.select(user, board, picked[0]["custom_id"], [picked[1]])
        await table.settle()
        assert (await table.db_moves(gid))[v][:2] == (seat, action)
        steps[step] = steps.get(step, 0) + 1
        if step == "act":
            grouped += 1
        if action == "end":
            turns_done[seat] += 1
    assert min(turns_done.values()) >= 2, (turns_done, steps)
    assert grouped and steps.get("move"), steps
    moves = await table.db_moves(gid)
    assert any(by == "ai" for _, _, by in moves), "the AI seat played its turns"
    assert fake.dms(table.players["ann"]) and fake.dms(table.players["bob"])
