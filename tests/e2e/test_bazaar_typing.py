"""Typing a move as the board reads, through ``/move`` autocomplete against the fake Discord
(issue #26, item 7): a Kathai bribe's pair typed left goods first completes and plays, and a
choice that is not yet a whole move says what comes next."""

from __future__ import annotations

from pathlib import Path

import pytest

from engines.kathai.data import GOODS, SELLABLE
from tests.e2e.bazaar_harness import make_table
from tests.fakediscord import FakeDiscord, RunBot
from tests.render_stub import use_stub


async def test_a_bribe_typed_left_goods_first_completes_and_plays(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_stub(monkeypatch, games={"kathai"})
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, place = await table.start_game("ann", ("bob", "cy"), 0, game="kathai")
    game = await table.bot.service.get(gid)
    seat = game.state.active
    user = table.user_of(game, seat)

    async def offered(typed: str) -> list[tuple[str, str]]:
        got = await fake.autocomplete(user, place, "move", focused="action", action=typed)
        return [(c.name, c.value) for c in got]

    # what is not a whole move yet says what comes next; a whole one is shown as it is
    first = dict((v, n) for n, v in await offered(""))
    assert first["swap"] == "swap … then a card of your hand"
    assert first["bribe"] == "bribe … then two goods side by side"
    assert first["pass"] == "pass"
    # a neighbouring pair whose left goods comes later in goods order (the canonical text
    # writes it the other way round): typed as the board reads, left first
    market = game.state.market
    left, right = next(
        (GOODS[market[p]], GOODS[market[p + 1]]) for p in range(SELLABLE) if market[p] > market[p + 1]
    )
    assert (f"bribe {left} … then the goods beside it", f"bribe {left}") in await offered("bribe ")
    assert f"bribe {left} {right}" in [v for _, v in await offered(f"bribe {left} ")]
    pays = await offered(f"bribe {left} {right} ")
    assert pays and all(n == v and v.startswith(f"bribe {left} {right} ") for n, v in pays)
    h = await fake.slash(user, place, "move", action=pays[0][1])
    assert h.text.startswith("✅ Played"), h.text
    await table.settle()
    pay = pays[0][1].split()[-1]
    assert (await table.db_moves(gid))[-1] == (seat, f"bribe {right} {left} {pay}", "player")
