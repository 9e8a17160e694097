"""/log shows a move's text only when it names nothing a spectator may not see: Kathai's
``swap t32`` names the card put back under the pile, an offer names the cards offered to the
players it is addressed to. Such moves show only their public events."""

from __future__ import annotations

import re
from pathlib import Path

from bot.host.parsing import hides
from tests.e2e.bazaar_harness import make_table
from tests.fakediscord import FakeDiscord, RunBot


async def test_log_never_names_a_hidden_card(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, place = await table.start_game("ann", ("bob", "cy"), 0, game="kathai")
    game = await table.bot.service.get(gid)
    engine = game.engine
    a = game.state.active
    hidden = [x for x in engine.legal_actions(game.state, a) if hides(engine, x, game.state)]
    action = next(x for x in hidden if x.startswith(("swap ", "offer ")))
    card = next(w for w in action.split() if f'"{w}"' in set(engine.secrets(game.state, None)))
    h = await fake.slash(table.user_of(game, a), place, "move", action=action)
    assert h.text.startswith("✅ Played"), h.text
    await table.settle()
    assert not hides(engine, "take a1", game.state)  # a text naming no hidden card is shown as it is
    for who in ("mod", table.user_of(game, a).name):  # a spectator, and the player themself
        log = await fake.slash(table.players[who], place, "log")
        assert log.ephemeral and "last moves" in log.text, log.text
        assert not re.search(rf"\b{card}\b", log.text), log.text
        assert game.names[a] in log.text  # the move is listed, by its public events
