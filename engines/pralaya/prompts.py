"""Pralaya's controls for each step (see ``engines/prompt.py``).

Every step's list is short or splits by verb, so the default layout serves: collecting offers the
island cells within the Vitality left (buttons, a menu, or menus per verb), discarding the cards
of the hand over the limit, buying the payments the hand allows. Collecting and discarding are
public (the island and the Vitality are face up); buying is private, since the payments listed
tell which coins a hidden hand holds.
"""

from __future__ import annotations

from engines.base import Engine
from engines.pralaya.state import State
from engines.prompt import Prompt

TEXT = {
    0: "Take cells within your Vitality, or stop",
    1: "Discard down to the hand limit",
    2: "Buy a Veda or a Dhoni, or pass",
}


def prompt(engine: Engine, state: State, seat: int) -> Prompt:
    """``seat``'s controls now: the step's legal actions, labelled, with the step's instruction."""
    return engine.legal_prompt(state, seat, TEXT.get(state.step, ""))
