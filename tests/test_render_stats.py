"""``render/stats.py``, the picture of ``/stats``: each seat's bar is as long as its share of
wins, in its colour; each AI level's bar is split ahead / level / behind; the picture is 1000 px
wide and about square for a usual game."""

from __future__ import annotations

import io

from PIL import Image

from render import stats
from render.common import BAD, GOOD, MUTED, PANEL, seat_color


def test_bars_are_as_long_as_the_shares() -> None:
    img = stats.picture("Ra", "4 games", [(3, 4, [2, 1, 4])], [("hard", 4, 2, 1, 1)]).convert("RGB")
    assert img.width == 1000 and 600 <= img.height <= 1100
    x0, w = stats.MARGIN + stats.LABEL_W, stats.BAR_W
    top = 80 + 60 + stats.ROW  # below the header, the summary and the player count's line
    for seat, share in enumerate((0.5, 0.25, 1.0)):
        y = top + seat * stats.ROW + stats.ROW // 2
        assert img.getpixel((int(x0 + w * share) - 12, y)) == seat_color(seat), seat
        if share < 1:
            assert img.getpixel((int(x0 + w * share) + 12, y)) == PANEL, seat
    y = top + 3 * stats.ROW + stats.GAP + stats.ROW + stats.ROW // 2  # the AI level's bar
    parts = [(GOOD, 0.25), (MUTED, 0.625), (BAD, 0.875)]  # 2 ahead, 1 level, 1 behind of 4
    for colour, at in parts:
        assert img.getpixel((int(x0 + w * at), y)) == colour


def test_png_decodes() -> None:
    png = stats.png("Kathai", "1 game", [(3, 1, [1, 0, 0]), (5, 1, [0, 0, 0, 1, 0])], [])
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG" and img.width == 1000


def test_a_game_of_many_player_counts_stays_about_square() -> None:
    """Kathai's three player counts and three AI levels: thinner rows, not a taller picture."""
    counts = [(3, 200, [70, 66, 64]), (4, 150, [40, 35, 40, 35]), (5, 62, [10, 14, 12, 16, 10])]
    levels = [("easy", 90, 20, 60, 10), ("normal", 80, 35, 40, 5), ("hard", 70, 45, 20, 5)]
    img = stats.picture("Kathai", "412 games", counts, levels)
    assert img.width == 1000 and 900 <= img.height <= stats.MAX_H, img.size
    few = stats.picture("Kathai", "412 games", counts[:1], [])
    assert few.height < img.height
