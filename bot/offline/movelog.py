"""The plain-text move log: a game's seed, player count and options, then one action per line.

Format (``bazaar demo`` writes it, ``bazaar replay`` reads it)::

    # bazaar move log
    game: pralaya
    seed: 7
    players: 3
    options: {"open_hands": false, ...}
    names: ["Asha", "Bilal", "Chen"]
    seat: 0                (optional: the person's seat in a `bazaar play` save)
    level: normal          (optional: the AI seats' level in a `bazaar play` save)
    0 take b4
    0 done
    ...
    # result: {"ranks": [...], "scores": [...]}

Blank lines and other ``#`` lines are ignored. Each move is ``<seat> <canonical action text>``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from bot.digits import is_digits

HEADER = "# bazaar move log"


class LogError(ValueError):
    """The log text is not a well-formed move log; the message says which line and why."""


@dataclass
class MoveLog:
    game: str
    seed: int
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    names: list[str] = field(default_factory=list)
    moves: list[tuple[int, str]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    seat: int | None = None  # the person's seat, in a game saved by ``bazaar play``
    level: str | None = None  # the AI seats' level, in a game saved by ``bazaar play``

    def dumps(self) -> str:
        """The log as text (ends with a newline)."""
        lines = [
            HEADER,
            f"game: {self.game}",
            f"seed: {self.seed}",
            f"players: {self.players}",
            f"options: {json.dumps(self.options, sort_keys=True)}",
        ]
        if self.names:
            lines.append(f"names: {json.dumps(self.names)}")
        if self.seat is not None:
            lines.append(f"seat: {self.seat}")
        if self.level is not None:
            lines.append(f"level: {self.level}")
        lines += [f"{seat} {action}" for seat, action in self.moves]
        if self.result is not None:
            lines.append(f"# result: {json.dumps(self.result, sort_keys=True)}")
        return "\n".join(lines) + "\n"


def loads(text: str) -> MoveLog:
    """Parse a move log; raises :class:`LogError` naming the bad line (or saying the text is
    not a move log at all, e.g. a binary file)."""
    if "\x00" in text:
        raise LogError("this is a binary file, not a move log")
    head: dict[str, str] = {}
    moves: list[tuple[int, str]] = []
    result = None
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("# result:"):
            try:
                result = json.loads(line[len("# result:") :])
            except json.JSONDecodeError as err:
                raise LogError(f"line {no}: the result is not valid JSON ({err.msg})") from None
            continue
        if line.startswith("#"):
            continue
        key, sep, value = line.partition(":")
        if sep and key in ("game", "seed", "players", "options", "names", "seat", "level") and not moves:
            head[key] = value.strip()
            continue
        seat, _, action = line.partition(" ")
        if not is_digits(seat) or not action.strip():
            raise LogError(f"line {no}: expected `<seat> <action>`, got {raw[:60]!r}")
        moves.append((int(seat), action.strip()))
    for key in ("game", "seed", "players"):
        if key not in head:
            raise LogError(f"the log has no `{key}:` line")
    try:
        seed, players = int(head["seed"]), int(head["players"])
        options = json.loads(head.get("options", "{}"))
        names = json.loads(head.get("names", "[]"))
    except (ValueError, json.JSONDecodeError) as err:
        raise LogError(f"bad header value: {err}") from None
    if not isinstance(options, dict):
        raise LogError("`options:` must be a JSON object")
    if not isinstance(names, list) or not all(isinstance(x, str) for x in names):
        raise LogError("`names:` must be a JSON list of names")
    if result is not None and not isinstance(result, dict):
        raise LogError("the `# result:` line must be a JSON object")
    own_seat = None
    if "seat" in head:
        if not is_digits(head["seat"]):
            raise LogError(f"`seat:` must be a seat number, not {head['seat'][:40]!r}")
        own_seat = int(head["seat"])
    return MoveLog(head["game"], seed, players, options, names, moves, result, own_seat, head.get("level"))
