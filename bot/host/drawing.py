"""The drawing jobs the publisher sends to the worker pool (:class:`~bot.host.workers.Workers`):
each takes a game's name and a view (or, for a finished game's recap, its seed and move log) and
returns bytes or text, so it runs the same in a worker process or a thread.

A job never receives a state: only ``view(state, viewer)`` of the message's reader, the seat names
and public events. The recap replays the whole log, but only of a finished game, and draws only
spectator boards. Nothing here imports discord, so a worker process stays light.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import render
from engines import base
from render import recap as recaps
from render.caption import Caption
from render.common import to_png


def warm() -> int:
    """Import every engine and renderer in a new worker (fonts are loaded by the first drawing);
    returns the worker's process id."""
    import os

    import engines

    engines.load_all()
    for engine in base.games():
        render.get(engine.name)
    return os.getpid()


def picture(kind: str, what: str, view: dict[str, Any], names: Sequence[str]) -> bytes:
    """``render.<kind>.<what>(view, names)`` (a hand, a score sheet, a plain board) as PNG."""
    return to_png(getattr(render.get(kind), what)(view, list(names)))


def board(
    kind: str,
    view: dict[str, Any],
    names: Sequence[str],
    caption: Caption,
    previous: dict[str, Any] | None,
    with_strip: bool = True,
) -> bytes:
    """The posted board (the caption strip of ``caption`` on top unless not ``with_strip``, what
    changed since the public view ``previous`` marked) as PNG."""
    return render.board_png(
        kind, view, list(names), caption=list(caption), previous=previous, with_strip=with_strip
    )


def boards(
    kind: str,
    view: dict[str, Any],
    names: Sequence[str],
    caption: Caption,
    previous: dict[str, Any] | None,
    with_strip: bool = True,
) -> list[bytes]:
    """The posted board as :func:`board` draws it, then the game's second picture (its
    ``extra``, e.g. Phraya's prices and players) where it has one: every picture of one post."""
    out = [board(kind, view, names, caption, previous, with_strip)]
    second = render.extra_png(kind, view, list(names), previous=previous)
    if second is not None:
        out.append(second)
    return out


def view_text(kind: str, view: dict[str, Any], names: Sequence[str]) -> str:
    """``render.<kind>.text(view, names)``."""
    text: str = render.get(kind).text(view, list(names))  # a renderer module: untyped attribute
    return text


def interim_sheet(
    kind: str, view: dict[str, Any], events: Sequence[Any], names: Sequence[str]
) -> tuple[str, bytes] | None:
    """``(caption, PNG)`` of the interim sheet the renderer offers for these public ``events``
    seen from the spectator ``view``, or None."""
    found = render.interim_sheet(kind, view, list(events), list(names))
    if found is None:
        return None
    caption, img = found
    return caption, to_png(img)


def recap(
    kind: str, seed: int, n_players: int, options: Any, moves: Sequence[tuple[int, str]], names: Sequence[str]
) -> bytes:
    """The animated recap (GIF bytes) of a finished game from its seed and move log: one posted
    board per turn, with the turn's caption."""
    made = recaps.recap(
        base.get(kind), seed, n_players, options, list(moves), recaps.posted(kind), list(names)
    )
    return made.data
