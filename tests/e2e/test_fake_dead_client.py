"""The fake Discord and a client process that dies: a request cut off mid-body is dropped as
Discord drops it (nothing created, no error on the fake's side)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from tests.fakediscord import FakeDiscord


async def test_a_request_cut_off_by_a_dying_client_is_dropped(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    fake = await FakeDiscord().start()
    try:
        guild = fake.add_guild("G", channels=["games"])
        chan = guild.channel("games")
        _, writer = await asyncio.open_connection("127.0.0.1", fake.port)
        writer.write(
            f"POST /api/v10/channels/{chan.id}/messages HTTP/1.1\r\nHost: x\r\n"
            f"Authorization: Bot {fake.token}\r\nContent-Type: multipart/form-data; boundary=b0\r\n"
            'Content-Length: 1000\r\n\r\n--b0\r\nContent-Disposition: form-data; name="payl'.encode()
        )
        await writer.drain()
        await fake.wait_for(lambda: fake.requests, what="the request to arrive")
        writer.transport.abort()  # the process died: the rest of the body never comes
        [req] = fake.requests
        await fake.wait_for(lambda: req.dropped, what="the fake to drop the request")
        assert req.route == "POST /channels/{channel_id}/messages" and req.status == 0
        assert fake.messages(chan) == []
        assert not [r for r in caplog.records if r.name.startswith("aiohttp")], caplog.text
    finally:
        await fake.close()
    fake.assert_clean()
