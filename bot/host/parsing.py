"""What the host reads from people: game numbers (as a command option or custom id carries
them) and game options (``name=value`` pairs). Whether a move's text may be shown to everyone
is the engine's to say (``Engine.private_action``)."""

from __future__ import annotations

import re
from typing import Any

from bot.digits import is_digits
from engines import base
from engines.base import Engine

from .live import Refusal

_OPTION = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(\S+)$")

MAX_GAME_ID = 2**63 - 1


def no_game_here(number: int) -> str:
    """The one refusal for a game number that names no game the asker may see: the same whether
    the game exists elsewhere (another server, a hidden channel) or not at all."""
    return f"There is no game #{number} here. `/game list` shows the games you can see."


def game_number(value: object) -> int:
    """``value`` (an int, or digits as a command option or custom id may carry them) as a game
    number. Raises :class:`Refusal` for anything else, or a number no game can have."""
    if isinstance(value, bool):
        raise Refusal(f"`{value}` is not a game number.")
    if isinstance(value, int):
        number = value
    elif isinstance(value, str) and is_digits(value.strip().lstrip("#")) and len(value.strip()) <= 20:
        number = int(value.strip().lstrip("#"))
    else:
        raise Refusal(f"`{str(value)[:30]}` is not a game number.")
    if not 0 < number <= MAX_GAME_ID:
        raise Refusal(no_game_here(number))
    return number


def parse_options(engine: Engine, text: str | None) -> dict[str, Any]:
    """``name=value`` pairs (separated by spaces or commas) resolved against ``engine``'s options.

    Returns the full option dict (defaults filled in). Raises ``BadOption`` naming the problem."""
    raw: dict[str, Any] = {}
    for token in re.split(r"[,\s]+(?=[A-Za-z_][A-Za-z0-9_]*\s*=)", (text or "").strip()):
        token = token.strip().strip(",")
        if not token:
            continue
        m = _OPTION.match(token)
        if not m:
            names = ", ".join(o.name for o in engine.options) or "none"
            raise base.BadOption(
                f"Options look like `name=value` (e.g. `{_example(engine)}`), not `{token}`. "
                f"{engine.title} options: {names}."
            )
        raw[m.group(1).lower()] = m.group(2)
    return engine.resolve_options(raw)


def _example(engine: Engine) -> str:
    for o in engine.options:
        return f"{o.name}={str(o.default).lower()}"
    return "name=value"
