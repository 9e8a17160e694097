"""Which relic a Pralaya button names, for the emoji a host may show beside its label
(:func:`engines.prompt.with_icons`): taking or discarding a cell names the relic lying there,
buying a Veda or a Dhoni names it. Keys only; ``render/pralaya/emoji.py`` draws each of
:data:`KEYS`."""

from __future__ import annotations

from engines.pralaya import data
from engines.pralaya.notation import BUY_DHONI, BUY_VEDA, DISCARD_V, SPACE, TAKE
from engines.pralaya.state import CARD_CODE, EMPTY, State

PREFIX = "pralaya_"
PIECES: tuple[str, ...] = (*data.CODES, "veda", "dhoni")
KEYS: tuple[str, ...] = tuple(PREFIX + p for p in PIECES)
PIECE_OF_KEY = {PREFIX + p: p for p in PIECES}
WORDS: dict[str, str] = {
    **{r.name: PREFIX + r.code for r in data.RELICS},
    data.VEDA_NAME: PREFIX + "veda",
    "Dhoni": PREFIX + "dhoni",
}
"""The words of the game's texts that name a piece (a relic's name, Veda, Dhoni) -> its key, so
a host may put the piece's emoji before the word."""


def icon(state: State, action: str) -> str | None:
    """The key of the piece ``action`` names in ``state``, or None (done, pass, an empty cell)."""
    dec = SPACE[state.n].get(action)
    if dec is None:
        return None
    verb, arg = dec
    if verb in (TAKE, DISCARD_V):
        card = state.island[arg]
        return None if card == EMPTY else PREFIX + CARD_CODE[card]
    if verb == BUY_VEDA:
        return PREFIX + "veda"
    if verb == BUY_DHONI:
        return PREFIX + "dhoni"
    return None
