"""The PNG encoder (render.png) and the house palettes (render.house).

- the file it writes decodes, in Pillow, to the very pixels and palette of Pillow's own file of
  the same palette image, for a board and a small picture, at the fast and the slow levels;
- with or without ISA-L's deflate (the ``isal`` package), the file decodes to the same pixels;
- a house palette is a constant of the code: made again, it is the same palette;
- boards encoded on their game's house palette keep their colours as closely as the test of
  the sampled palette asks (tests/test_render_caches.py), and a picture the house palette does
  not fit falls back to a palette of its own.
"""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops, ImageDraw

import render
from engines import base
from render import caption, house
from render import png as encoder

NAMES = ["Asha", "Bilal", "Chen", "Dara", "Emeka"]
GAMES = [e.name for e in base.games()]


def _decoded(data: bytes) -> Image.Image:
    with Image.open(io.BytesIO(data)) as im:
        im.load()
        return im.copy()


def _pillow(q: Image.Image, level: int) -> bytes:
    buf = io.BytesIO()
    q.save(buf, format="PNG", compress_level=level)
    return buf.getvalue()


def _posted(game: str, seed: int, n: int | None = None) -> tuple[Image.Image, int]:
    """A posted board of ``game`` late in a seeded random game (at most 400 moves) of ``n``
    (default: the most) players."""
    engine = base.get(game)
    n = n or engine.max_players
    rng = random.Random(seed)
    state = engine.setup(seed, n, {})
    previous, lines, moves = None, [], 0
    view = engine.view(state, None)
    while engine.outcome(state) is None and moves < 400:
        seat = rng.choice(engine.to_move(state))
        state, events = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        previous, view = view, engine.view(state, None)
        lines = caption.lines_of([(seat, events)], NAMES[:n])
        moves += 1
    return render.board_image(game, view, NAMES[:n], caption=lines, previous=previous), n


def _worst(a: Image.Image, b: Image.Image) -> list[int]:
    r, g, bl = ImageChops.difference(a.convert("RGB"), b.convert("RGB")).split()
    return ImageChops.lighter(ImageChops.lighter(r, g), bl).histogram()


@pytest.mark.parametrize("game", GAMES)
def test_the_file_decodes_to_pillow_s_own_pixels(game: str) -> None:
    img, _ = _posted(game, 11)
    small = img.crop((0, 0, 400, 300))
    for picture in (img, small):
        q = encoder.palette_image(picture)
        assert q.mode == "P"
        for level, limit in ((1, 10**9), (9, 1)):  # limit 1: every level is tried, the last kept
            ours = _decoded(encoder.to_png(picture, limit=limit, levels=(1, 6, 9) if limit == 1 else (1,)))
            theirs = _decoded(_pillow(q, level))
            assert ours.mode == theirs.mode == "P"
            assert ours.size == theirs.size == picture.size
            assert ours.tobytes() == theirs.tobytes()
            assert ours.getpalette() == theirs.getpalette()


def test_without_isal_zlib_writes_the_same_pixels(monkeypatch: pytest.MonkeyPatch) -> None:
    img, n = _posted("ra", 12)
    palette = house.palette("ra", "board", n)
    fast = encoder.to_png(img, house=palette)
    monkeypatch.setattr(encoder, "isal_zlib", None)
    plain = encoder.to_png(img, house=palette)
    a, b = _decoded(fast), _decoded(plain)
    assert a.tobytes() == b.tobytes() and a.getpalette() == b.getpalette()


def test_every_game_has_its_house_palettes() -> None:
    for engine in base.games():
        for n in range(engine.min_players, engine.max_players + 1):
            made = house.palette(engine.name, "board", n)
            assert made is not None and len(made.getpalette() or []) == 3 * 256, (engine.name, n)
            assert house.palette(engine.name, "board", n) is made  # read once per process
    assert house.palette("phraya", "extra", 3) is not None
    assert house.palette("pralaya", "board", 9) is None  # no such player count
    assert house.palette("ra", "extra", 3) is None  # Ra draws no second picture


@pytest.mark.slow
def test_the_stored_house_palettes_are_the_ones_made_now() -> None:
    """A palette is made the same way every time from the code's own pictures; after a change to
    a game's colours or art, ``python -m render.house`` makes them again."""
    assert house.make_all() == house.stored(), (
        "the house palettes are out of date: run python -m render.house"
    )


@pytest.mark.parametrize("game", GAMES)
def test_boards_on_the_house_palette_keep_their_colours(game: str) -> None:
    """Late boards of three seeds the palette was not made from: the house palette fits at
    least two (else it would save no time), and every PNG, on whichever palette, keeps the
    board's colours as closely as tests/test_render_caches.py asks of the sampled palette."""
    fitted = 0
    for seed in (13, 15, 16):
        img, n = _posted(game, seed)
        palette = house.palette(game, "board", n)
        assert palette is not None
        fitted += encoder.fits(img, palette)
        data = render.encode(game, "board", img, n)
        decoded = _decoded(data)
        if encoder.fits(img, palette):
            got, want = decoded.getpalette(), palette.getpalette()
            assert got is not None and want is not None and got == want[: len(got)]
        worst = _worst(img, decoded)
        total = img.width * img.height
        assert max(i for i, c in enumerate(worst) if c) <= 48
        assert sum(worst[17:]) / total < 0.001
        assert sum(worst[9:]) / total < 0.025
        assert len(data) <= encoder.PNG_LIMIT
    assert fitted >= 2


def test_a_picture_the_house_palette_does_not_fit_gets_its_own() -> None:
    img, n = _posted("kathai", 15)
    palette = house.palette("kathai", "board", n)
    assert palette is not None
    odd = img.copy()
    d = ImageDraw.Draw(odd)
    for i in range(12):  # broad bands of colours no Kathai board has, edges smoothed
        d.ellipse((40 + 75 * i, 300, 100 + 75 * i, 700), fill=(20 * i, 255 - 20 * i, 128 + 9 * i))
    assert not encoder.fits(odd, palette)
    assert encoder.choose_palette(odd, palette) is not palette
    worst = _worst(odd, _decoded(encoder.to_png(odd, house=palette)))
    assert max(i for i, c in enumerate(worst) if c) <= 48
    assert encoder.choose_palette(img, palette) is palette


@pytest.mark.parametrize("game", ["pralaya", "phraya"])
def test_a_board_in_parts_is_the_picture_they_make(game: str) -> None:
    """``render.board_png`` encodes the caption strip and the board without putting them on one
    canvas: the PNG decodes to :func:`render.board_image` (on the house palette, which fits)."""
    engine = base.get(game)
    n = engine.max_players
    state = engine.setup(3, n, {})
    view = engine.view(state, None)
    names = NAMES[:n]
    parts = render.board_parts(game, view, names, caption=["Asha plays a card"])
    whole = render.board_image(game, view, names, caption=["Asha plays a card"])
    assert [p.width for p in parts] == [whole.width] * 2
    assert sum(p.height for p in parts) == whole.height
    assert encoder.stack(parts).tobytes() == whole.tobytes()
    data = render.board_png(game, view, names, caption=["Asha plays a card"])
    palette = house.palette(game, "board", n)
    assert palette is not None and encoder.fits(whole, palette)
    assert _decoded(data).tobytes() == encoder.mapped(whole, palette).tobytes()
    with pytest.raises(ValueError, match="one width"):
        encoder.to_png([parts[0], parts[1].crop((0, 0, 10, 10))])
