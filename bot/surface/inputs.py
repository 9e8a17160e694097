"""Checking what an interaction brings before any of it is used.

Discord checks what its own clients send against the synced commands and the posted
components, but a stale registration (a command changed since the last ``bazaar sync``), a
message posted by an older build, or a hostile client can still deliver options of the wrong
JSON type, numbers beyond SQLite's 64-bit integers, custom ids of another shape and select
values that are not strings. Every slash-command option and every custom id part goes through
one of these functions first; each returns the value in the type the code expects or raises
:class:`~bot.host.live.Refusal` with a one-line reason for the user (nothing is changed).
"""
from __future__ import annotations

from bot.digits import is_digits
from typing import Any

from engines import base, search

from ..host.live import Refusal
from ..host.service import game_number

MAX_INT = 2**63 - 1           # SQLite's largest integer
MAX_ACTION = 400              # characters of a typed move (the longest canonical text is far shorter)
MAX_OPTIONS = 400             # characters of /game new's options
MAX_CLOCK = 40                # characters of /game new's clock
MAX_VALUES = 25               # Discord's limit of values in one select menu
MAX_VALUE = 100               # Discord's limit of characters in one select option value
MAX_TYPED = 200               # characters of an autocomplete's typed text that are looked at

CHANGED = "This command changed; the bot's commands are being updated. Try again in a minute."
"""The answer to a command whose options do not match the bot's (a stale registration)."""

OLD_CONTROL = "This control is no longer in use: use the buttons on the latest message."
"""The answer to a component whose custom id has no shape the bot knows."""


def _show(value: Any) -> str:
    """``value`` as a short, one-line quotation for a reason."""
    text = " ".join(str(value).split())
    return (text[:30] + "…") if len(text) > 30 else text


def text(value: Any, name: str, *, limit: int, required: bool = False) -> str | None:
    """A string option: the string (None when absent and not ``required``). Refuses another
    JSON type or a text longer than ``limit`` characters."""
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise Refusal(f"`{name}` takes text, not `{_show(value)}`.")
    if len(value) > limit:
        raise Refusal(f"`{name}` is too long ({len(value)} characters; at most {limit}).")
    return value


def action(value: Any) -> str:
    """The text of a move (``/move action:`` or a button's action part)."""
    return text(value, "action", limit=MAX_ACTION, required=True) or ""


def game_ref(value: Any) -> int | None:
    """A ``game:`` option: None when absent, else a valid game number (see
    :func:`bot.host.service.game_number`)."""
    return None if value is None else game_number(value)


def number(value: Any, name: str, *, lo: int, hi: int) -> int:
    """An integer option within ``lo``..``hi`` (a bool or a string is not one)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise Refusal(f"`{name}` takes a whole number, not `{_show(value)}`.")
    if not lo <= value <= hi:
        raise Refusal(f"`{name}` must be between {lo} and {hi}.")
    return value


def ai_level(value: Any) -> str | None:
    """The ``level:`` choice of ``/game addbot``: one of the AI levels, or None when left out."""
    if value is None:
        return None
    if not isinstance(value, str) or value.strip().lower() not in search.LEVELS:
        raise Refusal(f"`{_show(value)}` is not an AI level: choose one of {', '.join(search.LEVELS)}.")
    return value.strip().lower()


def game_kind(value: Any) -> str:
    """A ``game:`` choice of ``/game new`` or ``/rules``: the name of a registered game."""
    names = [e.name for e in base.games()]
    if not isinstance(value, str) or value.strip().lower() not in names:
        raise Refusal(f"`{_show(value)}` is not a game here: choose one of {', '.join(names)}.")
    return value.strip().lower()


def ids(game: Any, version: Any) -> tuple[int, int]:
    """The game number and version of a custom id (digits as the templates match them, or ints)."""
    gid = game_number(game)
    if isinstance(version, str) and is_digits(version) and len(version) <= 19:
        version = int(version)
    if isinstance(version, bool) or not isinstance(version, int) or not 0 <= version <= MAX_INT:
        raise base.StaleState()
    return gid, version


def values(raw: Any) -> list[str]:
    """The values of a select menu: a list of at most 25 strings of at most 100 characters."""
    if not isinstance(raw, (list, tuple)) or len(raw) > MAX_VALUES:
        raise Refusal("That menu sent something it does not offer: use the latest message.")
    if not all(isinstance(v, str) and len(v) <= MAX_VALUE for v in raw):
        raise Refusal("That menu sent something it does not offer: use the latest message.")
    return list(raw)


def typed(value: Any) -> str:
    """What an autocomplete's focused option holds, as text (the first :data:`MAX_TYPED`
    characters); anything but a string counts as nothing typed."""
    return value[:MAX_TYPED] if isinstance(value, str) else ""
