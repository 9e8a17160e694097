"""A stand-in renderer for the shared parts' tests (captions, recaps, posting, phone.html), so
they run while a game's own renderer is being rebuilt: it draws any game's public view in the
house style (header band, standings strip) at one fixed size per player count, and may offer a
second picture (``extra``). Use :func:`use_stub` (monkeypatches ``render.get``)."""

from __future__ import annotations

import json
import zlib
from types import SimpleNamespace
from typing import Any

from PIL import Image

import render
from render import frame
from render.common import BG, INK, PANEL, canvas, font, seat_color, seat_initials, seat_names

BOARD_H = 760
EXTRA_H = 900


def board_height(n_players: int) -> int:
    return BOARD_H + 10 * n_players


def _digest(view: Any) -> int:
    return zlib.crc32(json.dumps(view, sort_keys=True, default=str).encode())


def _picture(view: dict[str, Any], names: Any, height: int, label: str) -> Image.Image:
    n = int(view.get("n_players") or len(view.get("players") or []) or 2)
    who = seat_names(names, n)
    img, d = canvas(height)
    frame.header(img, d, str(view.get("game", "game")).capitalize(), label)
    tags = seat_initials(who)
    h = _digest(view)
    for i in range(12):  # cells that change with the view
        x, y = 40 + (i % 4) * 235, 120 + (i // 4) * 150
        d.rounded_rectangle((x, y, x + 215, y + 130), 12, fill=PANEL if (h >> i) & 1 else seat_color(i % n))
        d.text((x + 107, y + 65), str((h >> (2 * i)) % 100), font=font(34, True), fill=INK, anchor="mm")
    for s in range(n):
        frame.seat_badge(d, (60 + s * 190, height - 60), s, tags[s], 26)
        d.text((95 + s * 190, height - 60), who[s][:8], font=font(28), fill=INK, anchor="lm")
    return img


def board(view: dict[str, Any], names: Any = None, previous: Any = None) -> Image.Image:
    n = int(view.get("n_players") or 2)
    return _picture(view, names, board_height(n), "board")


def extra(view: dict[str, Any], names: Any = None, previous: Any = None) -> Image.Image:
    return _picture(view, names, EXTRA_H, "extra")


def hand(view: dict[str, Any], names: Any = None) -> Image.Image:
    return _picture(view, names, 600, "hand")


def score_sheet(view: dict[str, Any], names: Any = None) -> Image.Image:
    return _picture(view, names, 700, "final")


def text(view: dict[str, Any], names: Any = None) -> str:
    return str(view.get("headline", ""))


def score_text(view: dict[str, Any], names: Any = None) -> str:
    return ""


def stub(with_extra: bool = False) -> SimpleNamespace:
    """A renderer module stand-in (with ``extra`` when asked)."""
    fns = dict(
        board=board,
        board_height=board_height,
        hand=hand,
        score_sheet=score_sheet,
        text=text,
        score_text=score_text,
    )
    if with_extra:
        fns["extra"] = extra
    return SimpleNamespace(**fns)


def use_stub(monkeypatch: Any, extra_for: frozenset[str] | set[str] = frozenset(), games: Any = None) -> None:
    """Every game (or those in ``games``) drawn by the stub; those in ``extra_for`` with a
    second picture."""
    real = render.get

    def get(game: str) -> Any:
        if games is not None and game not in games:
            return real(game)
        return stub(game in extra_for)

    monkeypatch.setattr(render, "get", get)
    render._marks_changes.cache_clear()
    assert BG
