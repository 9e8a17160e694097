"""Ratings through the bot (issue 28, items 1–5): a rated game between two people ends, its final
sheet shows each one's rating before and after; ``/leaderboard`` and ``/profile`` answer with a
picture and the same as text; a game with an AI seat counts on the game's table against the AI,
not on the people's ladder; a lobby opened ``rated:false`` says so and counts nowhere."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest
from PIL import Image

from bot.host.ratings import COMPUTING, Ratings
from tests.e2e.bazaar_harness import Table, make_table
from tests.fakediscord import FakeDiscord, RunBot
from tests.fakediscord.records import Channel
from tests.render_stub import use_stub


async def _play_out(table: Table, gid: int, place: Channel) -> None:
    for _ in range(400):
        if (await table.stored(gid)).status != "active":
            break
        await table.play_one(gid, place, "move")
    assert (await table.stored(gid)).status == "finished"
    await table.settle()


def _picture(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    assert img.width == 1000 and 400 <= img.height <= 1200, img.size  # about square, like the boards
    return img


async def test_a_rated_game_changes_the_ratings_and_the_commands_show_them(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_stub(monkeypatch, games={"kathai", "phraya", "pralaya", "ra"})
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 0, game="pralaya")
    await _play_out(table, gid, thread)
    final = next(m for m in fake.messages(thread) if f"Pralaya #{gid}** is over" in m.text)
    line = next(ln for ln in final.text.splitlines() if ln.startswith("📈 Ratings (this server): "))
    assert "ann 1000 → " in line and "bob 1000 → " in line, line
    game = await table.bot.service.get(gid)
    outcome = game.engine.outcome(game.state)
    assert outcome is not None
    winner = game.seats[outcome.winners[0]].name
    assert f"{winner} 1000 → " in line and "new best" in line, line

    board = await fake.slash(table.players["bob"], table.channel, "leaderboard", game="pralaya")
    assert not board.ephemeral
    text = board.text
    assert text.startswith("🏆 **Pralaya** leaderboard, people, this server (2 rated)"), text
    first = text.splitlines()[1]
    assert first.startswith(f"1. {winner} — **"), text
    assert "← you" in text and "1 game · 1 win" in text
    assert len(board.images) == 1 and _picture(board.images[0].data)

    everywhere = await fake.slash(
        table.players["ann"], table.channel, "leaderboard", game="pralaya", scope="global"
    )
    assert "all servers (2 rated)" in everywhere.text

    card = await fake.slash(
        table.players["ann"], table.channel, "profile", options={"user": table.players["bob"]}
    )
    assert card.text.startswith("👤 **bob** — ratings, this server"), card.text
    assert "Pralaya: **" in card.text and "Last games: #%d Pralaya" % gid in card.text
    assert len(card.images) == 1 and _picture(card.images[0].data)

    nobody = await fake.slash(table.players["cy"], table.channel, "profile")
    assert "No rated games yet." in nobody.text and len(nobody.images) == 1

    bad = await fake.slash(table.players["cy"], table.channel, "leaderboard", game="chess")
    assert bad.ephemeral and "is not a game here" in bad.text


async def test_games_with_an_ai_seat_count_against_the_ai_and_unrated_lobbies_nowhere(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_stub(monkeypatch, games={"kathai", "phraya", "pralaya", "ra"})
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("cy", (), 1, game="pralaya")
    lobby = next(m for m in fake.messages(table.channel) if f"Pralaya #{gid}** — lobby" in m.text)
    assert "· Rated (against the AI)" in lobby.text
    await _play_out(table, gid, thread)
    final = next(m for m in fake.messages(thread) if f"Pralaya #{gid}** is over" in m.text)
    assert "📈 Ratings against the AI (this server): cy 1000 → " in final.text
    assert "AI easy 1000 → " in final.text

    people = await fake.slash(table.players["cy"], table.channel, "leaderboard", game="pralaya")
    assert "Nobody is rated here yet" in people.text
    vs_ai = await fake.slash(table.players["cy"], table.channel, "leaderboard", game="pralaya", table="ai")
    assert "against the AI" in vs_ai.text and "cy — **" in vs_ai.text and "AI (easy) — **" in vs_ai.text

    unrated, lobby = await table.new_game("ann", "pralaya", rated=False)
    assert "· Unrated" in lobby.text
    await fake.click(table.players["bob"], lobby, label="Join")
    await table.settle()
    start = await fake.click(table.players["ann"], lobby, label="Start")
    await table.settle()
    assert "has started" in start.followups[-1].text
    place = fake.channel((await table.stored(unrated)).place_id)
    await _play_out(table, unrated, place)
    final = next(m for m in fake.messages(place) if f"Pralaya #{unrated}** is over" in m.text)
    assert "📈 Ratings" not in final.text
    assert (
        "Nobody is rated here yet"
        in (await fake.slash(table.players["ann"], table.channel, "leaderboard", game="pralaya")).text
    )

    refused = await fake.slash(
        table.players["ann"],
        table.channel,
        "game new",
        options={"game": "pralaya", "rated": False, "form": True},
    )
    assert refused.ephemeral and "`rated:false` does not go with `form:true`" in refused.text


async def test_the_first_start_after_ratings_rates_old_games_in_the_background(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database from before ratings (a finished game, no result, no rating): the bot comes
    online at once, ``/leaderboard`` says the ratings are being computed until the catch-up is
    done, then shows the game rated."""
    use_stub(monkeypatch, games={"kathai", "phraya", "pralaya", "ra"})
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 0, game="pralaya")
    await _play_out(table, gid, thread)
    before = await fake.slash(table.players["bob"], table.channel, "leaderboard", game="pralaya")
    old = table.bot
    await old.service.store.replace_ratings([], [])  # as migration 0010 finds it: no result, no rating
    async with old.service.store._tx() as h:
        await h.sql_run("DELETE FROM game_results")
    await table.running.kill(release=old.service.store.close)
    release = asyncio.Event()
    record = Ratings.record_missing

    async def held(self: Ratings) -> int:  # the catch-up waits for the test's word
        await release.wait()
        return await record(self)

    monkeypatch.setattr(Ratings, "record_missing", held)
    await table.boot(sync=False)  # online without waiting for it
    assert table.bot.service.ratings.computing is not None
    busy = await fake.slash(table.players["bob"], table.channel, "leaderboard", game="pralaya")
    assert busy.ephemeral and busy.text == COMPUTING and not busy.images
    release.set()
    await fake.wait_for(lambda: table.bot.service.ratings.computing is None, what="the ratings' catch-up")
    after = await fake.slash(table.players["bob"], table.channel, "leaderboard", game="pralaya")
    assert after.text == before.text and len(after.images) == 1
