"""The rules cards (``render/<game>/rulescard.py``): at most 1000 × 1100 px, a PNG, drawn from the
engine's own data (a count changed in the data changes the card and its picture)."""

from __future__ import annotations

import dataclasses
import io

import pytest
from PIL import Image, ImageDraw

import render.rulescard as rc
from engines.kathai import data as kathai
from engines.phraya import data as phraya
from engines.pralaya import data as pralaya
from engines.ra import data as ra
from render.common import PANEL

GAMES = ("kathai", "phraya", "pralaya", "ra")


@pytest.mark.parametrize("game", GAMES)
def test_each_card_is_a_png_within_the_size_limits(game: str) -> None:
    img = Image.open(io.BytesIO(rc.png(game)))
    assert img.format == "PNG"
    assert img.width == rc.MAX_W and 600 <= img.height <= rc.MAX_H
    card = rc.card_of(game)
    assert card.components and card.turn and card.scoring and card.end


def test_a_game_without_a_card_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        rc.card_of("nosuchgame")


def test_a_card_too_high_is_refused() -> None:
    card = rc.card_of("ra")
    long = dataclasses.replace(card, turn=card.turn * 6)
    with pytest.raises(ValueError, match="more than 1100"):
        rc.draw(long)


def _counts(game: str) -> list[str]:
    return [count for count, _ in rc.card_of(game).components]


def test_the_cards_show_the_engines_counts() -> None:
    assert str(ra.TOTAL_TILES_TRADERS) in _counts("ra") and str(ra.TILE_COUNT["god"]) in _counts("ra")
    assert str(kathai.NCARDS) in _counts("kathai") and str(kathai.HAND_LIMIT) in _counts("kathai")
    assert str(pralaya.N_RELIC_CARDS) in _counts("pralaya") and str(len(pralaya.DHONI)) in _counts("pralaya")
    assert str(len(phraya.MARKET_CARDS)) in _counts("phraya")
    assert str(phraya.DISKS_PER_PLAYER) in _counts("phraya")


@pytest.mark.parametrize(
    "game,module,name,value,shown",
    [
        ("ra", ra, "GOD_PTS", 7, "7 each"),
        ("kathai", kathai, "HAND_LIMIT", 9, "9"),
        ("pralaya", pralaya, "BASE_VITALITY", 5, "Vitality (5)"),
        ("phraya", phraya, "KING_SET_VP", 11, "11 per set"),
    ],
)
def test_a_change_in_the_data_changes_the_card(
    monkeypatch: pytest.MonkeyPatch, game: str, module: object, name: str, value: int, shown: str
) -> None:
    before = rc.png(game)
    monkeypatch.setattr(module, name, value)
    card = rc.card_of(game)
    words = " ".join([*card.turn, *(p for _, p in card.scoring), *(c for c, _ in card.components)])
    assert shown in words
    assert rc.png(game) != before


@pytest.mark.parametrize("game", GAMES)
def test_in_the_box_words_are_whole_and_clear_of_their_chips_edges(game: str) -> None:
    """Every chip's words are all there (none cut) and keep room inside its box, measured on
    the laid-out text and on the drawn picture (no ink in a band just inside the border)."""
    card = rc.card_of(game)
    laid, _ = rc.chips(card.components, 200)
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    img = rc.draw(card).convert("RGB")
    top = 96 + rc.PAD + rc.HEAD + 20  # where draw() lays the chips: below the section's rule
    for chip, (count, what) in zip(laid, card.components, strict=True):
        assert chip.count == count and " ".join(chip.lines) == what
        x0, y0, x1, y1 = chip.box
        for line, at in zip(chip.lines, chip.line_at, strict=True):
            left, up, right, down = measure.textbbox(at, line, font=chip.font(), anchor="lm")
            assert up - y0 >= 6 and y1 - down >= 6 and x1 - right >= 6, (line, chip.box)
        dy = top - 200
        band = [(x, y) for x in range(x0 + 4, x1 - 4) for y in (y0 + dy + 4, y1 + dy - 4)]
        band += [(x, y) for y in range(y0 + dy + 4, y1 + dy - 4) for x in (x1 - 4,)]
        assert {img.getpixel(p) for p in band} == {PANEL}, (game, count, what)
