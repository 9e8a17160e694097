"""The slash commands, one cog per topic, each module adding its own (``async def
setup(bot)``, as discord.py extensions do); :func:`setup` adds them all, in one place.

- :mod:`.gamegroup`: ``/game new|join|leave|addbot|start|status|list|end``
- :mod:`.play`: ``/move``, ``/hand``, ``/resign``, ``/log``
- :mod:`.rulescards`: ``/rules``
- :mod:`.archive`: ``/history``, ``/replay``, ``/stats``
- :mod:`.coaching`: ``/review``
- :mod:`.undoing`: ``/undo``
- :mod:`.learning`: ``/learn``
- :mod:`.serversettings`: ``/settings``
- :mod:`.ladder`: ``/leaderboard``, ``/profile``

The choices and completions they share are in :mod:`.choices`; the work is in ``actions.py``,
``lobby.py`` and the modules each cog names.
"""

from __future__ import annotations

from discord.ext import commands

from . import archive, coaching, gamegroup, ladder, learning, play, rulescards, serversettings, undoing

COGS = (gamegroup, play, rulescards, archive, coaching, undoing, learning, serversettings, ladder)
"""The modules of the cogs, in the order they are added."""


async def setup(bot: commands.Bot) -> None:
    """Add every cog's commands to ``bot``'s tree; ``/game new``, ``/rules`` and ``/stats`` offer
    the games registered now as fixed choices."""
    for module in COGS:
        await module.setup(bot)
