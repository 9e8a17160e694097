"""The drawing caches change nothing but the time (render.common: fonts that remember glyph
bitmaps and widths, ``stamp`` for pieces drawn once per look, ``to_png``'s palette and levels).

- text from a cached font has the very pixels of the same font uncached;
- a stamped piece has the very pixels of the piece drawn in place, on a plain background and
  (drawn in place instead) on a mixed one; the stamp cache is bounded;
- every game's largest boards come out the same from cold caches and after other games' and
  other seeds' boards filled them (nothing of one board reaches another);
- the PNG is a pure function of the picture, decodes to colours close to it, and a higher
  zlib level is used only when the fast one would pass the size limit.
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont

import render
from engines import base
from render import common, house, pieces
from render.common import PANEL, canvas, clear_caches, font, panel, stamp, to_png

NAMES = ["Asha", "Bilal", "Chen", "Dara", "Emeka"]


def _same(a: Image.Image, b: Image.Image) -> bool:
    return a.mode == b.mode and a.size == b.size and a.tobytes() == b.tobytes()


def test_cached_fonts_draw_the_same_pixels_as_plain_ones() -> None:
    cases = [
        ("Asha takes b4 (Gold Coin)", 28, False, False, "la", (10, 10)),
        ("−18 · ✔ ▶ 3rd", 30, True, False, "mm", (300.5, 60.25)),
        ("Supremacy: all stall pieces placed", 26, False, True, "ls", (12.75, 130)),
        ("10 / −7", 44, True, True, "rm", (590, 170.5)),
    ]
    a, da = canvas(220, 600)
    b, db = canvas(220, 600)
    for text, size, bold, cond, anchor, xy in cases * 2:  # the second round comes from the cache
        f = font(size, bold, cond)
        plain = ImageFont.truetype(f.path, size)
        da.text(xy, text, font=f, fill=(34, 32, 30), anchor=anchor)
        db.text(xy, text, font=plain, fill=(34, 32, 30), anchor=anchor)
        assert f.getlength(text) == plain.getlength(text)
    assert _same(a, b)
    assert ImageChops.difference(a, canvas(220, 600)[0]).getbbox() is not None  # it drew something


def _piece(img: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float) -> None:
    d.rounded_rectangle((x, y, x + 60, y + 40), radius=9, fill=(0, 114, 178), outline=(20, 20, 20), width=2)
    d.text((x + 30, y + 20), "12", font=font(26, True), fill=(255, 255, 255), anchor="mm")


def test_a_stamped_piece_has_the_pixels_of_the_piece_drawn_in_place() -> None:
    clear_caches()
    a, da = canvas(200, 400)
    b, db = canvas(200, 400)
    for d in (da, db):
        panel(d, (0, 0, 399, 120))
        d.line((300, 130, 399, 199), fill=(200, 0, 0), width=3)  # a mixed background at the right
    spots = [(10, 10), (100, 10), (200, 60), (330, 140), (12.5, 140)]  # cached, cached, …, fractional
    for x, y in spots:
        _piece(a, da, x, y)
        stamp(b, (x, y, x + 60, y + 40), ("test.piece", 12), _piece)
    assert _same(a, b)
    assert len(pieces._stamps) == 2  # one per background (panel, page); the others drew in place


def test_the_stamp_cache_is_bounded_and_keyed(monkeypatch: pytest.MonkeyPatch) -> None:
    clear_caches()
    monkeypatch.setattr(pieces._stamps, "size", 3)
    img, _ = canvas(100, 400)

    def label(s: str) -> Callable[[Image.Image, ImageDraw.ImageDraw, float, float], None]:
        return lambda im, d, x, y: d.text((x + 2, y + 2), s, font=font(26), fill=(0, 0, 0))

    for i in range(5):
        stamp(img, (0, 0, 60, 30), ("test.label", str(i)), label(str(i)))
    assert len(pieces._stamps) == 3
    assert [k[0][1] for k in pieces._stamps if isinstance(k, tuple)] == [
        "2",
        "3",
        "4",
    ]  # the least recently used went
    # the same key on another background is another piece; another key is never reused
    a, _ = canvas(100, 400, PANEL)
    stamp(a, (0, 0, 60, 30), ("test.label", "4"), label("4"))
    stamp(a, (100, 0, 160, 30), ("test.label", "5"), label("5"))
    want, dw = canvas(100, 400, PANEL)
    label("4")(want, dw, 0, 0)
    label("5")(want, dw, 100, 0)
    assert _same(a, want)


def _late_views(
    game: str, seed: int, count: int
) -> tuple[list[str], list[tuple[base.View, base.View | None, list[str]]]]:
    """(view, previous, caption) of the last ``count`` moves of a seeded random game at the
    game's most players."""
    engine = base.get(game)
    n = engine.max_players
    rng = random.Random(seed)
    state = engine.setup(seed, n, {})
    out: list[tuple[base.View, base.View | None, list[str]]] = []
    previous: base.View | None = None
    while engine.outcome(state) is None:
        seat = rng.choice(engine.to_move(state))
        state, events = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        view = engine.view(state, None)
        caption = [base.format_text(ev.text, NAMES[:n]) for ev in base.events_for(events, None)]
        out.append((view, previous, caption))
        previous = view
    return NAMES[:n], out[-count:]


