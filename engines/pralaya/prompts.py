"""What the Pralaya host asks: each step's controls, button labels, which lists are public, and
the warning before an escape (see ``engines/prompt.py``).

Every step's list is short or splits by verb, so the default layout serves: collecting offers the
island cells within the Vitality left (buttons, a menu, or menus per verb), discarding the relics
of the island, buying the payments the hand allows. Collecting and discarding are public (the
island and the Vitality are face up); buying is private, since the payments listed tell which
coins a hidden hand holds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.pralaya.describe import pay_phrase
from engines.pralaya.notation import BUY_VEDA, DISCARD_V, DONE, PASS, SPACE, TAKE
from engines.pralaya.state import (
    BUY,
    CARD_CUR,
    CARD_NAME,
    CELLS_BY_SIZE,
    COST_E,
    DHONI_NAME,
    DHONI_X,
    EMPTY,
    IS_OCEAN,
    State,
)

if TYPE_CHECKING:
    from engines.base import Engine
    from engines.prompt import Prompt

TEXT = {
    0: "Take cells within your Vitality, or stop",
    1: "You have escaped: discard one relic from the island",
    2: "Buy a Veda or a Dhoni, or pass",
}
ESCAPE_WARNING = (
    "Buying the Dhoni is your escape: you collect no more relics, and each later turn "
    "you only discard one from the island."
)


def prompt(engine: Engine, state: State, seat: int) -> Prompt:
    """``seat``'s controls now: the step's legal actions, labelled, with the step's instruction."""
    return engine.legal_prompt(state, seat, TEXT.get(state.step, ""))


def public_list(s: State) -> bool:
    """Whether the active seat's list tells nothing hidden: collecting and discarding offer cells
    of the face-up island within the public Vitality left; buying lists the payments a hidden
    hand allows."""
    return s.step != BUY


def irreversible(action: str) -> str | None:
    """Buying a Dhoni is the escape: from then on the seat only discards from the island."""
    return ESCAPE_WARNING if action.startswith("buy dhoni") else None


def label(s: State, action: str) -> str:
    """A short button label for ``action`` (falls back to the text itself)."""
    dec = SPACE[s.n].get(action)
    if dec is None:
        return action[:80]
    verb, arg = dec
    if verb in (TAKE, DISCARD_V):
        names = CELLS_BY_SIZE[len(s.island)]
        card = s.island[arg]
        cell = names[arg]
        if card == EMPTY:
            return f"{'Take' if verb == TAKE else 'Discard'} {cell}"
        if verb == DISCARD_V:
            return f"Discard {cell} · {CARD_NAME[card]}"
        if IS_OCEAN[card]:
            return f"Take {cell} · Ocean (cannot be taken)"
        worth = CARD_CUR[card]
        return f"Take {cell} · {CARD_NAME[card]} ({COST_E[card]} V" + (f", worth {worth})" if worth else ")")
    if verb == DONE:
        return "Done collecting"
    if verb == PASS:
        return "Pass (buy nothing)"
    x, y, z = arg
    pay = pay_phrase(x, y, z, joiner=" + ")
    if verb == BUY_VEDA:
        return f"Buy Veda: {pay}"
    top = s.dhoni_pile[0] if s.dhoni_pile else DHONI_X
    name = DHONI_NAME[top]
    if top == DHONI_X and any(arg):
        return f"Buy {name}: all coins ({pay})"
    return f"Buy {name}: {pay}"
