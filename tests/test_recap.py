"""The animated recap (render/recap.py): which boards, the GIF itself, and the byte budget."""

from __future__ import annotations

import io
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from PIL import Image, ImageDraw, ImageSequence

from bot.offline.demo import ai_game
from engines import base
from render import caption, recap


def frames_of(data: bytes) -> list[tuple[Image.Image, int]]:
    """Every frame of a GIF as shown (composited over the ones before), with its duration."""
    with Image.open(io.BytesIO(data)) as gif:
        assert gif.format == "GIF"
        return [(f.convert("RGB"), f.info["duration"]) for f in ImageSequence.Iterator(gif)]


def flat(
    size: tuple[int, int],
    colour: tuple[int, int, int],
    box: tuple[int, int, int, int] | None = None,
    ink: tuple[int, int, int] = (0, 0, 0),
) -> Image.Image:
    img = Image.new("RGB", size, colour)
    if box:
        ImageDraw.Draw(img).rectangle(box, fill=ink)
    return img


def noise(seed: int, size: tuple[int, int] = (400, 300)) -> Image.Image:
    rnd = random.Random(seed)
    return Image.frombytes("RGB", size, bytes(rnd.randrange(256) for _ in range(size[0] * size[1] * 3)))


# --------------------------------------------------------------------------- which boards


class Turns(base.Engine):
    """Seat 0 plays twice, seat 1 once, then both are awaited and answer; over after 5 moves.
    Its view names no seat holding the turn."""

    name = "turns"

    def setup(self, seed: int, n_players: int, options: Mapping[str, Any] | None = None) -> int:
        return 0

    def to_move(self, state: int) -> tuple[int, ...]:
        return [(0,), (0,), (1,), (0, 1), (1,), ()][state]

    def view(self, state: int, viewer: int | None) -> dict[str, Any]:
        return {"n_players": 2, "step": state}

    def outcome(self, state: int) -> base.Outcome | None:
        return base.Outcome((1, 2), (1, 0), (), ({}, {}), (0,)) if state == 5 else None


class Auction(Turns):
    """Seat 0 holds the turn and opens an auction (state 1); seats 1, 2, 0 bid (2, 3, 4); seat 1
    holds the next turn (5), seat 2 the last (6: over). The view names the holder (``current``)."""

    name = "auction"

    def to_move(self, state: int) -> tuple[int, ...]:
        return [(0,), (1,), (2,), (0,), (1,), (2,), ()][state]

    def view(self, state: int, viewer: int | None) -> dict[str, Any]:
        return {"n_players": 3, "current": [0, 0, 0, 0, 1, 2, 2][state]}

    def outcome(self, state: int) -> base.Outcome | None:
        return base.Outcome((1, 2, 3), (1, 0, 0), (), ({}, {}, {}), (0,)) if state == 6 else None


def test_a_turn_ends_when_the_seat_is_no_longer_awaited_or_the_game_ends() -> None:
    t = Turns()
    steps = [(0, None), (1, 0), (2, 0), (3, 1), (4, 0), (5, 1)]
    # after move 1 seat 0 is still awaited; after 2 it is not; after 3 seat 1 is awaited again
    # (with seat 0): no turn end; seat 0 answers (4: it is no longer awaited); 5 ends the game
    assert list(recap.turn_states(t, steps)) == [0, 2, 4, 5]


def test_an_auction_is_one_turn_where_the_view_names_who_holds_the_turn() -> None:
    """Every bid hands over to another seat, but the seat holding the turn changes only when the
    auction is over: one frame for the opening and its three bids, none per bid."""
    steps = [(0, None), (1, 0), (2, 1), (3, 2), (4, 0), (5, 1), (6, 2)]
    assert list(recap.turn_states(Auction(), steps)) == [0, 4, 5, 6]
    assert recap.turn_holder({"current": 2}) == 2 and recap.turn_holder({"active": 0}) == 0
    assert recap.turn_holder({"current": None}) is None and recap.turn_holder({"active": True}) is None


