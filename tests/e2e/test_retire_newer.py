"""Taking old controls away leaves those of a newer version alone.

With processes sharing a database, the publish of version ``v`` at one process may reach its
"take the old controls away" step after another process has already posted version ``v + 1``'s
board and the addressee's DM with its buttons (seen in ``tests/e2e/test_shards.py`` on a loaded
machine: the DM of the offer lost its Decline button to the older publish, and its addressee
was left without it). ``Publisher.retire`` takes ``upto``, the version being published: only the
controls of messages showing that version or an older one are taken away.
"""

from __future__ import annotations

from pathlib import Path

from tests.e2e.bazaar_harness import make_table, no_controls
from tests.fakediscord import FakeDiscord, RunBot


async def test_retiring_for_an_older_version_keeps_a_newer_boards_and_dms_controls(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, place = await table.start_game("ann", ("bob", "cy"), 0, game="kathai")
    await table.play_one(gid, place)
    await table.play_one(gid, place)
    version = (await table.stored(gid)).version
    posts, publisher = table.bot.service.posts, table.bot.publisher

    live = await posts.posted_messages(gid, live=True)
    assert {m.kind for m in live} == {"turn", "dm"}, live  # the board and a DM carry controls
    assert all(m.version == version for m in live), (version, live)
    assert not any(no_controls(fake.message(m.message_id)) for m in live)

    # the publish of the version before reaches its retiring late: nothing of this version is touched
    await publisher.retire(gid, upto=version - 1)
    await publisher.retire(gid, kinds=("dm",), upto=version - 1)
    for m in live:
        assert not no_controls(fake.message(m.message_id)), fake.message(m.message_id)
    assert [m.id for m in await posts.posted_messages(gid, live=True)] == [m.id for m in live]

    # the publish of this version (or a later one) takes them away
    await publisher.retire(gid, kinds=("turn", "dm"), upto=version)
    for m in live:
        assert no_controls(fake.message(m.message_id)), fake.message(m.message_id)
    assert await posts.posted_messages(gid, live=True) == []
