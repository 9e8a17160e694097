"""The per-user flood guard, at its default limit (a burst of 8, then 2 a second), with its clock
injected so nothing here sleeps: a flood is answered "slow down" and changes nothing, other users
are untouched, a normal player is never refused, and autocomplete has its own larger limit."""

from __future__ import annotations

from pathlib import Path

from bot.host.config import Config
from tests.e2e.bazaar_harness import FakeTime, make_table
from tests.fakediscord import FakeDiscord, RunBot

DEFAULT = Config(token="x").rate_limit


async def test_a_flood_from_one_user_is_slowed_down_and_changes_nothing(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    clock = FakeTime(100.0)
    table.rate_limit, table.throttle_clock = DEFAULT, clock
    await table.boot()
    gid, lobby = await table.new_game("ann", "pralaya")  # 1 of ann's 8
    answers = [await fake.slash(table.players["ann"], table.channel, "game list") for _ in range(10)]
    texts = [h.text for h in answers]
    assert all("#" in t and "Slow down" not in t for t in texts[:7]), texts[:7]
    assert all(
        h.ephemeral and t.startswith("Slow down") for h, t in zip(answers[7:], texts[7:], strict=True)
    ), texts[7:]
    # a click in the flood is refused before it does anything: ann stays the only seat
    click = await fake.click(table.players["ann"], lobby, label="Add AI")
    assert click.ephemeral and click.text.startswith("Slow down"), click.text
    assert [s.name for s in await table.bot.service.store.seats(gid)] == ["ann"]
    # someone else is not slowed down by ann's flood
    h = await fake.slash(table.players["bob"], table.channel, "game join")
    assert "You joined" in h.text, h.text
    # ann is served again once her bucket refills (2 a second)
    clock.advance(1.0)
    assert "Slow down" not in (await fake.slash(table.players["ann"], table.channel, "game list")).text
    assert "Slow down" not in (await fake.slash(table.players["ann"], table.channel, "game list")).text
    assert (await fake.slash(table.players["ann"], table.channel, "game list")).text.startswith("Slow down")
    assert table.bot.throttle.refused == 5


async def test_a_player_at_a_quick_human_pace_is_never_slowed_down(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    """A whole two-player Pralaya game played by the people through /move and buttons, one action
    every 0.6 s, plus their lobby clicks in a rush: nobody is ever refused."""
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    clock = FakeTime(100.0)
    table.rate_limit, table.throttle_clock = DEFAULT, clock
    await table.boot()
    gid, place = await table.start_game("ann", ("bob",), 0)  # four lobby interactions at one instant
    moves = 0
    while (await table.stored(gid)).status == "active":
        clock.advance(0.6)
        await table.play_one(gid, place, via="button" if moves % 2 else "move")
        moves += 1
    assert moves > 20
    assert table.bot.throttle.refused == 0
    assert not [i for i in fake.interactions if "Slow down" in (i.text or "")]


async def test_autocomplete_has_its_own_larger_limit(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    table.rate_limit, table.throttle_clock = DEFAULT, FakeTime(100.0)
    await table.boot()
    await table.start_game("ann", ("bob",), 0)
    got = [
        await fake.autocomplete(
            table.players["ann"], table.channel, "game new", focused="options", game="pralaya"
        )
        for _ in range(DEFAULT[0] * 4 + 3)
    ]
    assert all(got[: DEFAULT[0] * 4]) and got[-3:] == [[], [], []]
    # commands are counted apart: ann's typing did not use up her commands
    assert "Slow down" not in (await fake.slash(table.players["ann"], table.channel, "game list")).text
