"""Phraya prompts: each micro-step's choices as controls (a click builds one action text).

Buttons where the list is short; the MOVE/PREMOVE step a pick of section ids (``move {}``); the
ACT step one group per target (left stall, right stall, barge) plus ``end``, each ≤ 25 choices.
Every prompt fits ``engines.prompt.rows(controls) <= 4``. The CARD prompt is private when
``hidden_hands`` is on.
"""

from __future__ import annotations

from engines.phraya.describe import moves
from engines.phraya.legal import act_targets, actor, is_blocked, kept_legal
from engines.phraya.state import ACT, CARD, MOVE, PREMOVE, STEP_NAMES, State
from engines.prompt import MAX_CHOICES, Button, Choice, Group, Pick, Prompt, from_legal, rows

_STEP_TEXT = {
    "setup_boat": "Place your boat on an outer channel section.",
    "setup_stall": "Place your starting stall on a vacant goods stall.",
    "card": "Play a card.",
    "merchant": "Move the Merchant.",
    "price": "Apply the price changes to the Merchant's two goods.",
    "barge": "Move the Royal Barge.",
    "discard": "Discard, or done.",
    "premove": "Move your boat 2 sections first.",
    "refresh": "Refresh the card market, or keep it.",
    "move": "Move your boat.",
    "act": "Use the stalls on both banks (and the King if the Barge is adjacent), then end.",
}


def instruction(s: State, seat: int, legal: list[str]) -> str:
    """What ``seat`` is asked to do now, or whom the game waits for."""
    if not legal:
        a = actor(s)
        return "The game is over." if a is None else "Waiting for {s%d}." % a
    text = _STEP_TEXT.get(STEP_NAMES[s.step], "")
    if s.step == CARD and is_blocked(s, seat):
        text = "Your boat is blocked: play a card that moves the Royal Barge."
    return text


def label(s: State, seat: int, action: str) -> str:
    """A short label for ``action`` (≤ 80 characters): its text and what it does
    (:func:`engines.phraya.describe.label`)."""
    return moves.label(s, seat, action)


Ctl = Button | Pick


def _pick_or_buttons(
    key: str, text: str, actions: list[str], labels: list[str], max_buttons: int
) -> list[Ctl]:
    if len(actions) <= max_buttons:
        return [
            Button(label=lab[:80], action=a, style="secondary")
            for a, lab in zip(actions, labels, strict=False)
        ]
    actions, labels = actions[:MAX_CHOICES], labels[:MAX_CHOICES]
    choices = tuple(
        Choice(label=lab[:100], value=a, description=a if lab != a else "")
        for a, lab in zip(actions, labels, strict=False)
    )
    return [Pick(key, text, choices)]


def public_actions(s: State, seat: int) -> bool:
    """Whether ``seat``'s controls may be shown to everyone: not a hand at the CARD step with
    ``hidden_hands``."""
    return not (s.opts.hidden_hands and s.step == CARD)


def irreversible(s: State, seat: int, action: str) -> str | None:
    """Ending the turn while other actions are still open gives them up."""
    if action == "end" and kept_legal(s, seat) != ("end",):
        return "Ending your turn now gives up the actions you have not used this turn."
    return None


def prompt(s: State, seat: int) -> Prompt:
    """The controls of ``seat``'s current step (empty if not awaited)."""
    legal = list(kept_legal(s, seat))
    text = instruction(s, seat, legal)
    public = public_actions(s, seat)
    if not legal:
        return Prompt(seat, text, (), public)
    if s.step in (MOVE, PREMOVE):
        verb = "move" if s.step == MOVE else "premove"
        secs = [a.split()[1] for a in legal]
        if len(secs) <= 10:
            return Prompt(seat, text, tuple(Button(label=x, action=f"{verb} {x}") for x in secs), public)
        choices = tuple(
            Choice(label=x, value=x, description=moves.describe(s, seat, f"{verb} {x}")[:100])
            for x in secs[:MAX_CHOICES]
        )
        return Prompt(
            seat, text, (Pick(verb, "Destination section…", choices, template=verb + " {}"),), public
        )
    if s.step == ACT:
        return Prompt(seat, text, _act_controls(s, seat, legal), public)
    labels = [label(s, seat, a) for a in legal]
    return from_legal(seat, text, legal, labels, public=public)


def _act_controls(s: State, seat: int, legal: list[str]) -> tuple[Group, ...]:
    groups: list[Group] = []
    legal_set = set(legal)
    sec = s.boats[seat]
    names = {
        sec + b: f"{'North' if b == 'n' else 'South'} bank"
        if sec[0] == "h"
        else f"{'West' if b == 'w' else 'East'} bank"
        for b in ("n", "s", "w", "e")
    }
    for target, acts in act_targets(s, seat):
        acts = [a for a in acts if a in legal_set]
        if not acts:
            continue
        if target == "barge":
            title = "Royal Barge: King's offering"
        else:
            st = s.board.stalls[target]
            what = st.good if st.kind == "goods" else st.kind
            title = f"{names[target]} ({target}, {what})"
        ctl = _pick_or_buttons("t" + target, title, acts, [label(s, seat, a) for a in acts], 4)
        groups.append(Group(title, tuple(ctl)))
    groups.append(Group("End", (Button("End turn", "end", "danger"),)))
    # at most 4 rows: groups of buttons may take 1 row each; picks one row each
    while rows(groups) > 4 and len(groups) > 1:
        groups.pop(-2)
    return tuple(groups)
