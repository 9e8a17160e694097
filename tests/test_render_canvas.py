"""Square canvases (issue 21, item 2), over every registered game at every player count, as the
bot posts them: every board (``render.board_image``: the caption strip on top) of seeded whole
games is 1000 px wide, at most :data:`render.frame.MAX_HEIGHT` tall, and the one size
``render.canvas_height(game, n)`` through the game; a game's second picture (``extra``) keeps one
size too, at most 1000 × 1100. The recap of each game's longest seeded game at its most players
fits :data:`render.recap.BUDGET` with one frame per turn (slow)."""

from __future__ import annotations

import io

import pytest
from PIL import GifImagePlugin, Image

import render
from bot.offline.demo import DEMO_NAMES, ai_game
from engines import base
from render import caption, frame, recap
from render.common import seat_color

CASES = [(e.name, n) for e in base.games() for n in range(e.min_players, e.max_players + 1)]


def posted_sizes(
    game: str, n: int, seed: int, every_step: bool
) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    """The sizes of every posted board (at each turn's end, or ``every_step``) of a seeded AI
    game, and of its second pictures."""
    engine = base.get(game)
    names = DEMO_NAMES[:n]
    opts = engine.resolve_options({})
    _, moves = ai_game(engine, seed, n, opts)
    if every_step:
        states = [st for st, _ in base.replay_steps(engine, seed, n, opts, moves)]
    else:
        states = list(recap.replayed_turns(engine, seed, n, opts, moves))
    boards: set[tuple[int, int]] = set()
    extras: set[tuple[int, int]] = set()
    previous = None
    for state in states:
        view = engine.view(state, None)
        pictures = render.board_images(game, view, names, caption=["Asha plays"], previous=previous)
        boards.add(pictures[0].size)
        extras.update(p.size for p in pictures[1:])
        previous = view
    return boards, extras


def check(game: str, n: int, boards: set[tuple[int, int]], extras: set[tuple[int, int]]) -> None:
    want = render.canvas_height(game, n)
    assert want <= frame.MAX_HEIGHT and render.get(game).board_height(n) + caption.HEIGHT == want
    assert boards == {(1000, want)}, (game, n, boards)  # one size through the game
    # a second picture (where the game draws one: Pralaya only with open hands) keeps one size
    assert len(extras) <= 1 and all(w == 1000 and h <= frame.MAX_HEIGHT for w, h in extras), (game, n, extras)
    if not render.has_extra(game):
        assert extras == set()


@pytest.mark.parametrize("game,n", CASES)
def test_every_turns_board_has_the_one_fixed_canvas(game: str, n: int) -> None:
    check(game, n, *posted_sizes(game, n, 1, every_step=False))


@pytest.mark.slow
@pytest.mark.parametrize("game,n", CASES)
@pytest.mark.parametrize("seed", [2, 3])
def test_every_steps_board_has_the_one_fixed_canvas(game: str, n: int, seed: int) -> None:
    check(game, n, *posted_sizes(game, n, seed, every_step=True))


RECAP_SEEDS = range(1, 11)


def longest_game(game: str) -> tuple[int, int, list[tuple[int, str]]]:
    """``(turns, seed, moves)`` of the AI game with the most turns among :data:`RECAP_SEEDS` at
    the game's most players."""
    engine = base.get(game)
    n = engine.max_players
    opts = engine.resolve_options({})
    found = []
    for seed in RECAP_SEEDS:
        _, moves = ai_game(engine, seed, n, opts)
        found.append((sum(1 for _ in recap.replayed_turns(engine, seed, n, opts, moves)), seed, moves))
    return max(found, key=lambda t: (t[0], -t[1]))


@pytest.mark.slow
@pytest.mark.parametrize("game", [e.name for e in base.games()])
def test_the_recap_of_the_longest_seeded_game_keeps_every_turn_within_the_budget(game: str) -> None:
    """Item 8: one frame per turn (each the posted board with its turn's caption), 0.8 s at
    least a frame, the last held 3 s, one frame size (the fixed canvas: no blank), ≤ 4 MB."""
    engine = base.get(game)
    n = engine.max_players
    turns, seed, moves = longest_game(game)
    made = recap.recap(engine, seed, n, engine.resolve_options({}), moves, recap.posted(game), DEMO_NAMES[:n])
    assert made.size <= recap.BUDGET == 4_000_000
    assert made.turns == turns and made.frames == turns, (made.frames, turns)
    assert (made.width, made.height) == (1000, render.canvas_height(game, n))
    with Image.open(io.BytesIO(made.data)) as gif:
        assert isinstance(gif, GifImagePlugin.GifImageFile)
        durations = []
        for i in range(gif.n_frames):
            gif.seek(i)
            durations.append(gif.info["duration"])
    assert min(durations[:-1]) >= 800 and durations[-1] == recap.HOLD_MS >= 3000


@pytest.mark.parametrize("game", [e.name for e in base.games()])
def test_a_board_without_its_strip_is_the_board_alone_and_seat_colours_are_the_badges(game: str) -> None:
    """A V2 message says its caption as text: its board PNG is the board's own height, the same
    pixels as the stripped board's lower part; the accent of a seat is the colour its badge has."""
    engine = base.get(game)
    n = engine.min_players
    names = DEMO_NAMES[:n]
    state = engine.setup(1, n, engine.resolve_options({}))
    view = engine.view(state, None)
    bare = Image.open(
        io.BytesIO(render.board_png(game, view, names, caption=["Asha plays"], with_strip=False))
    )
    full = Image.open(io.BytesIO(render.board_png(game, view, names, caption=["Asha plays"])))
    h = render.get(game).board_height(n)
    assert bare.size == (1000, h) and full.size == (1000, h + caption.HEIGHT)
    lower = full.convert("RGB").crop((0, caption.HEIGHT, 1000, h + caption.HEIGHT))
    assert bare.convert("RGB").tobytes() == lower.tobytes()
    for seat in range(6):
        r, g, b = seat_color(seat)
        assert render.seat_colour(seat) == r * 65536 + g * 256 + b
