"""Shared by each game's icon test (``tests/<game>/test_prompts.py``): the controls of random
games' prompts, as (action or value, label, icon) triples."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from engines import prompt as pr
from engines import registry


def controls(p: pr.Prompt) -> Iterator[tuple[str, str, str]]:
    """(action, label, icon) of every button and choice of ``p``: a standalone pick's choice as
    the action it builds, a form's choice as its bare value."""
    for c in pr.walk(p.controls):
        if isinstance(c, pr.Button):
            yield c.action, c.label, c.icon
        picks = c.picks if isinstance(c, pr.Form) else (c,) if isinstance(c, pr.Pick) else ()
        for pick in picks:
            for ch in pick.choices:
                text = pr.squash(pick.template.format(ch.value)) if isinstance(c, pr.Pick) else ch.value
                yield text, ch.label, ch.icon


def random_prompts(
    game: str, *, players: int = 3, seeds: int = 3, cap: int = 400
) -> Iterator[tuple[Any, int, pr.Prompt]]:
    """(state, seat, prompt) for every awaited seat of ``seeds`` random games of ``game``."""
    engine = registry.get(game)
    for seed in range(seeds):
        rng = random.Random(seed)
        state = engine.setup(seed, players)
        for _ in range(cap):
            awaited = engine.to_move(state)
            if not awaited:
                break
            for seat in awaited:
                yield state, seat, engine.prompt(state, seat)
            seat = awaited[0]
            state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))[0]
