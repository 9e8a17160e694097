"""Malformed payloads: commands without their required options or of a stale registration,
options of the wrong JSON type or beyond 64-bit integers, forged custom ids and select values.
Discord's own clients never send these, but a stale command registration, a message of an older
build or a hostile client can. Each is refused with a one-line private answer, nothing is logged
as an error (no traceback), and the database is unchanged."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.surface import inputs
from tests.e2e.bazaar_harness import Table, make_table
from tests.fakediscord import Channel, FakeDiscord, Interaction, RunBot

STRING, INTEGER, BOOLEAN, NUMBER = 3, 4, 5, 10
HUGE = 2**64 + 5

Errors = Callable[[], list[logging.LogRecord]]
"""The ``errors`` fixture: the bot's log records at ERROR or above, or with a traceback."""


def opt(name: str, value: Any, otype: int = STRING) -> dict[str, Any]:
    return {"type": otype, "name": name, "value": value}


@pytest.fixture
def errors(caplog: pytest.LogCaptureFixture) -> Errors:
    """The bot's log records at ERROR or above, or with a traceback, once the test ran."""
    caplog.set_level(logging.INFO, logger="bot")
    return lambda: [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


async def _db(table: Table) -> dict[str, list[str]]:
    """Every stored row of every table but ``messages`` (what the bot posted where)."""
    with sqlite3.connect(table.db_path) as db:
        names = [n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {n: sorted(map(repr, db.execute(f"SELECT * FROM {n}"))) for n in names if n != "messages"}


async def _started(fake: FakeDiscord, run_bot: RunBot, tmp_path: Path) -> tuple[Table, int, Channel]:
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 1)
    return table, gid, thread


def _one_private_line(h: Interaction) -> str:
    """The one private answer of ``h`` (its response or last follow-up)."""
    msg = h.followups[-1] if h.followups else h.response
    assert msg is not None and msg.ephemeral and msg.visible_to == h.user.id, h
    assert msg.text and "\n" not in msg.text, msg.text
    assert "Sorry" not in msg.text and "Traceback" not in msg.text, msg.text
    return msg.text


async def test_a_command_without_its_required_options_says_the_commands_changed(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, errors: Errors
) -> None:
    fake = fake_discord
    table, gid, thread = await _started(fake, run_bot, tmp_path)
    before = await _db(table)
    for user, command in (("ann", "move"), ("bob", "rules"), ("ann", "game new")):
        h = await fake.slash(
            table.players[user], thread if command == "move" else table.channel, command, raw_options=[]
        )
        assert _one_private_line(h) == inputs.CHANGED
    await table.settle()
    assert await _db(table) == before and errors() == []


async def test_a_command_the_bot_no_longer_has_says_the_commands_changed(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, errors: Errors
) -> None:
    fake = fake_discord
    table, gid, thread = await _started(fake, run_bot, tmp_path)
    before = await _db(table)
    # a command registered by an older build, still shown by Discord until the next sync
    fake.commands[None].append(
        {
            "id": str(fake.ids.next()),
            "name": "trade",
            "type": 1,
            "options": [],
            "description": "old",
            "application_id": str(fake.application_id),
        }
    )
    h = await fake.slash(table.players["ann"], thread, "trade")
    assert _one_private_line(h) == inputs.CHANGED
    await table.settle()
    assert await _db(table) == before and errors() == []


@pytest.mark.parametrize(
    "command, options, needle",
    [
        ("move", [opt("action", "done"), opt("game", HUGE, INTEGER)], "no game #"),
        ("move", [opt("action", "done"), opt("game", -HUGE, INTEGER)], "no game #"),
        ("log", [opt("count", HUGE, INTEGER)], "between 1 and 50"),
        ("log", [opt("count", -HUGE, INTEGER)], "between 1 and 50"),
        ("game status", [opt("game", 2**63, INTEGER)], "no game #"),
    ],
)
async def test_integers_beyond_64_bits_are_refused(
    fake_discord: FakeDiscord,
    run_bot: RunBot,
    tmp_path: Path,
    errors: Errors,
    command: str,
    options: list[dict[str, Any]],
    needle: str,
) -> None:
    fake = fake_discord
    table, gid, thread = await _started(fake, run_bot, tmp_path)
    before = await _db(table)
    h = await fake.slash(table.players["ann"], thread, command, raw_options=options)
    assert needle in _one_private_line(h).lower()
    await table.settle()
    assert await _db(table) == before and errors() == []


@pytest.mark.parametrize(
    "command, options, needle",
    [
        ("log", [opt("count", "", STRING)], "`count` takes a whole number"),
        ("log", [opt("count", True, BOOLEAN)], "`count` takes a whole number"),
        ("log", [opt("count", 2.5, NUMBER)], "`count` takes a whole number"),
        ("log", [opt("count", 0, INTEGER)], "between 1 and 50"),
        ("game new", [opt("game", "pralaya"), opt("clock", False, BOOLEAN)], "`clock` takes text"),
        ("game new", [opt("game", "pralaya"), opt("options", 1.5, NUMBER)], "`options` takes text"),
        ("game new", [opt("game", "pralaya"), opt("options", "x" * 5000)], "`options` is too long"),
        ("game new", [opt("game", 3, INTEGER)], "not a game here"),
        ("game new", [opt("game", "chess")], "not a game here"),
        ("game new", [opt("game", ["pralaya"])], "not a game here"),
        ("rules", [opt("game", None)], "not a game here"),
        ("move", [opt("action", 5, INTEGER)], "`action` takes text"),
        ("move", [opt("action", {"text": "done"})], "`action` takes text"),
        ("move", [opt("action", "done " * 1000)], "`action` is too long"),
        ("move", [opt("action", "done"), opt("game", "abc")], "not a game number"),
        ("move", [opt("action", "done"), opt("game", True, BOOLEAN)], "not a game number"),
        ("move", [opt("action", "done"), opt("game", 1.5, NUMBER)], "not a game number"),
        ("hand", [opt("game", [1])], "not a game number"),
        ("resign", [opt("game", "")], "not a game number"),
        ("game join", [opt("game", {"id": 1})], "not a game number"),
        ("game leave", [opt("game", "1e3")], "not a game number"),
        ("game addbot", [opt("game", -1, INTEGER)], "no game #-1"),
        ("game addbot", [opt("level", "expert")], "not an AI level"),
        ("game addbot", [opt("level", 2, INTEGER)], "not an AI level"),
        ("game start", [opt("game", 0, INTEGER)], "no game #0"),
        ("game end", [opt("game", "#x")], "not a game number"),
        ("game status", [opt("game", None)], None),  # null is "not given"
    ],
)
async def test_options_of_the_wrong_json_type_are_refused(
    fake_discord: FakeDiscord,
    run_bot: RunBot,
    tmp_path: Path,
    errors: Errors,
    command: str,
    options: list[dict[str, Any]],
    needle: str | None,
) -> None:
    fake = fake_discord
    table, gid, thread = await _started(fake, run_bot, tmp_path)
    before = await _db(table)
    h = await fake.slash(table.players["ann"], thread, command, raw_options=options)
    if needle is None:
        assert h.ephemeral and "Sorry" not in h.text
    else:
        assert needle.lower() in _one_private_line(h).lower()
    await table.settle()
    assert await _db(table) == before and errors() == []


async def test_autocomplete_with_forged_values_answers_without_errors(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, errors: Errors
) -> None:
    fake = fake_discord
    table, gid, thread = await _started(fake, run_bot, tmp_path)
    ann = table.players["ann"]
    cases = [
        ("move", "action", [opt("action", 5, INTEGER)]),
        ("move", "action", [opt("game", {"x": 1}), opt("action", None)]),
        ("move", "action", [opt("action", "\x00\u200f" * 3000), opt("game", HUGE, INTEGER)]),
        ("game new", "options", [opt("game", 7, INTEGER), opt("options", "open")]),
        ("game new", "options", [opt("options", ["open"])]),
        ("log", "game", [opt("game", [])]),
        ("log", "game", [opt("game", "#" * 500)]),
    ]
    for command, focused, options in cases:
        choices = await fake.autocomplete(ann, thread, command, focused=focused, raw_options=options)
        assert isinstance(choices, list)
    await table.settle()
    assert errors() == []


def _ids(gid: int, version: int) -> list[tuple[str, str]]:
    """Forged custom ids for game ``gid`` at ``version``, each with the words its refusal holds."""
    return [
        (f"bz:{gid}:{HUGE}:done", "out of date"),
        (f"bz:{HUGE}:{version}:done", "no game #"),
        (f"bz:{2**63}:0:!join", "no game #"),
        (f"bz:0:{version}:!hand", "no game #0"),
        (f"bz:{gid}:{version + 10**6}:done", "out of date"),
        (f"bzfs:{gid}:{HUGE}:f", "out of date"),
        (f"bzs:{gid}:{version}:" + "k" * 80, "not awaited|not your turn|out of date|waiting"),
        (f"bz:{gid}", inputs.OLD_CONTROL),
        ("bz:", inputs.OLD_CONTROL),
        (f"bzs:{gid}:x", inputs.OLD_CONTROL),
        (f"bzf:{gid}:{version}:form", inputs.OLD_CONTROL),
        ("\u200f\u202e\x00", inputs.OLD_CONTROL),
        ("garbage", inputs.OLD_CONTROL),
    ]


async def test_forged_custom_ids_are_refused(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, errors: Errors
) -> None:
    import re

    fake = fake_discord
    table, gid, thread = await _started(fake, run_bot, tmp_path)
    board = table.last_turn(thread)
    version = (await table.stored(gid)).version
    before = await _db(table)
    for who in ("ann", "cy"):
        for cid, needle in _ids(gid, version):
            ctype = 3 if cid.startswith(("bzs", "bzf:")) else 2
            h = await fake.click_raw(table.players[who], board, cid, component_type=ctype, values=["x"])
            await table.settle()
            line = _one_private_line(h)
            assert re.search(needle.lower(), line.lower()) or (who == "cy" and "not playing" in line), (
                cid,
                line,
            )
    assert await _db(table) == before and errors() == []


# (``values`` that is not a list or a string at all, e.g. 7 or null, fails inside discord.py's
# Select before any bot code runs; Discord's API never sends one.)
@pytest.mark.parametrize("values", [[1], [None], [["a"]], "take", {"a": 1}, ["x" * 101], ["a"] * 26])
async def test_forged_select_values_are_refused(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, errors: Errors, values: Any
) -> None:
    fake = fake_discord
    table, gid, thread = await _started(fake, run_bot, tmp_path)
    game = await table.bot.service.get(gid)
    seat = game.awaited()[0]
    user = table.user_of(game, seat)
    version = game.row.version
    board = table.last_turn(thread)
    before = await _db(table)
    for cid in (f"bzs:{gid}:{version}", f"bzs:{gid}:{version}:pick", f"bzf:{gid}:{version}:f:p"):
        h = await fake.click_raw(user, board, cid, component_type=3, values=values)
        await table.settle()
        assert "does not offer" in _one_private_line(h), (cid, values)
    assert await _db(table) == before and errors() == []


async def test_select_values_not_among_the_choices_or_too_many_are_refused(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, errors: Errors
) -> None:
    fake = fake_discord
    table, gid, thread = await _started(fake, run_bot, tmp_path)
    game = await table.bot.service.get(gid)
    seat = game.awaited()[0]
    user = table.user_of(game, seat)
    version = game.row.version
    board = table.last_turn(thread)
    before = await _db(table)
    legal = game.engine.legal_actions(game.state, seat)
    for values in (["not a move"], [legal[0], legal[0]], legal[:2] if len(legal) > 1 else ["x", "y"], []):
        h = await fake.click_raw(user, board, f"bzs:{gid}:{version}", component_type=3, values=values)
        await table.settle()
        _one_private_line(h)
    assert await _db(table) == before and errors() == []
