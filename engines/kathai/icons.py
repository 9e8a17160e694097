"""Which goods a Kathai control names, for the emoji a host may show beside its label
(:func:`engines.prompt.with_icons`): a sale, a bribe, an offer's wish name their goods (the first
one written); a card names the goods it shows most of (a tie: the first in goods order). Keys
only; ``render/kathai/emoji.py`` draws each of :data:`KEYS`."""

from __future__ import annotations

from functools import lru_cache

from engines.kathai.data import GOODS, ITEMS, NCARDS

PREFIX = "kathai_"
KEYS: tuple[str, ...] = tuple(PREFIX + g for g in GOODS)
GOODS_OF_KEY = {PREFIX + g: g for g in GOODS}
WORDS: dict[str, str] = {g: PREFIX + g for g in GOODS}
"""The words of the game's texts that name a piece (a goods) -> its key, so a host may put the
piece's emoji before the word."""


def card_goods(token: str) -> str | None:
    """The goods card ``t<n>`` shows most of, or None for another token."""
    if not (token.startswith("t") and token[1:].isdigit() and 1 <= int(token[1:]) <= NCARDS):
        return None
    items = ITEMS[int(token[1:])]
    return GOODS[max(range(len(GOODS)), key=lambda g: (items[g], -g))]


@lru_cache(maxsize=4096)
def icon(text: str) -> str | None:
    """The key of the goods ``text`` (an action, or a form's value: ``sell silk``, ``for tea``,
    ``t7``) names first, or None (pass, decline, swap, buy, ``for any``, a count)."""
    for token in text.split():
        if token in GOODS:
            return PREFIX + token
        if token in ("sell", "bribe", "for", "offer"):
            continue
        good = card_goods(token)
        if good is not None:
            return PREFIX + good
        if token not in ("accept",):
            break
    return None
