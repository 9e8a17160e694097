"""The fake's fault injection answers as Discord does (checked with plain HTTP requests)."""

from __future__ import annotations

from typing import Any

import aiohttp

from tests.fakediscord import FakeDiscord


async def _post(
    fake: FakeDiscord, channel_id: int, body: dict[str, Any]
) -> tuple[int, dict[str, str], dict[str, Any]]:
    async with (
        aiohttp.ClientSession() as http,
        http.post(
            f"{fake.base_url}/api/v10/channels/{channel_id}/messages",
            json=body,
            headers={"Authorization": f"Bot {fake.token}"},
        ) as r,
    ):
        return r.status, dict(r.headers), await r.json()


async def test_429_bodies_and_headers_are_discords(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    fake.add_guild("G", channels=["c"])
    chan = fake.channel("c")
    route = fake.faults.rate_limit("POST /channels/{channel_id}/messages", 1.5, scope="shared")
    glob = fake.faults.rate_limit("POST /channels/*/messages", 0.25, global_=True)
    status, headers, body = await _post(fake, chan.id, {"content": "a"})
    assert status == 429 and body == {
        "message": "You are being rate limited.",
        "retry_after": 1.5,
        "global": False,
    }
    assert headers["Retry-After"] == "2" and headers["X-RateLimit-Remaining"] == "0"
    assert headers["X-RateLimit-Scope"] == "shared" and headers["X-RateLimit-Reset-After"] == "1.500"
    assert headers["X-RateLimit-Bucket"] and headers["X-RateLimit-Limit"] and headers["X-RateLimit-Reset"]
    assert headers["Via"] and "X-RateLimit-Global" not in headers
    status, headers, body = await _post(fake, chan.id, {"content": "b"})
    assert status == 429 and body["global"] is True and headers["X-RateLimit-Global"] == "true"
    assert headers["X-RateLimit-Scope"] == "global" and "X-RateLimit-Bucket" not in headers
    assert route.spent and glob.spent and fake.messages(chan) == []
    status, _, _ = await _post(fake, chan.id, {"content": "c"})
    assert status == 200 and [m.content for m in fake.messages(chan)] == ["c"]


async def test_a_failure_after_the_work_and_the_nonce_that_makes_a_retry_safe(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    fake.add_guild("G", channels=["c"])
    chan = fake.channel("c")
    before = fake.faults.fail("POST /channels/{channel_id}/messages", 502, times=2)
    status, _, body = await _post(fake, chan.id, {"content": "x", "nonce": "1", "enforce_nonce": True})
    assert status == 502 and body["message"] and fake.messages(chan) == []
    fake.faults.clear()
    assert len(before.hits) == 1
    after = fake.faults.fail("POST /channels/{channel_id}/messages", 500, after=True)
    status, _, _ = await _post(fake, chan.id, {"content": "y", "nonce": "2", "enforce_nonce": True})
    assert status == 500 and after.spent and [m.content for m in fake.messages(chan)] == ["y"]
    status, _, body = await _post(fake, chan.id, {"content": "y", "nonce": "2", "enforce_nonce": True})
    assert status == 200 and body["id"] == str(fake.messages(chan)[0].id) and len(fake.messages(chan)) == 1
    status, _, _ = await _post(fake, chan.id, {"content": "y", "nonce": "2"})  # not enforced: a new one
    assert status == 200 and len(fake.messages(chan)) == 2