def test_each_frame_carries_the_caption_of_its_turn() -> None:
    e = base.Event
    steps = [
        (0, None, [e("setup", "Set up")]),
        (1, 0, [e("auction", "{s0} opens")]),
        (2, 1, [e("bid", "{s1} bids 2")]),
        (3, 2, [e("bid", "{s2} bids 3")]),
        (4, 0, [e("bid", "{s0} bids 4"), e("win", "{s0} wins")]),
        (5, 1, [e("draw", "{s1} draws"), e("turn", "{s2}'s turn")]),
        (6, 2, [e("end", "{s2} ends")]),
    ]
    frames = list(recap.turns(Auction(), steps, ["A", "B", "C"]))
    assert [f.state for f in frames] == [0, 4, 5, 6]
    assert [[(ln.text, ln.by) for ln in f.lines] for f in frames] == [
        [("Set up", None)],
        [("A opens", 0), ("B bids 2", 1), ("C bids 3", 2), ("A bids 4", 0), ("A wins", None)],
        [("B draws", 1)],  # the next turn's announcement is the header's, not the caption's
        [("C ends", 2)],
    ]


def test_replayed_turns_of_a_real_game_start_with_the_setup_and_end_with_the_final_state() -> None:
    engine = base.games()[0]
    final, moves = ai_game(engine, 4, engine.min_players)
    frames = list(
        recap.replayed(engine, 4, engine.min_players, engine.resolve_options({}), moves, ["a", "b"])
    )
    states = [f.state for f in frames]
    assert states[0] == engine.setup(4, engine.min_players, engine.resolve_options({}))
    assert states[-1] == final and 2 <= len(states) <= len(moves) + 1
    assert all(f.lines for f in frames[1:])  # every turn says what was played
    assert (
        list(recap.replayed_turns(engine, 4, engine.min_players, engine.resolve_options({}), moves)) == states
    )


def test_boards_draw_only_spectator_views_with_each_turns_caption_and_the_previous_view() -> None:
    engine = base.games()[0]
    _, moves = ai_game(engine, 2, engine.min_players)
    frames = list(recap.replayed(engine, 2, engine.min_players, engine.resolve_options({}), moves))[:3]
    seen: list[tuple[Mapping[str, Any], list[caption.Line], Mapping[str, Any] | None]] = []

    def draw(
        view: Mapping[str, Any],
        names: Sequence[str],
        lines: Sequence[caption.Line],
        previous: Mapping[str, Any] | None,
    ) -> Image.Image:
        seen.append((view, list(lines), previous))
        return flat((4, 4), (9, 9, 9))

    pngs = recap.boards(engine, frames, draw, ["a"])
    views = [engine.view(f.state, None) for f in frames]
    assert seen == [(v, list(f.lines), p) for v, f, p in zip(views, frames, [None, *views[:2]], strict=True)]
    assert len(pngs) == 3 and all(Image.open(io.BytesIO(p)).size == (4, 4) for p in pngs)


def test_keep_evenly_keeps_the_first_and_the_last() -> None:
    assert recap.keep_evenly(10, 20) == list(range(10))
    assert recap.keep_evenly(10, 1) == [0, 9] and recap.keep_evenly(1, 1) == [0]
    kept = recap.keep_evenly(101, 11)
    assert kept == list(range(0, 101, 10))


# --------------------------------------------------------------------------- the GIF


def test_every_frame_shows_its_board_exactly_and_the_last_is_held() -> None:
    boards = [
        flat((120, 80), (240, 230, 200)),
        flat((120, 80), (240, 230, 200), (10, 10, 30, 30)),
        flat((120, 80), (240, 230, 200), (10, 10, 30, 30)),  # nothing changed
        flat((120, 60), (200, 30, 30), (50, 5, 60, 20), ink=(0, 0, 90)),
    ]  # shorter, new colours
    made = recap.animate(boards)
    shown = frames_of(made.data)
    assert made.frames == made.turns == len(shown) == 4 and (made.width, made.height) == (120, 80)
    for img, (frame, _) in zip(boards, shown, strict=False):
        padded = Image.new("RGB", (120, 80), img.getpixel((0, img.height - 1)))
        padded.paste(img)
        assert frame.tobytes() == padded.tobytes()  # unchanged pixels show through, none lost
    assert [ms for _, ms in shown] == [recap.frame_ms(4)] * 3 + [recap.HOLD_MS]


def test_a_board_with_black_keeps_it_although_the_clear_index_is_black_padding() -> None:
    boards = [flat((50, 50), (0, 0, 0), (5, 5, 20, 20), ink=(255, 255, 255)), flat((50, 50), (0, 0, 0))]
    shown = frames_of(recap.animate(boards).data)
    assert [f.tobytes() for f, _ in shown] == [b.tobytes() for b in boards]


