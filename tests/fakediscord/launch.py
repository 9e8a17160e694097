"""Run the real ``bazaar`` command in this process, with discord.py pointed at a fake Discord.

For end-to-end tests where the bot is a separate process (killed, restarted, or several of them
side by side) and the fake runs in the test::

    FAKE_DISCORD_URL=http://127.0.0.1:<port> DISCORD_TOKEN=fake-bot-token BAZAAR_DB=/tmp/x.sqlite3 \\
        python tests/fakediscord/launch.py run        # or: sync, or any other `bazaar` arguments

``FAKE_DISCORD_URL`` (:data:`ENV`) is the fake's base URL (``FakeDiscord.base_url``); it must be
on the loopback interface, so a launched bot can never reach the real Discord. Everything else
(``DISCORD_TOKEN``, ``BAZAAR_DB``, ``BAZAAR_LOG_LEVEL``, ``SHARD_…``) is the bot's own
configuration, read by the real ``bazaar`` entry point (:func:`bot.cli.main`) as in production.
Production code has no switch for another Discord: only this test-side file moves discord.py's
three base URLs (REST ``Route.BASE``, the gateway ``DiscordWebSocket.DEFAULT_GATEWAY`` and the
CDN ``Asset.BASE``), exactly as :meth:`FakeDiscord.patch_discord` does inside a test process.

The file imports only discord.py, yarl and the bot (not the fake's server), so it can be run as a
script or as ``python -m fakediscord.launch`` with ``tests`` on the path.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from urllib.parse import urlsplit

ENV = "FAKE_DISCORD_URL"
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def point_discord_at(base_url: str) -> Callable[[], None]:
    """Point discord.py's REST, gateway and CDN base URLs at ``base_url`` (``http://host:port``);
    returns a function that restores the previous ones. Raises ValueError for a URL that is not
    ``http`` on the loopback interface."""
    import discord.asset
    import discord.gateway
    import discord.http
    import yarl

    parts = urlsplit(base_url)
    if parts.scheme != "http" or parts.hostname not in LOOPBACK or not parts.port:
        raise ValueError(f"{ENV} must be http://127.0.0.1:<port> (a local fake), not {base_url!r}")
    base = base_url.rstrip("/")
    route, ws, asset = discord.http.Route, discord.gateway.DiscordWebSocket, discord.asset.Asset
    saved = (route.BASE, ws.DEFAULT_GATEWAY, asset.BASE)
    route.BASE = f"{base}/api/v10"
    ws.DEFAULT_GATEWAY = yarl.URL(f"ws://{parts.netloc}/")
    asset.BASE = base

    def restore() -> None:
        route.BASE, ws.DEFAULT_GATEWAY, asset.BASE = saved

    return restore


def main(argv: Sequence[str] | None = None) -> int:
    """Point discord.py at ``$FAKE_DISCORD_URL`` and run ``bazaar <argv>`` (default ``run``).
    Returns the command's exit code (2 without a valid ``FAKE_DISCORD_URL``)."""
    url = os.environ.get(ENV, "").strip()
    try:
        point_discord_at(url)
    except ValueError as err:
        print(f"launch: {err}", file=sys.stderr)
        return 2
    from bot.cli import main as bazaar

    return bazaar(list(argv) if argv else ["run"])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
