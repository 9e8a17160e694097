"""Legible at phone width and captioned, over every registered game (no game names here).

Every step of a seeded game at the smallest and largest player counts is drawn the way the bot
posts it (``render.board_image``: the board with the caption strip of the last move on top and
what changed since the previous board marked), with every awaited seat's hand and the sheets:

- no text below ``MIN_TEXT`` px anywhere (``render.common.font`` refuses smaller sizes, so a
  renderer that asks for one fails here);
- each board after a move has a caption naming that move: the move's public events (what the
  caption shows) are never empty and name the seat that moved;
- boards stay about 1000 px wide.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import render
from engines import base
from render.caption import caption_lines
from render.common import MIN_TEXT, font

NAMES = ["Asha", "Bilal", "Chen", "Dara", "Emeka"]


def _cases() -> Iterator[Any]:
    for engine in base.games():
        for n in sorted({engine.min_players, engine.max_players}):
            yield pytest.param(engine.name, n, id=f"{engine.name}-{n}p")


def test_the_text_helper_refuses_unreadable_sizes() -> None:
    assert font(MIN_TEXT).size == MIN_TEXT
    with pytest.raises(ValueError):
        font(MIN_TEXT - 1)


@pytest.mark.parametrize("game,n", list(_cases()))
def test_every_step_is_legible_and_captioned(game: str, n: int) -> None:
    engine = base.get(game)
    drawer = render.get(game)
    names = NAMES[:n]
    rng = random.Random(11)
    options = dict(engine.property_options[-1])  # the engine's short games where it has them
    state = engine.setup(3, n, options)
    previous = None
    steps = 0
    while engine.outcome(state) is None and steps < 400:
        seat = rng.choice(engine.to_move(state))
        legal = engine.legal_actions(state, seat)
        action = engine.choose(engine.view(state, seat), legal) if rng.random() < 0.7 else rng.choice(legal)
        state, events = engine.apply(state, seat, action)
        steps += 1
        public = [base.format_text(ev.text, names) for ev in base.events_for(events, None)]
        assert public, f"{action!r} by seat {seat} has no public event: the board's caption would be empty"
        assert any(names[seat] in line for line in public), (
            f"the caption of {action!r} does not name {names[seat]}: {public}"
        )
        assert caption_lines(public, 1000), public
        view = engine.view(state, None)
        board = render.board_image(game, view, names, caption=public, previous=previous)
        bare = drawer.board(view, names)
        assert board.height > bare.height  # the caption strip is on top
        assert 900 <= board.width <= 1100, board.size
        previous = view
        if steps % 5 == 0:
            for s in engine.to_move(state):
                drawer.hand(engine.view(state, s), names)
        interim = getattr(drawer, "interim_sheet", None)
        if interim is not None:
            interim(view, [ev for ev in base.events_for(events, None)], names)
    if engine.outcome(state) is not None:
        drawer.score_sheet(engine.view(state, None), names)
