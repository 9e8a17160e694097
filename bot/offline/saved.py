"""Where ``bazaar play`` keeps the game in progress: a move log (with the person's seat), written
after every move so that ``bazaar play --resume`` continues it after Ctrl-C, Ctrl-D or a crash.
"""

from __future__ import annotations

import contextlib
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
    interrupted write never leaves half a game. Raises :class:`SaveError` (one line, nothing
    left behind) when ``path`` cannot be written: a folder, a read-only place, ``/proc``."""
    if path.is_dir():
        raise SaveError(f"cannot save the game to {path}: it is a folder; give a file name")
    for up in path.parents:
        if up.exists() and not up.is_dir():
            raise SaveError(f"cannot save the game to {path}: {up} is not a folder")
    tmp = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(log.dumps(), encoding="utf-8")
        os.replace(tmp, path)
    except OSError as err:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        why = (err.strerror or str(err)).lower()
        if path.parent.is_dir():  # e.g. /proc, a read-only disk: the folder takes no new file
            why = f"no file can be made in {path.parent} ({why})"
        raise SaveError(f"cannot save the game to {path}: {why}") from None


def load(path: Path) -> MoveLog | None:
    """The game saved at ``path``, or None when there is none. Raises :class:`SaveError` when the
    file exists but is not a saved game."""
    try:
        text = path.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError):  # (a path under a file: nothing saved there)
        return None
    except IsADirectoryError:
        raise SaveError(f"{path} is a folder, not a saved game") from None
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