def test_png_bytes_and_images_make_the_same_recap() -> None:
    boards = [flat((60, 40), (20, 120, 200), (i, 0, i + 5, 5)) for i in range(0, 50, 10)]
    as_png = []
    for b in boards:
        buf = io.BytesIO()
        b.save(buf, format="PNG")
        as_png.append(buf.getvalue())
    assert recap.animate(boards).data == recap.animate(as_png).data


def test_frame_time_keeps_a_short_game_to_about_a_minute_and_every_frame_readable() -> None:
    assert recap.frame_ms(2) == recap.MAX_FRAME_MS and recap.frame_ms(10_000) == recap.MIN_FRAME_MS
    assert recap.frame_ms(61) == recap.TOTAL_MS // 60
    assert recap.MIN_FRAME_MS >= 800 and recap.HOLD_MS >= 3000


# --------------------------------------------------------------------------- the budget


def size_of(boards: Sequence[Image.Image], k: int, colours: int, scale: float = 1.0) -> int:
    """Bytes of the recap of ``k`` evenly kept ``boards`` (all one size) at ``colours`` and ``scale``."""
    w, h = boards[0].size
    size = (round(w * scale), round(h * scale))
    return len(
        recap.encode(boards, recap.keep_evenly(len(boards), k), scale=scale, colours=colours, size=size)
    )


def close_to(img: Image.Image, frame: Image.Image, limit: float = 40) -> bool:
    return (
        sum(abs(a - b) for a, b in zip(img.tobytes(), frame.tobytes(), strict=False)) / len(img.tobytes())
        < limit
    )


def test_over_budget_every_turn_is_kept_in_fewer_colours_first() -> None:
    boards = [noise(i) for i in range(12)]
    full = recap.animate(boards, budget=10**9)
    assert full.frames == 12 and full.width == 400 and full.colours == recap.COLOURS[0]
    budget = size_of(boards, 12, recap.COLOURS[1])
    assert budget < full.size
    made = recap.animate(boards, budget=budget)
    assert (made.frames, made.width, made.colours) == (12, 400, recap.COLOURS[1]) and made.size <= budget


def test_then_the_most_evenly_spaced_frames_that_fit_are_kept() -> None:
    boards = [noise(i) for i in range(12)]
    budget = size_of(boards, 12, recap.COLOURS[-1]) * 6 // 10
    made = recap.animate(boards, budget=budget)
    assert made.size <= budget and 3 <= made.frames < 12 and made.turns == 12
    assert (made.width, made.colours) == (400, recap.COLOURS[-1])  # frames went, not size
    shown = frames_of(made.data)
    assert len(shown) == made.frames
    assert close_to(boards[0], shown[0][0]) and close_to(boards[-1], shown[-1][0])  # first and last kept


def test_then_the_frames_shrink_then_fewer_frames_again() -> None:
    wide = [noise(i, (1000, 200)) for i in range(4)]  # a quarter is two frames
    budget = size_of(wide, 2, recap.COLOURS[-1]) * 7 // 10
    made = recap.animate(wide, budget=budget)
    assert made.size <= budget and made.frames == 2 and made.colours == recap.COLOURS[-1]
    assert recap.MIN_WIDTH <= made.width < 1000
    assert frames_of(made.data)[0][0].size == (made.width, made.height)
    narrow = [noise(i) for i in range(12)]  # narrower than MIN_WIDTH: never shrunk
    budget = size_of(narrow, 2, recap.COLOURS[-1])
    assert size_of(narrow, 3, recap.COLOURS[-1]) > budget
    made = recap.animate(narrow, budget=budget)
    assert (made.frames, made.width) == (2, 400) and made.size <= budget


def test_wide_boards_are_scaled_to_the_largest_width_a_recap_needs() -> None:
    made = recap.animate(
        [flat((2 * recap.MAX_WIDTH, 100), (20, 120, 200)), flat((2 * recap.MAX_WIDTH, 50), (9, 9, 9))]
    )
    assert (made.width, made.height) == (recap.MAX_WIDTH, 50)


def test_a_budget_nothing_can_meet_is_refused() -> None:
    with pytest.raises(recap.RecapTooLarge):
        recap.animate([noise(1), noise(2), noise(3)], budget=1000)
    with pytest.raises(ValueError):
        recap.animate([])


# The longest seeded game of each game within the budget, every turn kept: tests/test_render_canvas.py
# (slow), on the posted boards with their captions.
