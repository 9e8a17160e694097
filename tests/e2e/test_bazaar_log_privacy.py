"""/log shows what a spectator saw of each move: its public events, and its text only when the
engine says the text is not private (``Engine.private_action``). Kathai's ``swap t32`` names
the card put back under the pile, so its line gives only its public events; a ``pass`` shows
its text. Everyone (a spectator, the player who swapped) reads the same /log."""

from __future__ import annotations

import re
from pathlib import Path

from bot.surface import text
from engines import base
from tests.e2e.bazaar_harness import make_table
from tests.fakediscord import FakeDiscord, RunBot


async def test_log_shows_what_a_spectator_saw(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, place = await table.start_game("ann", ("bob", "cy"), 0, game="kathai")
    game = await table.bot.service.get(gid)
    engine, before = game.engine, game.state
    a = before.active
    swap = next(x for x in engine.legal_actions(before, a) if x.startswith("swap "))
    card = swap.split()[1]
    assert engine.private_action(before, a, swap)
    h = await fake.slash(table.user_of(game, a), place, "move", action=swap)
    assert h.text.startswith("✅ Played"), h.text
    await table.settle()
    mid = game.state
    b = mid.active
    assert not engine.private_action(mid, b, "pass")
    h = await fake.slash(table.user_of(game, b), place, "move", action="pass")
    assert h.text.startswith("✅ Played"), h.text
    await table.settle()

    # what a spectator was shown of each move: the public events (and no hidden card)
    played = [base.play(engine, before, a, swap), base.play(engine, mid, b, "pass")]
    public = [[game.fmt(e.text) for e in base.events_for(p.events, None)] for p in played]
    assert public[0] and not any(re.search(rf"\b{card}\b", line) for line in public[0])
    seen: dict[str, str] = {}
    for who in ("mod", table.user_of(game, a).name):  # a spectator, and the player themself
        answer = await fake.slash(table.players[who], place, "log")
        assert answer.ephemeral and "last moves" in answer.text, answer.text
        seen[who] = answer.text
    assert len(set(seen.values())) == 1  # the same for everyone
    log = seen["mod"]
    assert not re.search(rf"\b{card}\b", log), log
    swap_line = next(line for line in log.splitlines() if line.startswith("`  1`"))
    assert swap_line.endswith(": " + "; ".join(public[0])), swap_line  # the events alone, no text
    pass_line = next(line for line in log.splitlines() if line.startswith("`  2`"))
    assert "`pass` — " in pass_line and pass_line.endswith("; ".join(public[1])), pass_line
    entries = await table.bot.service.history(gid, last=2)
    assert log == text.log(game, entries)
    assert [e[2] for e in entries] == ["", "pass"]
