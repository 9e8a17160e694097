"""The Kathai renderer (render/kathai): images and text from views.

``sample_view`` builds hand-made views that follow ``engines.kathai.view.KathaiView`` exactly; it
covers layouts a random playout rarely reaches (five long names, a lock and an open offer with
every answer state at once, a full 7-card sale) and works while the engine is not there."""

from __future__ import annotations

import copy
import json
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from engines import base
from engines.kathai.data import GOODS
from engines.kathai.state import State
from engines.kathai.view import KathaiView
from render.common import PNG_LIMIT, WIDTH, to_png
from tests.kathai.helpers import (
    CARDS,
    LONG,
    check_text,
    kathai_engine,
    kathai_renderer,
    playout,
    sample_view,
    verb_first_pick,
)

GOLDEN = Path(__file__).parent.parent / "golden"


# --------------------------------------------------------------------------- helpers


def _registered() -> bool:
    try:
        base.get("kathai")
    except base.BadOption:
        return False
    return True


needs_engine = pytest.mark.skipif(not _registered(), reason="engine kathai not registered yet")


def _check_image(
    img: Image.Image, min_h: int = 300, png: bool = False, n: int | None = None, max_h: int = 1400
) -> None:
    """Mode and width; a board (``n`` given) exactly 1000 × board_height(n); PNG ≤ 120 KB."""
    assert img.mode == "RGB" and img.width == WIDTH
    if n is not None:
        assert img.size == (WIDTH, kathai_renderer().board_height(n)), img.size
    assert min_h <= img.height <= max_h, img.height
    if png:
        assert len(to_png(img)) <= PNG_LIMIT


# --------------------------------------------------------------------------- seeded playouts

PLAYOUTS = [
    (3, 3, {}),
    (4, 4, {}),
    (5, 5, {}),
    (4, 14, {"allow_gifts": True, "free_asking": True, "bribe_lock": "goods"}),
]


# --------------------------------------------------------------------------- golden image


