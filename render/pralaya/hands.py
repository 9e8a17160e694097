"""The second picture of a Pralaya game played with open hands: every seat's relics, one row per
seat, at one size per player count (the board itself keeps only the hand sizes)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import Image

from engines.pralaya.view import PralayaView
from render.common import (
    INK,
    LINE,
    MIN_TEXT,
    MUTED,
    PANEL,
    WIDTH,
    canvas,
    fit,
    font,
    mark_box,
    seat_initials,
    seat_ink,
)
from render.frame import HEADER_H, MARGIN, header, seat_badge
from render.pralaya.cards import sort_key
from render.pralaya.changes import changes
from render.pralaya.draw import names_for
from render.pralaya.icons import paste_icon

ROW_H = 112  # two lines of relic chips
NAME_W = 250
CHIP_W = 104


def hands_height(n_players: int) -> int:
    """The height of the open-hands picture at ``n_players``."""
    return HEADER_H + 14 + n_players * (ROW_H + 8) + MARGIN


def extra(
    view: PralayaView, names: Sequence[str] | None = None, previous: PralayaView | None = None
) -> Image.Image | None:
    """Every seat's relics when the game is played with open hands (None otherwise: the hands
    are hidden, and the board says all there is)."""
    if not (view.get("options") or {}).get("open_hands"):
        return None
    nm = names_for(view, names)
    n = int(view["n_players"])
    img, d = canvas(hands_height(n))
    header(img, d, "Pralaya", "Open hands", over=bool(view.get("over")))
    marked = changes(previous, view).players if previous is not None else {}
    initials = seat_initials(nm)
    y = HEADER_H + 14
    for p in view.get("players", []):
        seat = int(p["seat"])
        box = (MARGIN, y, WIDTH - MARGIN, y + ROW_H)
        d.rounded_rectangle(box, radius=10, fill=PANEL, outline=LINE, width=2)
        seat_badge(d, (MARGIN + 30, y + 30), seat, initials[seat], 19)
        t, f = fit(nm[seat], NAME_W - 70, 28, True)
        d.text((MARGIN + 58, y + 30), t, font=f, fill=seat_ink(seat), anchor="lm")
        hs = int(p.get("hand_size", 0))
        d.text(
            (MARGIN + 16, y + 80),
            f"{hs} card{'' if hs == 1 else 's'}",
            font=font(MIN_TEXT),
            fill=MUTED,
            anchor="lm",
        )
        _chips(img, p.get("hand") or {}, MARGIN + NAME_W, y + 6)
        if "hand" in marked.get(seat, frozenset()):
            mark_box(d, (box[0] - 3, box[1] - 3, box[2] + 3, box[3] + 3), radius=12, width=4)
        y += ROW_H + 8
    return img


def _chips(img: Image.Image, hand: Mapping[str, int], x0: int, y0: int) -> None:
    """Icon-and-count chips of a visible hand, two lines of them from (x0, y0)."""
    from PIL import ImageDraw

    d = ImageDraw.Draw(img)
    per_line = (WIDTH - MARGIN - 10 - x0) // CHIP_W
    codes = sorted((c for c, k in hand.items() if k), key=sort_key)
    if not codes:
        d.text((x0, y0 + 50), "no relics", font=font(MIN_TEXT), fill=MUTED, anchor="lm")
    for i, code in enumerate(codes[: 2 * per_line]):
        r, c = divmod(i, per_line)
        x, y = x0 + c * CHIP_W, y0 + r * 50
        paste_icon(img, code, (x, y + 3), 40)
        d.text((x + 44, y + 24), f"×{hand[code]}", font=font(28, True), fill=INK, anchor="lm")
