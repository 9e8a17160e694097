"""Which piece of Phraya a control names, for the emoji a host may show beside its label
(:func:`engines.prompt.with_icons`): buying, selling or owning a stall names its goods; a
discard, a rower or a Temple offering the goods paid; the King's offering the crown, the Scribe
its scroll, a basket the basket, playing a card the card. Keys only; ``render/phraya/emoji.py``
draws each of :data:`KEYS`."""

from __future__ import annotations

from engines.phraya.data import GOODS
from engines.phraya.state import State

PREFIX = "phraya_"
PIECES: tuple[str, ...] = (*GOODS, "flower", "favor", "coin", "crown", "basket", "card", "scroll")
KEYS: tuple[str, ...] = tuple(PREFIX + p for p in PIECES)
PIECE_OF_KEY = {PREFIX + p: p for p in PIECES}
WORDS: dict[str, str] = {g: PREFIX + g for g in GOODS}
"""The words of the game's texts that name a piece (a goods) -> its key, so a host may put the
piece's emoji before the word."""
_VERB_PIECE = {"king": "crown", "scribe": "scroll", "basket": "basket", "play": "card"}
_PAID = ("discard", "rower", "temple")


def icon(state: State, action: str) -> str | None:
    """The key of the piece ``action`` names in ``state``, or None (moves, the Merchant, prices)."""
    verb, *args = action.split()
    if verb in ("buy", "sell", "stall") and args:
        stall = state.board.stalls.get(args[0])
        good = str(stall.good) if stall is not None else ""
        return PREFIX + good if good in PIECES else None
    if verb in _PAID and args and args[0] in PIECES:
        return PREFIX + args[0]
    piece = _VERB_PIECE.get(verb)
    return PREFIX + piece if piece else None
