"""Pieces' emojis in message text (``bot.surface.emojis.in_text``): before each whole word a game's
``icons.WORDS`` names, the longest word first ("sun 12", not "sun 1"), never inside another word
or an emoji's own name; the words alone where a piece has no emoji or none are loaded."""

from __future__ import annotations

from collections.abc import Iterator

import discord
import pytest

from bot.surface import emojis
from render import emojis as drawn


def _emoji(key: str, n: int) -> discord.PartialEmoji:
    return discord.PartialEmoji(name=f"{key}_abcdef", id=1000 + n)


@pytest.fixture
def loaded() -> Iterator[dict[str, discord.PartialEmoji]]:
    found = {key: _emoji(key, i) for i, key in enumerate(drawn.all_keys())}
    emojis.use(found)
    try:
        yield found
    finally:
        emojis.use({})


def test_each_named_piece_gets_its_emoji_before_the_word(loaded: dict[str, discord.PartialEmoji]) -> None:
    fos, veda = loaded["pralaya_fos"], loaded["pralaya_veda"]
    assert emojis.in_text("pralaya", "{s0} takes b1 (Fossil)") == f"{{s0}} takes b1 ({fos} Fossil)"
    assert emojis.in_text("pralaya", "buys a Veda") == f"buys a {veda} Veda"
    sun12, sun1 = loaded["ra_sun12"], loaded["ra_sun1"]
    said = emojis.in_text("ra", "{s0} wins Nile with sun 12 and takes sun 1 face down")
    assert (
        said == f"{{s0}} wins {loaded['ra_nile']} Nile with {sun12} sun 12 and takes {sun1} sun 1 face down"
    )
    gold = loaded["kathai_gold"]
    said = emojis.in_text("kathai", "t11 (2 gold), goldsmith, t34 (1 silk + 1 tea)")
    assert said.startswith(f"t11 (2 {gold} gold), goldsmith, ") and said.count("<:") == 3
    assert emojis.in_text("phraya", "{s0} buys 1 fish for 5 coins.") == (
        f"{{s0}} buys 1 {loaded['phraya_fish']} fish for 5 coins."
    )


def test_no_word_inside_an_emoji_name_is_marked(loaded: dict[str, discord.PartialEmoji]) -> None:
    alone = str(loaded["kathai_gold"])  # <:kathai_gold_abcdef:…>: "gold" inside its name
    assert emojis.in_text("kathai", alone) == alone


def test_without_emojis_the_words_stand_alone(loaded: dict[str, discord.PartialEmoji]) -> None:
    line = "{s0} takes b1 (Fossil)"
    emojis.use({k: v for k, v in loaded.items() if k != "pralaya_fos"})
    assert emojis.in_text("pralaya", line) == line  # this piece has no emoji
    emojis.use({})
    assert emojis.in_text("ra", "wins Nile with sun 12") == "wins Nile with sun 12"  # sync never run


def test_a_seats_name_gets_no_emoji_but_a_longer_piece_name_does(
    loaded: dict[str, discord.PartialEmoji],
) -> None:
    """Lines come formatted (names in): a player called "Gold Coin" is no piece (nor, in the
    same line, the piece of that name: the words alone), a "Gold Coin" taken by a player called
    "Gold" is one."""
    coin = loaded["pralaya_gol"]
    line = "Gold Coin takes a4 (Gold Coin)"
    assert emojis.in_text("pralaya", line, ["Gold Coin"]) == line
    assert (
        emojis.in_text("pralaya", "Gold takes a4 (Gold Coin)", ["Gold"])
        == f"Gold takes a4 ({coin} Gold Coin)"
    )
    assert emojis.in_text("pralaya", line) == f"{coin} Gold Coin takes a4 ({coin} Gold Coin)"
