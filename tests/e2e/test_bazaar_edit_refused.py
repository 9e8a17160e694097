"""Discord refuses edits to messages older than an hour beyond a rate (error 30046): a board that
cannot be edited in place is posted anew, so players always see the current turn (a DM takes the
same road: ``Publisher._dm`` posts a new DM when its edit is refused)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.e2e.bazaar_harness import make_table
from tests.fakediscord import FakeDiscord, RunBot

MOVE = re.compile(r"· move (\d+)|\(move (\d+)\)")
OLD_EDIT = "Maximum number of edits to messages older than 1 hour reached. Try again later"


def _version(content: str) -> int | None:
    m = MOVE.search(content)
    return int(m.group(1) or m.group(2)) if m else None


async def test_a_board_and_dm_discord_will_not_edit_are_posted_anew(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, thread = await table.start_game("ann", ("bob",), 0)
    refused = fake.faults.fail(
        "PATCH /channels/*/messages/*", status=400, code=30046, message=OLD_EDIT, times=None
    )
    for _ in range(12):
        if (await table.stored(gid)).status != "active":
            break
        await table.play_one(gid, thread)
        row = await table.stored(gid)
        # the newest board names the current move, although no edit went through
        assert _version(table.last_turn(thread).text) == row.version
    assert refused.hits, "no edit was tried: the test did not reach an edit in place"
