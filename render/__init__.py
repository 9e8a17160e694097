"""Pure drawing: a view (from ``engines``) -> ``PIL.Image``. No discord, sqlite or asyncio.

Each game has a module ``render.<game>`` exposing:

* ``board(view, names=None, previous=None) -> Image``: the public snapshot (pass
  ``view(state, None)``); ``previous`` is the public view of the board posted before it (None
  for the first), and the board marks what changed since (cells taken, tiles drawn, prices moved).
  It is exactly 1000 × ``board_height(n_players)`` px, one size through a game.
  Use :func:`board_image`, which also puts the caption strip of the last moves on top
  (:func:`board_parts` gives the two apart, :func:`board_png` the PNG the bot posts, either
  with the strip or, for a message that says its caption as text, without it);
* ``board_height(n_players) -> int``: that height; with the caption strip
  (:data:`render.caption.HEIGHT`) at most :data:`render.frame.MAX_HEIGHT`;
* ``hand(view, names=None) -> Image``: one player's private view (pass ``view(state, seat)``);
* ``score_sheet(view, names=None) -> Image``: the final sheet (a view of a finished game);
* ``text(view, names=None) -> str``: the same information as plain text (terminal, DM text);
* ``score_text(view, names=None) -> str``: a finished game's final score as text, by category
  per seat, best first, with the reason for a zero where the seat held something for it ("Fossils:
  tied with Bob (2 each), a tie scores nothing"); "" while the game runs.

Optionally:

* ``interim_sheet(view, events, names=None) -> (caption, Image) | None``: a sheet to show when
  ``events`` (the public events of one batch of moves) closed a scoring stage before the end,
  e.g. a Ra epoch; the bot posts it above the new board (:func:`interim_sheet` asks for it).
* ``epoch_text(events, names=None) -> str | None``: the same as text, by category with the
  reasons for zeros (the terminal prints it).
* ``extra(view, names=None, previous=None) -> Image``: a second public picture posted with the
  board in the same message, for a game whose board does not fit one square canvas (Phraya's
  prices, Temple, King, market and players), or None where the game's options need none (Pralaya
  without open hands); at most 1000 × 1100 px, one size through a game.
  :func:`board_images` gives both, :func:`extra_png` the second as the bot posts it.
* ``BOARD_PNG_LEVELS``: the zlib levels :func:`board_png` tries (default
  :data:`render.png.PNG_LEVELS`), for a game whose boards never fit the size limit at the
  fastest level, so that no board pays for a try that is thrown away.

Shared by every game: ``render.recap`` (the animated recap of a whole game, from its boards),
``render.png`` (the PNG encoder; :func:`encode` uses it on the game's house palette,
``render.house``), ``render.frame`` (the house style), ``render.caption`` (the caption strip),
``render.pieces`` (pieces drawn once and pasted after) and ``render.common`` (fonts, colours,
text).
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Mapping, Sequence
from functools import cache
from types import ModuleType
from typing import Any

from PIL import Image

from .caption import Caption, strip
from .common import seat_color
from .png import PNG_LEVELS, Picture, stack, to_png


def get(game: str) -> ModuleType:
    """The renderer module of ``game`` (e.g. ``render.pralaya``)."""
    return importlib.import_module(f"render.{game}")


def interim_sheet(
    game: str, view: Any, events: Sequence[Any], names: Sequence[str] | None = None
) -> tuple[str, Image.Image] | None:
    """The interim sheet ``render.<game>`` offers for ``events`` (public events of one batch of
    moves, or of one move) seen from the spectator ``view`` after them: ``(caption, image)``, or
    None when the game has no interim sheets or these events close no stage."""
    offer = getattr(get(game), "interim_sheet", None)
    if offer is None:
        return None
    found: tuple[str, Image.Image] | None = offer(view, events, list(names or []))
    return found


@cache
def _marks_changes(game: str) -> bool:
    return "previous" in inspect.signature(get(game).board).parameters


def board_parts(
    game: str,
    view: Mapping[str, Any],
    names: Sequence[str] | None = None,
    *,
    caption: Caption = (),
    previous: Mapping[str, Any] | None = None,
    tones: int = 0,
    with_strip: bool = True,
) -> list[Image.Image]:
    """The posted board of ``game`` as its two parts, top to bottom: the caption strip of
    ``caption`` (the public lines of what happened since ``previous``; its text in ``tones``
    levels where given: see :func:`render.caption.strip`) and ``board(view, names, previous)``
    (RGB). :func:`board_png` encodes them without copying them onto one canvas. Without
    ``with_strip`` only the board (a message that says its caption as text)."""
    board = get(game).board
    img = board(view, names, previous=previous) if _marks_changes(game) else board(view, names)
    img = img if img.mode == "RGB" else img.convert("RGB")
    return [strip(caption, img.width, tones=tones), img] if with_strip else [img]


def board_image(
    game: str,
    view: Mapping[str, Any],
    names: Sequence[str] | None = None,
    *,
    caption: Caption = (),
    previous: Mapping[str, Any] | None = None,
    tones: int = 0,
) -> Image.Image:
    """The posted board of ``game`` as one picture: :func:`board_parts` on one canvas."""
    return stack(board_parts(game, view, names, caption=caption, previous=previous, tones=tones))


def seat_colour(seat: int) -> int:
    """The colour of ``seat`` in every picture (:func:`render.common.seat_color`) as a 24-bit
    RGB number, for what a message shows beside the pictures (a Components V2 accent)."""
    r, g, b = seat_color(seat)
    return (r << 16) | (g << 8) | b


def has_extra(game: str) -> bool:
    """Whether ``render.<game>`` draws a second picture beside its board (``extra``)."""
    return hasattr(get(game), "extra")


def extra_image(
    game: str,
    view: Mapping[str, Any],
    names: Sequence[str] | None = None,
    *,
    previous: Mapping[str, Any] | None = None,
) -> Image.Image | None:
    """The second public picture of ``game`` for ``view``, or None for a game with one picture."""
    draw = getattr(get(game), "extra", None)
    if draw is None:
        return None
    img: Image.Image | None = draw(
        view, names, previous=previous
    )  # None: no second picture for this game's options
    return img


def board_images(
    game: str,
    view: Mapping[str, Any],
    names: Sequence[str] | None = None,
    *,
    caption: Caption = (),
    previous: Mapping[str, Any] | None = None,
) -> list[Image.Image]:
    """Every public picture of one posted board: :func:`board_image`, then the game's
    :func:`extra_image` where it has one."""
    out = [board_image(game, view, names, caption=caption, previous=previous)]
    second = extra_image(game, view, names, previous=previous)
    if second is not None:
        out.append(second)
    return out


def canvas_height(game: str, n_players: int) -> int:
    """The height of every posted board of ``game`` at ``n_players`` (caption strip included)."""
    from .caption import HEIGHT

    h: int = get(game).board_height(n_players)
    return HEIGHT + h


def board_png(
    game: str,
    view: Mapping[str, Any],
    names: Sequence[str] | None = None,
    *,
    caption: Caption = (),
    previous: Mapping[str, Any] | None = None,
    with_strip: bool = True,
) -> bytes:
    """:func:`board_image` encoded as the bot posts it: :func:`render.png.to_png` at the game's
    ``BOARD_PNG_LEVELS``, on the game's house palette for ``len(names)`` players where it fits
    (:mod:`render.house`); without ``with_strip``, the board alone (see :func:`board_parts`)."""
    parts = board_parts(game, view, names, caption=caption, previous=previous, with_strip=with_strip)
    return encode(game, "board", parts, len(names or ()), board_png_levels(game))


def extra_png(
    game: str,
    view: Mapping[str, Any],
    names: Sequence[str] | None = None,
    *,
    previous: Mapping[str, Any] | None = None,
) -> bytes | None:
    """:func:`extra_image` encoded as the bot posts it (on the house palette of the game's
    second pictures), or None for a game with one picture."""
    img = extra_image(game, view, names, previous=previous)
    return None if img is None else encode(game, "extra", img, len(names or ()))


def encode(game: str, kind: str, img: Picture, n_players: int, levels: Sequence[int] = PNG_LEVELS) -> bytes:
    """``img`` (a picture or its parts), a ``kind`` ("board", "extra") of picture of ``game``
    at ``n_players``, as PNG (:func:`render.png.to_png` on the house palette of that kind
    where there is one)."""
    from . import house  # not at import: ``python -m render.house`` runs it as a script

    return to_png(img, levels=levels, house=house.palette(game, kind, n_players))


def board_png_levels(game: str) -> Sequence[int]:
    """The zlib levels a board of ``game`` is encoded at, fastest first (``BOARD_PNG_LEVELS``)."""
    levels: Sequence[int] = getattr(get(game), "BOARD_PNG_LEVELS", PNG_LEVELS)
    return levels
