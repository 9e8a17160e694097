"""Phraya's pictures and text: every step renders, golden images, what changed, sizes."""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

import render
from engines import base
from engines.phraya.view.types import CardView, PhrayaView
from render import caption, frame, phraya
from render.common import SEAT_COLORS, WIDTH, seat_initials, to_png
from render.phraya import layout  # noqa: E402
from render.phraya.art import SEAT_FILL, seat_letters
from render.phraya.art.cards import card_lines, effect_short
from render.phraya.board import MAP_X, MAP_Y  # noqa: E402
from render.phraya.marks import changes  # noqa: E402
from tests.phraya.helpers import random_playout

GOLDEN = Path(__file__).parent.parent / "golden"


NAMES = ["Ann", "Bartholomew the Magnificent", "Cy", "Dora Delacroix-Montgomery"]


MAX_PNG = 120_000


def _registered() -> bool:
    try:
        base.get("phraya")
    except base.BadOption:
        return False
    return True


needs_engine = pytest.mark.skipif(not _registered(), reason="engine phraya not registered yet")


def _check_image(img: Image.Image, min_h: int = 150, max_h: int = 3200) -> None:
    assert img.mode == "RGB" and img.width == WIDTH
    assert min_h <= img.height <= max_h, img.height


def _check_board(img: Image.Image, n: int) -> None:
    """A board is exactly 1000 × board_height(n), one size through a game."""
    assert img.mode == "RGB" and img.size == (WIDTH, phraya.board_height(n)), img.size


def _check_extra(img: Image.Image, n: int) -> None:
    assert img.mode == "RGB" and img.size == (WIDTH, phraya.extra_height(n)), img.size


def _check_text(s: str, names: list[str] | None) -> None:
    assert s.strip(), "empty text"
    assert "{s" not in s, "an unreplaced seat token"
    assert len(s) <= 1900, len(s)
    if names:
        assert names[0] in s


# (players, options, seed). Short round limits keep every-step rendering fast; the games still
# end and are scored (docs/rules/phraya.md#final-sale).
PLAYOUTS = [
    (2, {"round_limit": 4}, 1),
    (3, {"round_limit": 3, "layout": "random", "open_baskets": True}, 2),
    (4, {"round_limit": 3, "hidden_hands": True, "starting_boats": True}, 3),
]