def _diff(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    """(mean absolute difference per channel, fraction of pixels off by more than 64)."""
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    hist = diff.histogram()
    total = a.width * a.height
    mean = sum(i * c for k in range(3) for i, c in enumerate(hist[256 * k : 256 * (k + 1)])) / (total * 3)
    r, g, b = diff.split()
    worst = ImageChops.lighter(ImageChops.lighter(r, g), b)
    far = sum(worst.histogram()[65:])
    return mean, far / total


MAX_MEAN = 1.0
MAX_FAR = 0.001


def _close(a: Image.Image, b: Image.Image) -> tuple[bool, str]:
    if a.size != b.size:
        return False, f"size {a.size} != {b.size}"
    mean, far = _diff(a, b)
    return mean < MAX_MEAN and far < MAX_FAR, f"mean {mean:.3f}, {far:.3%} of pixels off by > 64"


GOLDEN_CASES: list[tuple[str, int, int, int, dict[str, Any]]] = [
    ("kathai_board_4p", 4, 4, 96, {})
]  # an `all` offer, a lock, a sale


def _golden_board(seed: int, n: int, moves: int, opts: dict[str, Any]) -> Image.Image:
    """The board after ``moves`` random moves, what the last one changed marked."""
    *_, before, state = playout(seed, n, opts, stop=moves)
    view = kathai_engine().view
    img: Image.Image = kathai_renderer().board(view(state, None), LONG[:n], view(before, None))
    return img


# --------------------------------------------------------------------------- what changed


def _public_steps(seed: int, n: int, stop: int | None = None) -> list[tuple[KathaiView, KathaiView]]:
    """(previous public view, public view) of every move of a seeded random playout."""
    engine = kathai_engine()
    views = [engine.view(s, None) for s in playout(seed, n, stop=stop)]
    return list(zip(views, views[1:], strict=False))


# --------------------------------------------------------------------------- the house rules (issue 21)


def _ai_game(seed: int, n: int) -> Iterator[tuple[State, KathaiView]]:
    """(state, public view) of every step of a seeded game the AI seats mostly play (60 %) with
    random moves between (so offers, locks, sales and the end all happen)."""
    engine = kathai_engine()
    rng = random.Random(seed)
    state = engine.setup(seed, n, {})
    yield state, engine.view(state, None)
    while engine.outcome(state) is None:
        seat = engine.to_move(state)[0]
        legal = engine.legal_actions(state, seat)
        action = (
            engine.choose(engine.view(state, seat), legal)
            if rng.random() < 0.6
            else verb_first_pick(rng, legal)
        )
        state, _ = engine.apply(state, seat, action)
        yield state, engine.view(state, None)


class _Spy:
    """Records every string ImageDraw draws, with its font size."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from PIL import ImageDraw

        self.drawn: list[tuple[str, int]] = []
        real = ImageDraw.ImageDraw.text

        def text(draw: Any, xy: Any, s: Any, fill: Any = None, font: Any = None, *a: Any, **kw: Any) -> None:
            self.drawn.append((str(s), int(getattr(font, "size", 0))))
            real(draw, xy, s, fill, font, *a, **kw)

        monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)

    def take(self) -> list[tuple[str, int]]:
        out, self.drawn = self.drawn, []
        return out


@needs_engine
@pytest.mark.parametrize("n,seed,opts", PLAYOUTS, ids=[f"{n}p-s{s}" for n, s, _ in PLAYOUTS])
def test_every_step_of_playouts_renders(n: int, seed: int, opts: dict[str, Any]) -> None:
    """Board and text (spectator view) and the awaited seats' hands at every step of a seeded
    game; every seat's hand and the PNG sizes every tenth step; the sheet at the end."""
    kathai = kathai_renderer()
    engine = kathai_engine()
    names = LONG[:n] if seed % 2 else None
    steps, offers, locks = 0, 0, 0
    previous = None
    for state in playout(seed, n, opts):
        spectator = engine.view(state, None)
        offers += bool(spectator["offer"])
        locks += bool(spectator["lock"])
        full = steps % 12 == 0
        _check_image(kathai.board(spectator, names, previous), png=full, n=n)
        previous = spectator
        check_text(kathai.text(spectator, names), names)
        for seat in range(n) if full else engine.to_move(state):
            mine = engine.view(state, seat)
            _check_image(kathai.hand(mine, names), png=full)
            check_text(kathai.text(mine, names), names)
        steps += 1
    assert engine.outcome(state) is not None and steps > 20
    assert offers and locks, "the playout should show offers and locks"
    final = engine.view(state, None)
    assert final["over"] and final["outcome"]
    sheet = kathai.score_sheet(final, names)
    _check_image(sheet, min_h=200, png=True)
    _check_image(kathai.board(final, names), png=True, n=n)
    t = kathai.text(final, names)
    check_text(t, names)
    assert "Result" in t
    for seat in range(n):
        _check_image(kathai.hand(engine.view(state, seat), names), png=True)


@needs_engine
def test_rendering_is_deterministic_and_pure() -> None:
    """Same view -> same bytes; rendering never changes the view; a JSON copy renders the same
    (the renderers read nothing but plain view data)."""
    kathai = kathai_renderer()
    engine = kathai_engine()
    states = list(playout(7, 4, stop=80))
    for state in (states[25], states[-1]):
        for viewer in (None, 0, 2):
            v = engine.view(state, viewer)
            before = json.dumps(v, sort_keys=True)
            clone = json.loads(before)
            if viewer is None:
                assert to_png(kathai.board(v)) == to_png(kathai.board(copy.deepcopy(clone)))
            else:
                assert to_png(kathai.hand(v)) == to_png(kathai.hand(clone))
            assert kathai.text(v) == kathai.text(clone)
            assert json.dumps(v, sort_keys=True) == before, "rendering changed the view"


@needs_engine
def test_hand_is_made_from_that_seats_view_only() -> None:
    """A seat's hand image depends on nothing but ``view(state, seat)``: it shows that seat's
    cards (and no other seat's), it is the same whatever the other seats hold, and a spectator
    view gives a short notice instead."""
    kathai = kathai_renderer()
    engine = kathai_engine()
    state = next(
        st for st in playout(4, 4) if engine.view(st, None)["offer"] and engine.view(st, None)["turn_no"] > 6
    )
    for seat in range(4):
        v = engine.view(state, seat)
        own = {c["id"] for c in v["me"]["hand"]}
        assert v["me"]["seat"] == seat
        text = kathai.text(v)
        others = set()
        for t in range(4):
            if t != seat:
                others |= {c["id"] for c in engine.view(state, t)["me"]["hand"]}
        shown = set(__import__("re").findall(r"\bt\d+\b", text))
        visible = own | set(v["discard_up"]) | {c for s in v["sales"] for c in s["cards"]}
        if v["offer"] and v["offer"]["give"]:
            visible |= {c["id"] for c in v["offer"]["give"]}
        assert shown <= visible, shown - visible
        assert own <= shown
        # everything outside this seat's view is irrelevant: scramble what the seat cannot see
        img = to_png(kathai.hand(v))
        assert img == to_png(kathai.hand(json.loads(json.dumps(v))))
    notice = kathai.hand(engine.view(state, None))
    assert notice.width == WIDTH and notice.height < 300


# --------------------------------------------------------------------------- hand-made views


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("kind", ["offer", "final", "over", "plain"])
def test_sample_views_every_layout(n: int, kind: str) -> None:
    """Edge cases a random game rarely shows: long names, every answer state of an `all`
    offer, a 7-card sale, final turns, a lock at each end of the row."""
    kathai = kathai_renderer()
    kw: dict[str, Any] = {
        "offer": dict(offer=True),
        "final": dict(final=True, offer=False),
        "over": dict(over=True),
        "plain": dict(offer=False, lock=False),
    }[kind]
    for seed, names in enumerate((LONG[:n], None, ["x" * 60] * n, ["Ann", "Anna", "Annie", "Ann", "A"][:n])):
        if True:
            v = sample_view(seed, n, sale_cards=7, **kw)
            _check_image(kathai.board(v, names), png=True, n=n)
            check_text(kathai.text(v, names))
            for viewer in range(n):
                mine = sample_view(seed, n, viewer=viewer, sale_cards=7, hand_size=7, **kw)
                _check_image(kathai.hand(mine, names), png=True)
                check_text(kathai.text(mine, names))
            _check_image(kathai.score_sheet(v, names), min_h=200, png=True)


def test_seat_initials_and_goods_shapes_tell_seats_and_goods_apart() -> None:
    """The second cues beside colour: the house seat initials (unique), and one picture shape
    per goods (five different shapes)."""
    from render.kathai.art import GOODS_SHAPE
    from render.kathai.layout import Ctx

    assert Ctx(sample_view(0, 3), ["Ann", "Bob", "Cy"]).tags == ["A", "B", "C"]
    assert len(set(Ctx(sample_view(0, 3), ["Ann", "Anna", "Bob"]).tags)) == 3
    assert set(GOODS_SHAPE) == set(GOODS) and len(set(GOODS_SHAPE.values())) == 5


def test_goods_pictures_differ_in_shape_not_only_colour() -> None:
    """Seen in grey (colour taken away), the five goods pictures still differ: their
    silhouettes (the pixels that are not transparent) overlap by less than 90 % (the coin and
    the salt block, a circle and a hexagon, are the closest: 89 %)."""
    from render.kathai.art import goods_icon

    masks = {g: goods_icon(g, 48).getchannel("A").point(lambda a: 255 if a > 128 else 0) for g in GOODS}
    for i, a in enumerate(GOODS):
        for b in GOODS[i + 1 :]:
            ma, mb = masks[a], masks[b]
            both = ImageChops.multiply(ma, mb).histogram()[255]
            either = ImageChops.lighter(ma, mb).histogram()[255]
            assert both / either < 0.9, (a, b, both / either)


@needs_engine
def test_card_data_matches_thekathai_engine() -> None:
    from engines.kathai import data
    from render.kathai.art import CARDS as RCARDS

    assert RCARDS == {k: dict(v) for k, v in data.CARDS.items()} == CARDS


@needs_engine
@pytest.mark.parametrize("name,seed,n,moves,opts", GOLDEN_CASES)
def test_golden_board(name: str, seed: int, n: int, moves: int, opts: dict[str, Any]) -> None:
    """A fixed seed, player count and number of random moves -> the stored board image.
    Regenerate with BAZAAR_UPDATE_GOLDEN=1 (the test then writes the file and skips)."""
    img = _golden_board(seed, n, moves, opts)
    path = GOLDEN / f"{name}.png"
    if os.environ.get("BAZAAR_UPDATE_GOLDEN") == "1":
        GOLDEN.mkdir(exist_ok=True)
        img.save(path, format="PNG", optimize=True)
        pytest.skip(f"wrote {path}")
    if not path.exists():
        pytest.skip(f"{path} not written yet: run with BAZAAR_UPDATE_GOLDEN=1")
    with Image.open(path) as golden:
        ok, why = _close(img, golden)
    assert ok, f"board differs from {path.name}: {why}"


@needs_engine
@pytest.mark.parametrize("name,seed,n,moves,opts", GOLDEN_CASES)
def test_golden_tolerance_sees_one_move(
    name: str, seed: int, n: int, moves: int, opts: dict[str, Any]
) -> None:
    """The tolerance is tight enough that the board one move earlier or later does not pass."""
    path = GOLDEN / f"{name}.png"
    if not path.exists():
        pytest.skip("golden image not written yet")
    with Image.open(path) as opened:
        want = opened.copy()
    for k in (moves - 1, moves + 1):
        ok, why = _close(_golden_board(seed, n, k, opts), want)
        assert not ok, f"the board after {k} moves passes as the golden one ({why})"


@needs_engine
def test_changes_name_the_sale_the_moved_goods_and_the_answers() -> None:
    from render.kathai import changes

    seen = set()
    for before, after in _public_steps(4, 4):
        marks = changes(before, after)
        assert changes(None, after) == frozenset()
        moved = {
            f"market:{a['pos']}"
            for a, b in zip(before["market"], after["market"], strict=False)
            if a["goods"] != b["goods"]
        }
        assert {m for m in marks if m.startswith("market:")} == moved
        if len(after["sales"]) > len(before["sales"]):
            assert after["last_sale"] is not None
            seller = after["last_sale"]["seat"]
            assert {"sale", f"score:{seller}"} <= marks and moved, marks
            seen.add("sale")
        elif before["offer"] and after["offer"] and before["offer"]["by"] == after["offer"]["by"]:
            for s in set(before["offer"]["awaiting"]) - set(after["offer"]["awaiting"]):
                assert f"answer:{s}" in marks
                seen.add("answer")
        for s, (p, q) in enumerate(zip(before["players"], after["players"], strict=False)):
            assert (f"hand:{s}" in marks) == (p["hand_size"] != q["hand_size"])
    assert seen == {"sale", "answer"}


@needs_engine
def test_the_board_marks_changes_only_with_a_previous_view() -> None:
    from render.common import MARK
    from render.kathai import changes

    def marked_pixels(img: Image.Image) -> int:
        return sum(k for k, colour in img.getcolors(1 << 24) or [] if colour == MARK)

    kathai = kathai_renderer()
    before, after = next((b, a) for b, a in _public_steps(4, 4) if "sale" in changes(b, a))
    bare, marked = kathai.board(after, LONG[:4]), kathai.board(after, LONG[:4], previous=before)
    assert marked_pixels(bare) < 400  # the legend's swatch of the mark
    assert marked_pixels(marked) > marked_pixels(bare) + 500
    assert to_png(kathai.board(after, LONG[:4], previous=after)) == to_png(bare)


@needs_engine
@pytest.mark.parametrize("n", [3, 4, 5])
def test_every_board_of_whole_games_has_the_fixed_size(n: int) -> None:
    """Every board of seeded whole games at each player count is 1000 × board_height(n), the
    same through the game; with the caption strip it is at most 1100 px tall; every 10th board
    and the last encode within 120 KB; the hands stay within 1100 px."""
    import render
    from render.caption import HEIGHT

    kathai = kathai_renderer()
    h = kathai.board_height(n)
    assert HEIGHT + h <= 1100 and render.canvas_height("kathai", n) == HEIGHT + h
    engine = kathai_engine()
    for seed in (1, 2):
        previous, k, state = None, 0, None
        for state, view in _ai_game(seed, n):
            img = kathai.board(view, LONG[:n] if seed % 2 else None, previous)
            assert img.size == (WIDTH, h), (seed, k, img.size)
            if k % 10 == 0:
                assert len(to_png(img)) <= PNG_LIMIT
                for s in engine.to_move(state):
                    assert kathai.hand(engine.view(state, s), LONG[:n]).height <= 1100
            previous, k = view, k + 1
        assert view["over"]
        assert len(to_png(kathai.board(view, LONG[:n], previous))) <= PNG_LIMIT


@needs_engine
def test_text_is_readable_numbers_large_and_nothing_to_decode(monkeypatch: pytest.MonkeyPatch) -> None:
    """Over a whole 5-player game: no text under 26 px anywhere (board, hand, sheet); every
    bare number (a count, price, score) at 34 px or more; no two-letter goods codes; card ids (t19) only
    in hands, where they are typed."""
    import re

    from render.common import MIN_TEXT, NUMBER_TEXT, clear_caches

    clear_caches()  # cached card faces would hide their text from the spy
    spy = _Spy(monkeypatch)
    kathai = kathai_renderer()
    engine = kathai_engine()
    previous = None
    hand_ids = 0
    for k, (state, view) in enumerate(_ai_game(3, 5)):
        kathai.board(view, LONG, previous)
        drawn = spy.take()
        assert all(size >= MIN_TEXT for _, size in drawn), min(drawn, key=lambda t: t[1])
        small = [(t, size) for t, size in drawn if re.fullmatch(r"[+−-]?\d+", t) and size < NUMBER_TEXT]
        assert not small, small
        assert not [t for t, _ in drawn if t.strip() in ("Go", "Sa", "Si", "Sp", "Te")]
        assert not [t for t, _ in drawn if re.search(r"\bt\d+\b", t)], "a card id on the board"
        if k % 7 == 0:
            for s in engine.to_move(state):
                kathai.hand(engine.view(state, s), LONG)
            drawn = spy.take()
            assert all(size >= MIN_TEXT for _, size in drawn)
            assert not [(t, z) for t, z in drawn if re.fullmatch(r"[+−-]?\d+", t) and z < NUMBER_TEXT]
            hand_ids += sum(1 for t, _ in drawn if re.fullmatch(r"t\d+", t))
        previous = view
    kathai.score_sheet(view, LONG)
    drawn = spy.take()
    assert all(size >= MIN_TEXT for _, size in drawn)
    assert not [(t, z) for t, z in drawn if re.fullmatch(r"[+−-]?\d+", t) and z < NUMBER_TEXT]
    assert hand_ids, "a hand shows its cards' ids (the player types them)"


@needs_engine
@pytest.mark.parametrize("n", [3, 5])
def test_the_end_comes_first_and_game_over_is_said_once(monkeypatch: pytest.MonkeyPatch, n: int) -> None:
    """The final sheet draws the ranking (every place and total, best first) before any sale;
    each final hand says the seat's place; the final board, each hand and the sheet say
    "game over" at most once."""
    from render.common import ordinal
    from render.kathai import sheet as sheet_mod

    kathai = kathai_renderer()
    engine = kathai_engine()
    *_, (state, view) = _ai_game(n, n)
    out = view["outcome"]
    assert out is not None
    calls: list[str] = []
    real_rank, real_sales = sheet_mod.draw_ranking, sheet_mod.draw_sales

    def ranking(*a: Any) -> int:
        calls.append("ranking")
        return real_rank(*a)

    def sales(*a: Any) -> int:
        calls.append("sales")
        return real_sales(*a)

    monkeypatch.setattr(sheet_mod, "draw_ranking", ranking)
    monkeypatch.setattr(sheet_mod, "draw_sales", sales)
    spy = _Spy(monkeypatch)
    kathai.score_sheet(view, LONG[:n])
    assert calls[0] == "ranking" and calls.count("ranking") == 1
    drawn = [t for t, _ in spy.take()]
    places = [t for t in drawn if t in {ordinal(r) for r in out["ranks"]}]
    assert places == [ordinal(r) for r in sorted(out["ranks"])]
    first_sale = next(i for i, t in enumerate(drawn) if t.startswith("Sales"))
    totals = [i for i, t in enumerate(drawn) if t.endswith(" pts")]
    assert len(totals) == n and max(totals) < first_sale
    assert sum("game over" in t.lower() for t in drawn) <= 1
    kathai.board(view, LONG[:n])
    assert sum("game over" in t.lower() for t, _ in spy.take()) == 1
    for s in range(n):
        kathai.hand(engine.view(state, s), LONG[:n])
        line = " | ".join(t for t, _ in spy.take())
        rank = out["ranks"][s]
        assert ("You won" in line) if rank == 1 and out["ranks"].count(1) == 1 else (ordinal(rank) in line)
        assert line.lower().count("game over") == 1


def test_the_variants_in_play_are_named_on_the_board(monkeypatch: pytest.MonkeyPatch) -> None:
    """Options that differ from the defaults are named on the offer line when no offer is open
    (the old footer's job, now inside the fixed canvas)."""
    spy = _Spy(monkeypatch)
    kathai = kathai_renderer()
    v = sample_view(3, 4, offer=False)
    v["options"] = {**v["options"], "free_asking": True, "allow_gifts": True}
    kathai.board(v)
    assert any("free asking, gifts" in t for t, _ in spy.take())
    kathai.board(sample_view(3, 4, offer=False))
    assert not any("free asking" in t for t, _ in spy.take())
