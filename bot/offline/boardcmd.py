"""The terminal's ``board`` command: the board as text, the game's text map when it has one
(``engine.text_map(view, names)``, e.g. Phraya's islands and channels), and the board picture
the bot posts, written to a file whose path it prints.

The picture is the public board (the spectator's view), drawn by :func:`render.board_png` as the
bot draws it; the text and the map are the person's own view.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import render


def png_path(game: str, save: Path | None) -> Path:
    """Where the board picture goes: beside the saved game, else in the temporary directory."""
    name = f"{game}-board.png"
    return save.with_name(name) if save is not None else Path(tempfile.gettempdir()) / f"bazaar-{name}"


def write_png(engine: Any, state: Any, names: list[str], path: Path) -> Path:
    """Draw the public board of ``state`` as the bot posts it and write it to ``path``."""
    png = render.board_png(engine.name, engine.view(state, None), names)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(png)
    return path


def show(session: Any) -> None:
    """``board`` in a :class:`bot.offline.terminal.Session`: the board, the map, the picture's
    file, then the moves."""
    session.show_board()
    engine = session.engine
    mapper = getattr(engine, "text_map", None)
    if mapper is not None:
        print(mapper(engine.view(session.state, session.human), session.names), file=session.out, flush=True)
    path = png_path(engine.name, session.save)
    try:
        write_png(engine, session.state, list(session.names), path)
        session.say(f"The board picture (as the bot posts it) is in {path}.")
    except OSError as err:
        session.say(f"The board picture could not be written to {path}: {err.strerror or err}.")
    session.show_moves()