GAMES = [e.name for e in base.games()]


@pytest.mark.parametrize("game", GAMES)
def test_boards_do_not_depend_on_what_was_drawn_before(game: str) -> None:
    names, steps = _late_views(game, 5, 3)
    cold = []
    for view, previous, caption in steps:
        clear_caches()
        cold.append(render.board_image(game, view, names, caption=caption, previous=previous))
    clear_caches()
    for other in GAMES:  # fill the caches with other games' and another seed's boards
        o_names, o_steps = _late_views(other, 6, 2)
        for view, previous, caption in o_steps:
            render.board_image(other, view, o_names, caption=caption, previous=previous)
    for (view, previous, caption), want in zip(steps, cold, strict=True):
        warm = render.board_image(game, view, names, caption=caption, previous=previous)
        assert _same(warm, want)
        assert to_png(warm) == to_png(want)


def _decoded(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as im:
        assert im.mode == "P"
        return im.convert("RGB")


@pytest.mark.parametrize("game", GAMES)
def test_the_png_keeps_the_board_s_colours(game: str) -> None:
    names, steps = _late_views(game, 7, 1)
    view, previous, caption = steps[0]
    img = render.board_image(game, view, names, caption=caption, previous=previous)
    png = to_png(img)
    assert png == to_png(img.copy())
    assert len(png) <= common.PNG_LIMIT
    diff = ImageChops.difference(img.convert("RGB"), _decoded(png))
    r, g, b = diff.split()
    worst = ImageChops.lighter(ImageChops.lighter(r, g), b).histogram()
    total = img.width * img.height
    # (an octree over every pixel, the encoder before, gave at most 51 and 0.11 % beyond 16)
    assert max(i for i, c in enumerate(worst) if c) <= 48  # no pixel far off
    assert sum(worst[17:]) / total < 0.001  # hardly any visibly off (anti-aliased edges)
    assert sum(worst[9:]) / total < 0.025


def test_a_higher_zlib_level_only_when_the_fast_one_is_too_big() -> None:
    game = GAMES[0]
    names, steps = _late_views(game, 7, 1)
    view, previous, caption = steps[0]
    img = render.board_image(game, view, names, caption=caption, previous=previous)
    fast = to_png(img, limit=10**9)
    small = to_png(img, limit=1)
    assert len(small) < len(fast)
    assert _same(_decoded(small), _decoded(fast))  # the same pixels either way
    assert to_png(img, limit=len(fast)) == fast
    assert to_png(img, limit=len(fast) - 1) != fast


@pytest.mark.parametrize("n", [2, 4])
def test_phraya_boards_fit_at_the_fastest_level(n: int) -> None:
    """A Phraya board (now one square canvas, its charts in the second picture) fits the limit
    at zlib level 1, so it keeps every game's levels (no ``BOARD_PNG_LEVELS``), and what a
    board encodes to is what the bot posts."""
    engine = base.get("phraya")
    view = engine.view(engine.setup(5, n, {}), None)
    names = [f"P{i}" for i in range(n)]
    img = render.board_image("phraya", view, names, caption=["P0 plays a card"])
    assert len(to_png(img, levels=(1,))) <= common.PNG_LIMIT
    assert all(render.board_png_levels(g) == common.PNG_LEVELS for g in GAMES)
    png = render.board_png("phraya", view, names, caption=["P0 plays a card"])
    on_house = house.palette("phraya", "board", n)  # the bot's encoding: on the house palette
    assert png == to_png(img, house=on_house) == to_png(img, levels=(1,), house=on_house)


def test_a_picture_of_few_colours_comes_back_exactly() -> None:
    """A picture of at most 256 colours (a data picture, a plain card) keeps every pixel: the
    sampled palette's nearest-colour mapping would move some by a few levels."""
    rng = random.Random(3)
    img = Image.new("RGB", (300, 200))
    img.putdata(
        [(100 + rng.randrange(16), 50 + rng.randrange(4), 7) for _ in range(300 * 200)]
    )  # 1 level apart
    assert img.getcolors(256) is not None
    assert _same(_decoded(to_png(img)), img)
