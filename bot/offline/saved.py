"""Where ``bazaar play`` keeps the game in progress: a move log (with the person's seat), written
after every move so that ``bazaar play --resume`` continues it after Ctrl-C, Ctrl-D or a crash.
"""
from __future__ import annotations

import os
from pathlib import Path

from .movelog import LogError, MoveLog, loads


class SaveError(Exception):
    """The saved game cannot be read; the message is one line saying why."""


def default_path() -> Path:
    """``$BAZAAR_PLAY_SAVE``, else ``$XDG_STATE_HOME/bazaar/play.log`` (``~/.local/state``
    when XDG_STATE_HOME is unset)."""
    env = os.environ.get("BAZAAR_PLAY_SAVE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "bazaar" / "play.log"


def save(path: Path, log: MoveLog) -> None:
    """Write ``log`` to ``path`` (folders created), replacing it in one step so that an
    interrupted write never leaves half a game."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(log.dumps(), encoding="utf-8")
    os.replace(tmp, path)


def load(path: Path) -> MoveLog | None:
    """The game saved at ``path``, or None when there is none. Raises :class:`SaveError` when the
    file exists but is not a saved game."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError:
        raise SaveError(f"{path} is not a saved game (not UTF-8 text)") from None
    except OSError as err:
        raise SaveError(f"cannot read {path}: {err.strerror}") from None
    try:
        log = loads(text)
    except LogError as err:
        raise SaveError(f"{path} is not a saved game: {err}") from None
    if log.seat is None:
        raise SaveError(f"{path} is a move log, not a game saved by `bazaar play` (it has no `seat:`)")
    return log


def forget(path: Path) -> None:
    """Remove the save (the game ended)."""
    path.unlink(missing_ok=True)
