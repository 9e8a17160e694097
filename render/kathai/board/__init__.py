"""The Kathai board: its sections drawn top to bottom on the fixed canvas (``table``: the house
header, the market, the pile and last sale, the offer line; ``seats``: the seat cards and the
legend)."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from render import frame
from render.kathai.board.seats import draw_legend, draw_seats
from render.kathai.board.table import draw_header, draw_market, draw_offer, draw_supply
from render.kathai.layout import Ctx, View, board_height, new_canvas
from render.kathai.marks import labels


def board_image(view: View, names: Sequence[str] | None = None, previous: View | None = None) -> Image.Image:
    """The public snapshot of a spectator view at its fixed size, with what changed since
    ``previous`` outlined and labelled."""
    c = Ctx(view, names)
    marks = dict(labels(previous, view, c.names))
    img, d = new_canvas()
    y = draw_header(img, d, c)
    y = draw_market(img, d, c, y, marks)
    y = draw_supply(img, d, c, y, marks)
    y = draw_offer(img, d, c, y, marks)
    y = draw_seats(img, d, c, y, marks)
    y = draw_legend(img, d, y)
    if y + frame.MARGIN // 2 > img.height:
        raise ValueError(f"the Kathai board drew to {y} px, past its fixed {img.height} px")
    return frame.fixed(img, board_height(c.n))
