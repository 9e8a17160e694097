"""``Engine.private_action``: the engine says whether an action's text may be shown to everyone.

The oracle of the property test below reads the game's own ``secrets`` and events: an action's
text is private exactly when it names something (a card id) that a spectator still may not see
once the move is played, and that no public event of the move names either. Every game is played
from several seeds, half its playout policy and half uniformly random, with its hiding options
on; each game's rulings (docs/rules/<game>.md) are then checked on named cases.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import pytest

from engines import base
from engines.events import events_for

HIDING = {
    "kathai": {"allow_gifts": True},
    "phraya": {"hidden_hands": True},
    "pralaya": {},
    "ra": {"hidden_scores": True},
}
STEPS = 400


def _words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z0-9_]+", text))


def _named_secrets(engine: base.Engine, state: Any, action: str) -> set[str]:
    """The words of ``action`` that are among a spectator's ``secrets`` in ``state``."""
    hidden = {s.strip('"') for s in engine.secrets(state, None)}
    return _words(action) & hidden


def _oracle(engine: base.Engine, after: Any, action: str, events: list[base.Event]) -> bool:
    """Whether ``action`` names something a spectator may not see after it: a secret of the new
    state that no public event of the move names."""
    told = set()
    for e in events_for(events, None):
        told |= _words(e.text) | _words(repr(e.data))
    return bool(_named_secrets(engine, after, action) - told)


def _walk(name: str, seed: int) -> Counter[tuple[str, bool, bool]]:
    """Plays one game from ``seed``, checking ``private_action`` against the oracle at every
    move; counts (verb, private, named a secret before the move) for the coverage checks."""
    engine = base.get(name)
    rng = random.Random(seed)
    state = engine.setup(seed, engine.common_players, HIDING[name])
    seen: Counter[tuple[str, bool, bool]] = Counter()
    for _ in range(STEPS):
        awaited = engine.to_move(state)
        if not awaited:
            break
        seat = awaited[rng.randrange(len(awaited))]
        legal = engine.legal_actions(state, seat)
        action = engine.playout_action(state, seat, rng) if rng.random() < 0.5 else rng.choice(legal)
        private = engine.private_action(state, seat, action)
        after, events = engine.apply(state, seat, action)
        assert private == _oracle(engine, after, action, events), (name, seed, action)
        seen[(action.split()[0], private, bool(_named_secrets(engine, state, action)))] += 1
        state = after
    return seen


@pytest.mark.parametrize("name", sorted(HIDING))
def test_private_action_agrees_with_what_a_spectator_sees(name: str) -> None:
    seen: Counter[tuple[str, bool, bool]] = Counter()
    for seed in range(3):
        seen += _walk(name, seed)
    private = {verb for verb, p, _ in seen if p}
    if name == "kathai":  # docs/rules/kathai.md#hidden-information
        assert {"swap", "offer", "accept"} <= private, seen
        assert ("sell", False, True) in seen  # hand cards named, but a sale shows them to all
    else:  # nothing is private in the other three (see each engine's private_action)
        assert not private, seen
    if name == "phraya":  # a played hand card is named by the public event and lands face up
        assert ("play", False, True) in seen, seen


@pytest.mark.parametrize(
    ("action", "private"),
    [
        ("swap t32", True),  # the card goes under the pile
        ("bribe gold tea t7", True),  # paid with a hand card: face down as the lock
        ("bribe gold tea profit", False),  # names no card
        ("offer s1 t3 t9 for salt 1", True),  # only the parties see the cards
        ("offer all for salt 1", False),  # a gift asked for (allow_gifts): no card named
        ("accept t4", True),  # others see only how many cards moved
        ("accept", False),
        ("sell tea t3 t17", False),  # docs/rules/kathai.md#sold-cards-public
        ("buy", False),
        ("pass", False),
        ("decline", False),
    ],
)
def test_kathai_private_actions(action: str, private: bool) -> None:
    engine = base.get("kathai")
    state = engine.setup(1, 3, HIDING["kathai"])
    assert engine.private_action(state, 0, action) is private


def test_phraya_play_with_hidden_hands_is_public() -> None:
    """With ``hidden_hands`` a market card in hand is a secret, yet playing it is not private:
    its event names it for everyone (docs/rules/phraya.md#hidden-information)."""
    engine = base.get("phraya")
    for seed in range(40):
        state = engine.setup(seed, 3, HIDING["phraya"])
        rng = random.Random(seed)
        for _ in range(STEPS):
            awaited = engine.to_move(state)
            if not awaited:
                break
            seat = awaited[0]
            plays = [a for a in engine.legal_actions(state, seat) if a.startswith("play m")]
            if plays and _named_secrets(engine, state, plays[0]):
                after, events = engine.apply(state, seat, plays[0])
                card = plays[0].split()[1]
                assert not engine.private_action(state, seat, plays[0])
                assert any(card in e.text for e in events_for(events, None))
                return
            state = engine.step(state, seat, engine.playout_action(state, seat, rng))
    pytest.fail("no game reached a play of a hidden market card")
