"""``/game new … form:true`` through the real client and the fake Discord: the game's options as
a modal (one checkbox group for the true/false options, radio groups for the few-valued ones, a
text field for a wide number), opened as the first answer; submitted, it opens the lobby with
those options, checked as ``options:`` text is (a bad value is refused with the same reason)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.host.parsing import parse_options
from engines import base
from tests.e2e.bazaar_harness import Table, make_table
from tests.fakediscord import FakeDiscord, Interaction, RunBot


async def _form(table: Table, game: str, **values: Any) -> tuple[Interaction, dict[str, dict[str, Any]]]:
    """``/game new game:<game> form:true`` by ann; the handle and the modal's fields by custom id."""
    h = await table.fake.slash(
        table.players["ann"], table.channel, "game new", options={"game": game, "form": True, **values}
    )
    assert h.callback_type == 9 and h.modal is not None, h
    latency = h.ack_latency
    assert latency is not None and latency < 3.0
    return h, {c["component"]["custom_id"]: c for c in h.modal["components"]}


@pytest.mark.parametrize("game", ["kathai", "pralaya", "phraya", "ra"])
async def test_every_games_options_fit_a_dialog_built_from_its_declarations(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, game: str
) -> None:
    table = make_table(fake_discord, run_bot, tmp_path)
    await table.boot()
    engine = base.get(game)
    h, fields = await _form(table, game)
    assert h.modal is not None and h.modal["title"] == f"New {engine.title} game"
    bools = [o for o in engine.options if o.kind is bool]
    boxes = fields["switches"]["component"]
    assert boxes["type"] == 22 and [b["value"] for b in boxes["options"]] == [o.name for o in bools]
    assert {b["value"] for b in boxes["options"] if b.get("default")} == {o.name for o in bools if o.default}
    for o in engine.options:
        if o.kind is bool:
            continue
        comp = fields[o.name]["component"]
        assert comp["type"] == (21 if len(o.few_values()) >= 2 else 4), (o.name, comp)
    # submitted as it opened: the lobby has the defaults
    sub = await table.fake.submit_modal(h, {})
    await table.settle()
    assert "Opened" in sub.messages[-1].content, sub.messages[-1].content
    gid = max(g.id for g in table.bot.service.loaded())
    assert (await table.stored(gid)).options == engine.default_options()


async def test_the_answers_open_the_lobby_with_those_options_and_a_bad_one_is_refused(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    table = make_table(fake_discord, run_bot, tmp_path)
    await table.boot()
    engine = base.get("kathai")
    # options: given with the command start the dialog at those values
    h, fields = await _form(table, "kathai", options="allow_gifts=true max_offers=3", clock="10m")
    assert {b["value"] for b in fields["switches"]["component"]["options"] if b.get("default")} == {
        "allow_gifts"
    }
    assert fields["turn_limit"]["component"]["value"] == "200"
    answers = {"switches": ["free_asking"], "bribe_lock": "goods", "max_offers": "4", "turn_limit": "1001"}
    sub = await table.fake.submit_modal(h, answers)
    await table.settle()
    reason = None
    try:
        parse_options(engine, "turn_limit=1001")
    except base.BadOption as err:
        reason = err.reason
    assert reason and reason in sub.messages[-1].content, sub.messages[-1].content
    assert not list(table.bot.service.loaded())  # no lobby opened

    h, _ = await _form(table, "kathai", clock="10m")
    answers = {"switches": ["free_asking"], "bribe_lock": "goods", "max_offers": "4", "turn_limit": "30"}
    sub = await table.fake.submit_modal(h, answers)
    await table.settle()
    assert "Opened" in sub.messages[-1].content, sub.messages[-1].content
    (game,) = table.bot.service.loaded()
    want = parse_options(
        engine, "free_asking=true allow_gifts=false bribe_lock=goods max_offers=4 turn_limit=30"
    )
    assert (await table.stored(game.id)).options == want and want != engine.default_options()


async def test_a_bad_option_given_with_the_command_opens_no_dialog(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    table = make_table(fake_discord, run_bot, tmp_path)
    await table.boot()
    h = await fake_discord.slash(
        table.players["ann"],
        table.channel,
        "game new",
        options={"game": "ra", "form": True, "options": "nope=1"},
    )
    assert h.modal is None and h.ephemeral and "has no option `nope`" in h.content, h.content


async def test_two_people_filling_the_same_games_dialog_at_once_each_get_their_lobby(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    table = make_table(fake_discord, run_bot, tmp_path)
    await table.boot()
    opened = {}
    for name, clock in (("ann", "10m"), ("bob", "2h")):
        opened[name] = await fake_discord.slash(
            table.players[name],
            table.channel,
            "game new",
            options={"game": "ra", "form": True, "clock": clock},
        )
    for name in ("ann", "bob"):  # ann sends hers after bob opened his: each reaches its own dialog
        sub = await fake_discord.submit_modal(opened[name], {"switches": ["traders"]}, timeout=10)
        await table.settle()
        assert "Opened" in sub.messages[-1].content, sub.messages[-1].content
    rows = {g.row.creator_id: g.row for g in table.bot.service.loaded()}
    assert rows[table.players["ann"].id].clock_seconds == 600
    assert rows[table.players["bob"].id].clock_seconds == 7200


async def test_the_dialog_sent_after_a_restart_opens_the_lobby(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    table = make_table(fake_discord, run_bot, tmp_path)
    await table.boot()
    h, _ = await _form(table, "pralaya", clock="90m")
    await table.running.stop()
    await table.boot()
    sub = await table.fake.submit_modal(h, {"switches": ["open_hands"], "veda_price": "5", "first_seat": "0"})
    await table.settle()
    assert "Opened" in sub.messages[-1].content, sub.messages[-1].content
    (game,) = table.bot.service.loaded()
    want = parse_options(base.get("pralaya"), "open_hands=true veda_price=5 first_seat=0")
    assert (await table.stored(game.id)).options == want and game.row.clock_seconds == 5400
