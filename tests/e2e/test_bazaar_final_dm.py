"""The end first (issue 21, item 7): when a game finishes, each person gets a last DM, their final
hand with their rank, and it says the game is over once."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.bazaar_harness import make_table
from tests.fakediscord import FakeDiscord, RunBot
from tests.render_stub import use_stub


async def test_each_player_gets_a_last_dm_with_their_rank(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_stub(monkeypatch, games={"kathai", "phraya", "pralaya", "ra"})
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 1, game="pralaya")
    for _ in range(300):
        if (await table.stored(gid)).status != "active":
            break
        await table.play_one(gid, thread, "move")
    game = await table.bot.service.get(gid)
    outcome = game.engine.outcome(game.state)
    assert outcome is not None
    for who in ("ann", "bob"):
        seat = next(s.seat for s in game.seats if s.user_id == table.players[who].id)
        last = fake.dms(table.players[who])[-1]
        head = last.text.splitlines()[0]
        assert head.startswith(f"🏁 **Pralaya #{gid}** is over (move {game.row.version}). You finished **"), (
            head
        )
        assert "of 3" in head and (f"{outcome.scores[seat]} pts" in head or "no score" in head), head
        assert head.lower().count("over") == 1 and last.attachments  # the final hand
