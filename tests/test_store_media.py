"""What migration 0012 keeps, on both backends: the per-channel count of refused Components V2
media edits (``Store.media_edits``: refusals in a row counted, one edit that goes through starts
again, each channel its own, kept across a reopening) and each server's confirm setting."""

from __future__ import annotations

from pathlib import Path

from bot.host.store import Store

CHANNEL, OTHER = 10**18 + 5, 77


async def test_refused_media_edits_are_counted_in_a_row_per_channel(backend_target: str | Path) -> None:
    clock = [1000.0]
    store = await Store.open(backend_target, now=lambda: clock[0])
    try:
        assert await store.media_edits(CHANNEL) == (0, 0.0)
        assert await store.note_media_edit(CHANNEL, refused=True) == 1
        clock[0] = 1010.0
        assert await store.note_media_edit(CHANNEL, refused=True) == 2
        assert await store.media_edits(CHANNEL) == (2, 1010.0)
        assert await store.media_edits(OTHER) == (0, 0.0)  # each channel its own
        assert await store.note_media_edit(CHANNEL, refused=False) == 0  # one went through
        assert await store.media_edits(CHANNEL) == (0, 0.0)
        for _ in range(3):
            await store.note_media_edit(CHANNEL, refused=True)
        await store.note_media_edit(OTHER, refused=True)
    finally:
        await store.close()
    again = await Store.open(backend_target, now=lambda: 2000.0)
    try:
        assert await again.media_edits(CHANNEL) == (3, 1010.0)
        assert await again.media_edits(OTHER) == (1, 1010.0)
        assert len((await again.export_rows())["channel_media"]) == 2
    finally:
        await again.close()


async def test_a_servers_confirm_setting_is_kept_per_server(backend_target: str | Path) -> None:
    store = await Store.open(backend_target, now=lambda: 5.0)
    try:
        assert await store.guild_confirm(1) is None  # not set: the bot's default
        await store.set_guild_confirm(1, False)
        await store.set_guild_confirm(2, True)
        assert await store.guild_confirm(1) is False and await store.guild_confirm(2) is True
        await store.set_guild_confirm(1, True)
        assert await store.guild_confirm(1) is True
        await store.set_guild_confirm(2, None)  # back to the default
        assert await store.guild_confirm(2) is None
        assert (await store.export_rows())["guild_settings"] == [(1, 1, 5.0), (2, None, 5.0)]
    finally:
        await store.close()
