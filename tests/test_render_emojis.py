"""The game pieces as application emojis (render/emojis.py, render/<game>/emoji.py): each drawn
128 × 128 RGBA, filling its frame, with a figure that stands out from its ground and differs from
every other piece at 32 px (Discord's size on a button); names Discord accepts, stable, changing
with the picture."""

from __future__ import annotations

import itertools

import pytest
from PIL import Image, ImageChops, ImageStat

import engines
from render import emojis

CATALOGUE = emojis.catalogue()


def _small(img: Image.Image) -> Image.Image:
    return img.resize((32, 32), Image.Resampling.LANCZOS)


def test_every_game_has_pieces_and_names_fit_discord() -> None:
    per_game = {g: emojis.keys(g) for g in engines.game_packages()}
    assert all(len(keys) >= 5 for keys in per_game.values()), per_game
    assert sum(map(len, per_game.values())) == len(CATALOGUE) <= emojis.MAX_EMOJIS
    assert emojis.all_keys() == list(CATALOGUE)
    names = [name for name, _ in CATALOGUE.values()]
    assert len(set(names)) == len(names)
    for key, (name, _) in CATALOGUE.items():
        assert emojis.NAME.match(name) and len(name) <= 32 and emojis.key_of(name) == key
    assert emojis.key_of("silk") is None and emojis.key_of("ra_sun1_XYZ123") is None


@pytest.mark.parametrize("key", list(CATALOGUE))
def test_each_piece_is_drawn_128_px_filling_its_frame(key: str) -> None:
    _, img = CATALOGUE[key]
    assert img.size == (128, 128) and img.mode == "RGBA"
    opaque = img.getchannel("A").point(lambda a: 255 if a > 200 else 0).histogram()[255] / (128 * 128)
    assert opaque > 0.7, f"{key}: only {opaque:.0%} of the frame is drawn"
    small = _small(img).convert("L")
    assert ImageStat.Stat(small).stddev[0] > 25, f"{key}: no figure stands out at 32 px"
    assert len(emojis.png(img)) <= 256 * 1024


def test_pieces_differ_from_each_other_at_32_px() -> None:
    """At least 2% of the pixels (20 of 1024) differ clearly (by more than 80 of 255 in some
    colour) between any two pieces: two suns differ by a digit, no less."""
    small = {k: _small(img).convert("RGB") for k, (_, img) in CATALOGUE.items()}
    close = []
    for (a, ia), (b, ib) in itertools.combinations(small.items(), 2):
        channels = ImageChops.difference(ia, ib).split()
        most = ImageChops.lighter(ImageChops.lighter(channels[0], channels[1]), channels[2])
        clear = most.point(lambda v: 255 if v > 80 else 0).histogram()[255]
        if clear < 20:
            close.append((a, b, clear))
    assert not close, f"pieces that look alike at 32 px: {close}"


def test_the_name_follows_the_picture() -> None:
    name, img = CATALOGUE["ra_sun13"]
    assert emojis.name("ra_sun13", img) == name == emojis.name("ra_sun13", img.copy())
    changed = img.copy()
    changed.putpixel((64, 64), (0, 0, 0, 255))
    assert emojis.name("ra_sun13", changed) != name
    with pytest.raises(ValueError):
        emojis.name("a_piece_key_far_too_long_for_discord", img)