def _diff(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    """(mean absolute difference per channel, fraction of pixels off by more than 64)."""
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    hist = diff.histogram()
    total = a.width * a.height
    mean = sum(i * c for k in range(3) for i, c in enumerate(hist[256 * k : 256 * (k + 1)])) / (total * 3)
    r, g, bl = diff.split()
    worst = ImageChops.lighter(ImageChops.lighter(r, g), bl)
    return mean, sum(worst.histogram()[65:]) / total


def _close(a: Image.Image, b: Image.Image) -> tuple[bool, str]:
    if a.size != b.size:
        return False, f"size {a.size} != {b.size}"
    mean, far = _diff(a, b)
    return mean < 1.0 and far < 0.001, f"mean {mean:.3f}, {far:.3%} of pixels off by > 64"


GOLDEN_CASE = ("phraya_board_3p", 7, 3, 90)


def _golden_board(seed: int, n: int, moves: int) -> Image.Image:
    state = list(random_playout(seed, n, stop=moves))[-1]
    return phraya.board(base.get("phraya").view(state, None), NAMES[:n])


def _golden_extra(seed: int, n: int, moves: int) -> Image.Image:
    states = list(random_playout(seed, n, stop=moves))
    engine = base.get("phraya")
    return phraya.extra(engine.view(states[-1], None), NAMES[:n], previous=engine.view(states[-2], None))


def _steps(seed: int, n: int, stop: int) -> Iterator[tuple[PhrayaView | None, PhrayaView]]:
    """(previous public view, public view) after each move of a seeded playout."""
    engine = base.get("phraya")
    prev = None
    for state in random_playout(seed, n, stop=stop):
        v = engine.view(state, None)
        if prev is not None:
            yield prev, v
        prev = v


def _far(a: Image.Image, b: Image.Image) -> int:
    """How many pixels differ by more than 64 in some channel."""
    r, g, bl = ImageChops.difference(a, b).split()
    worst = ImageChops.lighter(ImageChops.lighter(r, g), bl)
    return sum(worst.histogram()[65:])


WHOLE_GAMES = [(2, 11), (3, 12), (4, 13)]


def _drawn_texts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    from PIL import ImageDraw

    drawn: list[str] = []
    real = ImageDraw.ImageDraw.text

    def spy(self: Any, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        drawn.append(str(text))
        return real(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    return drawn


@needs_engine
@pytest.mark.parametrize("n,opts,seed", PLAYOUTS, ids=[f"{n}p" for n, _, _ in PLAYOUTS])
def test_every_step_of_playouts_renders(n: int, opts: dict[str, object], seed: int) -> None:
    engine = base.get("phraya")
    names = NAMES[:n] if seed % 2 else None
    steps = set()
    state = None
    for k, state in enumerate(random_playout(seed, n, opts)):
        public = engine.view(state, None)
        steps.add(public["step"])
        img = phraya.board(public, names)
        _check_board(img, n)
        if k % 7 == 0:
            assert len(to_png(img)) <= MAX_PNG
            extra = phraya.extra(public, names)
            _check_extra(extra, n)
            assert extra is not None and len(to_png(extra)) <= MAX_PNG
        _check_text(phraya.text(public, names), names)
        for seat in engine.to_move(state):
            mine = engine.view(state, seat)
            _check_image(phraya.hand(mine, names))
            _check_text(phraya.text(mine, names), names)
    assert {"setup_boat", "setup_stall", "card", "move", "act", "over"} <= steps
    final = engine.view(state, None)
    assert final["over"] and final["totals"]
    sheet = phraya.score_sheet(final, names)
    _check_image(sheet, 400, 1400)
    assert len(to_png(sheet)) <= MAX_PNG
    _check_text(phraya.text(final, names), names)
    assert "Result" in phraya.text(final, names)
    for seat in range(n):
        mine = engine.view(state, seat)
        _check_image(phraya.hand(mine, names))
        _check_image(phraya.score_sheet(mine, names), 400, 1400)


@needs_engine
def test_a_whole_game_renders_at_intervals_and_ends_with_a_sheet() -> None:
    """A full 3-player game without a round limit: every 25th step and the end."""
    engine = base.get("phraya")
    states = list(random_playout(4, 3))
    assert engine.outcome(states[-1]) is not None
    worst = 0
    for state in states[::25] + states[-3:]:
        v = engine.view(state, None)
        img = phraya.board(v, NAMES[:3])
        _check_board(img, 3)
        worst = max(worst, len(to_png(img)))
        _check_text(phraya.text(v, NAMES[:3]), NAMES[:3])
    assert worst <= MAX_PNG, worst
    final = engine.view(states[-1], None)
    sheet = phraya.score_sheet(final, NAMES[:3])
    _check_image(sheet, 400, 1400)


@needs_engine
def test_board_uses_only_the_public_view() -> None:
    """The board of a spectator view equals the board of the same view carrying a seat's
    private part, and rendering changes nothing in the view."""
    engine = base.get("phraya")
    state = list(random_playout(5, 3, stop=40))[-1]
    public = engine.view(state, None)
    assert public["me"] is None and public["viewer"] is None
    before = json.dumps(public, sort_keys=True)
    seat = engine.to_move(state)[0]
    leaky = copy.deepcopy(public)
    leaky["me"] = engine.view(state, seat)["me"]
    a, b = phraya.board(public, NAMES), phraya.board(leaky, NAMES)
    assert ImageChops.difference(a, b).getbbox() is None
    a, b = phraya.extra(public, NAMES), phraya.extra(leaky, NAMES)  # the second picture too
    assert ImageChops.difference(a, b).getbbox() is None
    assert json.dumps(public, sort_keys=True) == before, "rendering changed the view"
    notice = phraya.hand(public)  # a spectator has no hand: a short notice, not an error
    assert notice.width == WIDTH and notice.height < 300


@needs_engine
def test_hand_text_lists_the_legal_moves_and_names() -> None:
    engine = base.get("phraya")
    for stop in (6, 30, 55):
        state = list(random_playout(9, 3, stop=stop))[-1]
        seat = engine.to_move(state)[0]
        v = engine.view(state, seat)
        t = phraya.text(v, ["Ann", "Bob", "Cleo"])
        _check_text(t, ["Ann"])
        for a in v["me"]["legal"]:
            assert f"`{a}`" in t
    # missing names: seats are "Seat N" and letters fall back to the colour initials
    t2 = phraya.text(v, ["Ann"])
    assert "Seat 2" in t2 and "Seat 3" in t2


@needs_engine
def test_rendering_is_deterministic() -> None:
    engine = base.get("phraya")
    state = list(random_playout(2, 4, stop=60))[-1]
    v = engine.view(state, None)
    assert to_png(phraya.board(copy.deepcopy(v), NAMES)) == to_png(phraya.board(v, NAMES))
    seat = engine.to_move(state)[0]
    mine = engine.view(state, seat)
    assert to_png(phraya.hand(copy.deepcopy(mine), NAMES)) == to_png(phraya.hand(mine, NAMES))
    assert phraya.text(copy.deepcopy(mine), NAMES) == phraya.text(mine, NAMES)


@needs_engine
def test_movement_step_marks_the_reachable_sections_in_the_text() -> None:
    engine = base.get("phraya")
    for state in random_playout(6, 2):
        v = engine.view(state, None)
        if v["step"] == "move" and v["reachable"]:
            t = phraya.text(v)
            assert "Can reach: " + " ".join(v["reachable"]) in t
            break
    else:
        pytest.fail("no movement step reached")


@needs_engine
def test_step_marks_are_drawn_from_the_view() -> None:
    """Reachable sections (MOVE) and barge targets (BARGE) change the picture; without them the
    same position draws without marks."""
    engine = base.get("phraya")
    seen = set()
    for state in random_playout(3, 4, {"round_limit": 4}):
        v = engine.view(state, None)
        key = {"move": "reachable", "barge": "barge_targets"}.get(v["step"])
        if key is None or not v[key] or v["step"] in seen:
            continue
        seen.add(v["step"])
        bare = copy.deepcopy(v)
        bare[key] = []
        assert ImageChops.difference(phraya.board(v), phraya.board(bare)).getbbox() is not None
    assert seen == {"move", "barge"}


@needs_engine
def test_the_rulebook_scoring_example_renders() -> None:
    """docs/rules/phraya.md#example-e2 (the rulebook's 85 VP example): a dense finished board, its
    sheet and text."""
    from engines.phraya.apply.ending import finish
    from engines.phraya.positions import SEAT, build, seats

    P, O, W, B = (SEAT[c] for c in "POWB")  # noqa: E741 (the seats as the rules write them)
    king = {
        f"{row}{i + 1}": q
        for row, text in (("c", "O W P O W B"), ("f", "O W"), ("g", "O W P"))
        for i, q in enumerate(seats(text))
    }
    owners = {
        "h00s": O,
        "h03s": O,
        "h02n": O,
        "h12n": W,
        "v03w": W,
        "h11n": W,
        "h20n": W,
        "h12s": P,
        "h01n": P,
        "h22s": B,
        "v02e": B,
        "h11s": B,
        "h23n": B,
    }
    s = build(
        4,
        owners=owners,
        king=king,
        prices={"fish": 7},
        temple={
            "meat": seats("O W P O W B P -"),
            "fruit": seats("O B P O W"),
            "veg": seats("O W B W"),
            "fish": [],
        },
        players={
            O: {
                "coins": 3,
                "goods": {"fish": 2},
                "baskets": ("p1", "p2", "k16"),
                "orders": ("r1a", "r3a", "r3e"),
                "hand": ("b1", "b2", "b3", "b4", "b5", "m01", "m22", "m03"),
            },
            P: {"coins": 0},
            W: {"coins": 0},
            B: {"coins": 0},
        },
        boats={P: "h00", O: "h03", W: "h20", B: "h23"},
    )
    s = finish(s, [], "Royal Tithe and Buddha worshipped")
    names = ["Pat", "Olga", "Wen", "Bea"]
    v = base.get("phraya").view(s, None)
    img = phraya.board(v, names)
    _check_board(img, 4)
    assert len(to_png(img)) <= MAX_PNG
    extra = phraya.extra(v, names)
    _check_extra(extra, 4)
    assert len(to_png(extra)) <= MAX_PNG
    _check_image(phraya.score_sheet(v, names), 400, 1400)
    t = phraya.text(v, names)
    _check_text(t, names)
    assert "1st Olga 85" in t and "2nd Wen 58" in t


def test_seats_use_the_house_palette_and_initials() -> None:
    """Phraya's seats look as in every game: the shared colours (no white seat on the cream
    paper) and the shared initials."""
    assert seat_letters(["Ann", "Bob", "Cy"], 3) == ["A", "B", "C"] == seat_initials(["Ann", "Bob", "Cy"])
    assert seat_letters(["Ann", "Al", "Cy"], 3) == seat_initials(["Ann", "Al", "Cy"])
    assert tuple(SEAT_FILL) == tuple(SEAT_COLORS)
    assert all(min(c) < 200 for c in SEAT_FILL[:4]), "a seat as light as white"


def test_card_effects_in_short_words() -> None:
    assert effect_short("mer 1-2 +2/-2") == "Merchant 1–2: +2/−2"
    assert effect_short("barge 1-1 1fl") == "Barge 1, bless 1 flower"
    assert effect_short("3/veg-stall") == "3 VP/veg stall"
    card = CardView(
        id="m00",
        name="",
        coins=0,
        flowers=0,
        text="",
        immediate=["coins 2"],
        passive=["stall5"],
        endgame=["2/king"],
    )
    assert card_lines(card) == [
        "+2 coins",
        "Turn: Admin stall 5 coins",
        "End: 2 VP/King disk",
    ]


@needs_engine
@pytest.mark.parametrize("which", ["board", "extra"])
def test_golden_board(which: str) -> None:
    """A fixed seed and number of random moves -> the stored board and second picture.
    Regenerate with BAZAAR_UPDATE_GOLDEN=1 (the test then writes the file and skips)."""
    name, seed, n, moves = GOLDEN_CASE
    if which == "board":
        img = _golden_board(seed, n, moves)
    else:
        img, name = _golden_extra(seed, n, moves), name.replace("board", "extra")
    path = GOLDEN / f"{name}.png"
    if os.environ.get("BAZAAR_UPDATE_GOLDEN") == "1":
        GOLDEN.mkdir(exist_ok=True)
        img.save(path, format="PNG", optimize=True)
        pytest.skip(f"wrote {path}")
    assert path.exists(), f"{path} is missing: run with BAZAAR_UPDATE_GOLDEN=1"
    with Image.open(path) as golden:
        ok, why = _close(img, golden)
    assert ok, f"{which} differs from {path.name}: {why}"


@needs_engine
def test_golden_tolerance_sees_one_move() -> None:
    name, seed, n, moves = GOLDEN_CASE
    path = GOLDEN / f"{name}.png"
    if not path.exists():
        pytest.skip("golden image not written yet")
    with Image.open(path) as opened:
        want = opened.copy()
    for k in (moves - 1, moves + 1):
        ok, why = _close(_golden_board(seed, n, k), want)
        assert not ok, f"the board after {k} moves passes as the golden one ({why})"


@needs_engine
def test_changes_follow_the_public_views_and_are_empty_without_previous() -> None:
    seen = set()
    for prev, v in _steps(3, 4, 160):
        assert prev is not None
        ch = changes(prev, v)
        assert not changes(None, v) and not changes(v, v)
        moved = {b for a, b in zip(prev["boats"], v["boats"], strict=True) if b and a != b}
        assert ch.boats == moved
        assert ch.barge == (prev["barge"] != v["barge"])
        for g in v["prices"]:
            assert (g in ch.prices) == (prev["prices"][g]["index"] != v["prices"][g]["index"])
        for p, q in zip(prev["players"], v["players"], strict=True):
            assert ("coins" in ch.players.get(q["seat"], ())) == (p["coins"] != q["coins"])
        seen |= {
            k for k in ("boats", "barge", "stalls", "prices", "temple", "king", "players") if getattr(ch, k)
        }
    assert {"boats", "stalls", "players"} <= seen, seen


@needs_engine
def test_the_board_rings_the_section_a_boat_moved_to_only_with_previous() -> None:
    prev, v = next((p, q) for p, q in _steps(5, 4, 200) if changes(p, q).boats)
    sec = sorted(changes(prev, v).boats)[0]
    plain, marked = phraya.board(v), phraya.board(v, previous=prev)
    assert plain.size == marked.size  # one size, marks or not
    x0, y0, x1, y1 = layout.section_box(sec, MAP_X, MAP_Y)
    box = (x0 - 4, y0 - 4, x1 + 4, y1 + 4)
    assert _far(plain.crop(box), marked.crop(box)) > 200  # the mark: hundreds of pixels turn magenta
    assert to_png(phraya.board(v, previous=None)) == to_png(plain)
    header = (0, 0, WIDTH, 64)  # untouched
    assert _far(plain.crop(header), marked.crop(header)) == 0


@needs_engine
def test_late_four_player_boards_fit_the_limit_at_zlib_level_1() -> None:
    """The posted board (caption and marks included) fits 120,000 bytes at zlib level 1, the
    fastest ``to_png`` tries, so no board pays for a second encoding."""
    import io

    import render
    from render.common import PNG_LIMIT, palette_image

    engine = base.get("phraya")
    steps = []
    for seed in (0, 1):
        prev = None
        states = list(random_playout(seed, 4))
        for state in states[int(0.6 * len(states)) : int(0.95 * len(states)) : 12]:
            v = engine.view(state, None)
            steps.append((v, prev))
            prev = v
    sizes = []
    for v, prev in steps:
        img = render.board_image("phraya", v, NAMES[:4], caption=["Asha moves 2 sections."], previous=prev)
        buf = io.BytesIO()
        palette_image(img).save(buf, format="PNG", compress_level=1)
        sizes.append(buf.tell())
    assert max(sizes) <= PNG_LIMIT, sorted(sizes)[-3:]


@needs_engine
def test_static_layers_have_the_pixels_of_drawing_in_place(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every layer pasted from the stamp cache (warm, after other boards of the game filled it)
    has the pixels of drawing it in place: a layer drawing outside its box, or a key missing a
    value the layer shows, would show here."""
    from PIL import ImageDraw

    import render
    from render.common import clear_caches
    from render.phraya.art import layers

    engine = base.get("phraya")
    boards = []
    for seed, n in ((2, 4), (3, 3)):
        states = list(random_playout(seed, n))
        prev = None
        for state in states[:: max(1, len(states) // 12)] + states[-1:]:
            v = engine.view(state, None)
            boards.append((n, v, prev))
            prev = v
    clear_caches()

    def both(n: int, v: PhrayaView, p: PhrayaView | None) -> tuple[Image.Image, Image.Image]:
        a, b = render.board_images("phraya", v, NAMES[:n], previous=p)
        return a, b

    stamped = [im for n, v, p in boards for im in both(n, v, p)]
    stamped += [im for n, v, p in boards for im in both(n, v, p)]  # warm

    def in_place(img: Any, box: Any, key: Any, draw: Any) -> None:
        draw(img, ImageDraw.Draw(img), box[0], box[1])

    monkeypatch.setattr(layers, "stamp", in_place)
    plain = [im for n, v, p in boards for im in both(n, v, p)]
    for a, b in zip(stamped, plain + plain, strict=True):
        assert a.size == b.size and a.tobytes() == b.tobytes()


@needs_engine
@pytest.mark.parametrize("n,seed", WHOLE_GAMES, ids=[f"{n}p" for n, _ in WHOLE_GAMES])
def test_every_board_of_a_whole_game_keeps_one_size(n: int, seed: int) -> None:
    """Every posted board of a seeded whole game (no round limit) is exactly 1000 ×
    (caption + board_height(n)) ≤ 1100, every second picture 1000 × extra_height(n) ≤ 1100,
    both in one size through the game; the PNGs stay within 120,000 bytes; the text of all of
    them is at least MIN_TEXT px (``font`` refuses smaller, so drawing them checks it)."""
    engine = base.get("phraya")
    names = NAMES[:n]
    assert caption.HEIGHT + phraya.board_height(n) <= frame.MAX_HEIGHT
    assert phraya.extra_height(n) <= frame.MAX_HEIGHT
    assert render.canvas_height("phraya", n) == caption.HEIGHT + phraya.board_height(n)
    prev = None
    sizes = set()
    states = list(random_playout(seed, n))
    assert engine.outcome(states[-1]) is not None
    for k, state in enumerate(states):
        v = engine.view(state, None)
        lines = [f"{names[0]} moves v00 → h01."] * (k % 4)
        last = k == len(states) - 1
        board = render.board_image("phraya", v, names, caption=lines, previous=prev)
        sizes.add(("board", board.size))
        if k % 4 == 0 or last:  # the second picture's canvas is made at its size: a sample
            extra = render.extra_image("phraya", v, names, previous=prev)
            assert extra is not None
            sizes.add(("extra", extra.size))
        if k % 12 == 0 or last:
            assert len(to_png(board)) <= MAX_PNG
            assert extra is not None and len(to_png(extra)) <= MAX_PNG
        prev = v
    want = {("board", (WIDTH, render.canvas_height("phraya", n))), ("extra", (WIDTH, phraya.extra_height(n)))}
    assert sizes == want, sizes


@needs_engine
def test_numbers_a_player_decides_by_are_drawn_at_34_px_or_more(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every number drawn in ink on the board and the second picture (prices, order coins and
    VP, basket prices, King and Temple costs, supply, the players' counts, scores) is at least
    NUMBER_TEXT px; only muted reference numbers (the price ladder's other steps) are smaller,
    and nothing is under MIN_TEXT."""
    import re

    from PIL import ImageDraw

    from render.common import INK, MIN_TEXT, MUTED, NUMBER_TEXT, clear_caches

    drawn = []
    real = ImageDraw.ImageDraw.text

    def spy(
        self: Any, xy: Any, text: Any, fill: Any = None, font: Any = None, *args: Any, **kwargs: Any
    ) -> None:
        drawn.append((str(text), getattr(font, "size", 0), fill))
        return real(self, xy, text, fill, font, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", spy)
    engine = base.get("phraya")
    states = list(random_playout(8, 4, stop=160))
    prev = engine.view(states[-2], None)
    v = engine.view(states[-1], None)
    clear_caches()
    phraya.board(v, NAMES, previous=prev)
    phraya.extra(v, NAMES, previous=prev)
    number = re.compile(r"^[−+-]?\d+( VP)?$")
    numbers = [(t, size, fill) for t, size, fill in drawn if number.match(t)]
    assert len(numbers) > 60, len(numbers)
    small = [(t, size) for t, size, fill in numbers if size < NUMBER_TEXT and fill != MUTED]
    assert not small, small
    assert all(size >= MIN_TEXT for _, size, _ in drawn)
    assert any(fill == INK for _, _, fill in numbers)


@needs_engine
def test_the_end_comes_first_and_says_game_over_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The final sheet draws the ranking with every total before any category; each final hand
    (picture and text) says the seat's place; "game over" is said once at most in each."""
    from render.common import clear_caches

    engine = base.get("phraya")
    state = list(random_playout(1, 3, {"round_limit": 3}))[-1]
    names = NAMES[:3]
    final = engine.view(state, None)
    order = sorted(range(3), key=lambda q: (final["ranks"][q], q))
    drawn = _drawn_texts(monkeypatch)
    clear_caches()
    phraya.score_sheet(final, names)
    first_category = next(i for i, t in enumerate(drawn) if t == "Temple offerings")
    totals = [drawn.index(f"{final['totals'][q]} VP".replace("-", "−")) for q in order]
    assert totals == sorted(totals) and max(totals) < first_category, drawn[:20]
    assert sum("game over" in t.lower() for t in drawn) <= 1
    for seat in range(3):
        drawn.clear()
        mine = engine.view(state, seat)
        phraya.hand(mine, names)
        place = [t for t in drawn if t.startswith("You finished")]
        assert place and ("win" in place[0]) == (final["ranks"][seat] == 1), place
        assert sum("game over" in t.lower() for t in drawn) <= 1, drawn
        t = phraya.text(mine, names)
        assert "You finished" in t and t.lower().count("game over") <= 1, t


def test_the_header_label_gives_way_to_the_seat_chip() -> None:
    """A long step label loses its last parts (then letters) so that the title, the stage and
    the chip of a long name keep their room; a short one stays whole."""
    from render.common import MIN_TEXT, font, text_width
    from render.phraya.board import _fit_label

    long = "moves 1–3 sections · Grand Procession · King here"
    cut = _fit_label(long, "Round 12 of 50", None, ["Bartholomew the Magnificent"])
    assert long.startswith(cut.rstrip("…")) and cut != long
    assert text_width(cut, font(MIN_TEXT)) <= 1000 - 20 - 150 - 230 - 200
    assert _fit_label("trades", "Round 2 of 50", None, ["Ann"]) == "trades"
