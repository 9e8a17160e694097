"""The caption strip (render/caption.py): one line per player action leading with who did what,
what the game did by itself folded into one line after, never the header's announcement, and
when it must be shortened the game's own lines go first, never a player's move."""

from __future__ import annotations

from typing import Any

from bot.offline.demo import DEMO_NAMES, ai_game
from engines import base
from render import caption
from render.caption import Line, caption_lines, lines_of, shown_lines, step_lines, strip

E = base.Event
NAMES = ["Asha", "Bilal", "Chen"]


def test_the_first_event_is_the_action_and_the_rest_the_games_own_folded_into_one_line() -> None:
    events = [
        E("buy", "{s1} buys Dhoni 4 and escapes", {"seat": 1}),
        E("refill", "b3 refilled: Urn"),
        E("refill", "b4 refilled: Ocean"),
        E("turn", "Round 3 · {s2}'s turn"),
    ]
    assert step_lines(1, events, NAMES) == [
        Line("Bilal buys Dhoni 4 and escapes", 1, who="Bilal"),
        Line("b3 refilled: Urn · b4 refilled: Ocean"),
    ]


def test_the_announcement_of_the_next_turn_or_round_is_left_to_the_header() -> None:
    events = [
        E("end", "{s0} ends the turn."),
        E("round", "Round 2: {s1} starts."),
        E("turn", "Turn 3: {s1} to play."),
    ]
    assert [ln.text for ln in step_lines(0, events, NAMES)] == ["Asha ends the turn."]


def test_a_private_action_shows_its_public_twin_and_a_private_draw_stays_hidden() -> None:
    offer = E(
        "offer", "{s0} offers t12 (2 gold)", private_to=frozenset({0}), twin=E("offer", "{s0} offers 1 card")
    )
    draw = E("draw", "{s0} draws t24", private_to=0)  # no twin: nobody else sees it
    lines = step_lines(
        0, [offer, draw, E("x", "{s0} draws a card", private_to=1, twin=E("x", "{s0} draws a card"))], NAMES
    )
    assert lines == [Line("Asha offers 1 card", 0, who="Asha"), Line("Asha draws a card")]
    assert step_lines(0, [draw], NAMES) == []  # an action nobody else sees has no line


def test_the_setup_and_consecutive_lines_of_the_games_own_fold_into_one() -> None:
    steps = [
        (None, [E("setup", "Coins dealt")]),
        (0, [E("pass", "{s0} passes"), E("win", "{s1} wins")]),
        (1, [E("draw", "{s1} draws", private_to=1)]),
        (1, [E("bid", "{s1} bids 3")]),
    ]
    assert [(ln.text, ln.by) for ln in lines_of(steps, NAMES)] == [
        ("Coins dealt", None),
        ("Asha passes", 0),
        ("Bilal wins", None),
        ("Bilal bids 3", 1),
    ]
    steps = [
        (0, [E("a", "{s0} ends"), E("r", "a1 refilled")]),
        (1, [E("d", "{s1} draws", private_to=1), E("r", "a2 refilled")]),
    ]
    assert [ln.text for ln in lines_of(steps, NAMES)] == ["Asha ends", "a1 refilled · a2 refilled"]


def test_lines_that_fit_are_shown_as_they_are_and_the_games_own_muted() -> None:
    lines = [Line("Asha takes b2", 0, who="Asha"), Line("b2 refilled: Ocean")]
    assert shown_lines(lines, 1000) == [("Asha takes b2", False), ("b2 refilled: Ocean", True)]
    assert caption_lines(["**Asha** takes `b2`"], 1000) == ["Asha takes b2"]  # plain strings: actions


def test_shortening_packs_actions_then_drops_the_games_own_never_a_move() -> None:
    moves = [Line(f"Bilal takes b{i} (Silver Coin)", 1, who="Bilal") for i in range(1, 4)]
    buy = Line("Bilal buys Dhoni 4 with 2 silver and escapes", 1, who="Bilal")
    refills = Line("b1 refilled: Shattered Urn · b2 refilled: Ocean · b3 refilled: Fossil")
    shown = caption_lines([*moves, buy, refills], 1000)
    assert len(shown) <= caption.MAX_LINES
    text = " ".join(shown)
    for i in range(1, 4):
        assert f"takes b{i}" in text
    assert "buys Dhoni 4" in text and text.count("Bilal") <= 2  # a seat's name once per packed line
    # with more actions than fit packed, the refills go before any action does
    many = [
        Line(f"Asha moves her boat from the northern canal to section h{i}", 0, who="Asha") for i in range(3)
    ]
    shown = caption_lines([*many, refills], 1000)
    assert not any("refilled" in s for s in shown) and all(any(f"h{i}" in s for s in shown) for i in range(3))


def test_when_even_the_actions_do_not_fit_the_newest_stay_and_the_others_are_counted() -> None:
    long = [
        Line(f"Chen moves the boat a long way down the canal called number {i} today", 2, who="Chen")
        for i in range(8)
    ]
    shown = caption_lines([*long, Line("a refill")], 1000)
    assert len(shown) == caption.MAX_LINES and shown[0].startswith("… and ")
    assert "number 7" in " ".join(shown[1:])
    kept = sum(f"number {i} " in " ".join(shown) for i in range(8))
    assert shown[0] == f"… and {8 - kept} earlier"


def test_the_strip_has_one_height_whatever_it_holds() -> None:
    for lines in ([], ["Asha passes"], [Line(f"Asha moves {i} " * 9, 0) for i in range(9)]):
        assert strip(lines, 1000).size == (1000, caption.HEIGHT)


def test_in_a_real_game_every_move_of_a_turn_is_shown_and_never_the_header() -> None:
    """Pralaya seed 1 at 3 players: the turn where Bilal buys a Dhoni and escapes (after two
    takes) shows his takes and the buy, not only the refills that followed, and no caption
    repeats the next turn's announcement (the board's header)."""
    engine = base.get("pralaya")
    names = DEMO_NAMES[:3]
    turns: list[list[tuple[int, list[base.Event]]]] = [[]]

    def on_step(state: Any, seat: int, action: str, events: list[base.Event]) -> None:
        turns[-1].append((seat, events))
        if seat not in engine.to_move(state):
            turns.append([])

    ai_game(engine, 1, 3, None, on_step)
    escape = next(
        t
        for t in turns
        if any("escapes" in ev.text and ev.data.get("seat") == 1 for _, evs in t for ev in evs)
    )
    shown = " ".join(caption_lines(lines_of(escape, names), 1000))
    assert "Bilal buys" in shown and "escapes" in shown and "takes" in shown
    for turn in turns:
        for ln in caption_lines(lines_of(turn, names), 1000):
            assert "'s turn" not in ln, ln


def test_a_recap_strip_keeps_few_tones_of_ink_and_the_same_text() -> None:
    lines = [Line("Asha plays m02 (Vegetable Guild).", 0), Line("b1 refilled · b2 refilled")]
    smooth, few = strip(lines, 1000), strip(lines, 1000, tones=4)
    few_colours, smooth_colours = few.getcolors(10_000), smooth.getcolors(10_000)
    assert few_colours is not None and smooth_colours is not None
    assert len(few_colours) <= 2 + 2 * 3 < len(smooth_colours)  # bg, rule, 3 levels of 2 inks
    assert few.size == smooth.size
    # the same letters where they are: the ink's full-strength pixels agree
    dark = [i for i, px in enumerate(smooth.convert("L").tobytes()) if px < 60]
    few_l = few.convert("L").tobytes()
    assert dark and all(few_l[i] < 90 for i in dark)
