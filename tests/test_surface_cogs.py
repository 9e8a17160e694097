"""The slash commands are cogs, one per topic, each module adding its own with ``async def
setup(bot)``; ``bot/surface/commands.py`` only lists them (:data:`bot.surface.commands.COGS`)."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

from discord.ext import commands

from bot.host.config import Config
from bot.surface import commands as bot_commands
from bot.surface.app import BazaarBot

SURFACE = Path(__file__).resolve().parent.parent / "bot" / "surface"


def _cog_modules() -> set[str]:
    """The surface modules that define a ``commands.Cog`` (or ``GroupCog``) subclass."""
    found = set()
    for path in SURFACE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(
                isinstance(b, ast.Attribute) and b.attr in ("Cog", "GroupCog") for b in node.bases
            ):
                found.add(path.stem)
    return found


def _declares_commands(path: Path) -> bool:
    """Whether ``path`` declares an app command or group itself (a decorator or a Group class)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr in ("command", "Group", "GroupCog", "Cog"):
            return True
    return False


def test_every_cog_module_has_its_setup_and_is_listed() -> None:
    modules = _cog_modules()
    assert {"gamegroup", "play", "rulescards", "archive", "ladder"} <= modules
    listed = {m.__name__.rsplit(".", 1)[1] for m in bot_commands.COGS}
    assert listed == modules
    for name in modules:
        setup = importlib.import_module(f"bot.surface.{name}").setup
        assert inspect.iscoroutinefunction(setup)
        assert list(inspect.signature(setup).parameters) == ["bot"]


def test_commands_py_only_lists_the_cogs() -> None:
    assert not _declares_commands(SURFACE / "commands.py")
    assert _declares_commands(SURFACE / "play.py")  # the check sees a cog's commands


async def test_the_tree_holds_every_command_once_from_its_cog() -> None:
    async with BazaarBot(Config(token="x"), sync_only=True) as bot:
        await bot.setup_hook()
        names = sorted(c.name for c in bot.tree.get_commands())
        assert names == sorted(
            [
                "game",
                "move",
                "hand",
                "resign",
                "log",
                "rules",
                "history",
                "replay",
                "stats",
                "review",
                "undo",
                "learn",
                "settings",
                "leaderboard",
                "profile",
            ]
        )
        game = bot.tree.get_command("game")
        assert game is not None and not isinstance(game, commands.Cog)
        group = bot.get_cog("GameGroup")
        assert group is not None and group.app_command is game
        assert sorted(c.name for c in group.app_command.commands) == [
            "addbot",
            "end",
            "join",
            "leave",
            "list",
            "new",
            "start",
            "status",
        ]
        assert set(bot.cogs) == {
            "GameGroup",
            "Play",
            "Rules",
            "Archive",
            "Coaching",
            "Undoing",
            "Learning",
            "ServerSettings",
            "Ladder",
        }
        await bot.remove_cog("Rules")  # a cog added at load takes its dynamic command with it
        assert bot.tree.get_command("rules") is None
